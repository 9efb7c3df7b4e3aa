/**
 * Backtest fill model for one open position, bar by bar (DESIGN.md §4 simulator rules):
 * - The data are single-sided quotes, used as mid: bid = mid − spread/2, ask = mid + spread/2.
 * - Entry (done by the runner) at the decision's price: bar close ± half spread (ask for a buy).
 * - A buy closes on the bid, a sell on the ask. Stop loss before take profit when one bar touches
 *   both (conservative). A bar opening beyond the stop fills at its open (gap slippage); take
 *   profit fills at its price.
 * - Trailing stop (OANDA semantics): stop = best price reached − distance, updated after each
 *   bar is checked (so a bar never trails and stops itself out); the effective stop is the
 *   tighter of the fixed stop loss and the trailing stop.
 * Prices here are numbers for bar comparisons; exit prices are formatted with formatPrice.
 */

export interface OpenPosition {
  side: "buy" | "sell";
  entry: number;
  stopLoss: number;
  takeProfit: number;
  /** Trailing distance in price units, if any. */
  trailDistance?: number;
  /** Current trailing-stop level (price), if trailing. */
  trailStop?: number;
  /** Close after this many seconds (scalper maxHoldSec). */
  maxHoldSec?: number;
  /** Entry instant, UTC ms. */
  openTime: number;
}

export type ExitReason = "STOP_LOSS" | "TAKE_PROFIT" | "TRAILING_STOP" | "MAX_HOLD" | "WEEKEND_FLAT" | "END";

export interface Exit {
  price: number;
  reason: ExitReason;
}

export interface BarQuote {
  open: number;
  high: number;
  low: number;
  close: number;
}

/**
 * Checks one bar (mid prices) against a position's stops; `half` = half spread in price units.
 * Returns the exit, or null when the position survives the bar (its trailing stop is then updated).
 */
export function checkBar(p: OpenPosition, bar: BarQuote, half: number): Exit | null {
  if (p.side === "buy") {
    const open = bar.open - half;
    const low = bar.low - half;
    const high = bar.high - half;
    const trailing = p.trailStop !== undefined && p.trailStop > p.stopLoss;
    const stop = trailing ? p.trailStop! : p.stopLoss;
    const stopReason: ExitReason = trailing ? "TRAILING_STOP" : "STOP_LOSS";
    if (open <= stop) return { price: open, reason: stopReason };
    if (low <= stop) return { price: stop, reason: stopReason };
    if (high >= p.takeProfit) return { price: p.takeProfit, reason: "TAKE_PROFIT" };
    if (p.trailDistance !== undefined) p.trailStop = Math.max(p.trailStop ?? -Infinity, high - p.trailDistance);
    return null;
  }
  const open = bar.open + half;
  const low = bar.low + half;
  const high = bar.high + half;
  const trailing = p.trailStop !== undefined && p.trailStop < p.stopLoss;
  const stop = trailing ? p.trailStop! : p.stopLoss;
  const stopReason: ExitReason = trailing ? "TRAILING_STOP" : "STOP_LOSS";
  if (open >= stop) return { price: open, reason: stopReason };
  if (high >= stop) return { price: stop, reason: stopReason };
  if (low <= p.takeProfit) return { price: p.takeProfit, reason: "TAKE_PROFIT" };
  if (p.trailDistance !== undefined) p.trailStop = Math.min(p.trailStop ?? Infinity, low + p.trailDistance);
  return null;
}

/** The closing price of a position at a bar's close (bid for a buy, ask for a sell). */
export function closeAtBarClose(p: OpenPosition, bar: BarQuote, half: number): number {
  return p.side === "buy" ? bar.close - half : bar.close + half;
}
