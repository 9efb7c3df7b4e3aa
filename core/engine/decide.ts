/**
 * The engine's one entry point (DESIGN.md §3 step 2): candles + price + settings + account →
 * a Decision (data, not an order). Pure and deterministic: the same input gives the same
 * decision and the same id. Pipeline: features → regime/timeframe → signal → stops → size.
 *
 * Two forms share one implementation:
 * - `decide(input)`: batch, builds the indicators from the candle arrays (live bot ticks).
 * - `DecisionEngine`: streaming, candles are pushed once and indicators updated in O(1) per
 *   candle (backtests); `engine.decide(...)` equals `decide(...)` on the same closed candles.
 */
import type { Msg } from "../i18n/message";
import { Decimal } from "../decimal";
import { AI_TIMEFRAMES, formatPrice, GRANULARITY_SECONDS, instrumentSpec } from "../instruments";
import type { Timeframe } from "../instruments";
import type { Candle } from "../candles";
import { effectiveLotMode } from "../settings";
import type { TradingSettings } from "../settings";
import { FeatureTracker } from "./features";
import type { FeatureConfig, Features } from "./features";
import { classifyRegime, pickTimeframe, regimeTimeframe, timeframeFor } from "./regime";
import type { Trend, Volatility } from "./regime";
import { computeSignal, signalDirection } from "./signal";
import { computeStops } from "./stops";
import { computeUnits, effectiveLeverage, positionRisk, quoteToAccount, RISK_PER_TRADE_PCT } from "./sizing";
import { say, type Said } from "./text";

/** Minimum signal confidence (0–1) to open a trade: with the 3 default indicators, all must agree. */
export const MIN_CONFIDENCE = 0.6;
/** Take-profit multiplier applied by the scalper's `reduceTpOnChop` when the market is ranging. */
export const CHOP_TP_FACTOR = 0.7;
/** The chosen timeframe's last closed candle may be at most this many candle lengths older than `now`. */
export const MAX_STALE_CANDLES = 3;

export type CandlesByTimeframe = Partial<Record<Timeframe, Candle[]>>;

export interface EngineInput {
  /** Decision instant (UTC); the app passes its clock's now. */
  now: Date;
  instrument: string;
  /** Ascending candles per timeframe; incomplete candles are ignored. */
  candles: CandlesByTimeframe;
  /** Current quote, decimal strings. */
  price: { bid: string; ask: string; tradeable: boolean };
  settings: TradingSettings;
  /** Balance and margin in account currency (decimal strings). */
  account: { balance: string; currency: string; marginAvailable?: string };
  /** Quote → account currency rate, needed when neither side of the pair is the account currency. */
  quoteToAccountRate?: string;
}

export interface Decision {
  /** Deterministic: instrument, timeframe and last closed candle time (used as the order's client id). */
  id: string;
  instrument: string;
  action: "open" | "none";
  side?: "buy" | "sell";
  /** 0–1. */
  confidence: number;
  timeframe: Timeframe;
  /** The regime read on the anchor timeframe, with the timeframe choice's reason (text and message). */
  regime: { volatility: Volatility; trend: Trend; reason: string; reasonMsg: Msg };
  /** Why this action, in Portuguese: the text of `reasonMsg` (`renderMsg(reasonMsg)`). */
  reason: string;
  /**
   * The same reason as a translatable message (ADR 0007): engine:decision.* whose `signal` parameter
   * is the signal's message (engine:signal.reason), or engine:sizing.*; render it with
   * `renderMsg(d.reasonMsg, lang)` (core) or the app's `translateMsg`.
   */
  reasonMsg: Msg;
  entryPrice?: string;
  stopLoss?: string;
  takeProfit?: string;
  /** Scalper trailing-stop distance, price units formatted to the instrument's precision. */
  trailingStopDistance?: string;
  /** Signed integer string (+ buy, − sell). */
  units?: string;
  /** Scalper: close the position after this many seconds (settings.aiSettings.scalper.maxHoldSec). */
  maxHoldSec?: number;
  /** Open decisions: what the size risks on its stop (see `EntryRisk`). */
  entryRisk?: EntryRisk;
  /** Features of the chosen timeframe (numbers), when available. */
  features?: Features;
}

/**
 * The risk of an open decision at entry (issue 21 "risk the user can read"): the balance it was
 * sized on, the quote→account rate, |units| × |entry − stop loss| × rate in account currency and as
 * % of that balance, the leverage cap used (× balance) and whether the cap (or the margin) cut the
 * size below the RISK_PER_TRADE_PCT rule (automatic sizing only).
 */
export interface EntryRisk {
  balance: string;
  currency: string;
  rate: string;
  amount: string;
  pct: string | null;
  maxLeverage: number;
  capped: boolean;
}

