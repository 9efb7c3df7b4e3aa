/**
 * Backtest statistics. Definitions: win rate = wins / trades × 100 (1 decimal, PRODUCT.md §9);
 * profit factor = average win / average loss (PRODUCT.md §9 — note: not gross profit / gross
 * loss); result WIN if P&L > 0, LOSS if < 0, else BE (PRODUCT.md §4); max drawdown = largest
 * peak-to-trough fall of the closed-trade balance, in % of the peak.
 */
import { Decimal, formatMoney } from "../decimal";

export interface TradeOutcome {
  pips: number;
  /** Account currency, decimal string. */
  pnl: string;
  result: "WIN" | "LOSS" | "BE";
}

export interface BacktestStats {
  trades: number;
  wins: number;
  losses: number;
  breakeven: number;
  /** Percent, 1 decimal. */
  winRatePct: number;
  /** Average win / average loss, 2 decimals; null when there is no loss (or no trade). */
  profitFactor: number | null;
  /** Sum of pips, 1 decimal. */
  netPips: number;
  /** Account currency, 4 decimals. */
  netPnl: string;
  initialBalance: string;
  finalBalance: string;
  /** Percent of the peak balance, 2 decimals. */
  maxDrawdownPct: number;
}

/** Statistics of closed trades, in close order, starting from `initialBalance` (account currency). */
export function computeStats(trades: readonly TradeOutcome[], initialBalance: Decimal.Value): BacktestStats {
  let wins = 0;
  let losses = 0;
  let be = 0;
  let winSum = new Decimal(0);
  let lossSum = new Decimal(0);
  let pips = 0;
  let balance = new Decimal(initialBalance);
  let peak = balance;
  let maxDd = new Decimal(0);
  for (const t of trades) {
    const pnl = new Decimal(t.pnl);
    if (t.result === "WIN") {
      wins++;
      winSum = winSum.add(pnl);
    } else if (t.result === "LOSS") {
      losses++;
      lossSum = lossSum.add(pnl.abs());
    } else be++;
    pips += t.pips;
    balance = balance.add(pnl);
    if (balance.gt(peak)) peak = balance;
    if (peak.gt(0)) {
      const dd = peak.sub(balance).div(peak).mul(100);
      if (dd.gt(maxDd)) maxDd = dd;
    }
  }
  const n = trades.length;
  const avgWin = wins ? winSum.div(wins) : new Decimal(0);
  const avgLoss = losses ? lossSum.div(losses) : new Decimal(0);
  return {
    trades: n,
    wins,
    losses,
    breakeven: be,
    winRatePct: n ? Math.round((wins / n) * 1000) / 10 : 0,
    profitFactor: losses && avgLoss.gt(0) ? avgWin.div(avgLoss).toDecimalPlaces(2).toNumber() : null,
    netPips: Math.round(pips * 10) / 10,
    netPnl: formatMoney(balance.sub(initialBalance)),
    initialBalance: formatMoney(initialBalance),
    finalBalance: formatMoney(balance),
    maxDrawdownPct: maxDd.toDecimalPlaces(2).toNumber(),
  };
}
