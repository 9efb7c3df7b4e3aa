/**
 * GET /v3/instruments/{instrument}/candles (and the account-scoped variant), PROTOCOL.md §7.4.
 *
 * Candles come from the shipped files (or path-source aggregates, e.g. USD_JPY M5 from M3 bars by
 * start time), replayed across 91-day windows. Only candles that started at or before sim now are
 * served; the one containing now is rebuilt from the path up to now and marked `complete:false`.
 * Bid/ask candles are the mid candle ∓ the half spread at the candle's start, at displayPrecision.
 */
import { Decimal } from "../decimal";
import { formatPrice } from "../instruments";
import { SimHttpError } from "./accounts";
import type { Bar, Series } from "./market-data";
import { halfSpread, type Pricing } from "./pricing";
import { parseDateTime, rfc3339 } from "./time";

const MAX_COUNT = 5000;

function bad(param: string, extra = ""): SimHttpError {
  return new SimHttpError(400, { errorMessage: `Invalid value specified for '${param}'${extra}` });
}

interface DecBar {
  o: Decimal;
  h: Decimal;
  l: Decimal;
  c: Decimal;
  v: number;
}

function dec(b: Bar): DecBar {
  return { o: new Decimal(b.o), h: new Decimal(b.h), l: new Decimal(b.l), c: new Decimal(b.c), v: b.v };
}

/** The candle containing `now`, built from path-source bars up to now; undefined when it has no price yet. */
function partialCandle(pricing: Pricing, inst: string, start: number, now: number): DecBar | undefined {
  const md = pricing.md;
  const src = md.source(inst);
  let out: DecBar | undefined;
  for (let g = md.indexAtOrBefore(src, start - 1) + 1; ; g++) {
    const raw = md.bar(src, g);
    if (raw.t > now) break;
    let b = dec(raw);
    if (raw.t + src.durMs > now) {
      const mids = [...pricing.path(inst, raw.t, now)].map((p) => p.mid);
      b = { o: b.o, h: Decimal.max(...mids), l: Decimal.min(...mids), c: pricing.quote(inst, now).mid, v: Math.floor((raw.v * (now - raw.t)) / src.durMs) };
    }
    out = out ? { o: out.o, h: Decimal.max(out.h, b.h), l: Decimal.min(out.l, b.l), c: b.c, v: out.v + b.v } : b;
  }
  return out;
}

/**
 * Builds the candles response body.
 * @param q query parameters: price (M|B|A combos, default M), granularity (required in practice; S5
 *   default is not served), count (default 500, max 5000), from, to, includeFirst (default true)
 * @param now sim time, epoch ms
 * @throws SimHttpError 400 with OANDA's messages ("Maximum value for 'count' exceeded",
 *   "Invalid value specified for 'to'. Time is in the future", …)
 */
export function candlesBody(pricing: Pricing, inst: string, q: Record<string, string | undefined>, now: number): Record<string, unknown> {
  const md = pricing.md;
  if (!md.has(inst)) throw bad("instrument");
  const gran = q.granularity ?? "S5";
  const s: Series | undefined = md.series(inst, gran);
  if (!s) throw bad("granularity");
  const price = q.price ?? "M";
  if (!/^[MBA]{1,3}$/.test(price)) throw bad("price");
  let count = 500;
  if (q.count !== undefined) {
    if (!/^\d+$/.test(q.count) || Number(q.count) < 1) throw bad("count");
    count = Number(q.count);
    if (count > MAX_COUNT) throw new SimHttpError(400, { errorMessage: "Maximum value for 'count' exceeded" });
  }
  const from = q.from !== undefined ? parseDateTime(q.from) : undefined;
  const to = q.to !== undefined ? parseDateTime(q.to) : undefined;
  if (from === null) throw bad("from");
  if (to === null) throw bad("to");
  if (to !== undefined && to > now) throw bad("to", ". Time is in the future");
  if (from !== undefined && from > now) throw bad("from", ". Time is in the future");
  if (from !== undefined && to !== undefined && q.count !== undefined) throw bad("count");
  if (from !== undefined && to !== undefined && from > to) throw bad("to");
  const includeFirst = q.includeFirst === undefined ? true : q.includeFirst === "true";

  const gNow = md.indexAtOrBefore(s, now);
  let lo: number, hi: number;
  if (from !== undefined) {
    const i = md.indexAtOrBefore(s, from);
    lo = i >= 0 && md.barStart(s, i) === from && includeFirst ? i : i + 1;
  }
  const gTo = to !== undefined ? Math.min(md.indexAtOrBefore(s, to - 1), gNow) : gNow;
  if (from !== undefined && to !== undefined) {
    lo = lo!;
    hi = gTo;
    if (hi - lo + 1 > MAX_COUNT) throw new SimHttpError(400, { errorMessage: "Maximum value for 'count' exceeded" });
  } else if (from !== undefined) {
    lo = lo!;
    hi = Math.min(lo + count - 1, gNow);
  } else {
    hi = gTo;
    lo = Math.max(0, hi - count + 1);
  }
  const candles: Record<string, unknown>[] = [];
  for (let g = Math.max(0, lo); g <= hi; g++) {
    const start = md.barStart(s, g);
    const complete = start + s.durMs <= now;
    const b = complete ? dec(md.bar(s, g)) : partialCandle(pricing, inst, start, now);
    if (!b) continue;
    const c: Record<string, unknown> = { complete, volume: b.v, time: rfc3339(start) };
    const half = halfSpread(inst, start);
    const side = (sgn: number) => {
      const f = (x: Decimal) => formatPrice(inst, x.add(half.mul(sgn)));
      return { o: f(b.o), h: f(b.h), l: f(b.l), c: f(b.c) };
    };
    if (price.includes("B")) c.bid = side(-1);
    if (price.includes("A")) c.ask = side(1);
    if (price.includes("M")) c.mid = side(0);
    candles.push(c);
  }
  return { instrument: inst, granularity: gran, candles };
}