/** Input of the streaming engine's decide: EngineInput without candles. */
export type StreamInput = Omit<EngineInput, "candles">;

/** Feature configuration taken from the scalper settings and the indicators switched on. */
export function featureConfig(settings: TradingSettings): FeatureConfig {
  const s = settings.aiSettings.scalper;
  const on = settings.aiSettings.indicators;
  return { microAtrPeriod: s.microAtrPeriod, impulseLookback: s.impulseLookback, bollinger: on.bollinger, stochastic: on.stochastic };
}

/** "ia-EUR_USD-M15-20260105T0815Z": compact, stable, ≤ 128 chars (OANDA clientExtensions.id). */
export function decisionId(instrument: string, timeframe: Timeframe, lastCandleTime: number): string {
  if (!Number.isFinite(lastCandleTime)) return `ia-${instrument}-${timeframe}-none`;
  const d = new Date(lastCandleTime);
  const p2 = (n: number) => (n < 10 ? `0${n}` : String(n));
  const ss = d.getUTCSeconds();
  const t = `${d.getUTCFullYear()}${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())}T${p2(d.getUTCHours())}${p2(d.getUTCMinutes())}${ss ? p2(ss) : ""}Z`;
  return `ia-${instrument}-${timeframe}-${t}`;
}

/** Streaming decision engine of one instrument: push closed candles, then decide. */
export class DecisionEngine {
  private readonly trackers = new Map<Timeframe, FeatureTracker>();

  /** @param config indicator parameters from the scalper settings (see featureConfig). */
  constructor(readonly config: FeatureConfig) {
    for (const tf of AI_TIMEFRAMES) this.trackers.set(tf, new FeatureTracker(config));
  }

  /** Adds a closed candle of a timeframe (ignored when incomplete or not newer). */
  push(tf: Timeframe, candle: Candle): boolean {
    return this.trackers.get(tf)!.push(candle);
  }

  /** Adds every closed candle of every timeframe. */
  load(candles: CandlesByTimeframe): this {
    for (const tf of AI_TIMEFRAMES) for (const c of candles[tf] ?? []) this.push(tf, c);
    return this;
  }

  /** Open time (UTC ms) of the last candle pushed for a timeframe. */
  lastCandleTime(tf: Timeframe): number {
    return this.trackers.get(tf)!.lastCandleTime;
  }

  /** Features of a timeframe after the candles pushed so far (null until MIN_CANDLES). */
  features(tf: Timeframe): Features | null {
    return this.trackers.get(tf)!.snapshot();
  }

  /** The decision on the candles pushed so far. Pure given the pushed candles. */
  decide(input: StreamInput): Decision {
    return decideFrom((tf) => this.trackers.get(tf)!, input);
  }

  /**
   * The side `decide` would open on at `now` (UTC ms) with these settings, or null when its decision
   * is "none" whatever the price and the account: the signal stage alone, on numbers, no text (the
   * research steps it on every candle and builds the whole decision only for a non-null side). A
   * non-null side may still end "none" in `decide` (market closed, bad price, sizing).
   */
  entrySide(now: number, settings: TradingSettings): "buy" | "sell" | null {
    const stage = signalStage((tf) => this.trackers.get(tf)!, settings, now);
    return stage.kind === "signal" ? stage.side : null;
  }

  /**
   * The decision with the side imposed instead of the signal's (the random-entry baseline of the
   * backtest, core/backtest/baseline.ts): same timeframe choice, stops and sizing as `decide`.
   */
  decideForced(input: StreamInput, side: "buy" | "sell"): Decision {
    return decideFrom((tf) => this.trackers.get(tf)!, input, side);
  }
}

/**
 * The decision for one instrument now. Never throws for market reasons; returns action "none"
 * with a reason message and its Portuguese text (insufficient data, divergent signals, closed
 * market, sizing problem).
 */
export function decide(input: EngineInput): Decision {
  const engine = new DecisionEngine(featureConfig(input.settings)).load(input.candles);
  return engine.decide(input);
}

/**
 * The "none" decision for an instrument the bot cannot trade this tick (issue 12): the broker does
 * not offer it (`engine:decision.notOffered`) or sent no price for it (`engine:decision.noPrice`).
 * Timeframe: the manual one, else the style's regime timeframe; the id is per instrument (no candle).
 */
export function unavailableDecision(instrument: string, settings: TradingSettings, key: "engine:decision.notOffered" | "engine:decision.noPrice" | string): Decision {
  const reason = say(key, { instrument });
  const tf = settings.timeframe ?? regimeTimeframe(settings.aiSettings.tradingStyle);
  return {
    id: decisionId(instrument, tf, NaN),
    instrument,
    action: "none",
    confidence: 0,
    timeframe: tf,
    regime: { volatility: "normal", trend: "ranging", reason: reason.text, reasonMsg: reason.msg },
    reason: reason.text,
    reasonMsg: reason.msg,
  };
}

