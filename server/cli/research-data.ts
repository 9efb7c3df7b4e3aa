/**
 * Reads the long-history candles of the study in place (`--data`, default ../shared/data/fx-long;
 * never copied into the repository: parts have no licence to redistribute, see its SOURCE.md) and
 * shifts them to mid (core/research/long-history.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseLongHistoryCsv } from "../../core/research/long-history";
import type { LongGranularity } from "../../core/research/long-history";
import type { StudyCandles } from "../../core/research/trial";

/** The default folder, relative to the project root. */
export const DEFAULT_LONG_DIR = "../shared/data/fx-long";

/** Nothing later than this is read (the years after 2022 are kept out on purpose). */
export const STUDY_END_MS = Date.UTC(2023, 0, 1);

/**
 * Loads H1, H4 and D1 of the instruments. @throws Error (Portuguese) when the folder or a file is missing.
 */
export function loadStudyCandles(dir: string, instruments: readonly string[]): StudyCandles {
  if (!existsSync(dir)) throw new Error(`Pasta do histórico longo não encontrada: ${dir}`);
  const out: StudyCandles = { H1: {}, H4: {}, D1: {} };
  for (const g of ["H1", "H4", "D1"] as LongGranularity[]) {
    for (const i of instruments) {
      const file = join(dir, `${i}_${g}.csv`);
      if (!existsSync(file)) throw new Error(`Arquivo ausente: ${file}`);
      out[g][i] = parseLongHistoryCsv(readFileSync(file, "utf8"), i, file).filter((c) => c.time < STUDY_END_MS);
    }
  }
  return out;
}
