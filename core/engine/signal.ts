/**
 * Trade direction and confidence from the enabled indicators (settings.aiSettings.indicators).
 *
 * Each enabled indicator votes +1 (buy), −1 (sell) or 0 (neutral):
 * - EMA: EMA20 above EMA50 → +1, below → −1 (moving-average trend filter).
 * - MACD: histogram (MACD − signal) > 0 → +1, < 0 → −1 (Appel).
 * - RSI: 50–70 → +1, 30–50 → −1; ≥ 70 overbought → −1, ≤ 30 oversold → +1 (Wilder's 70/30 levels).
 * - Bollinger: close between middle and upper band → +1, between lower and middle → −1; outside
 *   the bands → mean reversion (above upper → −1, below lower → +1).
 * - Stochastic: %K above %D → +1, below → −1; %K ≥ 80 → −1, ≤ 20 → +1 (Lane's 80/20 levels).
 * confidence = |Σ votes| / (number of enabled indicators) × trendFactor, where
 * trendFactor = min(1, 0.5 + ADX / 50) (ADX 25 → 1, ADX 10 → 0.7): weak trends weaken the signal.
 */
import type { TradingSettings } from "../settings";
import { EMA_FAST, EMA_SLOW } from "./features";
import type { Features } from "./features";

export type Direction = "buy" | "sell" | "none";

export interface Signal {
  direction: Direction;
  /** 0–1. */
  confidence: number;
  /** Portuguese, names each indicator, e.g. "EMA20 acima da EMA50, MACD positivo, RSI 58". */
  reason: string;
  votes: { indicator: string; vote: number; text: string }[];
}

type Indicators = TradingSettings["aiSettings"]["indicators"];

function round(n: number, dp: number): number {
  const k = 10 ** dp;
  return Math.round(n * k) / k;
}

/** Votes of each enabled indicator, in a fixed order (EMA, MACD, RSI, Bollinger, Stochastic). */
export function indicatorVotes(f: Features, on: Indicators): Signal["votes"] {
  const votes: Signal["votes"] = [];
  if (on.ema) {
    const v = Math.sign(f.emaFast - f.emaSlow);
    votes.push({ indicator: "ema", vote: v, text: `EMA${EMA_FAST} ${v > 0 ? "acima da" : v < 0 ? "abaixo da" : "igual à"} EMA${EMA_SLOW}` });
  }
  if (on.macd) {
    const v = Math.sign(f.macdHistogram);
    votes.push({ indicator: "macd", vote: v, text: `MACD ${v > 0 ? "positivo" : v < 0 ? "negativo" : "neutro"}` });
  }
  if (on.rsi) {
    const r = f.rsi;
    const v = r >= 70 ? -1 : r <= 30 ? 1 : r > 50 ? 1 : r < 50 ? -1 : 0;
    const tag = r >= 70 ? " (sobrecomprado)" : r <= 30 ? " (sobrevendido)" : "";
    votes.push({ indicator: "rsi", vote: v, text: `RSI ${Math.round(r)}${tag}` });
  }
  if (on.bollinger) {
    const c = f.close;
    let v = 0;
    let text = "preço na média de Bollinger";
    if (c > f.bbUpper) [v, text] = [-1, "preço acima da banda superior de Bollinger"];
    else if (c < f.bbLower) [v, text] = [1, "preço abaixo da banda inferior de Bollinger"];
    else if (c > f.bbMiddle) [v, text] = [1, "preço acima da média de Bollinger"];
    else if (c < f.bbMiddle) [v, text] = [-1, "preço abaixo da média de Bollinger"];
    votes.push({ indicator: "bollinger", vote: v, text });
  }
  if (on.stochastic) {
    const k = f.stochK;
    const v = k >= 80 ? -1 : k <= 20 ? 1 : Math.sign(k - f.stochD);
    const tag = k >= 80 ? " sobrecomprado" : k <= 20 ? " sobrevendido" : v > 0 ? " acima de %D" : v < 0 ? " abaixo de %D" : "";
    votes.push({ indicator: "stochastic", vote: v, text: `Estocástico ${Math.round(k)}${tag}` });
  }
  return votes;
}

/** Direction, confidence (0–1, 2 decimals) and reason from one timeframe's features. Pure. */
export function computeSignal(f: Features, on: Indicators): Signal {
  const votes = indicatorVotes(f, on);
  if (votes.length === 0) return { direction: "none", confidence: 0, reason: "Nenhum indicador ativado", votes };
  const sum = votes.reduce((s, v) => s + v.vote, 0);
  const trendFactor = Math.min(1, 0.5 + f.adx / 50);
  const confidence = round((Math.abs(sum) / votes.length) * trendFactor, 2);
  const direction: Direction = sum > 0 ? "buy" : sum < 0 ? "sell" : "none";
  const reason = `${votes.map((v) => v.text).join(", ")}, ADX ${Math.round(f.adx)}`;
  return { direction, confidence, reason, votes };
}
