/**
 * Candles for the user's backtest (issue 12): the shipped data files the simulator replays
 * (config `SIM_DATA_DIR`, `data/` by default: `<INSTRUMENT>_<GRANULARITY>.csv`), or recent candles
 * fetched through the user's own broker connection (OANDA `GET /v3/instruments/{i}/candles`,
 * paginated by at most MAX_CANDLE_COUNT = 5000 per request; the simulator serves them in dev and tests).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { BrokerPort } from "../../../core/broker/port";
import type { Candle } from "../../../core/candles";
import type { CandlesByTimeframe } from "../../../core/engine/decide";
import { AI_TIMEFRAMES, GRANULARITY_SECONDS, instrumentSpec, SUPPORTED_INSTRUMENTS } from "../../../core/instruments";
import { MAX_CANDLE_COUNT } from "../../../core/oanda/client";
import { availableGranularities, loadCsvCandles } from "./candle-files";
import { config } from "../platform/config.server";

const DAY_MS = 86_400_000;
/** Longest period of one run, days (a quarter of M5 bars: the page's "three months"). */
export const MAX_PERIOD_DAYS = 92;
/** How far back the broker source reaches, days before the broker's now. */
export const BROKER_LOOKBACK_DAYS = 120;
/** Candles before `from` that warm the indicators up (broker source), days. */
export const WARMUP_DAYS = 10;

/** What a source offers: instruments and the inclusive date range (UTC days, YYYY-MM-DD). */
export interface SourceRange {
  instruments: string[];
  minDate: string;
  maxDate: string;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The folder of the shipped candle files (relative to the working directory, like the simulator's). */
export function shippedDataDir(): string {
  return path.resolve(config().SIM_DATA_DIR);
}

/** Times (ms) of the first and last rows of a CSV file (header skipped); undefined when empty. */
function firstLastTimes(file: string): [number, number] | undefined {
  const lines = readFileSync(file, "utf8").trimEnd().split("\n");
  const t = (line: string | undefined) => Date.parse((line ?? "").split(",")[0] ?? "");
  const first = t(lines[1]);
  const last = t(lines.at(-1));
  return Number.isFinite(first) && Number.isFinite(last) ? [first, last] : undefined;
}

let shippedCache: { dir: string; range: SourceRange | null } | undefined;

/**
 * Instruments of the shipped files (those of the instrument table with an AI-timeframe-usable file,
 * M1…H1) and the days every one of them covers; null without data. Cached (the files do not change).
 */
export function shippedRange(): SourceRange | null {
  const dir = shippedDataDir();
  if (shippedCache?.dir === dir) return shippedCache.range;
  let range: SourceRange | null = null;
  if (existsSync(dir)) {
    const names = new Set(readdirSync(dir).map((f) => /^([A-Z]{3}_[A-Z]{3})_/.exec(f)?.[1]).filter((x): x is string => !!x));
    let lo = -Infinity;
    let hi = Infinity;
    const instruments: string[] = [];
    for (const name of [...names].sort()) {
      try {
        instrumentSpec(name);
      } catch {
        continue;
      }
      const finest = availableGranularities(dir, name).find((g) => GRANULARITY_SECONDS[g]! <= 3600);
      const span = finest ? firstLastTimes(path.join(dir, `${name}_${finest}.csv`)) : undefined;
      if (!span) continue;
      instruments.push(name);
      lo = Math.max(lo, span[0]);
      hi = Math.min(hi, span[1]);
    }
    if (instruments.length && lo < hi) range = { instruments, minDate: day(lo), maxDate: day(hi) };
  }
  shippedCache = { dir, range };
  return range;
}

const candleCache = new Map<string, CandlesByTimeframe>();

/**
 * The shipped M5/M15/M30/H1 candles of an instrument from `dir` (default SIM_DATA_DIR; a backtest
 * worker thread, which has no config, passes it), cached per folder and instrument.
 * @throws Error (Portuguese) without files.
 */
export function shippedCandles(instrument: string, dir: string = shippedDataDir()): CandlesByTimeframe {
  const key = `${dir}:${instrument}`;
  let c = candleCache.get(key);
  if (!c) {
    c = loadCsvCandles(dir, instrument);
    candleCache.set(key, c);
  }
  return c;
}

/**
 * The broker source's offer, from BROKER_LOOKBACK_DAYS ago to the broker's today: the instrument
 * table's pairs that the account offers (`offered`, its GET A/instruments names, issue 22 item 7), in
 * the table's order; every supported pair when `offered` is not given.
 */
export function brokerRange(nowMs: number, offered?: readonly string[]): SourceRange {
  const instruments = offered ? SUPPORTED_INSTRUMENTS.filter((i) => offered.includes(i)) : [...SUPPORTED_INSTRUMENTS];
  return { instruments, minDate: day(nowMs - BROKER_LOOKBACK_DAYS * DAY_MS), maxDate: day(nowMs) };
}

/**
 * Complete mid candles of `instrument` for M5/M15/M30/H1 from `fromMs` (minus WARMUP_DAYS) to
 * `toMs`, read from the broker page by page (≤ 5000 per request, `from` moving past the last bar).
 * @throws the broker client's errors (BrokerError) as they come.
 */
export async function brokerCandles(client: BrokerPort, instrument: string, fromMs: number, toMs: number): Promise<CandlesByTimeframe> {
  const out: CandlesByTimeframe = {};
  for (const tf of AI_TIMEFRAMES) {
    const stepMs = GRANULARITY_SECONDS[tf]! * 1000;
    const all: Candle[] = [];
    let from = fromMs - WARMUP_DAYS * DAY_MS;
    for (let page = 0; page < 100 && from < toMs; page++) {
      const got = await client.getCandles(instrument, { granularity: tf, from: new Date(from).toISOString(), count: MAX_CANDLE_COUNT });
      const fresh = got.filter((c) => c.complete && c.time >= from && c.time < toMs);
      all.push(...fresh);
      const last = got.at(-1);
      if (!last || got.length < MAX_CANDLE_COUNT || last.time + stepMs <= from) break;
      from = last.time + stepMs;
    }
    if (all.length) out[tf] = all;
  }
  return out;
}
