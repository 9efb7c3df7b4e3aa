/**
 * POST A/orders (MARKET only) and PUT A/trades/{spec}/close (PROTOCOL.md §7.8, §7.12).
 *
 * Outcomes: 400 envelope for malformed input; 400 with `orderRejectTransaction` for invalid values
 * (UNITS_INVALID, UNITS_PRECISION_EXCEEDED, *_PRICE_PRECISION_EXCEEDED, …; the reject consumes an
 * id); 201 (close: 200) with `orderCancelTransaction` when the order cannot fill (MARKET_HALTED,
 * BOUNDS_VIOLATION, STOP_LOSS_ON_FILL_LOSS, TAKE_PROFIT_ON_FILL_LOSS, INSUFFICIENT_MARGIN);
 * else create N, fill N+1 (= trade id), TP N+2, SL N+3, trailing SL next, all with batchID N.
 */
import { Decimal } from "../decimal";
import { instrumentSpec, formatPrice } from "../instruments";
import { SimHttpError, accountTotals, openTrades } from "./accounts";
import { fillOrder, openingUnits, marginFor } from "./fills";
import type { Pricing } from "./pricing";
import type { AccountState, ClientExt, DependentOrderType, Tx } from "./state";
import { addTx, newBatch, type Batch } from "./transactions";
import { findTrade } from "./trades";
import { marketOrderClientIdUsed } from "./lookup";

const DEC_RE = /^[-+]?\d+(\.\d+)?$/;
const MAX_UNITS = new Decimal("100000000");

/** Reply of an order/trade mutation: HTTP status + body. */
export interface Reply {
  status: number;
  body: Record<string, unknown>;
}

function decimals(s: string): number {
  const i = s.indexOf(".");
  return i < 0 ? 0 : s.length - i - 1;
}

