/**
 * Stop loss, take profit and trailing stop triggers, evaluated on the price path between two sim
 * instants so nothing is skipped at any clock speed.
 *
 * Rules (TRIGGER_DEFAULT, top of book): a long trade's orders watch the bid, a short's the ask
 * (mid ∓ half spread, unrounded). SL triggers when the price reaches its level against the trade,
 * TP when it reaches it in favour. A trailing stop's value follows the best price
 * (value = best − distance for longs, best + distance for shorts, at displayPrecision) and triggers
 * like an SL. Crossing during a continuous move fills at the level; a gap (new bar, market re-open)
 * that jumps past it fills at the first price after the gap. The fill (ORDER_FILL reason
 * STOP_LOSS_ORDER / TAKE_PROFIT_ORDER / TRAILING_STOP_LOSS_ORDER) is dated at the crossing and is
 * followed by ORDER_CANCEL LINKED_TRADE_CLOSED for the sibling orders, in one batch.
 */
import { Decimal } from "../decimal";
import { instrumentSpec } from "../instruments";
import { openTrades } from "./accounts";
import { orderById } from "./lookup";
import { fillOrder } from "./fills";
import { halfSpread } from "./pricing";
import type { PathPoint, Pricing } from "./pricing";
import type { AccountState, OrderState, TradeState } from "./state";
import { newBatch } from "./transactions";
import { rfc3339 } from "./time";

interface Hit {
  time: number;
  trade: TradeState;
  order: OrderState;
  price: Decimal;
}

const REASON: Record<OrderState["type"], string> = {
  STOP_LOSS: "STOP_LOSS_ORDER", TAKE_PROFIT: "TAKE_PROFIT_ORDER", TRAILING_STOP_LOSS: "TRAILING_STOP_LOSS_ORDER",
};

function pending(acct: AccountState, id: string | undefined): OrderState | undefined {
  const o = orderById(acct, id);
  return o?.state === "PENDING" ? o : undefined;
}

/** First trigger of one trade along `points`, updating its trailing stop value as the path moves. */
export function scanTrade(acct: AccountState, t: TradeState, points: PathPoint[]): Hit | undefined {
  const long = new Decimal(t.currentUnits).isPositive();
  const dp = instrumentSpec(t.instrument).displayPrecision;
  const sl = pending(acct, t.stopLossOrderID), tp = pending(acct, t.takeProfitOrderID), ts = pending(acct, t.trailingStopLossOrderID);
  if (!sl && !tp && !ts) return undefined;
  const against = (px: Decimal, level: Decimal) => (long ? px.lte(level) : px.gte(level));
  const favour = (px: Decimal, level: Decimal) => (long ? px.gte(level) : px.lte(level));
  // Levels parsed once per scan (the trailing stop's is updated as it moves).
  const slLevel = sl?.price !== undefined ? new Decimal(sl.price) : undefined;
  const tpLevel = tp?.price !== undefined ? new Decimal(tp.price) : undefined;
  let tsLevel: Decimal | undefined;
  let prev: { t: number; px: Decimal } | undefined;
  for (const p of points) {
    const px = long ? p.mid.sub(p.half) : p.mid.add(p.half);
    const gap = !prev || p.jump;
    const at = (level: Decimal): { time: number; price: Decimal } => {
      if (gap || !prev) return { time: p.t, price: px.toDecimalPlaces(dp, Decimal.ROUND_HALF_UP) };
      const span = px.sub(prev.px);
      const frac = span.isZero() ? new Decimal(1) : level.sub(prev.px).div(span);
      return { time: prev.t + Math.round(Decimal.min(1, Decimal.max(0, frac)).mul(p.t - prev.t).toNumber()), price: level };
    };
    if (tsLevel === undefined && ts?.trailingStopValue !== undefined) tsLevel = new Decimal(ts.trailingStopValue);
    const checks: [OrderState | undefined, (px: Decimal, l: Decimal) => boolean, Decimal | undefined][] = [
      [sl, against, slLevel], [tp, favour, tpLevel], [ts, against, tsLevel],
    ];
    for (const [o, cond, level] of checks) {
      if (o && level !== undefined && cond(px, level)) {
        const r = at(level);
        return { ...r, trade: t, order: o };
      }
    }
    if (ts?.distance) {
      const cand = (long ? px.sub(ts.distance) : px.add(ts.distance)).toDecimalPlaces(dp, long ? Decimal.ROUND_DOWN : Decimal.ROUND_UP);
      if (!tsLevel || (long ? cand.gt(tsLevel) : cand.lt(tsLevel))) {
        ts.trailingStopValue = cand.toFixed(dp);
        tsLevel = cand;
      }
    }
    prev = { t: p.t, px };
  }
  return undefined;
}

