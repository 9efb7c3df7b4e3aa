/**
 * The simulator's incremental lookups (core/simulator/lookup.ts) answer as a scan of the whole book
 * would, as orders and transactions are appended and orders leave PENDING: a long backtest relies on
 * them to stay fast, the broker protocol on them to stay right (duplicate client order id, pending count).
 */
import { describe, expect, it } from "vitest";
import { marketOrderClientIdUsed, orderById, pendingOrderCount } from "../../../core/simulator/lookup";
import type { AccountState, OrderState } from "../../../core/simulator/state";

function account(): AccountState {
  return { id: "101-001-1-001", userID: 1, environment: "practice", currency: "USD", createdTime: "0", balance: "10000", pl: "0", lastTransactionID: 0, transactions: [], trades: [], orders: [], positionPL: {} };
}

const order = (id: string, state: OrderState["state"] = "PENDING") => ({ id, state, type: "STOP_LOSS", tradeID: "1", price: "1.1" }) as unknown as OrderState;

describe("simulator book lookups", () => {
  it("finds orders appended after an earlier lookup, and counts pending ones as their state changes", () => {
    const a = account();
    a.orders.push(order("2"), order("3"));
    expect(orderById(a, "3")?.id).toBe("3");
    expect(pendingOrderCount(a)).toBe(2);
    a.orders[0]!.state = "FILLED";
    a.orders.push(order("5"), order("6", "CANCELLED"));
    expect(orderById(a, "5")?.id).toBe("5");
    expect(orderById(a, "4")).toBeUndefined();
    expect(orderById(a, undefined)).toBeUndefined();
    expect(pendingOrderCount(a)).toBe(a.orders.filter((o) => o.state === "PENDING").length);
    a.orders[1]!.state = "CANCELLED";
    a.orders[2]!.state = "FILLED";
    expect(pendingOrderCount(a)).toBe(0);
  });

  it("sees a client order id once a MARKET_ORDER used it, not other transaction types", () => {
    const a = account();
    a.transactions.push({ id: "1", type: "MARKET_ORDER_REJECT", time: "0", clientExtensions: { id: "ia-x" } });
    expect(marketOrderClientIdUsed(a, "ia-x")).toBe(false);
    a.transactions.push({ id: "2", type: "MARKET_ORDER", time: "0", clientExtensions: { id: "ia-x" } });
    expect(marketOrderClientIdUsed(a, "ia-x")).toBe(true);
    expect(marketOrderClientIdUsed(a, "ia-y")).toBe(false);
  });

  it("builds its own index for a state loaded afresh (new arrays)", () => {
    const a = account();
    a.orders.push(order("2"));
    expect(pendingOrderCount(a)).toBe(1);
    const loaded = JSON.parse(JSON.stringify(a)) as AccountState;
    loaded.orders[0]!.state = "FILLED";
    expect(pendingOrderCount(loaded)).toBe(0);
    expect(orderById(loaded, "2")).toBe(loaded.orders[0]);
  });
});
