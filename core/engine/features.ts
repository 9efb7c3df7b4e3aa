/**
 * Per-timeframe features (indicators) for the engine, computed by streaming indicators from
 * trading-signals (bennycode/trading-signals): each closed candle is added once, O(1) per candle,
 * so a backtest never recomputes indicators from scratch.
 *
 * Indicators and periods (standard definitions): ATR(14) and ADX(14) by Wilder (1978); EMA 20/50;
 * RSI(14) (Wilder); MACD(12, 26, 9) (Appel); Bollinger Bands(20, 2σ) (Bollinger); Stochastic
 * %K 14, slowing 3, %D 3 (Lane). Values are in price units of the instrument (ATR, EMA, bands) or
 * their usual scales (ADX, RSI, Stochastic 0–100).
 */
import { ADX, ATR, BollingerBands, EMA, MACD, RSI, StochasticOscillator } from "trading-signals";
import type { Candle } from "../candles";

export const ATR_PERIOD = 14;
export const ADX_PERIOD = 14;
export const EMA_FAST = 20;
export const EMA_SLOW = 50;
export const RSI_PERIOD = 14;
export const MACD_PERIODS = { fast: 12, slow: 26, signal: 9 } as const;
export const BOLLINGER = { period: 20, stdDev: 2 } as const;
export const STOCHASTIC = { kPeriod: 14, kSlowingPeriod: 3, dPeriod: 3 } as const;
/** How many recent ATR values the volatility regime compares the current ATR with (median). */
export const ATR_MEDIAN_WINDOW = 100;
/** Closed candles needed before a timeframe's features are trusted (EMA50 plus margin for ADX/MACD). */
export const MIN_CANDLES = 60;

/** A snapshot of one timeframe's features after its last closed candle (plain numbers). */
export interface Features {
  /** Open time (UTC epoch ms) of the last closed candle included. */
  time: number;
  close: number;
  atr: number;
  /** Median of the last ATR_MEDIAN_WINDOW ATR values (price units). */
  atrMedian: number;
  adx: number;
  pdi: number;
  mdi: number;
  emaFast: number;
  emaSlow: number;
  rsi: number;
  macd: number;
  macdSignal: number;
  macdHistogram: number;
  bbUpper: number;
  bbMiddle: number;
  bbLower: number;
  stochK: number;
  stochD: number;
  /** ATR(microAtrPeriod): the scalper's short-horizon volatility (price units). */
  microAtr: number;
  /** Kaufman efficiency ratio over impulseLookback closes, 0–1 (1 = one-way move). */
  impulse: number;
  /** Signed move over impulseLookback closes (price units); its sign is the impulse direction. */
  impulseMove: number;
}

export interface FeatureConfig {
  /** ATR period for the scalper's micro ATR (settings.aiSettings.scalper.microAtrPeriod). */
  microAtrPeriod: number;
  /** Closes compared by the impulse measure (settings.aiSettings.scalper.impulseLookback). */
  impulseLookback: number;
  /**
   * Whether the Bollinger Bands and the Stochastic are computed (settings.aiSettings.indicators;
   * default true). Off by default in PRODUCT.md §9 and read only by the signal when on, so a
   * backtest does not pay for them; their fields are NaN when off.
   */
  bollinger?: boolean;
  stochastic?: boolean;
}

/**
 * Streaming feature state of one timeframe. `push` closed candles in ascending time order
 * (older or duplicate times are ignored); `snapshot()` returns null until MIN_CANDLES are in.
 */
export class FeatureTracker {
  private readonly atr = new ATR(ATR_PERIOD);
  private readonly adx = new ADX(ADX_PERIOD);
  private readonly emaFast = new EMA(EMA_FAST);
  private readonly emaSlow = new EMA(EMA_SLOW);
  private readonly rsi = new RSI(RSI_PERIOD);
  private readonly macd = new MACD(new EMA(MACD_PERIODS.fast), new EMA(MACD_PERIODS.slow), new EMA(MACD_PERIODS.signal));
  private readonly bb: BollingerBands | null;
  private readonly stoch: StochasticOscillator | null;
  private readonly microAtr: ATR;
  private readonly atrHistory: number[] = [];
  /** The same ATR values kept sorted, for an O(window) median without re-sorting. */
  private readonly atrSorted: number[] = [];
  private readonly closes: number[] = [];
  private lastTime = -Infinity;
  private lastClose = NaN;
  private cached: Features | null | undefined;
  /** Number of candles added. */
  count = 0;

