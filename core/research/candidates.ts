/**
 * Strategy candidates of the research loop (issue 12): hypotheses tried against the default,
 * each a settings patch and/or an entry filter that runBacktest accepts (BacktestOptions.entryFilter),
 * so they run through the same executor as the live bot without changing its default.
 *
 * - default: today's engine (core/engine/decide.ts), unchanged.
 * - session: entries only in the London/New York overlap, 12:00–16:00 UTC (filter on the decision time).
 * - fresh: enter only when the signal is new — the previous decision of the instrument was not an
 *   "open" on the same side (a persisting signal does not re-enter).
 * - h1trend: enter only with the H1 trend: H1 EMA20 vs EMA50 on the trade's side and H1 ADX ≥ 20;
 *   pullback: the chosen timeframe's RSI within 40–60 (no chasing an extended move).
 * - weekend: no entries from Friday 12:00 UTC (the default already blocks 120 min before the close).
 * - wide: stops 2 × ATR, target 3 × ATR (same 1.5 reward/risk): the spread is a smaller share of the risk.
 */
import type { Decision } from "../engine/decide";
import type { DecisionEngine } from "../engine/decide";
import type { TradingSettings } from "../settings";

export type EntryFilter = (d: Decision, ctx: { now: Date; engine: DecisionEngine }) => boolean;

export interface Candidate {
  name: string;
  /** What it changes, in plain words (English, for the report). */
  description: string;
  /** Settings changed from the style's defaults. */
  patch?: (s: TradingSettings) => TradingSettings;
  /** A fresh filter per backtest run (filters may keep state across ticks). */
  filter?: () => EntryFilter;
}

/** 12:00 ≤ UTC hour < 16:00. */
export function inOverlapSession(now: Date): boolean {
  const h = now.getUTCHours();
  return h >= 12 && h < 16;
}

/** Friday from 12:00 UTC, Saturday, or Sunday (before the week's open). */
export function nearWeekendClose(now: Date): boolean {
  const d = now.getUTCDay();
  return d === 6 || d === 0 || (d === 5 && now.getUTCHours() >= 12);
}

/** Filter: only entries inside the London/New York overlap. */
export function sessionFilter(): EntryFilter {
  return (_d, { now }) => inOverlapSession(now);
}

/** Filter: only entries on a signal that was not already "open" on the same side at the previous decision. */
export function freshSignalFilter(): EntryFilter {
  const last = new Map<string, string>();
  return (d) => {
    const key = d.action === "open" ? `open-${d.side}` : "none";
    const prev = last.get(d.instrument);
    last.set(d.instrument, key);
    return prev !== key;
  };
}

/** Filter: with the H1 trend (EMA20/EMA50 and ADX ≥ 20), entering on a pullback (RSI of the chosen timeframe within 40–60). */
export function h1TrendFilter(): EntryFilter {
  return (d, { engine }) => {
    const h1 = engine.features("H1");
    if (!h1 || !d.features) return false;
    const up = h1.emaFast > h1.emaSlow;
    const withTrend = d.side === "buy" ? up : !up;
    return withTrend && h1.adx >= 20 && d.features.rsi >= 40 && d.features.rsi <= 60;
  };
}

export const CANDIDATES: readonly Candidate[] = [
  { name: "default", description: "today's engine, unchanged" },
  { name: "session", description: "entries only 12:00–16:00 UTC (London/New York overlap)", filter: sessionFilter },
  { name: "fresh", description: "entries only on a fresh signal (not one persisting from the previous decision)", filter: freshSignalFilter },
  { name: "h1trend", description: "entries only with the H1 trend (EMA20/50, ADX ≥ 20), on a pullback (RSI 40–60)", filter: h1TrendFilter },
  { name: "weekend", description: "no entries from Friday 12:00 UTC", filter: () => (_d, { now }) => !nearWeekendClose(now) },
  { name: "wide", description: "stop 2 × ATR, target 3 × ATR (spread a smaller share of the risk)", patch: (s) => ({ ...s, slRatio: 2, tpRatio: 3 }) },
];
