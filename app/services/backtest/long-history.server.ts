/**
 * The long-history candle source of the user's backtest (issue 21): the H1 BID files of the folder
 * `FX_LONG_DIR` (config; default `../shared/data/fx-long` from the working directory, the project
 * root), `<PAIR>_H1.csv` with header `time,open,high,low,close,volume` (its SOURCE.md). The files
 * are READ IN PLACE, never copied into the repository (parts have no licence to redistribute). When
 * the folder (or every H1 file of a known pair) is missing the source is not offered.
 *
 * The H4 and D1 files of the folder are not read: the executor decides on M5…H1 (AI_TIMEFRAMES), so
 * with H1 alone it steps on H1. Prices become mid by adding half the simulator's normal spread
 * (core/backtest/long-history.ts).
 *
 * Memory: a parsed pair is kept as six Float64Array columns (48 bytes a bar): EUR_USD's 123,626 bars
 * ≈ 5.9 MB, each other pair's ~63,000 ≈ 3.0 MB; at most LONG_CACHE_PAIRS pairs are kept (least
 * recently used dropped), so ≤ 27 MB with the shipped folder's eight pairs. A run builds Candle
 * objects for its period only (sliceH1), released with the run.
 */
import { closeSync, existsSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import path from "node:path";
import { parseCandleCsv } from "../../../core/backtest/csv";
import { bidToMidColumns, sliceH1, type CandleColumns } from "../../../core/backtest/long-history";
import { parseCandleFileName, candleFileName } from "../../../core/candle-file-name";
import type { CandlesByTimeframe } from "../../../core/engine/decide";
import { SUPPORTED_INSTRUMENTS } from "../../../core/instruments";
import { config } from "../platform/config.server";
import type { LongRange } from "../../lib/backtest-run";

/**
 * Longest period of one long-history run with ONE pair, days (3 years); with n pairs ⌊1096 / n⌋
 * (types.ts longMaxDays: 548 with 2, 365 with 3), since a run's cost grows with pairs × days: the
 * worst case (the bot trading throughout, drawdown stop off) then stays within the 900 s a run queued
 * behind it may wait, on a loaded machine (docs/BENCHMARKS.md "Backtest on the long history").
 */
export const LONG_MAX_PERIOD_DAYS = 1096;
/** Parsed pairs kept in memory at once (least recently used dropped). */
export const LONG_CACHE_PAIRS = 8;

export type { LongRange };

/** The long-history folder (FX_LONG_DIR, resolved from the working directory). */
export function longHistoryDir(): string {
  return path.resolve(config().FX_LONG_DIR);
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The first data line's and the last line's times (ms) of a CSV, read from its head and tail only. */
function headTailTimes(file: string): [number, number] | undefined {
  const fd = openSync(file, "r");
  try {
    const size = statSync(file).size;
    const head = Buffer.alloc(Math.min(512, size));
    readSync(fd, head, 0, head.length, 0);
    const tailLen = Math.min(512, size);
    const tail = Buffer.alloc(tailLen);
    readSync(fd, tail, 0, tailLen, size - tailLen);
    const first = Date.parse(head.toString("utf8").split("\n")[1]?.split(",")[0] ?? "");
    const last = Date.parse(tail.toString("utf8").trimEnd().split("\n").at(-1)?.split(",")[0] ?? "");
    return Number.isFinite(first) && Number.isFinite(last) && first <= last ? [first, last] : undefined;
  } finally {
    closeSync(fd);
  }
}

let rangeCache: { key: string; range: LongRange | null } | undefined;

/**
 * The pairs the product trades (SUPPORTED_INSTRUMENTS) with an H1 file in `dir`, and their days; null when the folder
 * or every such file is missing. Cached until a file of the folder changes (name, size or mtime).
 */
export function longRange(dir: string = longHistoryDir()): LongRange | null {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return null;
  const files = readdirSync(dir)
    .map((f) => ({ f, named: parseCandleFileName(f) }))
    .filter((x) => x.named?.granularity === "H1")
    .sort((a, b) => a.f.localeCompare(b.f));
  const key = `${dir}|${files.map(({ f }) => {
    const s = statSync(path.join(dir, f));
    return `${f}:${s.size}:${s.mtimeMs}`;
  }).join("|")}`;
  if (rangeCache?.key === key) return rangeCache.range;
  const ranges: LongRange["ranges"] = {};
  for (const { f, named } of files) {
    if (!(SUPPORTED_INSTRUMENTS as readonly string[]).includes(named!.instrument)) continue;
    const span = headTailTimes(path.join(dir, f));
    if (span) ranges[named!.instrument] = { minDate: day(span[0]), maxDate: day(span[1]) };
  }
  const instruments = Object.keys(ranges).sort();
  const range: LongRange | null = instruments.length
    ? {
        instruments,
        minDate: instruments.map((i) => ranges[i]!.minDate).sort()[0]!,
        maxDate: instruments.map((i) => ranges[i]!.maxDate).sort().at(-1)!,
        ranges,
        maxDays: LONG_MAX_PERIOD_DAYS,
      }
    : null;
  rangeCache = { key, range };
  return range;
}

/** The days every one of `instruments` covers (intersection of their ranges); null when they share none. */
export function commonRange(range: LongRange, instruments: readonly string[]): { minDate: string; maxDate: string } | null {
  const own = instruments.map((i) => range.ranges[i]).filter((r): r is { minDate: string; maxDate: string } => !!r);
  if (!own.length) return null;
  const minDate = own.map((r) => r.minDate).sort().at(-1)!;
  const maxDate = own.map((r) => r.maxDate).sort()[0]!;
  return minDate <= maxDate ? { minDate, maxDate } : null;
}

const columnsCache = new Map<string, CandleColumns>();

/**
 * A pair's whole H1 series as mid columns, parsed once (csv-parse, core/backtest/csv.ts) and kept
 * (LRU, LONG_CACHE_PAIRS). @throws Error (Portuguese) when the file is missing or malformed.
 */
export function longColumns(instrument: string, dir: string = longHistoryDir()): CandleColumns {
  const file = path.join(dir, candleFileName(instrument, "H1"));
  if (!existsSync(file)) throw new Error(`Histórico longo sem o arquivo ${candleFileName(instrument, "H1")}`);
  const s = statSync(file);
  const key = `${file}:${s.size}:${s.mtimeMs}`;
  let cols = columnsCache.get(key);
  if (cols) {
    columnsCache.delete(key); // refresh its place (LRU order = insertion order)
  } else {
    for (const k of columnsCache.keys()) if (k.startsWith(`${file}:`)) columnsCache.delete(k);
    cols = bidToMidColumns(instrument, parseCandleCsv(readFileSync(file, "utf8"), file));
    while (columnsCache.size >= LONG_CACHE_PAIRS) columnsCache.delete(columnsCache.keys().next().value!);
  }
  columnsCache.set(key, cols);
  return cols;
}

/**
 * The mid H1 candles of a pair for a run over [fromMs, toMs) (UTC ms), with LONG_WARMUP_DAYS of
 * warm-up before `fromMs`. @throws Error (Portuguese) when the file is missing or malformed.
 */
export function longCandles(instrument: string, fromMs: number, toMs: number, dir: string = longHistoryDir()): CandlesByTimeframe {
  return sliceH1(longColumns(instrument, dir), fromMs, toMs);
}

/** Parsed pairs in the cache now (tests, diagnostics). */
export function longCacheSize(): number {
  return columnsCache.size;
}
