/**
 * Signal models of the pre-registered families F1–F6 and F8 (docs/research/PREREGISTRATION.md,
 * "Hypotheses"): per instrument, closed bars of the family's timeframe are pushed in order, and the
 * model says which entry it wants after the last bar and with which exits. Prices are the candles'
 * numbers (ADR 0003): the order prices are rebuilt as decimals when the decision is made
 * (core/research/strategy-source.ts). Indicators stream through trading-signals, O(1) per bar.
 *
 * Exits are distances in price units from the entry: stop loss, take profit and (trend families) a
 * trailing stop; "no target" is implemented as a take profit 20 ATR away (the executor's orders
 * always carry one, core/trading/orders.ts), which these runs practically never reach.
 */
import { ADX, ATR, BollingerBands, EMA, MACD, RSI, SMA } from "trading-signals";
import type { Candle } from "../candles";
import { LogitModel } from "./logit";

export type Side = "buy" | "sell";

/** Exit distances in price units (> 0). */
export interface Exits {
  stop: number;
  target: number;
  trailing?: number;
}

export interface EntrySignal extends Exits {
  side: Side;
}

/** One instrument's model: push every closed bar in time order, then ask. */
export interface SignalModel {
  push(c: Candle): void;
  /** The entry wanted after the last pushed bar, or null. */
  signal(): EntrySignal | null;
  /** The model's exits for a trade on `side` now (the random baseline's entries use them), or null before warm-up. */
  exits(side: Side): Exits | null;
}

/** "No target": 20 ATR away. */
const FAR_TARGET_ATR = 20;

function num(v: unknown): number | null {
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? n : null;
}

/** ATR(period) of the pushed bars (trading-signals, Wilder smoothing). */
class AtrTracker {
  private readonly atr: ATR;
  value: number | null = null;
  constructor(period: number) {
    this.atr = new ATR(period);
  }
  push(c: Candle): void {
    this.atr.add({ high: c.high, low: c.low, close: c.close });
    this.value = this.atr.isStable ? num(this.atr.getResult()) : null;
  }
}

/** Fixed-length window of numbers (oldest first). */
class Window {
  private readonly buf: number[] = [];
  constructor(readonly size: number) {}
  push(v: number): void {
    this.buf.push(v);
    if (this.buf.length > this.size) this.buf.shift();
  }
  get full(): boolean {
    return this.buf.length === this.size;
  }
  get first(): number {
    return this.buf[0]!;
  }
  max(): number {
    return Math.max(...this.buf);
  }
  min(): number {
    return Math.min(...this.buf);
  }
  sum(): number {
    let t = 0;
    for (const v of this.buf) t += v;
    return t;
  }
  /** Element by index, negative from the end (Array.prototype.at). */
  at(i: number): number {
    return this.buf.at(i)!;
  }
}

/** Trend exits shared by F1–F3: stop k×ATR, trailing k×ATR, target 20 ATR. */
function trendExits(atr: number | null, k: number): Exits | null {
  return atr && atr > 0 ? { stop: k * atr, trailing: k * atr, target: FAR_TARGET_ATR * atr } : null;
}

/** F1 time-series momentum (Moskowitz, Ooi & Pedersen 2012, "Time series momentum", JFE 104(2)). */
export class TsmomModel implements SignalModel {
  private readonly closes: Window;
  private readonly atr = new AtrTracker(20);
  private last = NaN;
  constructor(readonly lookback: number, readonly k: number) {
    this.closes = new Window(lookback + 1);
  }
  push(c: Candle): void {
    this.closes.push(c.close);
    this.atr.push(c);
    this.last = c.close;
  }
  signal(): EntrySignal | null {
    if (!this.closes.full) return null;
    const r = this.last / this.closes.first - 1;
    const side: Side | null = r > 0 ? "buy" : r < 0 ? "sell" : null;
    const x = side && this.exits();
    return side && x ? { side, ...x } : null;
  }
  exits(): Exits | null {
    return trendExits(this.atr.value, this.k);
  }
}