  constructor(readonly config: FeatureConfig) {
    this.microAtr = new ATR(config.microAtrPeriod);
    this.bb = config.bollinger === false ? null : new BollingerBands(BOLLINGER.period, BOLLINGER.stdDev);
    this.stoch = config.stochastic === false ? null : new StochasticOscillator(STOCHASTIC);
  }

  /** Open time (UTC ms) of the last candle added, or -Infinity. */
  get lastCandleTime(): number {
    return this.lastTime;
  }

  /** Adds one closed candle; returns false (and does nothing) if it is incomplete or not newer. */
  push(c: Candle): boolean {
    if (!c.complete || c.time <= this.lastTime) return false;
    const hlc = { high: c.high, low: c.low, close: c.close };
    const atr = this.atr.add(hlc);
    this.adx.add(hlc);
    this.emaFast.add(c.close);
    this.emaSlow.add(c.close);
    this.rsi.add(c.close);
    this.macd.add(c.close);
    this.bb?.add(c.close);
    this.stoch?.add(hlc);
    this.microAtr.add(hlc);
    if (atr !== null) {
      this.atrHistory.push(atr);
      this.atrSorted.splice(lowerBound(this.atrSorted, atr), 0, atr);
      if (this.atrHistory.length > ATR_MEDIAN_WINDOW) {
        const old = this.atrHistory.shift()!;
        this.atrSorted.splice(lowerBound(this.atrSorted, old), 1);
      }
    }
    this.closes.push(c.close);
    if (this.closes.length > this.config.impulseLookback + 1) this.closes.shift();
    this.lastTime = c.time;
    this.lastClose = c.close;
    this.count++;
    this.cached = undefined;
    return true;
  }

  /** The features after the last candle, or null while warming up (fewer than MIN_CANDLES). */
  snapshot(): Features | null {
    if (this.cached !== undefined) return this.cached;
    this.cached = this.compute();
    return this.cached;
  }

  private compute(): Features | null {
    if (this.count < MIN_CANDLES) return null;
    const atr = this.atr.getResult();
    const adx = this.adx.getResult();
    const emaFast = this.emaFast.getResult();
    const emaSlow = this.emaSlow.getResult();
    const rsi = this.rsi.getResult();
    const macd = this.macd.getResult();
    const bb = this.bb ? this.bb.getResult() : OFF_BANDS;
    const stoch = this.stoch ? this.stoch.getResult() : OFF_STOCH;
    const microAtr = this.microAtr.getResult();
    if (atr === null || adx === null || emaFast === null || emaSlow === null || rsi === null || macd === null || bb === null || stoch === null || microAtr === null) {
      return null;
    }
    const first = this.closes[0]!;
    let path = 0;
    for (let i = 1; i < this.closes.length; i++) path += Math.abs(this.closes[i]! - this.closes[i - 1]!);
    const move = this.lastClose - first;
    return {
      time: this.lastTime,
      close: this.lastClose,
      atr,
      atrMedian: sortedMedian(this.atrSorted),
      adx,
      pdi: Number(this.adx.pdi ?? 0),
      mdi: Number(this.adx.mdi ?? 0),
      emaFast,
      emaSlow,
      rsi,
      macd: macd.macd,
      macdSignal: macd.signal,
      macdHistogram: macd.histogram,
      bbUpper: bb.upper,
      bbMiddle: bb.middle,
      bbLower: bb.lower,
      stochK: stoch.stochK,
      stochD: stoch.stochD,
      microAtr,
      impulse: path > 0 ? Math.abs(move) / path : 0,
      impulseMove: move,
    };
  }
}

/** The values of an indicator that is off (never read by the signal). */
const OFF_BANDS = { upper: NaN, middle: NaN, lower: NaN };
const OFF_STOCH = { stochK: NaN, stochD: NaN };

/** First index in ascending `a` whose value is ≥ v. */
function lowerBound(a: readonly number[], v: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid]! < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function sortedMedian(s: readonly number[]): number {
  if (s.length === 0) return NaN;
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Median of a non-empty list of numbers (NaN for an empty list). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  return sortedMedian([...values].sort((a, b) => a - b));
}

/**
 * Features of a whole candle series in one call (batch form of FeatureTracker): incomplete
 * candles are skipped. Returns null when fewer than MIN_CANDLES closed candles are given.
 */
export function computeFeatures(candles: readonly Candle[], config: FeatureConfig): Features | null {
  const t = new FeatureTracker(config);
  for (const c of candles) t.push(c);
  return t.snapshot();
}
