/**
 * Prices on the replay path: mid from the candle data, bid/ask from a synthetic spread.
 *
 * Path rule: within a path-source bar (M5, or M3 for USD_JPY) the mid moves linearly
 * open → (high or low, whichever is nearer the open) → the other extreme → close, each leg taking
 * a third of the bar. Between bars it jumps to the next open. Outside bars the last close holds.
 *
 * Spread rule (full spread in pips, constant within a bar, set by the bar's start time):
 * EUR_USD 1.0, GBP_USD 1.5, USD_JPY 1.2, AUD_USD 1.4, USD_CAD 2.0, USD_CHF 1.8, EUR_GBP 1.5, EUR_JPY 2.0
 * (typical retail practice-account spreads; 2.0 for any other pair); ×3 around the daily rollover (20:55–22:15 UTC, which also
 * covers the Sunday open); on Fridays ×1.5 from 18:00 and ×2.5 from 20:00 UTC (into the close).
 * bid = mid − spread/2, ask = mid + spread/2, each rounded to displayPrecision.
 */
import { Decimal } from "../decimal";
import { instrumentSpec, pipSize, formatPrice } from "../instruments";
import type { MarketData, Bar } from "./market-data";
import { rfc3339 } from "./time";

/** Normal full spread in pips per instrument (fallback 2.0 for others). */
export const BASE_SPREAD_PIPS: Record<string, string> = {
  EUR_USD: "1.0", GBP_USD: "1.5", USD_JPY: "1.2", AUD_USD: "1.4", USD_CAD: "2.0", USD_CHF: "1.8", EUR_GBP: "1.5", EUR_JPY: "2.0",
};

/** Liquidity shown in every price bucket (as OANDA's practice feed). */
export const LIQUIDITY = 10_000_000;

/** Spread multiplier for a bar starting at `ms` (UTC rules above). */
export function spreadMultiplier(ms: number): Decimal {
  return new Decimal(spreadFactor(ms));
}

function spreadFactor(ms: number): number {
  const d = new Date(ms);
  const minute = d.getUTCHours() * 60 + d.getUTCMinutes();
  let m = 1;
  if (minute >= 20 * 60 + 55 && minute < 22 * 60 + 15) m = 3;
  if (d.getUTCDay() === 5) {
    if (minute >= 20 * 60) m = Math.max(m, 2.5);
    else if (minute >= 18 * 60) m = Math.max(m, 1.5);
  }
  return m;
}

const halfSpreadCache = new Map<string, Decimal>();

/** Half of the full spread, as a price difference, for a bar starting at `barStartMs`. */
export function halfSpread(instrument: string, barStartMs: number): Decimal {
  const m = spreadFactor(barStartMs);
  const key = `${instrument}:${m}`;
  let half = halfSpreadCache.get(key);
  if (!half) {
    half = new Decimal(BASE_SPREAD_PIPS[instrument] ?? "2.0").mul(pipSize(instrument)).mul(m).div(2);
    halfSpreadCache.set(key, half);
  }
  return half;
}

/** One quote at a sim instant. `time` is the price's own time (frozen at the last bar's end when no bar covers now). */
export interface Quote {
  instrument: string;
  time: number;
  tradeable: boolean;
  mid: Decimal;
  half: Decimal;
  /** Rounded to displayPrecision. */
  bid: Decimal;
  ask: Decimal;
}

/** A point of the mid path; `jump` = reached by a discontinuity (new bar / market re-open), not by a continuous move. */
export interface PathPoint {
  t: number;
  mid: Decimal;
  half: Decimal;
  jump: boolean;
}

function vertices(b: Bar): Decimal[] {
  const highFirst = Math.abs(b.h - b.o) <= Math.abs(b.o - b.l);
  return [b.o, highFirst ? b.h : b.l, highFirst ? b.l : b.h, b.c].map((x) => new Decimal(x));
}

/** The mid `dtMs` into a bar on its path, building only the two vertices of the leg it is on (hot: every quote). */
function midAt(b: Bar, dtMs: number, durMs: number): Decimal {
  const highFirst = Math.abs(b.h - b.o) <= Math.abs(b.o - b.l);
  const xs = [b.o, highFirst ? b.h : b.l, highFirst ? b.l : b.h, b.c];
  const seg = Math.min(2, Math.floor((3 * dtMs) / durMs));
  const num = 3 * dtMs - seg * durMs;
  const from = new Decimal(xs[seg]!);
  if (num === 0) return from;
  return from.add(new Decimal(xs[seg + 1]!).sub(from).mul(new Decimal(num).div(durMs)));
}

function interpolate(v: Decimal[], dtMs: number, durMs: number): Decimal {
  const seg = Math.min(2, Math.floor((3 * dtMs) / durMs));
  const frac = new Decimal(3 * dtMs - seg * durMs).div(durMs);
  return v[seg]!.add(v[seg + 1]!.sub(v[seg]!).mul(frac));
}

/** Price computations over MarketData. */
export class Pricing {
  constructor(readonly md: MarketData) {}