/** F2 moving-average trend: SMA(fast) vs SMA(slow). */
export class MaCrossModel implements SignalModel {
  private readonly fast: SMA;
  private readonly slow: SMA;
  private readonly atr = new AtrTracker(20);
  constructor(fast: number, slow: number, readonly k: number) {
    this.fast = new SMA(fast);
    this.slow = new SMA(slow);
  }
  push(c: Candle): void {
    this.fast.add(c.close);
    this.slow.add(c.close);
    this.atr.push(c);
  }
  signal(): EntrySignal | null {
    if (!this.slow.isStable) return null;
    const f = num(this.fast.getResult());
    const s = num(this.slow.getResult());
    if (f === null || s === null || f === s) return null;
    const side: Side = f > s ? "buy" : "sell";
    const x = this.exits();
    return x ? { side, ...x } : null;
  }
  exits(): Exits | null {
    return trendExits(this.atr.value, this.k);
  }
}

/** F3 Donchian channel breakout (the Turtle rules' 20/55-day breakouts). */
export class DonchianModel implements SignalModel {
  private readonly highs: Window;
  private readonly lows: Window;
  private readonly atr = new AtrTracker(20);
  private breakout: Side | null = null;
  constructor(readonly n: number, readonly k: number) {
    this.highs = new Window(n);
    this.lows = new Window(n);
  }
  push(c: Candle): void {
    this.breakout = null;
    if (this.highs.full) {
      if (c.close > this.highs.max()) this.breakout = "buy";
      else if (c.close < this.lows.min()) this.breakout = "sell";
    }
    this.highs.push(c.high);
    this.lows.push(c.low);
    this.atr.push(c);
  }
  signal(): EntrySignal | null {
    const x = this.breakout && this.exits();
    return this.breakout && x ? { side: this.breakout, ...x } : null;
  }
  exits(): Exits | null {
    return trendExits(this.atr.value, this.k);
  }
}

/** F4 mean reversion: a close outside Bollinger(20, z) while ADX(14) < ceiling, back toward the mean. */
export class MeanReversionModel implements SignalModel {
  private readonly bands: BollingerBands;
  private readonly adx = new ADX(14);
  private readonly atr = new AtrTracker(20);
  private wanted: EntrySignal | null = null;
  private middle: number | null = null;
  private close = NaN;
  constructor(readonly z: number, readonly adxCeiling: number) {
    this.bands = new BollingerBands(20, z);
  }
  push(c: Candle): void {
    this.bands.add(c.close);
    this.adx.add({ high: c.high, low: c.low, close: c.close });
    this.atr.push(c);
    this.close = c.close;
    this.wanted = null;
    const b = this.bands.isStable ? this.bands.getResult() : null;
    const adx = this.adx.isStable ? num(this.adx.getResult()) : null;
    const atr = this.atr.value;
    this.middle = b ? num(b.middle) : null;
    if (!b || adx === null || !atr || adx >= this.adxCeiling) return;
    const upper = num(b.upper)!;
    const lower = num(b.lower)!;
    const side: Side | null = c.close > upper ? "sell" : c.close < lower ? "buy" : null;
    const x = side && this.exits();
    if (side && x) this.wanted = { side, ...x };
  }
  signal(): EntrySignal | null {
    return this.wanted;
  }
  exits(): Exits | null {
    const atr = this.atr.value;
    if (!atr || this.middle === null) return null;
    return { stop: 1.5 * atr, target: Math.max(Math.abs(this.close - this.middle), 0.5 * atr) };
  }
}

