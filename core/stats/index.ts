/**
 * One honest statistics module for closed trades: the dashboard, the history, the trade cards and the
 * backtest all read their win rate, profit factor, payoff ratio, expectancy, drawdown, Sharpe ratio
 * and exposure from `computeTradeStats` (ADR 0008).
 *
 * Money is `Decimal` in arithmetic (DESIGN.md §6) and a decimal string in the result; ratios and
 * percentages are decimal strings too, with the fixed number of decimals given on each field, rounded
 * half up. A figure that is undefined for the input (a ratio over zero, a mean over nothing) is `null`,
 * never 0, Infinity or NaN, so a screen shows '—' instead of a number that means nothing.
 *
 * Pure: no I/O, no clock, no environment; the only time zone logic is `Intl`'s (IANA database of the
 * runtime).
 *
 * Definitions and sources:
 * - Result of a trade: WIN if P&L > 0, LOSS if < 0, else BE (PRODUCT.md §4).
 * - Win rate = wins / trades × 100, 1 decimal (PRODUCT.md §9); breakeven trades count in the
 *   denominator.
 * - Profit factor = gross profit / gross loss (the industry definition: e.g. the "Profit Factor"
 *   of MetaTrader's strategy tester report and of TradingView's Strategy Tester). It is < 1 exactly
 *   when the record loses money, whatever the win rate.
 * - Payoff ratio = average win / average loss. PRODUCT.md §9 calls this figure "profit factor"; it
 *   says nothing about whether a record makes money (3 wins of +150 and 7 losses of −100 have a
 *   payoff ratio of 1.50 and lose 250), so it is shown beside the profit factor under its own name
 *   (ADR 0008).
 * - Expectancy = net P&L / trades (the mean P&L per trade, in the account currency); in R multiples
 *   (R = P&L / amount at risk at entry, Van K. Tharp, "Trade Your Way to Financial Freedom") and in
 *   pips over the trades that carry those figures.
 * - Maximum drawdown = largest peak-to-trough fall of the equity curve: as an amount, and in % of the
 *   peak it fell from. The two maxima are taken separately, so they can come from different falls
 *   (a 50 % fall of a small account and a larger-amount but smaller-% fall later).
 * - Sharpe ratio (W. F. Sharpe, "The Sharpe Ratio", 1994) of daily returns, risk-free rate 0,
 *   annualised by √252: see `computeTradeStats` for the days counted.
 * - Exposure = share of a time window during which at least one trade was open.
 */
import { Decimal } from "../decimal";
import { assertTimezone, tradingDay as tradingDayOf, type TradingDayBoundary } from "../risk/trading-day";

/** An instant: ISO-8601 string, UTC milliseconds or a Date. */
export type Instant = string | number | Date;

/** A closed trade as the statistics need it. */
export interface StatsTrade {
  /** Realized P&L in the account currency, costs (spread, commission, financing) included; decimal string. */
  pnl: string;
  /** When the trade closed (UTC). Orders the closed-trade balance curve and dates its daily returns. */
  closeTime: Instant;
  /** When the trade opened (UTC); needed for the exposure. */
  openTime?: Instant;
  /** Signed pips: won (+) or lost (−). */
  pips?: number | string;
  /**
   * Amount at risk at entry in the account currency: |entry − stop loss| × units × quote→account
   * rate; decimal string. The trade's R multiple is pnl / risk. Trades without a stop loss leave it
   * out (or give "0"): they have no R multiple.
   */
  risk?: string;
}

/** One mark-to-market equity sample. */
export interface EquitySample {
  /** UTC milliseconds. */
  time: number;
  /** Account equity (balance + unrealized P&L) in the account currency; decimal string. */
  equity: string;
}

export interface StatsOptions {
  /** Account balance before the first trade, account currency; decimal string. */
  initialBalance?: string;
  /**
   * Mark-to-market equity samples (any order; sorted by time here). When given and not empty, the
   * maximum drawdown and the daily returns (Sharpe) come from it; otherwise from the closed-trade
   * balance curve: initialBalance, then + each trade's P&L in close order.
   */
  equityCurve?: readonly EquitySample[];
  /** UTC milliseconds [from, to): the period the exposure is measured over (e.g. the backtest's). */
  window?: { from: number; to: number };
  /** IANA time zone whose midnight ends a day for the daily returns; default "UTC". */
  timezone?: string;
  /**
   * Where a day of the daily returns ends (settings.tradingDayBoundary, core/risk/trading-day.ts):
   * "local_midnight" (default: midnight in `timezone`) or "ny_close" (17:00 New York).
   */
  tradingDayBoundary?: TradingDayBoundary;
}