/** Numbers in engine reasons: 2 decimals with a point in every language ("0.60"), passed preformatted. */
function fmt2(n: number): string {
  return n.toFixed(2);
}

/**
 * The numeric part of a decision, before any text is built: the anchor and chosen timeframes, the
 * chosen timeframe's features, the signal and the side to enter (`side` null: the decision is
 * "none" whatever the price and sizing; else "open" unless they refuse it). `decideFrom` words it.
 */
type SignalStage =
  | { kind: "noAnchor"; tf: Timeframe }
  | { kind: "m1Unavailable"; tf: Timeframe; cls: { volatility: Volatility; trend: Trend } }
  | { kind: "noFeatures"; tf: Timeframe; cls: { volatility: Volatility; trend: Trend } }
  | { kind: "stale"; tf: Timeframe; cls: { volatility: Volatility; trend: Trend }; f: Features; closeTime: number }
  | {
      kind: "signal";
      tf: Timeframe;
      cls: { volatility: Volatility; trend: Trend };
      f: Features;
      confidence: number;
      side: "buy" | "sell" | null;
      /** Why `side` is null: no direction or too little confidence, or (scalper) no impulse in the side's direction. */
      refused: "divergent" | "noImpulse" | undefined;
      impulseDirectionOk: boolean;
    };

function signalStage(tracker: (tf: Timeframe) => FeatureTracker, settings: TradingSettings, now: number, forcedSide?: "buy" | "sell"): SignalStage {
  const ai = settings.aiSettings;
  const scalper = ai.scalper.enabled || ai.tradingStyle === "scalper";
  const anchorTf = ai.autoTimeframeSelection ? regimeTimeframe(ai.tradingStyle) : timeframeFor({ volatility: "normal", trend: "ranging" }, settings);
  const anchor = tracker(anchorTf).snapshot();
  if (!anchor) return { kind: "noAnchor", tf: anchorTf };
  const cls = classifyRegime(anchor);
  const tf = timeframeFor(cls, settings);
  // The scalper's M5 picks stand in for M1, which the AI does not read (PRODUCT.md §9: M5–H1);
  // with settings.aiSettings.scalper.m1FallbackToM5 off they are not taken.
  if (scalper && ai.autoTimeframeSelection && tf === "M5" && !ai.scalper.m1FallbackToM5) return { kind: "m1Unavailable", tf, cls };
  const f = tf === anchorTf ? anchor : tracker(tf).snapshot();
  if (!f) return { kind: "noFeatures", tf, cls };
  const closeTime = f.time + GRANULARITY_SECONDS[tf]! * 1000;
  if (now - closeTime > MAX_STALE_CANDLES * GRANULARITY_SECONDS[tf]! * 1000) return { kind: "stale", tf, cls, f, closeTime };
  const { direction, confidence } = signalDirection(f, ai.indicators);
  let side: "buy" | "sell" | null = forcedSide ?? (direction === "none" || confidence < MIN_CONFIDENCE ? null : direction);
  let refused: "divergent" | "noImpulse" | undefined = side === null ? "divergent" : undefined;
  let impulseDirectionOk = true;
  if (side !== null && scalper && !forcedSide) {
    impulseDirectionOk = Math.sign(f.impulseMove) === (side === "buy" ? 1 : -1);
    if (f.impulse < ai.scalper.impulseThreshold || !impulseDirectionOk) [side, refused] = [null, "noImpulse"];
  }
  // One object, no spreads: this runs on every candle of the research (docs/BENCHMARKS.md "Research").
  return { kind: "signal", tf, cls, f, confidence, side, refused, impulseDirectionOk };
}

