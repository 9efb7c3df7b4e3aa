/**
 * Issue 8 item 4, in process on a real database: reconcile is idempotent and serialized per user.
 * Several reconciles start from the same stale connection row (as a tick and manual closes do) and
 * read the same transactions; only what lies after the id stored at commit time is applied, so the
 * trade's units and realized P&L are counted once — even when the broker's record of the trade is
 * unavailable and the transactions' own figures are all there is. A broker that no longer has the
 * stored id (416) makes reconcile check every open trade of ours and restart from its last id.
 */
import { describe, expect, it } from "vitest";
import type { BrokerPort, Trade, Transaction } from "../../core/broker/port";
import { BrokerError } from "../../core/oanda/errors";
import type { BrokerConnectionRow } from "../../app/services/broker/broker.server";
import { reconcile } from "../../app/services/trading/reconcile.server";
import { inProcessApp } from "../setup/in-process";

const testDb = inProcessApp();

/** A fresh broker account id per connection (one app user per broker account: migration 0009). */
let accounts = 0;
const nextAccount = () => `101-004-1-${String(++accounts).padStart(3, "0")}`;
const T = "2026-01-14T10:00:00.000000000Z";

async function connectedUser(lastTransactionId: string): Promise<BrokerConnectionRow> {
  const [u] = await testDb().sql<{ id: string }[]>`insert into users (email, password_hash, email_verified_at)
    values (${`u${Math.random().toString(36).slice(2)}@example.com`}, 'x', now()) returning id`;
  const [row] = await testDb().sql<BrokerConnectionRow[]>`insert into broker_connections (user_id, environment, account_id, account_currency, token_encrypted, last_transaction_id)
    values (${u!.id}, 'practice', ${nextAccount()}, 'USD', 'v1:a:b:c', ${lastTransactionId}) returning *`;
  return row!;
}

const notFound = () => new BrokerError("not found", { status: 404, kind: "not_found" });

/** A broker holding `log`; sinceid waits a little so that concurrent callers all read before any commits. */
function fakeBroker(log: Transaction[], trades: Record<string, Trade> = {}, opts: { lostBelow?: number } = {}): BrokerPort {
  const last = () => log[log.length - 1]?.id ?? "0";
  return {
    async transactionsSinceId(_account: string, id: string) {
      await new Promise((r) => setTimeout(r, 50));
      if (opts.lostBelow !== undefined && Number(id) < opts.lostBelow) throw new BrokerError("range", { status: 416, kind: "bad_request" });
      return { transactions: log.filter((t) => Number(t.id) > Number(id)), lastTransactionID: last() };
    },
    async getTrade(_account: string, id: string) {
      const t = trades[id];
      if (!t) throw notFound();
      return t;
    },
    async getAccountSummary() {
      return { lastTransactionID: last() } as Awaited<ReturnType<BrokerPort["getAccountSummary"]>>;
    },
  } as unknown as BrokerPort;
}

const open = (id: string, tradeID: string, units: string): Transaction => ({
  id, type: "ORDER_FILL", time: T, instrument: "EUR_USD", price: "1.10000", reason: "MARKET_ORDER", tradeOpened: { tradeID, units, price: "1.10000" },
});
const reduce = (id: string, tradeID: string, units: string, pl: string): Transaction => ({
  id, type: "ORDER_FILL", time: T, instrument: "EUR_USD", price: "1.09990", reason: "MARKET_ORDER_TRADE_CLOSE",
  tradeReduced: { tradeID, units, price: "1.09990", realizedPL: pl },
});

const ours = async (userId: string, tradeId: string) =>
  (await testDb().sql<{ units: string; realized_pl: string | null; status: string; result: string | null }[]>`
    select units::text, realized_pl::text, status, result from trades where user_id = ${userId} and broker_trade_id = ${tradeId}`)[0];

describe("reconcile: serialized and idempotent per user", () => {
  it("five concurrent reconciles from the same stale id count each reduction once", async () => {
    const conn = await connectedUser("0");
    const broker = fakeBroker([open("1", "1", "1000"), reduce("2", "1", "-100", "-0.1110"), reduce("3", "1", "-100", "-0.1110")]);
    const results = await Promise.all(Array.from({ length: 5 }, () => reconcile(conn.user_id, { ...conn }, broker)));
    expect(results.reduce((n, r) => n + r.opened, 0)).toBe(1);
    expect(await ours(conn.user_id, "1")).toMatchObject({ units: "800", realized_pl: "-0.222", status: "open" });
    const [stored] = await testDb().sql`select last_transaction_id from broker_connections where user_id = ${conn.user_id}`;
    expect(stored!.last_transaction_id).toBe("3");
    // Again from the same stale row: nothing changes.
    await reconcile(conn.user_id, { ...conn }, broker);
    expect(await ours(conn.user_id, "1")).toMatchObject({ units: "800", realized_pl: "-0.222" });
  });

  it("takes the broker's units and realized P&L of a reduced trade as the truth", async () => {
    const conn = await connectedUser("0");
    const trade = { id: "7", instrument: "EUR_USD", price: "1.10000", openTime: T, state: "OPEN", initialUnits: "1000", currentUnits: "700", realizedPL: "-0.4440" } as Trade;
    const broker = fakeBroker([open("1", "7", "1000"), reduce("2", "7", "-100", "-0.1110")], { "7": trade });
    await reconcile(conn.user_id, { ...conn }, broker);
    expect(await ours(conn.user_id, "7")).toMatchObject({ units: "700", realized_pl: "-0.4440" });
  });

  it("when the broker no longer has the stored id, closes our open trades the broker closed and restarts from its last id", async () => {
    const conn = await connectedUser("0");
    const log = [open("1", "9", "1000")];
    await reconcile(conn.user_id, { ...conn }, fakeBroker(log));
    expect(await ours(conn.user_id, "9")).toMatchObject({ status: "open" });
    const closed = {
      id: "9", instrument: "EUR_USD", price: "1.10000", openTime: T, state: "CLOSED", initialUnits: "1000", currentUnits: "0",
      realizedPL: "-1.2300", averageClosePrice: "1.09877", closeTime: "2026-01-14T11:00:00.000000000Z", stopLossOrder: { id: "3", price: "1.09877", state: "FILLED" },
    } as Trade;
    const later = [...log, ...["2", "3", "4", "5"].map((id) => ({ id, type: "DAILY_FINANCING", time: T }) as Transaction)];
    await reconcile(conn.user_id, { ...conn, last_transaction_id: "1" }, fakeBroker(later, { "9": closed }, { lostBelow: 3 }));
    expect(await ours(conn.user_id, "9")).toMatchObject({ status: "closed", realized_pl: "-1.2300", result: "LOSS" });
    const [row] = await testDb().sql`select close_reason, close_price::text from trades where user_id = ${conn.user_id} and broker_trade_id = '9'`;
    expect(row).toMatchObject({ close_reason: "STOP_LOSS_ORDER", close_price: "1.09877" });
    const [stored] = await testDb().sql`select last_transaction_id from broker_connections where user_id = ${conn.user_id}`;
    expect(stored!.last_transaction_id).toBe("5");
  });
});
