/**
 * Shared market data (DESIGN.md §3.1): candles per (environment, instrument, granularity) are
 * fetched once per closed candle and cached in PostgreSQL (`market_candles`), so every bot of every
 * process reads the same cache instead of calling the broker. Only complete candles are cached;
 * the forming candle is never used for signals. A process also keeps the newest series it read
 * (issue 13): a tick whose series all end at their last closed candle already read here costs no
 * statement.
 */
import type { BrokerPort, Environment } from "../../../core/broker/port";
import type { Candle } from "../../../core/candles";
import { DecisionEngine, featureConfig } from "../../../core/engine/decide";
import { AI_TIMEFRAMES, GRANULARITY_SECONDS } from "../../../core/instruments";
import type { TradingSettings } from "../../../core/settings";
import { db } from "../platform/db.server";
import { insertCandles, latestCandleTimes, seriesCandles } from "../../../db/queries/market-candles";

/** Candles kept per series for the engine (indicators need ≥ 60; ATR median uses 100 more). */
export const CANDLES_PER_SERIES = 250;

/** Key of one series in `completeCandleSets`: "EUR_USD:M15". */
export const seriesKey = (instrument: string, granularity: string) => `${instrument}:${granularity}`;

/**
 * The latest `count` complete candles, ascending, of every (instrument, granularity) pair, keyed by
 * `seriesKey`. From this process's memory when every series was read here up to its last closed
 * candle; else reads the cache in two statements whatever the number of series; a series whose
 * newest cached candle is older than its last closed candle at `now` is first fetched from the
 * broker, and every fetched candle is inserted in one statement.
 */
export async function completeCandleSets(
  client: BrokerPort,
  environment: Environment,
  instruments: readonly string[],
  granularities: readonly string[],
  now: Date,
  count = CANDLES_PER_SERIES,
): Promise<Map<string, Candle[]>> {
  const sql = db();
  const series = instruments.flatMap((instrument) =>
    granularities.map((granularity) => {
      const step = GRANULARITY_SECONDS[granularity]! * 1000;
      return { instrument, granularity, lastClosedStart: new Date(Math.floor(now.getTime() / step) * step - step) };
    }),
  );
  // Every series already read in this process up to its last closed candle: no statement at all.
  const memo = candleMemo();
  const memoKey = (x: (typeof series)[number]) => `${environment}:${seriesKey(x.instrument, x.granularity)}:${count}`;
  const hits = series.map((x) => memo.get(memoKey(x))).filter((m, i) => m && m.lastClosed === series[i]!.lastClosedStart.getTime());
  if (hits.length === series.length) return new Map(series.map((x, i) => [seriesKey(x.instrument, x.granularity), hits[i]!.candles.slice()]));
  const latest = await latestCandleTimes(sql, environment, instruments, granularities);
  const newest = new Map(latest.map((r) => [seriesKey(r.instrument, r.granularity), r.time.getTime()]));
  const stale = series.filter((x) => (newest.get(seriesKey(x.instrument, x.granularity)) ?? -Infinity) < x.lastClosedStart.getTime());
  // Only what is missing: a series stored up to k steps before its last closed candle asks for the newest k + 2
  // (the current, incomplete one included; a weekend's gap only makes it ask for more), not the whole window.
  const wanted = (x: (typeof series)[number]) => {
    const have = newest.get(seriesKey(x.instrument, x.granularity));
    if (have === undefined) return count + 1;
    const missing = Math.ceil((x.lastClosedStart.getTime() - have) / (GRANULARITY_SECONDS[x.granularity]! * 1000));
    return Math.min(count + 1, missing + 2);
  };
  const fetched = await Promise.all(
    stale.map(async (x) => ({ x, candles: (await client.getCandles(x.instrument, { granularity: x.granularity, count: wanted(x), price: "M" })).filter((c) => c.complete) })),
  );
  const rows = fetched.flatMap(({ x, candles }) =>
    candles.map((c) => ({
      environment,
      instrument: x.instrument,
      granularity: x.granularity,
      time: new Date(c.time),
      open: String(c.open),
      high: String(c.high),
      low: String(c.low),
      close: String(c.close),
      volume: c.volume,
    })),
  );
  if (rows.length) await insertCandles(sql, rows);
  const read = await seriesCandles(sql, environment, series, count);
  const out = new Map<string, Candle[]>(series.map((x) => [seriesKey(x.instrument, x.granularity), []]));
  for (const r of read) {
    out.get(seriesKey(r.instrument, r.granularity))!.push({
      time: r.time.getTime(),
      open: Number(r.open),
      high: Number(r.high),
      low: Number(r.low),
      close: Number(r.close),
      volume: r.volume,
      complete: true,
    });
  }
  for (const list of out.values()) list.sort((a, b) => a.time - b.time);
  for (const x of series) {
    const list = out.get(seriesKey(x.instrument, x.granularity))!;
    // Only a series that reaches its last closed candle is kept (complete candles never change).
    if (list.length && list[list.length - 1]!.time === x.lastClosedStart.getTime()) memo.set(memoKey(x), { lastClosed: x.lastClosedStart.getTime(), candles: list.slice() });
  }
  return out;
}

declare global {
  var __candleMemo: Map<string, { lastClosed: number; candles: Candle[] }> | undefined;
}

/** The newest complete series read by this process, by environment, series and count (one entry per series, replaced as candles close). */
function candleMemo() {
  return (globalThis.__candleMemo ??= new Map());
}

/**
 * Engines loaded with the candles of an instrument, shared by every tick of this process that decides
 * on the same candles with the same indicator parameters (issue 13: loading 250 candles × 4
 * timeframes into the indicators was the largest CPU cost of a tick, the same work for every bot).
 * `DecisionEngine.decide` is pure given the pushed candles (core/engine/decide.ts), so a shared engine
 * decides exactly as `decide(input)` would. Keyed by environment, instrument, FeatureConfig and each
 * timeframe's candle span (count, first and last open time, whether the last is complete: an
 * incomplete candle is not pushed, its completion is). At most ENGINE_CACHE_MAX entries, then cleared.
 */
const engines = new Map<string, DecisionEngine>();
const ENGINE_CACHE_MAX = 2000;

/** The shared engine loaded with `candles` (by timeframe) for one instrument and the settings' indicator parameters; see above. */
export function loadedEngine(environment: string, instrument: string, settings: TradingSettings, candles: Record<string, Candle[]>): DecisionEngine {
  const config = featureConfig(settings);
  let key = `${environment}|${instrument}|${JSON.stringify(config)}`;
  for (const tf of AI_TIMEFRAMES) {
    const list = candles[tf] ?? [];
    const last = list[list.length - 1];
    key += `|${list.length}:${list[0]?.time ?? ""}:${last?.time ?? ""}:${last?.complete ? 1 : 0}`;
  }
  let engine = engines.get(key);
  if (!engine) {
    engine = new DecisionEngine(config).load(candles);
    if (engines.size >= ENGINE_CACHE_MAX) engines.clear();
    engines.set(key, engine);
  }
  return engine;
}
