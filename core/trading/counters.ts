/**
 * The risk counters of DESIGN.md §3 "One executor", derived in ONE place from the trade list and
 * `now` (freqtrade style), so the live bot and the backtest cannot disagree:
 * - tradesToday: trades opened at or after the start of the trading day containing `now` (core/risk/trading-day.ts
 *   `tradingDay`: local midnight or 17:00 New York, settings.tradingDayBoundary);
 * - realizedPLToday: realized P&L of trades closed at or after that start (a trade closing on the
 *   first bar of a day counts in that day, whatever the caller's loop order);
 * - dayStartBalance: balance − realizedPLToday (the balance the day started with, no stored copy);
 * - consecutiveLosses: LOSS results in a row, newest close first, among trades closed since the
 *   bot's current run started (a manual start acknowledges the streak); a BE trade neither extends
 *   nor breaks the streak, only a WIN breaks it (ADR 0010);
 * - lastTradeAt: newest open time (cooldown);
 * - highWaterMark: max(persisted mark, equity now); never reset by a bot stop or restart.
 * Money is in account currency as decimal strings; times are UTC instants.
 */
import { Decimal } from "../decimal";
import { tradingDayStart, type TradingDayBoundary } from "../risk/trading-day";

/** One trade as the counters need it: open time, and close time + realized P&L once closed. */
export interface CounterTrade {
  openTime: Date;
  closeTime?: Date | null;
  /** Realized P&L in account currency (decimal string), for closed trades. */
  realizedPL?: string | null;
}

export interface RiskCounters {
  dayStart: Date;
  tradesToday: number;
  realizedPLToday: string;
  dayStartBalance: string;
  consecutiveLosses: number;
  lastTradeAt?: Date;
  highWaterMark: string;
}

export interface CounterInput {
  /** Every trade opened or closed since the trading day started, plus the newest closed trades (any order). */
  trades: readonly CounterTrade[];
  now: Date;
  /** IANA timezone of the trading day (user preference). */
  timezone?: string;
  /** Where the trading day starts (settings.tradingDayBoundary); default local midnight. */
  boundary?: TradingDayBoundary;
  /** Current balance (account currency). */
  balance: string;
  /** Current equity (NAV) for the high-water mark; defaults to the balance. */
  equity?: string;
  /** Persisted high-water mark, if any. */
  highWaterMark?: string | null;
  /** Start of the bot's current run: losses closed before it do not count in the streak. */
  runStartedAt?: Date | null;
}

/** Sign (−1, 0, 1) of a decimal string such as "-12.5000" or "0.0000", without parsing it (hot in backtests). */
function decimalSign(v: string): number {
  if (!/[1-9]/.test(v)) return 0;
  return v.startsWith("-") ? -1 : 1;
}

/** Derives the counters (see module doc). Pure; throws RangeError only for an unknown timezone. */
export function deriveRiskCounters(input: CounterInput): RiskCounters {
  const dayStart = tradingDayStart(input.now, input.timezone, input.boundary);
  const start = dayStart.getTime();
  const nowMs = input.now.getTime();
  let tradesToday = 0;
  let realized = new Decimal(0);
  let lastOpen = -Infinity;
  // Closed trades as (close time, P&L) pairs, newest first once sorted (hot in backtests: no Dates made).
  const closeTimes: number[] = [];
  const closePl: string[] = [];
  let sorted = true;
  for (const t of input.trades) {
    const open = t.openTime.getTime();
    if (open >= start && open <= nowMs) tradesToday++;
    if (open > lastOpen) lastOpen = open;
    if (t.closeTime && t.realizedPL != null) {
      const close = t.closeTime.getTime();
      if (close >= start) realized = realized.add(t.realizedPL);
      if (closeTimes.length > 0 && close > closeTimes[closeTimes.length - 1]!) sorted = false;
      closeTimes.push(close);
      closePl.push(t.realizedPL);
    }
  }
  let order = closeTimes.map((_, i) => i);
  if (!sorted) order = order.sort((a, b) => closeTimes[b]! - closeTimes[a]!);
  const since = input.runStartedAt?.getTime() ?? -Infinity;
  let consecutiveLosses = 0;
  for (const i of order) {
    const sign = decimalSign(closePl[i]!);
    if (closeTimes[i]! < since || sign > 0) break;
    if (sign < 0) consecutiveLosses++;
  }
  const equity = new Decimal(input.equity ?? input.balance);
  const hwm = input.highWaterMark != null ? Decimal.max(input.highWaterMark, equity) : equity;
  return {
    dayStart,
    tradesToday,
    realizedPLToday: realized.toString(),
    dayStartBalance: new Decimal(input.balance).sub(realized).toString(),
    consecutiveLosses,
    ...(lastOpen > -Infinity ? { lastTradeAt: new Date(lastOpen) } : {}),
    highWaterMark: hwm.toString(),
  };
}

/** Newest closed trades the counters take besides the trading day's (the losing streak's window; ADR 0010). */
export const STREAK_WINDOW = 50;

/**
 * Which trades feed the risk counters — the ONE rule, for the live bot (app/services/trading/counter-trades.server.ts)
 * and the backtest (core/backtest/sim-account.ts): every trade opened or closed at or after `dayStart`
 * (tradesToday, realizedPLToday), plus the STREAK_WINDOW newest closed (losing streak) and the newest
 * opened (cooldown). `byOpen`: the account's trades in open-time order, oldest first; `byClose`: its
 * closed trades in close-time order, oldest first (each may start later: only the newest matter).
 * Pure; answers each trade object once, in no particular order (deriveRiskCounters takes any order).
 */
export function selectCounterTrades<T extends CounterTrade>(byOpen: readonly T[], byClose: readonly T[], dayStart: Date): T[] {
  const out = new Set<T>();
  const since = dayStart.getTime();
  for (let i = byClose.length - 1; i >= 0; i--) {
    const c = byClose[i]!;
    if (i < byClose.length - STREAK_WINDOW && c.closeTime!.getTime() < since) break;
    out.add(c);
  }
  for (let i = byOpen.length - 1; i >= 0; i--) {
    const c = byOpen[i]!;
    if (i < byOpen.length - 1 && c.openTime.getTime() < since) break;
    out.add(c);
  }
  return [...out];
}
