/**
 * Reads the simulator's candle folder (`<dir>/<INSTRUMENT>_<GRAN>.csv`, data/NOTICE.md) and builds
 * the pure `MarketData` of core/simulator from the texts (core reads no files: DESIGN.md §2).
 * Used by the simulator server, the backtest CLI and the benchmarks.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GRANULARITY_SECONDS } from "../../core/instruments";
import { MarketData, type CandleCsv } from "../../core/simulator/market-data";

/** `<XXX_YYY>_<GRAN>.csv`, e.g. EUR_GBP_M5.csv. */
const CANDLE_FILE = /^([A-Z]{3}_[A-Z]{3})_([A-Z0-9]+)\.csv$/;

/**
 * Loads every `<INSTRUMENT>_<GRAN>.csv` in `dir` (any FX pair: the simulator replays whatever
 * candle files it is given and offers only those instruments).
 * @throws Error when no file is there, or a file is malformed or outside one 91-day window
 */
export function loadMarketData(dir: string): MarketData {
  const files: CandleCsv[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const m = CANDLE_FILE.exec(entry);
    if (!m || GRANULARITY_SECONDS[m[2]!] === undefined) continue;
    const file = join(dir, entry);
    files.push({ instrument: m[1]!, granularity: m[2]!, text: readFileSync(file, "utf8"), name: file });
  }
  return MarketData.fromCsv(files, dir);
}
