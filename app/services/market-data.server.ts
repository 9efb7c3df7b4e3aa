/**
 * Shared market data (DESIGN.md §3.1): candles per (environment, instrument, granularity) are
 * fetched once per closed candle and cached in PostgreSQL (`market_candles`), so every bot of every
 * process reads the same cache instead of calling the broker. Only complete candles are cached;
 * the forming candle is never used for signals.
 */
import type { BrokerPort, Environment } from "../../core/broker/port";
import type { Candle } from "../../core/candles";
import { GRANULARITY_SECONDS } from "../../core/instruments";
import { db } from "./db.server";

/** Candles kept per series for the engine (indicators need ≥ 60; ATR median uses 100 more). */
export const CANDLES_PER_SERIES = 250;

interface CandleRow {
  time: Date;
  open: string;
  high: string;
  low: string;
  close: string;
  volume: number;
}

/**
 * The latest `count` complete candles, ascending. Reads the cache; when the newest cached candle
 * is older than the last closed candle at `now`, fetches the missing ones from the broker first.
 */
export async function completeCandles(
  client: BrokerPort,
  environment: Environment,
  instrument: string,
  granularity: string,
  now: Date,
  count = CANDLES_PER_SERIES,
): Promise<Candle[]> {
  const sql = db();
  const step = GRANULARITY_SECONDS[granularity]! * 1000;
  const lastClosedStart = Math.floor(now.getTime() / step) * step - step;
  const [latest] = await sql<{ time: Date }[]>`select max(time) as time from market_candles
    where environment = ${environment} and instrument = ${instrument} and granularity = ${granularity}`;
  const newest = latest?.time?.getTime();
  if (newest === undefined || newest < lastClosedStart) {
    const fresh = (await client.getCandles(instrument, { granularity, count: count + 1, price: "M" })).filter((c) => c.complete);
    if (fresh.length) {
      const rows = fresh.map((c) => ({
        environment,
        instrument,
        granularity,
        time: new Date(c.time),
        open: String(c.open),
        high: String(c.high),
        low: String(c.low),
        close: String(c.close),
        volume: c.volume,
      }));
      await sql`insert into market_candles ${sql(rows)} on conflict (environment, instrument, granularity, time) do nothing`;
    }
  }
  const rows = await sql<CandleRow[]>`select time, open, high, low, close, volume from market_candles
    where environment = ${environment} and instrument = ${instrument} and granularity = ${granularity}
      and time <= ${new Date(lastClosedStart)}
    order by time desc limit ${count}`;
  return rows.reverse().map((r) => ({
    time: r.time.getTime(),
    open: Number(r.open),
    high: Number(r.high),
    low: Number(r.low),
    close: Number(r.close),
    volume: r.volume,
    complete: true,
  }));
}
