/**
 * The long-history candles of the research (issue 21): `../shared/data/fx-long/<PAIR>_<H1|H4|D1>.csv`
 * (format and sources in that folder's SOURCE.md: bar open time in UTC, BID prices, H4/D1 cut at
 * 17:00 New York). Pure: the caller reads the files in place (they are never copied into the
 * repository: parts have no licence to redistribute) and hands their texts here.
 *
 * Bid → mid: the product trades OANDA mid candles with the spread around them, so every price is
 * raised by half the simulator's normal spread of the pair (core/simulator/pricing.ts
 * BASE_SPREAD_PIPS; pre-registration, "Data"), as the on-screen backtest does (core/backtest/long-history.ts).
 */
import type { Candle } from "../candles";
import { parseCandleCsv } from "../backtest/csv";
import { halfSpread } from "../backtest/long-history";

/** Granularities of fx-long. */
export const LONG_GRANULARITIES = ["H1", "H4", "D1"] as const;
export type LongGranularity = (typeof LONG_GRANULARITIES)[number];

/** The eight pairs of fx-long (EUR_USD from 2003, the others from 2012-11; EUR_JPY to 2022-03). */
export const LONG_PAIRS = ["EUR_USD", "GBP_USD", "USD_JPY", "AUD_USD", "USD_CAD", "USD_CHF", "EUR_GBP", "EUR_JPY"] as const;

/** Half the simulator's normal spread of the pair, in price units (the backtest page's rule, core/backtest/long-history.ts). */
export const halfNormalSpread = halfSpread;

/**
 * Parses one fx-long CSV and shifts its BID prices to mid (+ half the pair's normal spread). Candles
 * ascending, all complete. @throws Error naming the line of a malformed row.
 */
export function parseLongHistoryCsv(text: string, instrument: string, label = `${instrument} CSV`): Candle[] {
  const half = halfNormalSpread(instrument);
  const candles = parseCandleCsv(text, label);
  for (const c of candles) {
    c.open += half;
    c.high += half;
    c.low += half;
    c.close += half;
  }
  return candles;
}

/** Candles whose open time is in [fromMs, toMs). */
export function candlesBetween(candles: readonly Candle[], fromMs: number, toMs: number): Candle[] {
  return candles.filter((c) => c.time >= fromMs && c.time < toMs);
}