function decideFrom(tracker: (tf: Timeframe) => FeatureTracker, input: StreamInput, forcedSide?: "buy" | "sell"): Decision {
  const { instrument, settings } = input;
  const ai = settings.aiSettings;
  const scalper = ai.scalper.enabled || ai.tradingStyle === "scalper";
  const stage = signalStage(tracker, settings, input.now.getTime(), forcedSide);
  const base = (tf: Timeframe, reason: Said, regime: Decision["regime"], features?: Features): Decision => ({
    id: decisionId(instrument, tf, tracker(tf).lastCandleTime),
    instrument,
    action: "none",
    confidence: 0,
    timeframe: tf,
    regime,
    reason: reason.text,
    reasonMsg: reason.msg,
    ...(features ? { features } : {}),
  });
  if (stage.kind === "noAnchor") {
    const reason = say("engine:decision.insufficientData", { timeframe: stage.tf });
    return base(stage.tf, reason, { volatility: "normal", trend: "ranging", reason: reason.text, reasonMsg: reason.msg });
  }
  const pick = pickTimeframe(stage.cls, settings);
  const regime = { ...stage.cls, reason: pick.reason, reasonMsg: pick.reasonMsg };
  const tf = stage.tf;
  if (stage.kind === "m1Unavailable") return base(tf, say("engine:decision.m1Unavailable"), regime);
  if (stage.kind === "noFeatures") return base(tf, say("engine:decision.insufficientData", { timeframe: tf }), regime);
  if (stage.kind === "stale") {
    return base(tf, say("engine:decision.staleData", { timeframe: tf, closedAt: new Date(stage.closeTime).toISOString() }), regime, stage.f);
  }
  const f = stage.f;
  const signal = computeSignal(f, ai.indicators);
  const signalSaid: Said = { msg: signal.reasonMsg, text: signal.reason };
  const none = (reason: Said): Decision => ({ ...base(tf, reason, regime, f), confidence: signal.confidence });
  if (stage.refused === "divergent") {
    return none(say("engine:decision.divergent", { confidence: fmt2(signal.confidence), minimum: fmt2(MIN_CONFIDENCE), signal: signalSaid }));
  }
  if (stage.refused === "noImpulse") {
    return none(
      say("engine:decision.noImpulse", { impulse: fmt2(stage.impulseDirectionOk ? f.impulse : 0), threshold: fmt2(ai.scalper.impulseThreshold), signal: signalSaid }),
    );
  }
  const side = stage.side!;
  if (!input.price.tradeable) return none(say("engine:decision.marketClosed"));
  const bid = new Decimal(input.price.bid || "0");
  const ask = new Decimal(input.price.ask || "0");
  if (!bid.isFinite() || !ask.isFinite() || bid.lte(0) || ask.lt(bid)) return none(say("engine:decision.invalidPrice"));
  const entry = side === "buy" ? ask : bid;
  const tpRatio = scalper && ai.scalper.reduceTpOnChop && regime.trend === "ranging" ? settings.tpRatio * CHOP_TP_FACTOR : settings.tpRatio;
  const stops = computeStops({
    instrument,
    side,
    entry,
    atr: f.atr,
    slRatio: settings.slRatio,
    tpRatio,
    ...(scalper && ai.scalper.trailWithMicroAtr ? { trailing: { microAtr: f.microAtr, mult: ai.scalper.trailMult } } : {}),
  });
  const size = computeUnits({
    instrument,
    side,
    mode: effectiveLotMode(settings),
    fixedLot: settings.fixedLot,
    balance: input.account.balance,
    accountCurrency: input.account.currency,
    price: entry,
    stopDistance: stops.stopDistance,
    ...(input.quoteToAccountRate !== undefined ? { quoteToAccountRate: input.quoteToAccountRate } : {}),
    ...(input.account.marginAvailable !== undefined ? { marginAvailable: input.account.marginAvailable } : {}),
    marginRate: instrumentSpec(instrument).marginRate,
    maxLeverage: settings.maxLeveragePerTrade,
  });
  if (!size.ok) return none({ msg: size.reasonMsg, text: size.reason });
  const rate = quoteToAccount(instrument, input.account.currency, entry, input.quoteToAccountRate)!;
  const risk = positionRisk({ units: size.units, stopDistance: entry.minus(stops.stopLoss), rate, balance: input.account.balance });
  const entryRisk: EntryRisk = {
    balance: input.account.balance,
    currency: input.account.currency,
    rate: rate.toSignificantDigits(10).toString(),
    ...risk,
    maxLeverage: effectiveLeverage(settings.maxLeveragePerTrade, instrumentSpec(instrument).marginRate),
    // The 1 % rule's own size (computeUnits before its caps) against the size the caps left.
    capped:
      effectiveLotMode(settings) === "auto" &&
      new Decimal(size.units).abs().lt(new Decimal(input.account.balance).mul(RISK_PER_TRADE_PCT).div(100).div(new Decimal(stops.stopDistance).mul(rate)).toDecimalPlaces(6).floor()),
  };
  return {
    ...base(tf, say(side === "buy" ? "engine:decision.buy" : "engine:decision.sell", { confidence: fmt2(signal.confidence), signal: signalSaid }), regime, f),
    action: "open",
    side,
    confidence: signal.confidence,
    entryPrice: formatPrice(instrument, entry),
    stopLoss: stops.stopLoss,
    takeProfit: stops.takeProfit,
    ...(stops.trailingStopDistance ? { trailingStopDistance: stops.trailingStopDistance } : {}),
    units: size.units,
    entryRisk,
    ...(scalper ? { maxHoldSec: ai.scalper.maxHoldSec } : {}),
  };
}
