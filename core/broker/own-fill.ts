/**
 * What an order's own 201 response tells of the account (issue 24, ADR 0042): when the response
 * accounts for every transaction after the books' cursor, the product records the fill and updates
 * the stored account state from it instead of reading `transactions/sinceid`, `summary` and
 * `openTrades` again.
 *
 * OANDA numbers an account's transactions one by one (oanda/PROTOCOL.md §7.8): a filled market order
 * is the batch create N, fill N+1 (= the new trade's id), then its on-fill orders in the order
 * take profit, stop loss, trailing stop (N+2, …), and the response's `lastTransactionID` is the
 * account's last id when it answered. So when the batch starts right after the cursor, its ids are
 * exactly cursor+1 … lastTransactionID and it holds one id per on-fill order we asked for, no other
 * transaction happened in between: the response is the whole story since the cursor. Anything else
 * — a transaction of someone else before or after the batch, a fill that closed or reduced trades
 * (netting), an unknown extra id, a stop loss given by distance (its price is not in the response) —
 * answers undefined and the caller reads the broker as before.
 */
import { Decimal, formatMoney } from "../decimal";
import type { AccountSummary, MarketOrderRequest, MarketOrderResult, Trade, Transaction } from "./port";

/** The transactions of an order's batch rebuilt from its response, and the trade it opened. */
export interface OwnFill {
  /** MARKET_ORDER, ORDER_FILL, then TAKE_PROFIT_ORDER / STOP_LOSS_ORDER / TRAILING_STOP_LOSS_ORDER, as `sinceid` would list them. */
  transactions: Transaction[];
  /** The opened trade as `openTrades` lists it right after the fill (no P&L yet: valued by the caller). */
  trade: Trade;
  /** The cursor the batch follows (the books' last transaction id before the order). */
  after: string;
  /** The account's last transaction id: the batch's last. */
  lastTransactionID: string;
  /** The account balance after the fill (the fill's `accountBalance`), decimal string. */
  accountBalance: string;
  /** The fill's realized P&L (0 for an opening, but taken as the broker gives it). */
  pl: string;
}

const next = (id: string, k: number) => (BigInt(id) + BigInt(k)).toString();
const isId = (s: string | undefined): s is string => typeof s === "string" && /^\d+$/.test(s);

/**
 * The order's batch when its response accounts for every transaction after `cursor` and it opened
 * one trade and nothing else; else undefined (the caller then reads the transactions).
 * @param cursor the books' last transaction id before the order was sent
 * @param order the request as sent (its on-fill orders, client extensions)
 * @param result the broker's parsed 201 response
 */
export function ownFill(cursor: string | null | undefined, order: MarketOrderRequest, result: MarketOrderResult): OwnFill | undefined {
  const create = result.orderCreateTransaction;
  const fill = result.orderFillTransaction;
  if (!result.filled || !create || !fill || !isId(cursor ?? undefined) || !isId(result.lastTransactionID)) return undefined;
  const opened = fill.tradeOpened;
  if (!opened || fill.tradesClosed?.length || fill.tradeReduced || fill.type !== "ORDER_FILL" || create.type !== "MARKET_ORDER") return undefined;
  if (fill.accountBalance === undefined || (!opened.price && !fill.price)) return undefined;
  const echo = create as Transaction & { takeProfitOnFill?: { price?: string }; stopLossOnFill?: { price?: string }; trailingStopLossOnFill?: { distance?: string } };
  const tp = echo.takeProfitOnFill?.price ?? order.takeProfitOnFill?.price;
  const sl = order.stopLossOnFill ? (echo.stopLossOnFill?.price ?? order.stopLossOnFill.price) : undefined;
  const tsl = order.trailingStopLossOnFill ? (echo.trailingStopLossOnFill?.distance ?? order.trailingStopLossOnFill.distance) : undefined;
  if (order.stopLossOnFill && sl === undefined) return undefined; // by distance: the level is only in the broker's record
  const c = cursor as string;
  const dependents = (order.takeProfitOnFill ? 1 : 0) + (order.stopLossOnFill ? 1 : 0) + (order.trailingStopLossOnFill ? 1 : 0);
  const ids = [...result.relatedTransactionIDs].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
  const expected = Array.from({ length: 2 + dependents }, (_, k) => next(c, k + 1));
  if (create.id !== expected[0] || fill.id !== expected[1] || opened.tradeID !== fill.id) return undefined;
  if (ids.length !== expected.length || ids.some((id, k) => id !== expected[k]) || result.lastTransactionID !== expected.at(-1)) return undefined;

  const time = fill.time;
  const tradeID = opened.tradeID;
  const ext = opened.clientExtensions ?? create.tradeClientExtensions ?? order.tradeClientExtensions;
  const transactions: Transaction[] = [
    { ...create, ...(create.clientExtensions || !order.clientExtensions ? {} : { clientExtensions: order.clientExtensions }) },
    fill,
  ];
  let k = 3; // create cursor+1, fill cursor+2, then the on-fill orders
  const trade: Trade = {
    id: tradeID,
    instrument: fill.instrument ?? order.instrument,
    price: opened.price ?? fill.price ?? "0",
    openTime: time,
    state: "OPEN",
    initialUnits: opened.units,
    currentUnits: opened.units,
    realizedPL: "0.0000",
    unrealizedPL: "0.0000",
    ...(ext ? { clientExtensions: ext } : {}),
  };
  if (order.takeProfitOnFill) {
    const txId = next(c, k++);
    transactions.push({ id: txId, type: "TAKE_PROFIT_ORDER", time, reason: "ON_FILL", tradeID, price: tp! });
    trade.takeProfitOrder = { id: txId, price: tp!, state: "PENDING" };
  }
  if (order.stopLossOnFill) {
    const txId = next(c, k++);
    transactions.push({ id: txId, type: "STOP_LOSS_ORDER", time, reason: "ON_FILL", tradeID, price: sl! });
    trade.stopLossOrder = { id: txId, price: sl!, state: "PENDING" };
  }
  if (order.trailingStopLossOnFill) {
    const txId = next(c, k++);
    transactions.push({ id: txId, type: "TRAILING_STOP_LOSS_ORDER", time, reason: "ON_FILL", tradeID });
    trade.trailingStopLossOrder = { id: txId, distance: tsl!, state: "PENDING" };
  }
  return { transactions, trade, after: c, lastTransactionID: result.lastTransactionID, accountBalance: fill.accountBalance, pl: fill.pl ?? "0" };
}

/**
 * The stored read (summary and open trades at the fill's cursor) moved past an own fill: the
 * broker's balance after the fill, the realized P&L added, the trade first (newest first, as
 * `openTrades` lists them), the counts and the last id. NAV, unrealized P&L and margin are left for
 * the valuation at current quotes (core/trading/account.ts markToMarket). Decimals throughout.
 */
export function accountAfterFill(summary: AccountSummary, trades: readonly Trade[], fill: OwnFill): { summary: AccountSummary; trades: Trade[] } {
  const after = [fill.trade, ...trades];
  const dependents = fill.transactions.length - 2;
  return {
    summary: {
      ...summary,
      balance: fill.accountBalance,
      pl: formatMoney(new Decimal(summary.pl).add(fill.pl)),
      openTradeCount: after.length,
      openPositionCount: new Set(after.map((t) => t.instrument)).size,
      pendingOrderCount: summary.pendingOrderCount + dependents,
      lastTransactionID: fill.lastTransactionID,
    },
    trades: after,
  };
}
