/**
 * Names of candle files: `<INSTRUMENT>_<GRANULARITY>.csv`, e.g. `EUR_GBP_M5.csv`, where the instrument
 * is an FX pair as OANDA writes it (XXX_YYY) and the granularity one of OANDA's (core/instruments.ts
 * GRANULARITY_SECONDS). The one convention of the simulator's folder (data/NOTICE.md) and of the
 * backtest's folders (/work/shared/data/fx, its SOURCE.md); pure, the callers list the folders.
 */
import { GRANULARITY_SECONDS } from "./instruments";

/** `<XXX_YYY>_<GRAN>.csv`: the pair, then the granularity (checked against GRANULARITY_SECONDS). */
const CANDLE_FILE = /^([A-Z]{3}_[A-Z]{3})_([A-Z][A-Z0-9]*)\.csv$/;

/** What a candle file name says. */
export interface CandleFileName {
  /** FX pair, e.g. "EUR_GBP". */
  instrument: string;
  /** OANDA granularity, e.g. "M5". */
  granularity: string;
}

/**
 * Reads a candle file name (the base name, no folder): `EUR_GBP_M5.csv` → { instrument: "EUR_GBP",
 * granularity: "M5" }. Null for any other name: not `.csv`, not an XXX_YYY pair, or a granularity
 * OANDA does not have (e.g. `EUR_USD_M7.csv`). Never throws.
 */
export function parseCandleFileName(name: string): CandleFileName | null {
  const m = CANDLE_FILE.exec(name);
  if (!m || GRANULARITY_SECONDS[m[2]!] === undefined) return null;
  return { instrument: m[1]!, granularity: m[2]! };
}

/** The file name of an instrument's candles at a granularity: ("EUR_GBP", "M5") → "EUR_GBP_M5.csv". */
export function candleFileName(instrument: string, granularity: string): string {
  return `${instrument}_${granularity}.csv`;
}
