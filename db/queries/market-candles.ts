/**
 * The `market_candles` table (migration 0001): the broker's complete candles, stored once per
 * environment, instrument, granularity and start time (app/services/broker/market-data.server.ts reads
 * them for the AI). Its statements live here (issue 23 item 2). Prices are numeric (decimal text).
 */
import type { Environment } from "../../core/broker/port";
import type { Sql } from "./sql";

/** A stored candle as the reads return it. */
export interface CandleRow {
  time: Date;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: number;
}

/** A candle to insert. */
export interface CandleInsert extends CandleRow {
  environment: Environment;
  instrument: string;
  granularity: string;
}

/** One series to read: its candles up to the one starting at `lastClosedStart`. */
export interface CandleSeries {
  instrument: string;
  granularity: string;
  lastClosedStart: Date;
}

/** The newest stored candle's start of each series of `instruments` × `granularities` that has one. */
export function latestCandleTimes(sql: Sql, environment: Environment, instruments: readonly string[], granularities: readonly string[]) {
  return sql<{ instrument: string; granularity: string; time: Date }[]>`
    select instrument, granularity, max(time) as time from market_candles
    where environment = ${environment} and instrument = any(${instruments as string[]}) and granularity = any(${granularities as string[]})
    group by instrument, granularity`;
}

/**
 * Stores candles (one already stored is kept), in one statement of nine array parameters whatever the number of
 * rows: a multi-row VALUES list took nine parameters per candle, and 8 pairs × 4 timeframes × 251 candles
 * (an empty store, or the top of the hour when M5…H1 close together) passed PostgreSQL's 65,535 and failed
 * every such tick with MAX_PARAMETERS_EXCEEDED (issue 24, found by the realistic bench:bots). ADR 0032's unnest.
 */
export async function insertCandles(sql: Sql, rows: readonly CandleInsert[]): Promise<void> {
  const col = <K extends keyof CandleInsert>(k: K) => rows.map((r) => r[k]);
  await sql`insert into market_candles (environment, instrument, granularity, time, open, high, low, close, volume)
    select * from unnest(${col("environment") as string[]}::text[], ${col("instrument")}::text[], ${col("granularity")}::text[],
      ${rows.map((r) => r.time.toISOString())}::timestamptz[], ${col("open")}::numeric[], ${col("high")}::numeric[], ${col("low")}::numeric[],
      ${col("close")}::numeric[], ${col("volume")}::int[])
    on conflict (environment, instrument, granularity, time) do nothing`;
}

/** The newest `count` stored candles of each series up to its last closed one (any order), in one statement. */
export function seriesCandles(sql: Sql, environment: Environment, series: readonly CandleSeries[], count: number) {
  return sql<(CandleRow & { instrument: string; granularity: string })[]>`
    select k.instrument, k.granularity, c.time, c.open, c.high, c.low, c.close, c.volume
    from unnest(${series.map((x) => x.instrument)}::text[], ${series.map((x) => x.granularity)}::text[], ${series.map((x) => x.lastClosedStart.toISOString())}::timestamptz[])
      as k(instrument, granularity, last_closed)
    cross join lateral (
      select time, open, high, low, close, volume from market_candles m
      where m.environment = ${environment} and m.instrument = k.instrument and m.granularity = k.granularity and m.time <= k.last_closed
      order by m.time desc limit ${count}
    ) c`;
}