/** Statistics of closed trades. Money: 4 decimals (as OANDA shows account amounts). */
export interface TradeStats {
  trades: number;
  /** Trades with P&L > 0. */
  wins: number;
  /** Trades with P&L < 0. */
  losses: number;
  /** Trades with P&L = 0. */
  breakeven: number;
  /** wins / trades × 100, 1 decimal; null without trades. */
  winRatePct: string | null;
  /** Sum of the winning trades' P&L, 4 decimals. */
  grossProfit: string;
  /** Sum of the losing trades' |P&L| (a positive amount), 4 decimals. */
  grossLoss: string;
  /**
   * grossProfit / grossLoss, 2 decimals. null when grossLoss is 0 (no losing trade): the ratio is
   * unbounded then, and no finite number would be honest.
   */
  profitFactor: string | null;
  /**
   * averageWin / averageLoss, 2 decimals (what PRODUCT.md §9 calls "profit factor"); null without a
   * win or without a loss.
   */
  payoffRatio: string | null;
  /** grossProfit / wins, 4 decimals; null without wins. */
  averageWin: string | null;
  /** grossLoss / losses (a positive amount), 4 decimals; null without losses. */
  averageLoss: string | null;
  /** netPnl / trades: mean P&L per trade, account currency, 4 decimals; null without trades. */
  expectancy: string | null;
  /** Mean R multiple (pnl / risk) over the trades with risk > 0, 2 decimals; null when none has. */
  expectancyR: string | null;
  /** Mean pips over the trades with pips, 1 decimal; null when none has. */
  expectancyPips: string | null;
  /** Sum of all P&L (= grossProfit − grossLoss), 4 decimals. */
  netPnl: string;
  /** Sum of pips over the trades with pips, 1 decimal; null when none has. */
  netPips: string | null;
  /** The given initial balance, 4 decimals; null when not given. */
  initialBalance: string | null;
  /** initialBalance + netPnl, 4 decimals; null without an initial balance. */
  finalBalance: string | null;
  /**
   * Largest peak-to-trough fall of equity, account currency, 4 decimals. From the equity curve when
   * given; else from the balance curve (which starts at 0 without an initial balance: a fall of the
   * cumulative P&L).
   */
  maxDrawdown: string;
  /**
   * Largest peak-to-trough fall of equity in % of its peak, 2 decimals (peaks ≤ 0 are skipped); null
   * with neither an equity curve nor an initial balance (no equity level to divide by).
   */
  maxDrawdownPct: string | null;
  /**
   * Annualised Sharpe ratio of daily returns, 2 decimals: mean / sample standard deviation × √252,
   * risk-free rate 0. null with fewer than 2 daily returns, a zero standard deviation, an equity
   * level ≤ 0 to return from, or with neither an equity curve nor an initial balance.
   */
  sharpe: string | null;
  /**
   * Time with at least one trade open within the window, in % of the window, 2 decimals; null
   * without a window (or an empty one) or when a trade has no open time.
   */
  exposurePct: string | null;
}

/** Trading days per year of the Sharpe ratio's annualisation (daily returns × √252). */
export const TRADING_DAYS_PER_YEAR = 252;

const DAY_MS = 86_400_000;
const MONEY_DP = 4;

/** Result of a trade from its P&L: WIN if > 0, LOSS if < 0, else BE (PRODUCT.md §4). */
export function tradeResult(pnl: Decimal.Value): "WIN" | "LOSS" | "BE" {
  const d = new Decimal(pnl);
  return d.gt(0) ? "WIN" : d.lt(0) ? "LOSS" : "BE";
}

/**
 * Statistics of closed trades (definitions in the module doc and on each `TradeStats` field).
 *
 * Daily returns of the Sharpe ratio: the equity at the end of each day (the last sample at or before
 * that day's midnight in `opts.timezone`, or its 17:00 New York close with `opts.tradingDayBoundary`
 * "ny_close" as in core/risk/trading-day.ts; carried forward over days without samples or trades) divided
 * by the equity at the end of the previous day, minus 1, for every day from the first sample's day to
 * the last sample's. Samples are the equity curve's; without one, the balance after each trade at its
 * close time, the initial balance being the equity at the end of the day before the first close (so
 * the first day's trades make a return too).
 * Days are trading days, Monday to Friday: the forex market is closed on weekends, and √252 annualises
 * trading-day returns (≈ 252 trading days a year). A sample on a Saturday or Sunday (e.g. the Sunday
 * evening open in UTC) belongs to the next Monday. Counting weekends as zero-return days and still
 * multiplying by √252 would shrink the ratio by about √(5/7).
 *
 * Throws RangeError on a time that is not a valid instant, on a negative risk, on a trade that closes
 * before it opens, or on an unknown time zone; decimal.js throws on a P&L that is not a decimal.
 */
