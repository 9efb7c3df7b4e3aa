/**
 * An order's own response as the whole story since the books' cursor (core/broker/own-fill.ts, issue
 * 24, ADR 0042): the batch is rebuilt only when its ids follow the cursor with nothing in between or
 * after, it opened one trade and closed none, and the stop loss has a price; anything else answers
 * undefined so the tick reads the broker's transactions (a wrong book would be worse than a request).
 * The response is the real capture of oanda/PROTOCOL.md §7.8 (create 7578, fill 7579, TP 7580, SL 7581).
 */
import { describe, expect, it } from "vitest";
import { accountAfterFill, ownFill } from "../../../core/broker/own-fill";
import type { AccountSummary, MarketOrderRequest, MarketOrderResult, Trade } from "../../../core/broker/port";

const ext = { id: "ia-abc", tag: "forexia-ai", comment: "IA M15" };
const order: MarketOrderRequest = {
  instrument: "EUR_USD",
  units: "10000",
  stopLossOnFill: { price: "1.05000" },
  takeProfitOnFill: { price: "1.10000" },
  clientExtensions: ext,
  tradeClientExtensions: ext,
};
const time = "2017-03-09T13:22:13.832587780Z";
const response = (over: Partial<MarketOrderResult> = {}, fill: Record<string, unknown> = {}): MarketOrderResult => ({
  filled: true,
  orderCreateTransaction: {
    id: "7578", batchID: "7578", type: "MARKET_ORDER", reason: "CLIENT_ORDER", instrument: "EUR_USD", units: "10000", time,
    takeProfitOnFill: { price: "1.10000" }, stopLossOnFill: { price: "1.05000" }, clientExtensions: ext, tradeClientExtensions: ext,
  } as MarketOrderResult["orderCreateTransaction"],
  orderFillTransaction: {
    id: "7579", batchID: "7578", orderID: "7578", type: "ORDER_FILL", reason: "MARKET_ORDER", instrument: "EUR_USD", units: "10000",
    price: "1.05563", pl: "0.0000", financing: "0.0000", accountBalance: "102107.4442", time,
    tradeOpened: { tradeID: "7579", units: "10000", price: "1.05563" },
    ...fill,
  },
  relatedTransactionIDs: ["7578", "7579", "7580", "7581"],
  lastTransactionID: "7581",
  ...over,
});

describe("ownFill", () => {
  it("rebuilds the batch after the cursor as sinceid would list it, with the opened trade and its stop loss and take profit", () => {
    const f = ownFill("7577", order, response())!;
    expect(f.transactions.map((t) => [t.id, t.type])).toEqual([
      ["7578", "MARKET_ORDER"],
      ["7579", "ORDER_FILL"],
      ["7580", "TAKE_PROFIT_ORDER"],
      ["7581", "STOP_LOSS_ORDER"],
    ]);
    expect(f.transactions[2]).toMatchObject({ tradeID: "7579", price: "1.10000" });
    expect(f.transactions[3]).toMatchObject({ tradeID: "7579", price: "1.05000" });
    expect(f.transactions[0]!.clientExtensions?.id).toBe("ia-abc");
    expect(f.trade).toMatchObject({ id: "7579", instrument: "EUR_USD", price: "1.05563", currentUnits: "10000", state: "OPEN", clientExtensions: ext });
    expect(f.trade.takeProfitOrder).toMatchObject({ id: "7580", price: "1.10000" });
    expect(f.trade.stopLossOrder).toMatchObject({ id: "7581", price: "1.05000" });
    expect(f).toMatchObject({ after: "7577", lastTransactionID: "7581", accountBalance: "102107.4442" });
  });

  it("answers undefined when another transaction came before the batch, after it, or in it", () => {
    expect(ownFill("7576", order, response())).toBeUndefined(); // 7577 was someone else's
    expect(ownFill("7577", order, response({ lastTransactionID: "7582" }))).toBeUndefined(); // a stop loss hit right after
    expect(ownFill("7577", order, response({ relatedTransactionIDs: ["7578", "7579", "7580", "7581", "7582"], lastTransactionID: "7582" }))).toBeUndefined();
    expect(ownFill(null, order, response())).toBeUndefined(); // no cursor yet
  });

  it("answers undefined for a fill that closed or reduced trades (netting), an order not filled, or a stop loss by distance", () => {
    expect(ownFill("7577", order, response({}, { tradesClosed: [{ tradeID: "7000", units: "-1000", realizedPL: "1.0000" }] }))).toBeUndefined();
    expect(ownFill("7577", order, response({}, { tradeReduced: { tradeID: "7000", units: "-1000", realizedPL: "1.0000" } }))).toBeUndefined();
    expect(ownFill("7577", order, { ...response(), filled: false, orderFillTransaction: undefined })).toBeUndefined();
    const byDistance = { ...order, stopLossOnFill: { distance: "0.0050" } };
    const echo = response();
    delete (echo.orderCreateTransaction as unknown as { stopLossOnFill?: unknown }).stopLossOnFill;
    expect(ownFill("7577", byDistance, echo)).toBeUndefined();
  });

  it("takes the trailing stop as the batch's next id", () => {
    const trailing = { ...order, trailingStopLossOnFill: { distance: "0.0030" } };
    const f = ownFill("7577", trailing, response({ relatedTransactionIDs: ["7578", "7579", "7580", "7581", "7582"], lastTransactionID: "7582" }))!;
    expect(f.transactions.at(-1)).toMatchObject({ id: "7582", type: "TRAILING_STOP_LOSS_ORDER" });
    expect(f.trade.trailingStopLossOrder).toMatchObject({ id: "7582", distance: "0.0030" });
  });
});

describe("accountAfterFill", () => {
  it("moves the stored read to the fill: the broker's balance, P&L added in decimals, the trade first, counts and id", () => {
    const summary: AccountSummary = {
      id: "101", currency: "USD", balance: "102110.0000", NAV: "102110.0000", unrealizedPL: "0.0000", pl: "0.1000",
      marginUsed: "0.0000", marginAvailable: "102110.0000", openTradeCount: 1, openPositionCount: 1, pendingOrderCount: 2, lastTransactionID: "7577",
    };
    const old: Trade = { id: "7000", instrument: "USD_JPY", price: "150.000", openTime: time, state: "OPEN", initialUnits: "1000", currentUnits: "1000", realizedPL: "0" };
    const f = ownFill("7577", order, response({}, { pl: "0.2000" }))!;
    const moved = accountAfterFill(summary, [old], f);
    expect(moved.trades.map((t) => t.id)).toEqual(["7579", "7000"]);
    expect(moved.summary).toMatchObject({ balance: "102107.4442", pl: "0.3000", openTradeCount: 2, openPositionCount: 2, pendingOrderCount: 4, lastTransactionID: "7581" });
  });
});