/** F5 London-open breakout of the Asian range (00:00–07:00 UTC), H1 bars. */
export class SessionBreakoutModel implements SignalModel {
  private day = -1;
  private hi = -Infinity;
  private lo = Infinity;
  private tradedToday = false;
  private dayHi = -Infinity;
  private dayLo = Infinity;
  private readonly dailyRanges: Window = new Window(20);
  private wanted: EntrySignal | null = null;
  private lastRange: number | null = null;
  /**
   * @param m target as a multiple of the Asian range
   * @param tueToThu only Tuesday–Thursday (UTC) when true
   */
  constructor(readonly m: number, readonly tueToThu: boolean) {}
  push(c: Candle): void {
    const d = new Date(c.time);
    const day = Math.floor(c.time / 86_400_000);
    if (day !== this.day) {
      if (this.day >= 0 && Number.isFinite(this.dayHi)) this.dailyRanges.push(this.dayHi - this.dayLo);
      this.day = day;
      this.hi = -Infinity;
      this.lo = Infinity;
      this.dayHi = -Infinity;
      this.dayLo = Infinity;
      this.tradedToday = false;
    }
    this.dayHi = Math.max(this.dayHi, c.high);
    this.dayLo = Math.min(this.dayLo, c.low);
    this.wanted = null;
    const hour = d.getUTCHours();
    if (hour < 7) {
      this.hi = Math.max(this.hi, c.high);
      this.lo = Math.min(this.lo, c.low);
      return;
    }
    if (hour > 9 || this.tradedToday || !Number.isFinite(this.hi) || !this.dailyRanges.full) return;
    const wd = d.getUTCDay();
    if (this.tueToThu && (wd < 2 || wd > 4)) return;
    const range = this.hi - this.lo;
    const dailyAtr = this.dailyRanges.sum() / this.dailyRanges.size;
    if (!(range > 0) || range < 0.3 * dailyAtr) return;
    this.lastRange = range;
    if (c.close > this.hi) this.wanted = { side: "buy", stop: c.close - this.lo, target: this.m * range };
    else if (c.close < this.lo) this.wanted = { side: "sell", stop: this.hi - c.close, target: this.m * range };
    if (this.wanted) this.tradedToday = true;
  }
  signal(): EntrySignal | null {
    return this.wanted;
  }
  exits(): Exits | null {
    const r = this.lastRange ?? (this.dailyRanges.full ? this.dailyRanges.sum() / this.dailyRanges.size / 3 : null);
    return r && r > 0 ? { stop: r, target: this.m * r } : null;
  }
}

/** F6 volatility breakout after compression: ATR(5)/ATR(50) < q on the previous bar, close beyond the N-bar high/low. */
export class SqueezeModel implements SignalModel {
  private readonly atr5 = new AtrTracker(5);
  private readonly atr50 = new AtrTracker(50);
  private readonly atr = new AtrTracker(20);
  private readonly highs: Window;
  private readonly lows: Window;
  private compressed = false;
  private wanted: EntrySignal | null = null;
  constructor(readonly q: number, readonly n: number) {
    this.highs = new Window(n);
    this.lows = new Window(n);
  }
  push(c: Candle): void {
    this.wanted = null;
    if (this.compressed && this.highs.full) {
      const side: Side | null = c.close > this.highs.max() ? "buy" : c.close < this.lows.min() ? "sell" : null;
      const x = side && this.exits();
      if (side && x) this.wanted = { side, ...x };
    }
    this.highs.push(c.high);
    this.lows.push(c.low);
    this.atr5.push(c);
    this.atr50.push(c);
    this.atr.push(c);
    const a5 = this.atr5.value;
    const a50 = this.atr50.value;
    this.compressed = a5 !== null && a50 !== null && a50 > 0 && a5 / a50 < this.q;
  }
  signal(): EntrySignal | null {
    return this.wanted;
  }
  exits(): Exits | null {
    const atr = this.atr.value;
    return atr && atr > 0 ? { stop: 2 * atr, target: 4 * atr } : null;
  }
}

/** Bars of the future return label of F8. */
export const LOGIT_HORIZON = 24;