export function computeTradeStats(trades: readonly StatsTrade[], opts: StatsOptions = {}): TradeStats {
  const tz = opts.timezone ?? "UTC";
  assertTimezone(tz); // an unknown time zone throws here, whatever the input
  const rows = trades.map((t, index) => {
    const close = instantMs(t.closeTime, "closeTime");
    const open = t.openTime === undefined ? undefined : instantMs(t.openTime, "openTime");
    if (open !== undefined && open > close) throw new RangeError(`trade ${index}: openTime is after closeTime`);
    const risk = t.risk === undefined ? undefined : new Decimal(t.risk);
    if (risk?.isNeg() && !risk.isZero()) throw new RangeError(`trade ${index}: risk must not be negative`);
    return { index, pnl: new Decimal(t.pnl), close, open, pips: t.pips === undefined ? undefined : new Decimal(t.pips), risk };
  });

  let wins = 0;
  let losses = 0;
  let grossProfit = new Decimal(0);
  let grossLoss = new Decimal(0);
  let rSum = new Decimal(0);
  let rCount = 0;
  let pipSum = new Decimal(0);
  let pipCount = 0;
  for (const r of rows) {
    if (r.pnl.gt(0)) {
      wins++;
      grossProfit = grossProfit.add(r.pnl);
    } else if (r.pnl.lt(0)) {
      losses++;
      grossLoss = grossLoss.add(r.pnl.neg());
    }
    if (r.risk?.gt(0)) {
      rSum = rSum.add(r.pnl.div(r.risk));
      rCount++;
    }
    if (r.pips !== undefined) {
      pipSum = pipSum.add(r.pips);
      pipCount++;
    }
  }
  const n = rows.length;
  const netPnl = grossProfit.sub(grossLoss);
  const avgWin = wins ? grossProfit.div(wins) : null;
  const avgLoss = losses ? grossLoss.div(losses) : null;
  const initial = opts.initialBalance === undefined ? null : new Decimal(opts.initialBalance);

  // Closed-trade balance curve: by close time, ties in the given order.
  const byClose = [...rows].sort((a, b) => a.close - b.close || a.index - b.index);
  const balanceSamples: { time: number; equity: Decimal }[] = [];
  let balance = initial ?? new Decimal(0);
  for (const r of byClose) {
    balance = balance.add(r.pnl);
    balanceSamples.push({ time: r.close, equity: balance });
  }
  const equity = opts.equityCurve?.length
    ? opts.equityCurve.map((s, i) => ({ time: instantMs(s.time, `equityCurve[${i}].time`), equity: new Decimal(s.equity), i })).sort((a, b) => a.time - b.time || a.i - b.i)
    : null;

  const dd = equity ? drawdown(equity.map((s) => s.equity)) : drawdown([initial ?? new Decimal(0), ...balanceSamples.map((s) => s.equity)]);
  const boundary = opts.tradingDayBoundary;
  const sharpe = equity ? sharpeRatio(dailyReturns(equity, null, tz, boundary)) : initial && balanceSamples.length ? sharpeRatio(dailyReturns(balanceSamples, initial, tz, boundary)) : null;

  return {
    trades: n,
    wins,
    losses,
    breakeven: n - wins - losses,
    winRatePct: n ? fixed(new Decimal(wins).div(n).mul(100), 1) : null,
    grossProfit: fixed(grossProfit, MONEY_DP),
    grossLoss: fixed(grossLoss, MONEY_DP),
    profitFactor: grossLoss.gt(0) ? fixed(grossProfit.div(grossLoss), 2) : null,
    payoffRatio: avgWin && avgLoss ? fixed(avgWin.div(avgLoss), 2) : null,
    averageWin: avgWin && fixed(avgWin, MONEY_DP),
    averageLoss: avgLoss && fixed(avgLoss, MONEY_DP),
    expectancy: n ? fixed(netPnl.div(n), MONEY_DP) : null,
    expectancyR: rCount ? fixed(rSum.div(rCount), 2) : null,
    expectancyPips: pipCount ? fixed(pipSum.div(pipCount), 1) : null,
    netPnl: fixed(netPnl, MONEY_DP),
    netPips: pipCount ? fixed(pipSum, 1) : null,
    initialBalance: initial && fixed(initial, MONEY_DP),
    finalBalance: initial && fixed(initial.add(netPnl), MONEY_DP),
    maxDrawdown: fixed(dd.amount, MONEY_DP),
    maxDrawdownPct: equity || initial ? fixed(dd.pct, 2) : null,
    sharpe,
    exposurePct: exposure(rows, opts.window),
  };
}

