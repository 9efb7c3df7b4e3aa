/**
 * "Por que a IA entrou?" (issue 12): what a stored decision must carry so a trade can be explained later
 * — entry price, stop/target distances in pips and the indicator values of the chosen timeframe — and the
 * reading of that stored payload back. Pure; the live store (app/services/trading/decisions-store.server.ts decisionRow)
 * adds `decisionExplainPayload` to `decisions.payload`; nothing here changes what the bot does.
 *
 * Pips: |entry − stop| / pip size (core/instruments pipSize: 0.0001, 0.01 for JPY quotes), one decimal.
 * Indicator values are the engine's features (core/engine/features.ts), floats rounded for display;
 * indicators switched off (NaN) are left out.
 * Risk at entry (issue 21): the balance the size was computed on, its currency and the quote→account
 * rate (`Decision.entryRisk`, core/engine/decide.ts) are stored too, so the trade detail can show
 * |entry − stop loss| × units × rate in money and as % of that balance; rows stored before have none.
 */
import type { Decision, EntryRisk } from "../engine/decide";
import type { Features } from "../engine/features";
import { Decimal } from "../decimal";
import { isMsg, type Msg } from "../i18n/message";
import { pipSize } from "../instruments";

/** Indicator values kept per decision, in display order (names as in core/engine/features.ts). */
export const EXPLAINED_INDICATORS = ["close", "emaFast", "emaSlow", "rsi", "macd", "macdSignal", "macdHistogram", "adx", "pdi", "mdi", "atr", "bbUpper", "bbMiddle", "bbLower", "stochK", "stochD"] as const;
export type ExplainedIndicator = (typeof EXPLAINED_INDICATORS)[number];

/** Significant digits kept for an indicator value (prices need ≥ 6 for 5-decimal quotes). */
const SIGNIFICANT = 7;

/** Distance between two prices in pips of `instrument`, one decimal ("12.5"); null when a price is missing or invalid. */
export function pipsBetween(instrument: string, a: string | null | undefined, b: string | null | undefined): string | null {
  if (!a || !b) return null;
  try {
    return new Decimal(a).minus(b).abs().div(pipSize(instrument)).toDecimalPlaces(1).toFixed(1);
  } catch {
    return null;
  }
}

/** The finite indicator values of a decision's features, rounded to 7 significant digits. */
export function indicatorValues(features: Features | undefined): Partial<Record<ExplainedIndicator, number>> {
  const out: Partial<Record<ExplainedIndicator, number>> = {};
  if (!features) return out;
  for (const name of EXPLAINED_INDICATORS) {
    const v = features[name];
    if (typeof v === "number" && Number.isFinite(v)) out[name] = Number(v.toPrecision(SIGNIFICANT));
  }
  return out;
}

/** Extra fields stored in `decisions.payload` so the trade it opens can be explained (see module doc). */
export function decisionExplainPayload(d: Decision): { entryPrice?: string; stopPips?: string; targetPips?: string; indicators?: Partial<Record<ExplainedIndicator, number>>; entryRisk?: EntryRisk } {
  const indicators = indicatorValues(d.features);
  const stopPips = pipsBetween(d.instrument, d.entryPrice, d.stopLoss);
  const targetPips = pipsBetween(d.instrument, d.entryPrice, d.takeProfit);
  return {
    ...(d.entryPrice ? { entryPrice: d.entryPrice } : {}),
    ...(stopPips ? { stopPips } : {}),
    ...(targetPips ? { targetPips } : {}),
    ...(Object.keys(indicators).length ? { indicators } : {}),
    ...(d.entryRisk ? { entryRisk: d.entryRisk } : {}),
  };
}