  /** Quote of `instrument` at sim time `ms`. @throws Error for an instrument without data */
  quote(instrument: string, ms: number): Quote {
    const s = this.md.source(instrument);
    const g = this.md.indexAtOrBefore(s, ms);
    const bar = this.md.bar(s, Math.max(g, 0));
    let mid: Decimal, time: number;
    if (g >= 0 && ms < bar.t + s.durMs) {
      mid = midAt(bar, ms - bar.t, s.durMs);
      time = ms;
    } else if (g < 0) {
      mid = new Decimal(bar.o);
      time = bar.t;
    } else {
      mid = new Decimal(bar.c);
      time = bar.t + s.durMs;
    }
    const half = halfSpread(instrument, bar.t);
    const dp = instrumentSpec(instrument).displayPrecision;
    return {
      instrument, time, mid, half, tradeable: this.md.isOpen(instrument, ms),
      bid: mid.sub(half).toDecimalPlaces(dp, Decimal.ROUND_HALF_UP),
      ask: mid.add(half).toDecimalPlaces(dp, Decimal.ROUND_HALF_UP),
    };
  }

  /**
   * The mid path of `instrument` over [from, to] (sim ms): the point at `from`, every bar vertex in
   * (from, to], and the point at `to`. Used to evaluate stops/targets so nothing is skipped at
   * any clock speed.
   */
  *path(instrument: string, from: number, to: number): Generator<PathPoint> {
    const s = this.md.source(instrument);
    const q = this.quote(instrument, from);
    yield { t: from, mid: q.mid, half: q.half, jump: false };
    let last = from;
    let g = this.md.indexAtOrBefore(s, from);
    for (let first = true; ; first = false, g++) {
      if (g < 0) continue;
      const bar = this.md.bar(s, g);
      if (bar.t > to) break;
      const v = vertices(bar);
      const half = halfSpread(instrument, bar.t);
      if (!first && bar.t > last) {
        yield { t: bar.t, mid: v[0]!, half, jump: true };
        last = bar.t;
      }
      for (let k = 1; k <= 3; k++) {
        const t = bar.t + Math.round((k * s.durMs) / 3);
        if (t <= last) continue;
        if (t > to) {
          if (to > last) yield { t: to, mid: interpolate(v, to - bar.t, s.durMs), half, jump: false };
          return;
        }
        yield { t, mid: v[k]!, half, jump: false };
        last = t;
      }
    }
  }

  /**
   * Conversion rate from currency `from` to `to` at sim time `ms` (mid prices, via USD):
   * amount_in_to = amount_in_from × rate.
   * @throws Error when a currency cannot be converted through the loaded pairs
   */
  rate(from: string, to: string, ms: number): Decimal {
    if (from === to) return new Decimal(1);
    return this.toUsd(from, ms).div(this.toUsd(to, ms));
  }

  private toUsd(ccy: string, ms: number): Decimal {
    if (ccy === "USD") return new Decimal(1);
    for (const name of this.md.instruments) {
      const spec = instrumentSpec(name);
      if (spec.base === ccy && spec.quote === "USD") return this.quote(name, ms).mid;
      if (spec.base === "USD" && spec.quote === ccy) return new Decimal(1).div(this.quote(name, ms).mid);
    }
    throw new Error(`Currency not convertible: ${ccy}`);
  }

  /** Currencies convertible through the loaded pairs (USD plus each pair's other side). */
  currencies(): string[] {
    const set = new Set(["USD"]);
    for (const name of this.md.instruments) {
      const spec = instrumentSpec(name);
      if (spec.quote === "USD") set.add(spec.base);
      if (spec.base === "USD") set.add(spec.quote);
    }
    return [...set];
  }

  /**
   * OANDA `ClientPrice` JSON for a quote (PROTOCOL.md §7.5), with conversion factors into
   * `homeCurrency`. Decimal strings at displayPrecision; liquidity is a JSON number.
   */
  clientPrice(q: Quote, homeCurrency: string, nowMs: number, marginAvailable?: Decimal): Record<string, unknown> {
    const inst = q.instrument;
    const factor = this.rate(instrumentSpec(inst).quote, homeCurrency, nowMs).toSignificantDigits(6).toFixed();
    const spread = q.ask.sub(q.bid);
    return {
      type: "PRICE",
      instrument: inst,
      time: rfc3339(q.time),
      status: q.tradeable ? "tradeable" : "non-tradeable",
      tradeable: q.tradeable,
      bids: [{ price: formatPrice(inst, q.bid), liquidity: LIQUIDITY }],
      asks: [{ price: formatPrice(inst, q.ask), liquidity: LIQUIDITY }],
      closeoutBid: formatPrice(inst, q.bid.sub(spread.div(2))),
      closeoutAsk: formatPrice(inst, q.ask.add(spread.div(2))),
      quoteHomeConversionFactors: { positiveUnits: factor, negativeUnits: factor },
      ...(marginAvailable ? { unitsAvailable: this.unitsAvailable(q, homeCurrency, nowMs, marginAvailable) } : {}),
    };
  }

  /** Deprecated `unitsAvailable` block: units whose margin (rate 0.0333) fits in `marginAvailable`. */
  private unitsAvailable(q: Quote, home: string, nowMs: number, marginAvailable: Decimal): Record<string, unknown> {
    const perUnit = q.mid.mul(this.rate(instrumentSpec(q.instrument).quote, home, nowMs)).mul(instrumentSpec(q.instrument).marginRate);
    const n = perUnit.isZero() ? "0" : marginAvailable.div(perUnit).floor().toFixed();
    const both = { long: n, short: n };
    return { default: both, reduceFirst: both, reduceOnly: { long: "0", short: "0" }, openOnly: both };
  }
}