/** Bounds of the mid over an interval, and the largest half spread in it (floats, price units). */
export interface MidRange {
  lo: number;
  hi: number;
  halfMax: number;
}

/**
 * The mid's bounds over [from, to]: every path point lies inside the bars it comes from (their
 * high/low include open and close), including the point at `from` and the jumps between bars.
 * Null when `from` is before the data (then nothing is skipped).
 */
export function midRange(pricing: Pricing, instrument: string, from: number, to: number): MidRange | null {
  const md = pricing.md;
  const s = md.source(instrument);
  const first = md.indexAtOrBefore(s, from);
  if (first < 0) return null;
  const last = Math.max(first, md.indexAtOrBefore(s, to));
  let lo = Infinity, hi = -Infinity, halfMax = 0;
  for (let g = first; g <= last; g++) {
    const b = md.bar(s, g);
    if (b.l < lo) lo = b.l;
    if (b.h > hi) hi = b.h;
    halfMax = Math.max(halfMax, halfSpread(instrument, b.t).toNumber());
  }
  return { lo, hi, halfMax };
}

/** Float slack on the bounds below, far under a tenth of a pip: the exact scan decides every close call. */
const SLACK = 1e-7;

/**
 * Whether a trade's stop loss or take profit can trigger within a mid range (conservative: false
 * only when neither level is reachable by any price on the path). A trailing stop moves with the
 * path, so a trade with one is always scanned.
 */
export function mayTrigger(acct: AccountState, t: TradeState, r: MidRange | null): boolean {
  if (!r || pending(acct, t.trailingStopLossOrderID)) return true;
  const long = !t.currentUnits.startsWith("-");
  const sl = pending(acct, t.stopLossOrderID)?.price;
  const tp = pending(acct, t.takeProfitOrderID)?.price;
  if (long) {
    // a long's orders watch the bid: mid − half ∈ [lo − halfMax, hi]
    return (sl !== undefined && r.lo - r.halfMax <= Number(sl) + SLACK) || (tp !== undefined && r.hi >= Number(tp) - SLACK);
  }
  // a short's orders watch the ask: mid + half ∈ [lo, hi + halfMax]
  return (sl !== undefined && r.hi + r.halfMax >= Number(sl) - SLACK) || (tp !== undefined && r.lo <= Number(tp) + SLACK);
}

/**
 * Evaluates every open trade's dependent orders over the sim interval (from, to] and executes the
 * triggered ones in time order. Returns the number of fills.
 */
export function evaluateTriggers(pricing: Pricing, accounts: AccountState[], from: number, to: number): number {
  if (to <= from) return 0;
  const paths = new Map<string, PathPoint[]>();
  const pathOf = (inst: string) => {
    let p = paths.get(inst);
    if (!p) paths.set(inst, (p = [...pricing.path(inst, from, to)]));
    return p;
  };
  const ranges = new Map<string, MidRange | null>();
  const rangeOf = (inst: string) => {
    let r = ranges.get(inst);
    if (r === undefined) ranges.set(inst, (r = midRange(pricing, inst, from, to)));
    return r;
  };
  let fills = 0;
  for (const acct of accounts) {
    const hits: Hit[] = [];
    for (const t of openTrades(acct)) {
      if (!t.stopLossOrderID && !t.takeProfitOrderID && !t.trailingStopLossOrderID) continue;
      if (!mayTrigger(acct, t, rangeOf(t.instrument))) continue;
      const h = scanTrade(acct, t, pathOf(t.instrument));
      if (h) hits.push(h);
    }
    hits.sort((a, b) => a.time - b.time || Number(a.trade.id) - Number(b.trade.id));
    for (const h of hits) {
      const b = newBatch(acct, h.time, undefined, true);
      const fillID = String(acct.lastTransactionID + 1);
      Object.assign(h.order, { state: "FILLED", fillingTransactionID: fillID, filledTime: rfc3339(h.time), tradeClosedIDs: [h.trade.id] });
      fillOrder(pricing, b, {
        instrument: h.trade.instrument, units: new Decimal(h.trade.currentUnits).neg(), quote: pricing.quote(h.trade.instrument, h.time),
        orderID: h.order.id, reason: REASON[h.order.type], price: h.price, targets: [h.trade], openRemainder: false,
      });
      fills++;
    }
  }
  return fills;
}