function isObj(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function ext(x: unknown): ClientExt | undefined {
  if (!isObj(x)) return undefined;
  const out: ClientExt = {};
  for (const k of ["id", "tag", "comment"] as const) if (typeof x[k] === "string") out[k] = x[k] as string;
  return Object.keys(out).length ? out : undefined;
}

const REJECT_MESSAGES: Record<string, string> = {
  UNITS_INVALID: "Order units specified are invalid",
  UNITS_PRECISION_EXCEEDED: "The order units specified contain more precision than is allowed for the Order's instrument",
  UNITS_LIMIT_EXCEEDED: "The Order units specified exceed the maximum allowed",
  PRICE_BOUND_PRECISION_EXCEEDED: "The price bound specified contains more precision than is allowed for the instrument",
  STOP_LOSS_ON_FILL_PRICE_PRECISION_EXCEEDED: "The Stop Loss on fill price specified contains more precision than is allowed for the instrument",
  TAKE_PROFIT_ON_FILL_PRICE_PRECISION_EXCEEDED: "The Take Profit on fill price specified contains more precision than is allowed for the instrument",
  CLOSE_TRADE_UNITS_EXCEED_TRADE_SIZE: "The units specified exceed the size of the Trade",
};

function reject(acct: AccountState, now: number, requestID: string, fields: Record<string, unknown>, code: string, status = 400): Reply {
  const b = newBatch(acct, now, requestID);
  const tx = addTx(b, "MARKET_ORDER_REJECT", { ...fields, rejectReason: code });
  return {
    status,
    body: {
      orderRejectTransaction: tx, relatedTransactionIDs: b.ids, lastTransactionID: String(acct.lastTransactionID),
      errorMessage: REJECT_MESSAGES[code] ?? `The order was rejected: ${code}`, errorCode: code,
    },
  };
}

function cancel(b: Batch, create: Tx, reason: string, status: number): Reply {
  const c = addTx(b, "ORDER_CANCEL", { orderID: create.id, ...(isObj(create.clientExtensions) && create.clientExtensions.id ? { clientOrderID: create.clientExtensions.id } : {}), reason });
  return { status, body: { orderCreateTransaction: create, orderCancelTransaction: c, relatedTransactionIDs: b.ids, lastTransactionID: String(b.acct.lastTransactionID) } };
}

interface OnFill {
  sl?: { price?: string; distance?: string; ext?: ClientExt };
  tp?: { price: string; ext?: ClientExt };
  tsl?: { distance: string; ext?: ClientExt };
}

/** Validates on-fill details; returns the reject reason or null. Prices must be decimals with ≤ displayPrecision digits. */
function validateOnFill(o: Record<string, unknown>, dp: number, pip: Decimal): { code: string } | { onFill: OnFill } {
  const onFill: OnFill = {};
  const sl = o.stopLossOnFill, tp = o.takeProfitOnFill, tsl = o.trailingStopLossOnFill;
  if (sl !== undefined) {
    if (!isObj(sl)) return { code: "STOP_LOSS_ON_FILL_PRICE_INVALID" };
    const p = sl.price, d = sl.distance;
    if (p !== undefined && d !== undefined) return { code: "STOP_LOSS_ON_FILL_PRICE_AND_DISTANCE_BOTH_SPECIFIED" };
    if (p === undefined && d === undefined) return { code: "STOP_LOSS_ON_FILL_PRICE_AND_DISTANCE_BOTH_MISSING" };
    if (p !== undefined) {
      if (typeof p !== "string" || !DEC_RE.test(p) || new Decimal(p).lte(0)) return { code: "STOP_LOSS_ON_FILL_PRICE_INVALID" };
      if (decimals(p) > dp) return { code: "STOP_LOSS_ON_FILL_PRICE_PRECISION_EXCEEDED" };
    } else {
      if (typeof d !== "string" || !DEC_RE.test(d) || new Decimal(d).lte(0)) return { code: "STOP_LOSS_ON_FILL_DISTANCE_INVALID" };
      if (decimals(d) > dp) return { code: "STOP_LOSS_ON_FILL_DISTANCE_PRECISION_EXCEEDED" };
    }
    onFill.sl = { price: p as string | undefined, distance: d as string | undefined, ext: ext(sl.clientExtensions) };
  }
  if (tp !== undefined) {
    if (!isObj(tp) || tp.price === undefined) return { code: "TAKE_PROFIT_ON_FILL_PRICE_MISSING" };
    const p = tp.price;
    if (typeof p !== "string" || !DEC_RE.test(p) || new Decimal(p).lte(0)) return { code: "TAKE_PROFIT_ON_FILL_PRICE_INVALID" };
    if (decimals(p) > dp) return { code: "TAKE_PROFIT_ON_FILL_PRICE_PRECISION_EXCEEDED" };
    onFill.tp = { price: p, ext: ext(tp.clientExtensions) };
  }
  if (tsl !== undefined) {
    if (!isObj(tsl) || tsl.distance === undefined) return { code: "TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_MISSING" };
    const d = tsl.distance;
    if (typeof d !== "string" || !DEC_RE.test(d) || new Decimal(d).lte(0)) return { code: "TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_INVALID" };
    if (decimals(d) > dp) return { code: "TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_PRECISION_EXCEEDED" };
    if (new Decimal(d).lt(pip.mul(5))) return { code: "TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_MINIMUM_NOT_MET" };
    if (new Decimal(d).gt(pip.mul(10_000))) return { code: "TRAILING_STOP_LOSS_ON_FILL_PRICE_DISTANCE_MAXIMUM_EXCEEDED" };
    onFill.tsl = { distance: d, ext: ext(tsl.clientExtensions) };
  }
  return { onFill };
}

function echoFields(o: Record<string, unknown>, inst: string, dp: number): Record<string, unknown> {
  const out: Record<string, unknown> = {
    instrument: inst, units: o.units, timeInForce: o.timeInForce ?? "FOK", positionFill: o.positionFill ?? "DEFAULT", reason: "CLIENT_ORDER",
  };
  const fmt = (p: unknown) => (typeof p === "string" && DEC_RE.test(p) && decimals(p) <= dp ? formatPrice(inst, p) : p);
  if (o.priceBound !== undefined) out.priceBound = fmt(o.priceBound);
  if (isObj(o.takeProfitOnFill)) out.takeProfitOnFill = { price: fmt(o.takeProfitOnFill.price), timeInForce: "GTC", ...(ext(o.takeProfitOnFill.clientExtensions) ? { clientExtensions: ext(o.takeProfitOnFill.clientExtensions) } : {}) };
  if (isObj(o.stopLossOnFill)) {
    const sl = o.stopLossOnFill;
    out.stopLossOnFill = { ...(sl.price !== undefined ? { price: fmt(sl.price) } : {}), ...(sl.distance !== undefined ? { distance: sl.distance } : {}), timeInForce: "GTC", ...(ext(sl.clientExtensions) ? { clientExtensions: ext(sl.clientExtensions) } : {}) };
  }
  if (isObj(o.trailingStopLossOnFill)) out.trailingStopLossOnFill = { distance: o.trailingStopLossOnFill.distance, timeInForce: "GTC" };
  if (ext(o.clientExtensions)) out.clientExtensions = ext(o.clientExtensions);
  if (ext(o.tradeClientExtensions)) out.tradeClientExtensions = ext(o.tradeClientExtensions);
  return out;
}

function createDependent(b: Batch, type: DependentOrderType, tradeID: string, inst: string, f: { price?: string; distance?: string; trailingStopValue?: string; ext?: ClientExt }): string {
  const txType = type === "TAKE_PROFIT" ? "TAKE_PROFIT_ORDER" : type === "STOP_LOSS" ? "STOP_LOSS_ORDER" : "TRAILING_STOP_LOSS_ORDER";
  const tx = addTx(b, txType, {
    tradeID, ...(f.price !== undefined && type !== "TRAILING_STOP_LOSS" ? { price: f.price } : {}),
    ...(f.distance !== undefined ? { distance: f.distance } : {}), timeInForce: "GTC", triggerCondition: "DEFAULT",
    ...(type === "STOP_LOSS" ? { guaranteed: false } : {}), reason: "ON_FILL", ...(f.ext ? { clientExtensions: f.ext } : {}),
  });
  b.acct.orders.push({
    id: tx.id, type, tradeID, instrument: inst, createTime: tx.time, state: "PENDING",
    ...(f.price !== undefined ? { price: f.price } : {}), ...(f.distance !== undefined ? { distance: f.distance } : {}),
    ...(f.trailingStopValue !== undefined ? { trailingStopValue: f.trailingStopValue } : {}), ...(f.ext ? { clientExtensions: f.ext } : {}),
  });
  return tx.id;
}

/**
 * POST A/orders. `body` is the parsed JSON request; `now` sim ms; `requestID` the response's RequestID.
 * @throws SimHttpError 400 for malformed input (envelope only)
 */
export function createMarketOrder(pricing: Pricing, acct: AccountState, body: unknown, now: number, requestID: string): Reply {
  const o = isObj(body) ? body.order : undefined;
  if (!isObj(o)) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'order'" });
  if (o.type !== "MARKET") throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'order.type'" });
  const inst = o.instrument;
  if (typeof inst !== "string" || !pricing.md.has(inst)) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'order.instrument'" });
  if (typeof o.units !== "string" || !DEC_RE.test(o.units)) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'order.units'" });
  if (o.timeInForce !== undefined && o.timeInForce !== "FOK" && o.timeInForce !== "IOC") throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'order.timeInForce'" });
  if (o.positionFill !== undefined && !["DEFAULT", "REDUCE_FIRST", "OPEN_ONLY", "REDUCE_ONLY"].includes(o.positionFill as string)) throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'order.positionFill'" });
  const spec = instrumentSpec(inst);
  const dp = spec.displayPrecision;
  const echo = echoFields(o, inst, dp);
  const units = new Decimal(o.units);
  if (units.isZero()) return reject(acct, now, requestID, echo, "UNITS_INVALID");
  if (!units.isInteger()) return reject(acct, now, requestID, echo, "UNITS_PRECISION_EXCEEDED");
  if (units.abs().gt(MAX_UNITS)) return reject(acct, now, requestID, echo, "UNITS_LIMIT_EXCEEDED");
  if (o.priceBound !== undefined) {
    if (typeof o.priceBound !== "string" || !DEC_RE.test(o.priceBound)) return reject(acct, now, requestID, echo, "PRICE_BOUND_INVALID");
    if (decimals(o.priceBound) > dp) return reject(acct, now, requestID, echo, "PRICE_BOUND_PRECISION_EXCEEDED");
  }
  const v = validateOnFill(o, dp, new Decimal(10).pow(spec.pipLocation));
  if ("code" in v) return reject(acct, now, requestID, echo, v.code);
  const cext = ext(o.clientExtensions), text = ext(o.tradeClientExtensions);
  if (cext?.id && marketOrderClientIdUsed(acct, cext.id)) {
    return reject(acct, now, requestID, echo, "CLIENT_ORDER_ID_ALREADY_EXISTS");
  }

  const b = newBatch(acct, now, requestID);
  const create = addTx(b, "MARKET_ORDER", echo);
  if (text?.id && openTrades(acct).some((t) => t.clientExtensions?.id === text.id)) return cancel(b, create, "CLIENT_TRADE_ID_ALREADY_EXISTS", 201);
  const q = pricing.quote(inst, now);
  if (!q.tradeable) return cancel(b, create, "MARKET_HALTED", 201);
  const buy = units.isPositive();
  const fillPrice = buy ? q.ask : q.bid;
  if (typeof o.priceBound === "string" && (buy ? fillPrice.gt(o.priceBound) : fillPrice.lt(o.priceBound))) return cancel(b, create, "BOUNDS_VIOLATION", 201);
  const reduceOnly = o.positionFill === "REDUCE_ONLY";
  const opening = reduceOnly ? new Decimal(0) : openingUnits(acct, inst, units);
  if (reduceOnly && openingUnits(acct, inst, units).eq(units.abs())) return cancel(b, create, "POSITION_CLOSEOUT_FAILED", 201);
  // Dependent-order levels for the trade this order would open, checked against the closing side.
  const closeSide = buy ? q.bid : q.ask;
  const { onFill } = v;
  let slPrice: string | undefined, tslValue: string | undefined;
  if (opening.gt(0)) {
    if (onFill.sl) {
      slPrice = onFill.sl.price !== undefined ? formatPrice(inst, onFill.sl.price) : formatPrice(inst, buy ? fillPrice.sub(onFill.sl.distance!) : fillPrice.add(onFill.sl.distance!));
      if (buy ? new Decimal(slPrice).gte(closeSide) : new Decimal(slPrice).lte(closeSide)) return cancel(b, create, "STOP_LOSS_ON_FILL_LOSS", 201);
    }
    if (onFill.tp && (buy ? new Decimal(onFill.tp.price).lte(closeSide) : new Decimal(onFill.tp.price).gte(closeSide))) return cancel(b, create, "TAKE_PROFIT_ON_FILL_LOSS", 201);
    if (onFill.tsl) tslValue = formatPrice(inst, buy ? closeSide.sub(onFill.tsl.distance) : closeSide.add(onFill.tsl.distance));
    const held = units.abs().sub(opening);
    const freed = held.gt(0) ? marginFor(pricing, acct, inst, held, q, now) : new Decimal(0);
    if (marginFor(pricing, acct, inst, opening, q, now).gt(accountTotals(pricing, acct, now).marginAvailable.add(freed))) {
      return cancel(b, create, "INSUFFICIENT_MARGIN", 201);
    }
  }
  const { fill, opened } = fillOrder(pricing, b, {
    instrument: inst, units: reduceOnly ? (buy ? units.abs().sub(openingUnits(acct, inst, units)) : units.abs().sub(openingUnits(acct, inst, units)).neg()) : units,
    quote: q, orderID: create.id, reason: "MARKET_ORDER", openRemainder: !reduceOnly, tradeClientExtensions: text,
  });
  if (opened) {
    if (onFill.tp) opened.takeProfitOrderID = createDependent(b, "TAKE_PROFIT", opened.id, inst, { price: formatPrice(inst, onFill.tp.price), ext: onFill.tp.ext });
    if (onFill.sl) opened.stopLossOrderID = createDependent(b, "STOP_LOSS", opened.id, inst, { price: slPrice, distance: onFill.sl.distance, ext: onFill.sl.ext });
    if (onFill.tsl) opened.trailingStopLossOrderID = createDependent(b, "TRAILING_STOP_LOSS", opened.id, inst, { distance: onFill.tsl.distance, trailingStopValue: tslValue, ext: onFill.tsl.ext });
  }
  return { status: 201, body: { orderCreateTransaction: create, orderFillTransaction: fill, relatedTransactionIDs: b.ids, lastTransactionID: String(acct.lastTransactionID) } };
}

/**
 * PUT A/trades/{spec}/close with body `{units?: "ALL" | "<positive integer>"}`.
 * @throws SimHttpError 404 NO_SUCH_TRADE when the trade is unknown or already closed; 400 on a malformed `units`
 */
export function closeTrade(pricing: Pricing, acct: AccountState, spec: string, body: unknown, now: number, requestID: string): Reply {
  const t = findTrade(acct, spec);
  if (!t || t.state !== "OPEN") {
    throw new SimHttpError(404, { lastTransactionID: String(acct.lastTransactionID), errorMessage: "The trade ID specified does not exist", errorCode: "NO_SUCH_TRADE" });
  }
  const raw = isObj(body) && body.units !== undefined ? body.units : "ALL";
  if (raw !== "ALL" && (typeof raw !== "string" || !/^\d+(\.\d+)?$/.test(raw) || new Decimal(raw).lte(0))) {
    throw new SimHttpError(400, { errorMessage: "Invalid value specified for 'units'" });
  }
  const cur = new Decimal(t.currentUnits);
  const size = raw === "ALL" ? cur.abs() : new Decimal(raw);
  const closeUnits = cur.isPositive() ? size.neg() : size;
  const fields = {
    instrument: t.instrument, units: closeUnits.toFixed(), timeInForce: "FOK", positionFill: "REDUCE_ONLY", reason: "TRADE_CLOSE",
    tradeClose: { tradeID: t.id, ...(t.clientExtensions?.id ? { clientTradeID: t.clientExtensions.id } : {}), units: raw },
  };
  if (!size.isInteger()) return reject(acct, now, requestID, fields, "UNITS_PRECISION_EXCEEDED");
  if (size.gt(cur.abs())) return reject(acct, now, requestID, fields, "CLOSE_TRADE_UNITS_EXCEED_TRADE_SIZE");
  const b = newBatch(acct, now, requestID);
  const create = addTx(b, "MARKET_ORDER", fields);
  const q = pricing.quote(t.instrument, now);
  if (!q.tradeable) return cancel(b, create, "MARKET_HALTED", 200);
  const { fill } = fillOrder(pricing, b, {
    instrument: t.instrument, units: closeUnits, quote: q, orderID: create.id, reason: "MARKET_ORDER_TRADE_CLOSE", targets: [t], openRemainder: false,
  });
  return { status: 200, body: { orderCreateTransaction: create, orderFillTransaction: fill, relatedTransactionIDs: b.ids, lastTransactionID: String(acct.lastTransactionID) } };
}

