/**
 * Reads the simulator's candle folder (`<dir>/<INSTRUMENT>_<GRAN>.csv`, data/NOTICE.md) and builds
 * the pure `MarketData` of core/simulator from the texts (core reads no files: DESIGN.md §2).
 * Used by the simulator server, the backtest CLI and the benchmarks.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCandleFileName } from "../../core/candle-file-name";
import { MarketData, type CandleCsv } from "../../core/simulator/market-data";

/**
 * Loads every `<INSTRUMENT>_<GRAN>.csv` in `dir` (names read by core/candle-file-name.ts; any FX
 * pair: the simulator replays whatever candle files it is given and offers only those instruments).
 * @throws Error when no file is there, or a file is malformed or outside one 91-day window
 */
export function loadMarketData(dir: string): MarketData {
  const files: CandleCsv[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const named = parseCandleFileName(entry);
    if (!named) continue;
    const file = join(dir, entry);
    files.push({ ...named, text: readFileSync(file, "utf8"), name: file });
  }
  return MarketData.fromCsv(files, dir);
}
