/**
 * Reads the simulator's candle folder (`<dir>/<INSTRUMENT>_<GRAN>.csv`, data/NOTICE.md) and builds
 * the pure `MarketData` of core/simulator from the texts (core reads no files: DESIGN.md §2).
 * Used by the simulator server, the backtest CLI and the benchmarks.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { GRANULARITY_SECONDS, SUPPORTED_INSTRUMENTS } from "../../core/instruments";
import { MarketData, type CandleCsv } from "../../core/simulator/market-data";

/**
 * Loads every `<INSTRUMENT>_<GRAN>.csv` of the supported instruments from `dir`.
 * @throws Error when an instrument has no file, or a file is malformed or outside one 91-day window
 */
export function loadMarketData(dir: string): MarketData {
  const files: CandleCsv[] = [];
  for (const instrument of SUPPORTED_INSTRUMENTS) {
    for (const granularity of Object.keys(GRANULARITY_SECONDS)) {
      const file = join(dir, `${instrument}_${granularity}.csv`);
      if (existsSync(file)) files.push({ instrument, granularity, text: readFileSync(file, "utf8"), name: file });
    }
  }
  return MarketData.fromCsv(files, dir);
}
