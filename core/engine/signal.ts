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
import type { Msg } from "../i18n/message";
import type { TradingSettings } from "../settings";
import { EMA_FAST, EMA_SLOW } from "./features";
import type { Features } from "./features";
import { say, sayList } from "./text";

export type Direction = "buy" | "sell" | "none";

export interface Signal {
  direction: Direction;
  /** 0–1. */
  confidence: number;
  /**
   * Names each indicator, e.g. "EMA20 acima da EMA50, MACD positivo, RSI 58, ADX 25": the Portuguese
   * text of `reasonMsg`.
   */
  reason: string;
  /**
   * engine:signal.reason {votes, adx}, `votes` being the vote messages chained with engine:list.item
   * (see sayList); engine:signal.noIndicators when none is enabled.
   */
  reasonMsg: Msg;
  votes: SignalVote[];
}

/** One indicator's vote, with its text as a message (engine:signal.<indicator>.*) and in Portuguese. */
export interface SignalVote {
  indicator: string;
  vote: number;
  /** Portuguese text of `textMsg`. */
  text: string;
  textMsg: Msg;
}

type Indicators = TradingSettings["aiSettings"]["indicators"];

function round(n: number, dp: number): number {
  const k = 10 ** dp;
  return Math.round(n * k) / k;
}

const STOCHASTIC_KEYS = {
  overbought: "engine:signal.stochastic.overbought",
  oversold: "engine:signal.stochastic.oversold",
  aboveD: "engine:signal.stochastic.aboveD",
  belowD: "engine:signal.stochastic.belowD",
  value: "engine:signal.stochastic.value",
} as const;

function vote(indicator: string, v: number, key: string, params?: Record<string, string | number>): SignalVote {
  const said = say(key, params);
  return { indicator, vote: v, text: said.text, textMsg: said.msg };
}

/** EMA vote: EMA20 above EMA50 → +1, below → −1. */
const emaVote = (f: Features) => Math.sign(f.emaFast - f.emaSlow);
/** MACD vote: the histogram's sign. */
const macdVote = (f: Features) => Math.sign(f.macdHistogram);
/** RSI vote: 50–70 → +1, 30–50 → −1, ≥ 70 → −1, ≤ 30 → +1. */
const rsiVote = (r: number) => (r >= 70 ? -1 : r <= 30 ? 1 : r > 50 ? 1 : r < 50 ? -1 : 0);
/** Bollinger vote: above the upper band −1, below the lower +1, else the side of the middle. */
const bollingerVote = (f: Features) => (f.close > f.bbUpper ? -1 : f.close < f.bbLower ? 1 : f.close > f.bbMiddle ? 1 : f.close < f.bbMiddle ? -1 : 0);
/** Stochastic vote: %K ≥ 80 → −1, ≤ 20 → +1, else the sign of %K − %D. */
const stochasticVote = (f: Features) => (f.stochK >= 80 ? -1 : f.stochK <= 20 ? 1 : Math.sign(f.stochK - f.stochD));

/** Votes of each enabled indicator, in a fixed order (EMA, MACD, RSI, Bollinger, Stochastic). */
export function indicatorVotes(f: Features, on: Indicators): SignalVote[] {
  const votes: SignalVote[] = [];
  if (on.ema) {
    const v = emaVote(f);
    const key = v > 0 ? "engine:signal.ema.above" : v < 0 ? "engine:signal.ema.below" : "engine:signal.ema.equal";
    votes.push(vote("ema", v, key, { fast: EMA_FAST, slow: EMA_SLOW }));
  }
  if (on.macd) {
    const v = macdVote(f);
    votes.push(vote("macd", v, v > 0 ? "engine:signal.macd.positive" : v < 0 ? "engine:signal.macd.negative" : "engine:signal.macd.neutral"));
  }
  if (on.rsi) {
    const r = f.rsi;
    const key = r >= 70 ? "engine:signal.rsi.overbought" : r <= 30 ? "engine:signal.rsi.oversold" : "engine:signal.rsi.value";
    votes.push(vote("rsi", rsiVote(r), key, { value: Math.round(r) }));
  }
  if (on.bollinger) {
    const c = f.close;
    const key = c > f.bbUpper ? "engine:signal.bollinger.aboveUpper" : c < f.bbLower ? "engine:signal.bollinger.belowLower" : c > f.bbMiddle ? "engine:signal.bollinger.aboveMiddle" : c < f.bbMiddle ? "engine:signal.bollinger.belowMiddle" : "engine:signal.bollinger.atMiddle";
    votes.push(vote("bollinger", bollingerVote(f), key));
  }
  if (on.stochastic) {
    const k = f.stochK;
    const v = stochasticVote(f);
    const key = k >= 80 ? "overbought" : k <= 20 ? "oversold" : v > 0 ? "aboveD" : v < 0 ? "belowD" : "value";
    votes.push(vote("stochastic", v, STOCHASTIC_KEYS[key], { value: Math.round(k) }));
  }
  return votes;
}

/**
 * Direction and confidence alone, on numbers (no reason text): what `computeSignal` returns for them,
 * at a fraction of its cost (the research steps it on every candle, docs/BENCHMARKS.md "Research").
 */
export function signalDirection(f: Features, on: Indicators): { direction: Direction; confidence: number } {
  let sum = 0;
  let count = 0;
  const add = (vote: number) => {
    sum += vote;
    count++;
  };
  if (on.ema) add(emaVote(f));
  if (on.macd) add(macdVote(f));
  if (on.rsi) add(rsiVote(f.rsi));
  if (on.bollinger) add(bollingerVote(f));
  if (on.stochastic) add(stochasticVote(f));
  if (count === 0) return { direction: "none", confidence: 0 };
  const trendFactor = Math.min(1, 0.5 + f.adx / 50);
  return { direction: sum > 0 ? "buy" : sum < 0 ? "sell" : "none", confidence: round((Math.abs(sum) / count) * trendFactor, 2) };
}

/** Direction, confidence (0–1, 2 decimals) and reason from one timeframe's features. Pure. */
export function computeSignal(f: Features, on: Indicators): Signal {
  const votes = indicatorVotes(f, on);
  if (votes.length === 0) {
    const none = say("engine:signal.noIndicators");
    return { direction: "none", confidence: 0, reason: none.text, reasonMsg: none.msg, votes };
  }
  const { direction, confidence } = signalDirection(f, on);
  const list = sayList(votes.map((v) => ({ msg: v.textMsg, text: v.text })));
  const reason = say("engine:signal.reason", { votes: list, adx: Math.round(f.adx) });
  return { direction, confidence, reason: reason.text, reasonMsg: reason.msg, votes };
}