/**
 * F8 learned model: logistic regression on H1 features (core/research/logit.ts), refit at the first
 * bar of each calendar year (UTC) ≥ `firstTestYear` on the previous three years' samples (every 4th
 * bar, labels known by then), so it never sees the year it trades. No model → no signal.
 */
export class LogitSignalModel implements SignalModel {
  private readonly rsi = new RSI(14);
  private readonly macd = new MACD(new EMA(12), new EMA(26), new EMA(9));
  private readonly emaFast = new EMA(20);
  private readonly emaSlow = new EMA(50);
  private readonly adx = new ADX(14);
  private readonly atr = new AtrTracker(20);
  private readonly atrMean = new SMA(100);
  private readonly closes: Window = new Window(121);
  private readonly samples: { time: number; x: number[]; close: number }[] = [];
  private year = -1;
  private model: LogitModel | null = null;
  private current: number[] | null = null;
  constructor(readonly theta: number, readonly firstTestYear: number) {}
  push(c: Candle): void {
    const y = new Date(c.time).getUTCFullYear();
    if (y !== this.year) {
      this.year = y;
      if (y >= this.firstTestYear) this.refit(y);
    }
    this.rsi.add(c.close);
    this.macd.add(c.close);
    this.emaFast.add(c.close);
    this.emaSlow.add(c.close);
    this.adx.add({ high: c.high, low: c.low, close: c.close });
    this.atr.push(c);
    this.closes.push(c.close);
    const atr = this.atr.value;
    if (atr) this.atrMean.add(atr);
    this.current = this.features(c);
    if (this.current) this.samples.push({ time: c.time, x: this.current, close: c.close });
    // Keep 3 years and a bit of samples (H1: ~6,200 bars a year).
    if (this.samples.length > 22_000) this.samples.splice(0, this.samples.length - 20_000);
  }
  private features(c: Candle): number[] | null {
    const atr = this.atr.value;
    if (!atr || !this.closes.full || !this.macd.isStable || !this.adx.isStable || !this.atrMean.isStable || !this.emaSlow.isStable) return null;
    const m = this.macd.getResult();
    const hist = num(m?.histogram);
    const rsi = num(this.rsi.getResult());
    const ef = num(this.emaFast.getResult());
    const es = num(this.emaSlow.getResult());
    const adx = num(this.adx.getResult());
    const am = num(this.atrMean.getResult());
    if (hist === null || rsi === null || ef === null || es === null || adx === null || !am) return null;
    const hour = new Date(c.time).getUTCHours();
    const ret24 = (c.close - this.closes.at(-25)) / atr;
    const ret120 = (c.close - this.closes.first) / atr;
    return [(rsi - 50) / 50, hist / atr, (ef - es) / atr, adx / 100, atr / am, ret24, ret120, Math.sin((2 * Math.PI * hour) / 24), Math.cos((2 * Math.PI * hour) / 24)];
  }
  private refit(year: number): void {
    const from = Date.UTC(year - 3, 0, 1);
    const xs: number[][] = [];
    const ys: number[] = [];
    for (let i = 0; i + LOGIT_HORIZON < this.samples.length; i += 4) {
      const s = this.samples[i]!;
      if (s.time < from) continue;
      const future = this.samples[i + LOGIT_HORIZON]!;
      if (future.time >= Date.UTC(year, 0, 1)) break;
      xs.push(s.x);
      ys.push(future.close > s.close ? 1 : 0);
    }
    this.model = xs.length >= 500 ? LogitModel.fit(xs, ys) : null;
  }
  signal(): EntrySignal | null {
    if (!this.model || !this.current) return null;
    const p = this.model.probability(this.current);
    const side: Side | null = p > this.theta ? "buy" : p < 1 - this.theta ? "sell" : null;
    const x = side && this.exits();
    return side && x ? { side, ...x } : null;
  }
  exits(): Exits | null {
    const atr = this.atr.value;
    return atr && atr > 0 ? { stop: 2 * atr, target: 2 * atr } : null;
  }
}
