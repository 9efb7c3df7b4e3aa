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
import type { Timeframe } from "../instruments";
import type { TradingSettings, TradingStyle } from "../settings";
import type { Features } from "./features";

export const HIGH_VOL_RATIO = 1.3;
export const LOW_VOL_RATIO = 0.75;
export const TREND_ADX = 25;

export type Volatility = "low" | "normal" | "high";
export type Trend = "trending" | "ranging";

export interface Regime {
  volatility: Volatility;
  trend: Trend;
  /** Portuguese explanation of the timeframe choice. */
  reason: string;
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

const VOL_PT: Record<Volatility, string> = { low: "baixa", normal: "normal", high: "alta" };

/**
 * Picks the timeframe for a regime and style, with a Portuguese reason, e.g.
 * "Volatilidade alta e tendência forte: M15 para entradas rápidas".
 */
export function pickTimeframe(
  regime: { volatility: Volatility; trend: Trend },
  settings: Pick<TradingSettings, "timeframe" | "aiSettings">,
): { timeframe: Timeframe; reason: string } {
  const style = settings.aiSettings.tradingStyle;
  const [fast, normal, slow] = STYLE_TIMEFRAMES[style];
  if (!settings.aiSettings.autoTimeframeSelection) {
    const tf = settings.timeframe ?? normal;
    return { timeframe: tf, reason: `Seleção automática desligada: timeframe ${settings.timeframe ? "manual" : "padrão do estilo"} ${tf}` };
  }
  const vol = `Volatilidade ${VOL_PT[regime.volatility]}`;
  const { volatility, trend } = regime;
  if (volatility === "high" && trend === "trending") return { timeframe: fast, reason: `${vol} e tendência forte: ${fast} para entradas rápidas` };
  if (volatility === "high") return { timeframe: slow, reason: `${vol} sem tendência: ${slow} para filtrar o ruído` };
  if (volatility === "low" && trend === "ranging") return { timeframe: slow, reason: `${vol} e mercado lateral: ${slow} para capturar movimentos maiores` };
  if (trend === "trending") return { timeframe: normal, reason: `${vol} e tendência definida: ${normal} para seguir a tendência` };
  return { timeframe: normal, reason: `${vol} e mercado lateral: ${normal} equilibrado` };
}