/** A stored decision, read back for the trade detail (every field optional: older rows hold less). */
export interface DecisionExplanation {
  decisionId: string;
  instrument: string;
  side: "buy" | "sell" | null;
  timeframe: string | null;
  /** 0–1. */
  confidence: number | null;
  /** The engine's reason (ADR 0007 message), else its stored Portuguese text. */
  reason: Msg | string;
  regime: { volatility: string | null; trend: string | null; reason: Msg | string | null };
  entryPrice: string | null;
  stopLoss: string | null;
  takeProfit: string | null;
  stopPips: string | null;
  targetPips: string | null;
  indicators: Partial<Record<ExplainedIndicator, number>>;
  tradingStyle: string | null;
  /** The risk gate: its code ("ok" when allowed) and message (risk:allowed when it allowed the entry). */
  risk: { allowed: boolean; code: string | null; reason: Msg | string };
  executed: boolean;
  /** Market time of the tick that decided (ISO), else when the row was stored. */
  decidedAt: string;
  /** Balance the size was computed on, its currency and the quote→account rate; null for rows stored before issue 21. */
  sizedOn: { balance: string; currency: string; rate: string; maxLeverage: number | null; capped: boolean } | null;
}

/** A decisions row as stored (subset). */
export interface StoredDecisionRow {
  decision_id: string;
  instrument: string;
  side: string | null;
  confidence: string | number | null;
  timeframe: string | null;
  reason: string;
  reason_msg: unknown;
  risk_code: string | null;
  risk_reason: string | null;
  executed: boolean;
  payload: unknown;
  created_at: Date;
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/**
 * Reads a stored decision row into a DecisionExplanation; distances are recomputed from the stored prices
 * when the payload predates `stopPips` / `targetPips` (rows written before issue 12).
 */
export function readDecision(row: StoredDecisionRow): DecisionExplanation {
  const p = (typeof row.payload === "object" && row.payload !== null ? row.payload : {}) as Record<string, unknown>;
  const regime = (typeof p.regime === "object" && p.regime !== null ? p.regime : {}) as Record<string, unknown>;
  const entryPrice = str(p.entryPrice);
  const stopLoss = str(p.stopLoss);
  const takeProfit = str(p.takeProfit);
  const rawIndicators = (typeof p.indicators === "object" && p.indicators !== null ? p.indicators : {}) as Record<string, unknown>;
  const indicators: Partial<Record<ExplainedIndicator, number>> = {};
  for (const name of EXPLAINED_INDICATORS) {
    const v = rawIndicators[name];
    if (typeof v === "number" && Number.isFinite(v)) indicators[name] = v;
  }
  const allowed = row.risk_reason === null && !isMsg(p.riskReasonMsg);
  const confidence = row.confidence === null || row.confidence === undefined ? null : Number(row.confidence);
  return {
    decisionId: row.decision_id,
    instrument: row.instrument,
    side: row.side === "buy" || row.side === "sell" ? row.side : null,
    timeframe: row.timeframe,
    confidence: confidence !== null && Number.isFinite(confidence) ? confidence : null,
    reason: isMsg(row.reason_msg) ? row.reason_msg : row.reason,
    regime: {
      volatility: str(regime.volatility),
      trend: str(regime.trend),
      reason: isMsg(regime.reasonMsg) ? regime.reasonMsg : str(regime.reason),
    },
    entryPrice,
    stopLoss,
    takeProfit,
    stopPips: str(p.stopPips) ?? pipsBetween(row.instrument, entryPrice, stopLoss),
    targetPips: str(p.targetPips) ?? pipsBetween(row.instrument, entryPrice, takeProfit),
    indicators,
    tradingStyle: str(p.tradingStyle),
    risk: {
      allowed,
      code: row.risk_code,
      reason: allowed ? { key: "risk:allowed" } : isMsg(p.riskReasonMsg) ? p.riskReasonMsg : (row.risk_reason ?? ""),
    },
    executed: row.executed,
    decidedAt: str(p.marketTime) ?? row.created_at.toISOString(),
    sizedOn: readSizedOn(p.entryRisk),
  };
}

/** The stored `entryRisk` of a payload, when it holds a positive balance and rate. */
function readSizedOn(v: unknown): DecisionExplanation["sizedOn"] {
  if (typeof v !== "object" || v === null) return null;
  const r = v as Record<string, unknown>;
  const balance = str(r.balance);
  const currency = str(r.currency);
  const rate = str(r.rate);
  if (!balance || !currency || !rate) return null;
  try {
    if (!new Decimal(balance).gt(0) || !new Decimal(rate).gt(0)) return null;
  } catch {
    return null;
  }
  return { balance, currency, rate, maxLeverage: typeof r.maxLeverage === "number" ? r.maxLeverage : null, capped: r.capped === true };
}
