/**
 * Market regime (volatility and trend) and the timeframe the AI trades on (DESIGN.md §3 step 2).
 *
 * - Volatility: current ATR over the median of its recent values (features.ATR_MEDIAN_WINDOW).
 *   Above HIGH_VOL_RATIO → high, below LOW_VOL_RATIO → low, else normal.
 * - Trend: ADX ≥ TREND_ADX (25, Wilder's usual threshold for a trending market) → trending, else ranging.
 * - Timeframe: among M5/M15/M30/H1 (PRODUCT.md §9), from the trading style's ladder
 *   [fast, normal, slow]; the regime is read on the ladder's slowest timeframe (top-down analysis).
 *   autoTimeframeSelection off → settings.timeframe (or the style's normal timeframe).
 */
import type { Msg } from "../i18n/message";
import type { Timeframe } from "../instruments";
import type { TradingSettings, TradingStyle } from "../settings";
import type { Features } from "./features";
import { say, type Said } from "./text";

export const HIGH_VOL_RATIO = 1.3;
export const LOW_VOL_RATIO = 0.75;
export const TREND_ADX = 25;

export type Volatility = "low" | "normal" | "high";
export type Trend = "trending" | "ranging";

export interface Regime {
  volatility: Volatility;
  trend: Trend;
  /** Explanation of the timeframe choice in Portuguese (`renderMsg(reasonMsg)`). */
  reason: string;
  /** The same explanation as a translatable message (engine:regime.*, ADR 0007). */
  reasonMsg: Msg;
}

/** Timeframes per style: [fast, normal, slow]. Scalper uses M5 (the M1 fallback, `m1FallbackToM5`). */
export const STYLE_TIMEFRAMES: Record<TradingStyle, readonly [Timeframe, Timeframe, Timeframe]> = {
  scalper: ["M5", "M5", "M15"],
  day: ["M15", "M15", "M30"],
  swing: ["M15", "M30", "H1"],
  position: ["M30", "H1", "H1"],
};

/** The timeframe whose features define the regime for a style (slowest of its ladder). */
export function regimeTimeframe(style: TradingStyle): Timeframe {
  return STYLE_TIMEFRAMES[style][2];
}

/** Classifies volatility and trend from one timeframe's features. */
export function classifyRegime(f: Pick<Features, "atr" | "atrMedian" | "adx">): { volatility: Volatility; trend: Trend } {
  const ratio = f.atrMedian > 0 ? f.atr / f.atrMedian : 1;
  const volatility: Volatility = ratio > HIGH_VOL_RATIO ? "high" : ratio < LOW_VOL_RATIO ? "low" : "normal";
  return { volatility, trend: f.adx >= TREND_ADX ? "trending" : "ranging" };
}

/** Reason keys per volatility and trend (literal, so each is found by a search for the key). */
const REGIME_KEYS: Record<Volatility, Record<Trend, string>> = {
  high: { trending: "engine:regime.high.trending", ranging: "engine:regime.high.ranging" },
  normal: { trending: "engine:regime.normal.trending", ranging: "engine:regime.normal.ranging" },
  low: { trending: "engine:regime.low.trending", ranging: "engine:regime.low.ranging" },
};

/** A timeframe choice with its reason, as a message and as its Portuguese text. */
export interface TimeframePick {
  timeframe: Timeframe;
  /** Portuguese text of `reasonMsg`. */
  reason: string;
  reasonMsg: Msg;
}

function pick(timeframe: Timeframe, reason: Said): TimeframePick {
  return { timeframe, reason: reason.text, reasonMsg: reason.msg };
}

/** The timeframe `pickTimeframe` picks, without its reason (numbers only: the research's hot path). */
export function timeframeFor(regime: { volatility: Volatility; trend: Trend }, settings: Pick<TradingSettings, "timeframe" | "aiSettings">): Timeframe {
  const [fast, normal, slow] = STYLE_TIMEFRAMES[settings.aiSettings.tradingStyle];
  if (!settings.aiSettings.autoTimeframeSelection) return settings.timeframe ?? normal;
  const { volatility, trend } = regime;
  // high+trending → fast (quick entries); high+ranging → slow (filter the noise); low+ranging → slow
  // (larger moves); otherwise the style's normal timeframe.
  return volatility === "high" ? (trend === "trending" ? fast : slow) : volatility === "low" && trend === "ranging" ? slow : normal;
}

/**
 * Picks the timeframe for a regime and style (`timeframeFor`), with a reason message
 * (engine:regime.<volatility>.<trend> or engine:regime.autoOff.*) and its Portuguese text, e.g.
 * "Volatilidade alta e tendência forte: M15 para entradas rápidas".
 */
export function pickTimeframe(
  regime: { volatility: Volatility; trend: Trend },
  settings: Pick<TradingSettings, "timeframe" | "aiSettings">,
): TimeframePick {
  const tf = timeframeFor(regime, settings);
  if (!settings.aiSettings.autoTimeframeSelection) {
    return pick(tf, say(settings.timeframe ? "engine:regime.autoOff.manual" : "engine:regime.autoOff.styleDefault", { timeframe: tf }));
  }
  return pick(tf, say(REGIME_KEYS[regime.volatility][regime.trend], { timeframe: tf }));
}
