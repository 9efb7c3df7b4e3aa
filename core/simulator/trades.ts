/**
 * Trade and dependent-order JSON (PROTOCOL.md §7.9–7.11) and trade lookup by specifier.
 */
import { formatMoney } from "../decimal";
import { Decimal } from "../decimal";
import { formatPrice } from "../instruments";
import { tradeFigures } from "./accounts";
import type { Pricing } from "./pricing";
import type { AccountState, OrderState, TradeState } from "./state";
import { orderById } from "./lookup";

/** Dependent order JSON (`TakeProfitOrder` / `StopLossOrder` / `TrailingStopLossOrder`); absent fields omitted. */
export function orderJSON(o: OrderState): Record<string, unknown> {
  const out: Record<string, unknown> = { id: o.id, createTime: o.createTime, type: o.type, tradeID: o.tradeID };
  if (o.price !== undefined) out.price = o.price;
  if (o.distance !== undefined) out.distance = o.distance;
  if (o.trailingStopValue !== undefined) out.trailingStopValue = o.trailingStopValue;
  Object.assign(out, { timeInForce: "GTC", triggerCondition: "DEFAULT", state: o.state });
  if (o.type === "STOP_LOSS") out.guaranteed = false;
  if (o.clientExtensions) out.clientExtensions = o.clientExtensions;
  if (o.fillingTransactionID) Object.assign(out, { fillingTransactionID: o.fillingTransactionID, filledTime: o.filledTime, tradeClosedIDs: o.tradeClosedIDs });
  if (o.cancellingTransactionID) Object.assign(out, { cancellingTransactionID: o.cancellingTransactionID, cancelledTime: o.cancelledTime });
  return out;
}

/** Dependent order by id. */
export function findOrder(acct: AccountState, id: string | undefined): OrderState | undefined {
  return orderById(acct, id);
}

function baseTradeJSON(pricing: Pricing, acct: AccountState, t: TradeState, now: number): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: t.id, instrument: t.instrument, price: t.price, openTime: t.openTime, initialUnits: t.initialUnits,
    initialMarginRequired: t.initialMarginRequired, state: t.state, currentUnits: t.currentUnits, realizedPL: t.realizedPL,
    financing: formatMoney(0), dividendAdjustment: formatMoney(0),
  };
  if (t.state === "OPEN") {
    const f = tradeFigures(pricing, acct, t, now);
    out.unrealizedPL = formatMoney(f.unrealizedPL);
    out.marginUsed = formatMoney(f.marginUsed);
  } else {
    out.unrealizedPL = formatMoney(0);
    out.marginUsed = formatMoney(0);
    out.closeTime = t.closeTime;
  }
  if (new Decimal(t.closedUnits).gt(0)) {
    out.averageClosePrice = formatPrice(t.instrument, new Decimal(t.closedValue).div(t.closedUnits));
    out.closingTransactionIDs = t.closingTransactionIDs;
  }
  if (t.clientExtensions) out.clientExtensions = t.clientExtensions;
  return out;
}

/** Full `Trade` JSON with embedded dependent orders. */
export function tradeJSON(pricing: Pricing, acct: AccountState, t: TradeState, now: number): Record<string, unknown> {
  const out = baseTradeJSON(pricing, acct, t, now);
  const tp = findOrder(acct, t.takeProfitOrderID), sl = findOrder(acct, t.stopLossOrderID), ts = findOrder(acct, t.trailingStopLossOrderID);
  if (tp) out.takeProfitOrder = orderJSON(tp);
  if (sl) out.stopLossOrder = orderJSON(sl);
  if (ts) out.trailingStopLossOrder = orderJSON(ts);
  return out;
}

/** `TradeSummary` JSON (account details): dependent orders by id only. */
export function tradeSummaryJSON(pricing: Pricing, acct: AccountState, t: TradeState, now: number): Record<string, unknown> {
  const out = baseTradeJSON(pricing, acct, t, now);
  if (t.takeProfitOrderID) out.takeProfitOrderID = t.takeProfitOrderID;
  if (t.stopLossOrderID) out.stopLossOrderID = t.stopLossOrderID;
  if (t.trailingStopLossOrderID) out.trailingStopLossOrderID = t.trailingStopLossOrderID;
  return out;
}

/** Trade by specifier: its id ("1523") or "@<clientExtensions.id>" (newest match). */
export function findTrade(acct: AccountState, spec: string): TradeState | undefined {
  if (spec.startsWith("@")) {
    const cid = spec.slice(1);
    return [...acct.trades].reverse().find((t) => t.clientExtensions?.id === cid);
  }
  return acct.trades.find((t) => t.id === spec);
}

/**
 * Trades list filter (GET A/trades): state OPEN (default) | CLOSED | CLOSE_WHEN_TRADEABLE | ALL,
 * optional instrument, ids, beforeID (the maximum trade id returned, inclusive, as in the spec),
 * newest first, at most `count`; `more` tells whether older matches were left out.
 */
export function listTrades(acct: AccountState, q: { state: string; instrument?: string; beforeID?: number; ids?: string[]; count: number }): { trades: TradeState[]; more: boolean } {
  const all = [...acct.trades].reverse().filter((t) =>
    (q.state === "ALL" || t.state === q.state) &&
    (!q.instrument || t.instrument === q.instrument) &&
    (q.beforeID === undefined || Number(t.id) <= q.beforeID) &&
    (!q.ids || q.ids.includes(t.id)));
  return { trades: all.slice(0, q.count), more: all.length > q.count };
}
