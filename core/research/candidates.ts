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
 * - regime: trend-following in a trend, mean reversion in a range, nothing in chop (regimeFilter).
 * - trendonly: the engine's entries only in a trending regime, with the anchor timeframe's EMA trend.
 * - voltarget: every trade risks the same amount (volTargetFilter): the default's 5:1 leverage cap
 *   (core/engine/sizing.ts) binds on almost every trade, so its risk grows with the ATR (0.2–0.9 %
 *   of the balance on swing, measured); here the position is cut so the ATR stop risks a constant amount.
 * Filters may rewrite the decision they are given (side, stops, units): runBacktest executes the
 * object the filter returned true for. That is how a research candidate trades a direction or a size
 * the engine did not choose without any change to the live engine.
 */
import { Decimal } from "../decimal";
import type { Decision } from "../engine/decide";
import type { DecisionEngine } from "../engine/decide";
import { regimeTimeframe } from "../engine/regime";
import { formatPrice, instrumentSpec } from "../instruments";
import { halfSpread } from "../simulator/pricing";
import type { TradingSettings } from "../settings";

export type EntryFilter = (d: Decision, ctx: { now: Date; engine: DecisionEngine }) => boolean;

export interface Candidate {
  name: string;
  /** What it changes, in plain words (English, for the report). */
  description: string;
  /** Settings changed from the style's defaults. */
  patch?: (s: TradingSettings) => TradingSettings;
  /** A fresh filter per backtest run (filters may keep state across ticks), given the run's settings. */
  filter?: (settings: TradingSettings) => EntryFilter;
  /**
   * The filter's condition on time alone, when it has one (session, weekend): the random baseline
   * of this candidate enters only when it holds (core/research/baseline.ts), so both draw from the same hours.
   */
  timeCondition?: (now: Date) => boolean;
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

/** RSI of the chosen timeframe at or above which a range is stretched up (mean reversion sells), and at or below which it buys. */
export const RANGE_RSI_HIGH = 60;
export const RANGE_RSI_LOW = 40;

/**
 * The decision turned to the other side, same stop and target distances and size: entry = the
 * other side of the quote (the original entry ∓ the simulator's full spread at `now`,
 * core/simulator/pricing.ts), stop and target mirrored around it. The broker fills at its own
 * price; the trade's risk is measured from that fill (core/backtest/run.ts), so a spread estimate
 * that is off changes the stop distance by at most that error. Mutates and returns `d`.
 * @throws Error when `d` is not an "open" with prices (a programming error).
 */
export function flipDecision(d: Decision, now: Date): Decision {
  if (d.action !== "open" || !d.side || !d.entryPrice || !d.stopLoss || !d.takeProfit || !d.units) throw new Error("flipDecision: not an open decision");
  const entry = new Decimal(d.entryPrice);
  const sl = entry.sub(d.stopLoss).abs();
  const tp = entry.sub(d.takeProfit).abs();
  const spread = halfSpread(d.instrument, now.getTime()).mul(2);
  const side = d.side === "buy" ? "sell" : "buy";
  const newEntry = side === "sell" ? entry.sub(spread) : entry.add(spread);
  const dir = side === "buy" ? 1 : -1;
  d.side = side;
  d.entryPrice = formatPrice(d.instrument, newEntry);
  d.stopLoss = formatPrice(d.instrument, newEntry.sub(sl.mul(dir)));
  d.takeProfit = formatPrice(d.instrument, newEntry.add(tp.mul(dir)));
  d.units = new Decimal(d.units).neg().toFixed(0);
  return d;
}

/**
 * Regime-dependent entries, from the engine's regime read (core/engine/regime.ts: trend = ADX ≥ 25
 * on the style's anchor timeframe, volatility = ATR / its median):
 * - trending: trend-following — the engine's entry only on the side of the anchor timeframe's
 *   EMA20/EMA50 trend;
 * - ranging with high volatility ("chop"): no entry;
 * - ranging with low or normal volatility ("range"): mean reversion — when the chosen timeframe's
 *   RSI is ≥ RANGE_RSI_HIGH sell, ≤ RANGE_RSI_LOW buy, otherwise no entry. It acts on the ticks
 *   where the engine wants to enter (that is where the stops and size are computed), turning the
 *   entry to the other side when the engine's side is the stretched one (flipDecision).
 */
export function regimeFilter(settings: TradingSettings): EntryFilter {
  const anchorTf = regimeTimeframe(settings.aiSettings.tradingStyle);
  return (d, { now, engine }) => {
    if (d.action !== "open" || !d.side || !d.features) return false;
    if (d.regime.trend === "trending") {
      const a = engine.features(anchorTf);
      if (!a) return false;
      return (a.emaFast > a.emaSlow ? "buy" : "sell") === d.side;
    }
    if (d.regime.volatility === "high") return false;
    const rsi = d.features.rsi;
    const want = rsi >= RANGE_RSI_HIGH ? "sell" : rsi <= RANGE_RSI_LOW ? "buy" : null;
    if (!want) return false;
    if (want !== d.side) flipDecision(d, now);
    return true;
  };
}

/** The engine's entries only in a trending regime and on the side of the anchor timeframe's EMA20/EMA50 trend. */
export function trendOnlyFilter(settings: TradingSettings): EntryFilter {
  const anchorTf = regimeTimeframe(settings.aiSettings.tradingStyle);
  return (d, { engine }) => {
    if (d.regime.trend !== "trending" || !d.side) return false;
    const a = engine.features(anchorTf);
    return !!a && (a.emaFast > a.emaSlow ? "buy" : "sell") === d.side;
  };
}

/**
 * Volatility targeting: the position is cut so that its ATR stop risks `riskAmount` in the account
 * currency (units = riskAmount / (stop distance × quote→account rate)), never more than the engine's
 * size (which already carries the margin and 5:1 leverage caps). The rate is 1 for a USD-quoted pair
 * on a USD account and 1/entry for a USD-based one; other crosses pass unchanged (no rate here).
 * Mutates `d.units`.
 */
export function volTargetFilter(riskAmount: Decimal.Value, accountCurrency = "USD"): EntryFilter {
  const target = new Decimal(riskAmount);
  return (d) => {
    if (d.action !== "open" || !d.units || !d.entryPrice || !d.stopLoss) return true;
    const { base, quote } = instrumentSpec(d.instrument);
    const entry = new Decimal(d.entryPrice);
    const rate = quote === accountCurrency ? new Decimal(1) : base === accountCurrency ? new Decimal(1).div(entry) : null;
    if (!rate) return true;
    const stop = entry.sub(d.stopLoss).abs();
    if (stop.lte(0)) return true;
    const want = target.div(stop.mul(rate)).toDecimalPlaces(6).floor();
    const units = new Decimal(d.units);
    if (want.lt(units.abs())) {
      if (want.lte(0)) return false;
      d.units = (units.isNegative() ? want.neg() : want).toFixed(0);
    }
    return true;
  };
}

/** Risk per trade of the voltarget candidate: 0.1 % of the research account's 10 000 USD (below the default's smallest swing risk, ~21 USD). */
export const VOLTARGET_RISK_USD = "10";

export const CANDIDATES: readonly Candidate[] = [
  { name: "default", description: "today's engine, unchanged" },
  { name: "session", description: "entries only 12:00–16:00 UTC (London/New York overlap)", filter: sessionFilter, timeCondition: inOverlapSession },
  { name: "fresh", description: "entries only on a fresh signal (not one persisting from the previous decision)", filter: freshSignalFilter },
  { name: "h1trend", description: "entries only with the H1 trend (EMA20/50, ADX ≥ 20), on a pullback (RSI 40–60)", filter: h1TrendFilter },
  { name: "weekend", description: "no entries from Friday 12:00 UTC", filter: () => (_d, { now }) => !nearWeekendClose(now), timeCondition: (now) => !nearWeekendClose(now) },
  { name: "wide", description: "stop 2 × ATR, target 3 × ATR (spread a smaller share of the risk)", patch: (s) => ({ ...s, slRatio: 2, tpRatio: 3 }) },
  {
    name: "regime",
    description: `trend-following in a trend (ADX ≥ 25: only with the anchor EMA20/50), mean reversion in a range (low/normal volatility: sell at RSI ≥ ${RANGE_RSI_HIGH}, buy at RSI ≤ ${RANGE_RSI_LOW}), nothing in chop (ranging and high volatility)`,
    filter: regimeFilter,
  },
  { name: "trendonly", description: "entries only in a trending regime (ADX ≥ 25), with the anchor timeframe's EMA20/50", filter: trendOnlyFilter },
  { name: "voltarget", description: `volatility targeting: every trade risks ${VOLTARGET_RISK_USD} USD (0.1 % of the start) at its ATR stop instead of the leverage-capped size`, filter: () => volTargetFilter(VOLTARGET_RISK_USD) },
];
