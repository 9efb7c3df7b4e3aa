/**
 * Candles as the trading core sees them.
 *
 * OHLC here are JS numbers: they feed indicator math (which is floating point in every indicator
 * library) and nothing else. Any price that leaves the core for an order (stop loss, take profit)
 * is rebuilt with `Decimal` and `formatPrice` (see docs/decisions/0003-candle-numbers.md).
 */
export interface Candle {
  /** Candle start, UTC epoch milliseconds. */
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  /** False only for the newest, still-forming candle (OANDA `complete`). */
  complete: boolean;
}
