/**
 * Reads backtest candle files (`<INSTRUMENT>_<GRANULARITY>.csv`, names read by core/candle-file-name.ts;
 * format of /work/shared/data/fx, see its SOURCE.md) from a folder and hands their texts to
 * core/backtest/csv.ts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { candlesFromCsvTexts } from "../../../core/backtest/csv";
import { candleFileName, parseCandleFileName } from "../../../core/candle-file-name";
import type { CandlesByTimeframe } from "../../../core/engine/decide";
import { GRANULARITY_SECONDS } from "../../../core/instruments";

/** Granularities present for an instrument in a folder, finest first. */
export function availableGranularities(dir: string, instrument: string): string[] {
  const found: string[] = [];
  for (const f of readdirSync(dir)) {
    const named = parseCandleFileName(f);
    if (named?.instrument === instrument) found.push(named.granularity);
  }
  return found.sort((a, b) => GRANULARITY_SECONDS[a]! - GRANULARITY_SECONDS[b]!);
}

/**
 * Loads M5/M15/M30/H1 candles of an instrument from `dir` (missing timeframes bucketed from finer files).
 * @throws Error (Portuguese) when the folder or every usable file is missing.
 */
export function loadCsvCandles(dir: string, instrument: string): CandlesByTimeframe {
  if (!existsSync(dir)) throw new Error(`Pasta de dados não encontrada: ${dir}`);
  const grans = availableGranularities(dir, instrument);
  if (grans.length === 0) throw new Error(`Nenhum arquivo ${instrument}_<GRANULARIDADE>.csv em ${dir}`);
  const files: Record<string, { text: string; label: string }> = {};
  for (const g of grans) {
    const file = join(dir, candleFileName(instrument, g));
    files[g] = { text: readFileSync(file, "utf8"), label: file };
  }
  return candlesFromCsvTexts(instrument, files);
}
