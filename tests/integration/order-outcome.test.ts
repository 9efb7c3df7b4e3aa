/**
 * Issue 8 item 10: an order whose outcome is unknown no longer stays `pending` for good. The
 * reconcile settles intents from the broker's transactions by client id (a reject included), and
 * an order that never reached the broker (no transaction at all) is settled as `failed` after
 * UNKNOWN_OUTCOME_MINUTES; a fill that shows up later still wins.
 */
import { describe, expect, it } from "vitest";
import type { BrokerPort, Transaction } from "../../core/broker/port";
import type { BrokerConnectionRow } from "../../app/services/broker/broker.server";
import { settleUnknownOrders } from "../../app/services/trading/order-intents.server";
import { reconcile } from "../../app/services/trading/reconcile.server";
import { inProcessApp } from "../setup/in-process";

const testDb = inProcessApp();

const ACCOUNT = "101-004-1-001";
const T = "2026-01-14T10:00:00.000000000Z";

async function connectedUser(): Promise<BrokerConnectionRow> {
  const [u] = await testDb().sql<{ id: string }[]>`insert into users (email, password_hash, email_verified_at)
    values (${`u${Math.random().toString(36).slice(2)}@example.com`}, 'x', now()) returning id`;
  const [row] = await testDb().sql<BrokerConnectionRow[]>`insert into broker_connections (user_id, environment, account_id, account_currency, token_encrypted, last_transaction_id)
    values (${u!.id}, 'practice', ${`101-004-2-${Math.random().toString(36).slice(2, 8)}`}, 'USD', 'v1:a:b:c', '0') returning *`;
  return row!;
}

const intent = (userId: string, clientId: string, minutesAgo: number) =>
  testDb().sql`insert into order_intents (user_id, client_order_id, decision_id, account_id, instrument, units, created_at)
    values (${userId}, ${clientId}, ${`d-${clientId}`}, ${ACCOUNT}, 'EUR_USD', 1000, now() - make_interval(mins => ${minutesAgo}))`;

const status = async (userId: string, clientId: string) =>
  (await testDb().sql<{ status: string; detail: string | null }[]>`select status, detail from order_intents where user_id = ${userId} and client_order_id = ${clientId}`)[0];

function broker(log: Transaction[]): BrokerPort {
  return {
    async transactionsSinceId(_a: string, id: string) {
      return { transactions: log.filter((t) => Number(t.id) > Number(id)), lastTransactionID: log.at(-1)?.id ?? "0" };
    },
    async getTrade() {
      throw new Error("not needed");
    },
  } as unknown as BrokerPort;
}

describe("order intents with an unknown outcome", () => {
  it("a reject in the transaction stream settles the intent by client id", async () => {
    const conn = await connectedUser();
    await intent(conn.user_id, "ia-rej", 0);
    await reconcile(conn.user_id, conn, broker([{ id: "1", type: "MARKET_ORDER_REJECT", time: T, rejectReason: "INSUFFICIENT_MARGIN", clientExtensions: { id: "ia-rej" } }]));
    expect(await status(conn.user_id, "ia-rej")).toEqual({ status: "rejected", detail: "INSUFFICIENT_MARGIN" });
  });

  it("an order with no transaction is settled as failed after the delay; a later fill still wins", async () => {
    const conn = await connectedUser();
    await intent(conn.user_id, "ia-old", 10);
    await intent(conn.user_id, "ia-new", 0);
    expect(await settleUnknownOrders()).toBeGreaterThanOrEqual(1);
    expect(await status(conn.user_id, "ia-old")).toEqual({ status: "failed", detail: "sem resposta da corretora" });
    expect((await status(conn.user_id, "ia-new"))!.status).toBe("pending");
    // the broker did fill it after all: the reconcile records the trade and the intent follows
    await reconcile(conn.user_id, conn, broker([
      { id: "1", type: "MARKET_ORDER", time: T, instrument: "EUR_USD", units: "1000", clientExtensions: { id: "ia-old" } },
      { id: "2", type: "ORDER_FILL", time: T, orderID: "1", instrument: "EUR_USD", price: "1.10000", reason: "MARKET_ORDER", tradeOpened: { tradeID: "2", units: "1000", price: "1.10000" } },
    ]));
    expect((await status(conn.user_id, "ia-old"))!.status).toBe("filled");
  });
});