/** Largest fall from a running peak: as an amount, and in % of the peak (only peaks > 0). */
function drawdown(equities: readonly Decimal[]): { amount: Decimal; pct: Decimal } {
  let amount = new Decimal(0);
  let pct = new Decimal(0);
  let peak = equities[0];
  for (const e of equities) {
    if (!peak || e.gt(peak)) peak = e;
    const fall = peak.sub(e);
    if (fall.gt(amount)) amount = fall;
    if (peak.gt(0)) {
      const p = fall.div(peak).mul(100);
      if (p.gt(pct)) pct = p;
    }
  }
  return { amount, pct };
}

/**
 * Returns of end-of-trading-day equity over the trading days (Mon–Fri in `tz`) from the first
 * sample's to the last's; `base` is the equity at the end of the day before the first. null when an
 * equity level to return from is ≤ 0. Samples must be sorted by time.
 */
function dailyReturns(samples: readonly { time: number; equity: Decimal }[], base: Decimal | null, tz: string, boundary?: TradingDayBoundary): Decimal[] | null {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last) return [];
  const days = samples.map((s) => tradingDay(s.time, tz, boundary));
  const levels: Decimal[] = base ? [base] : [];
  let k = 0;
  let eod = first.equity;
  for (let d = days[0]!; d <= days[days.length - 1]!; d++) {
    if (isWeekend(d)) continue;
    while (k < samples.length && days[k]! <= d) eod = samples[k++]!.equity;
    levels.push(eod);
  }
  const out: Decimal[] = [];
  for (let i = 1; i < levels.length; i++) {
    const prev = levels[i - 1]!;
    if (prev.lte(0)) return null;
    out.push(levels[i]!.div(prev).sub(1));
  }
  return out;
}

/** Mean / sample standard deviation × √252, 2 decimals; null with < 2 returns or no dispersion. */
function sharpeRatio(returns: readonly Decimal[] | null): string | null {
  if (!returns || returns.length < 2) return null;
  const n = returns.length;
  const mean = returns.reduce((s, r) => s.add(r), new Decimal(0)).div(n);
  const variance = returns.reduce((s, r) => s.add(r.sub(mean).pow(2)), new Decimal(0)).div(n - 1);
  if (variance.isZero()) return null;
  return fixed(mean.div(variance.sqrt()).mul(Decimal.sqrt(TRADING_DAYS_PER_YEAR)), 2);
}

/** Union of the trades' [open, close] intervals within the window, in % of the window. */
function exposure(rows: readonly { open?: number; close: number }[], window: StatsOptions["window"]): string | null {
  if (!window) return null;
  const from = instantMs(window.from, "window.from");
  const to = instantMs(window.to, "window.to");
  if (to <= from || rows.some((r) => r.open === undefined)) return null;
  const spans = rows
    .map((r) => [Math.max(r.open!, from), Math.min(r.close, to)] as const)
    .filter(([s, e]) => e > s)
    .sort((a, b) => a[0] - b[0]);
  let covered = 0;
  let end = -Infinity;
  for (const [s, e] of spans) {
    if (e <= end) continue;
    covered += e - Math.max(s, end);
    end = e;
  }
  return fixed(new Decimal(covered).div(to - from).mul(100), 2);
}

/**
 * Days since 1970-01-01 of the trading day of `t`: its calendar day in `tz`, or with "ny_close" the
 * day named by the 17:00 New York close that ends it (core/risk/trading-day.ts); Saturday and Sunday
 * move to the next Monday.
 */
function tradingDay(t: number, tz: string, boundary?: TradingDayBoundary): number {
  let day = Date.parse(`${tradingDayOf(new Date(t), tz, boundary).date}T00:00:00Z`) / DAY_MS;
  while (isWeekend(day)) day++;
  return day;
}

/** 1970-01-01 was a Thursday: weekday = (day + 4) mod 7 with 0 = Sunday, 6 = Saturday. */
function isWeekend(day: number): boolean {
  const wd = (((day + 4) % 7) + 7) % 7;
  return wd === 0 || wd === 6;
}

function instantMs(t: Instant, what: string): number {
  const ms = t instanceof Date ? t.getTime() : typeof t === "number" ? t : Date.parse(t);
  if (!Number.isFinite(ms)) throw new RangeError(`${what} is not a valid instant: ${String(t)}`);
  return ms;
}

/** Fixed decimals, rounded half up, never "-0.00". */
function fixed(d: Decimal, dp: number): string {
  const s = d.toFixed(dp);
  return /^-0\.?0*$/.test(s) ? s.slice(1) : s;
}
