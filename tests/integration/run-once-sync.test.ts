/**
 * A forced tick (POST /api/trades/ai/loop/run-once) works on the broker's current state (ADR 0027):
 * unlike a scheduled tick it never defers its sync, even while the stored account state was confirmed
 * within the user's sync window. On a real server, PostgreSQL and the simulator (clock stopped)
 * behind a counting proxy: a trade opened on the broker's own platform right after a sync is booked
 * by the next run-once, which reads the transactions first; every run-once reads them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { startCountedApp, stopCountedApp } from "../setup/counted-app";
import type { CountingProxy } from "../setup/counting-proxy";
import { userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;
let proxy: CountingProxy;

beforeAll(async () => {
  ({ env, proxy, app } = await startCountedApp({ WORKERS: "off", LOG_LEVEL: "debug" }));
}, 120_000);
afterAll(async () => {
  await stopCountedApp({ app, proxy, env });
});

type User = Awaited<ReturnType<typeof userWithBroker>>;

/** The tick's "tick account" debug lines of `userId` so far. */
function accountLines(userId: string): { deferred: boolean; synced: boolean; accountSource: string }[] {
  return app
    .output()
    .split("\n")
    .filter((l) => l.includes(`"msg":"tick account"`) && l.includes(userId))
    .map((l) => JSON.parse(l.slice(l.indexOf("{"))) as { deferred: boolean; synced: boolean; accountSource: string });
}

async function runOnce(u: User) {
  const r = await u.call("POST", "/api/trades/ai/loop/run-once");
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

describe("run-once", () => {
  it("reads the transactions first, so a trade opened at the broker a moment ago is booked by it", { timeout: 120_000 }, async () => {
    const u = await userWithBroker(env, app, `run-once-sync-${Date.now()}@teste.com`);
    // The AI itself opens nothing while a trade is open (one at a time).
    expect((await u.call("PUT", "/api/settings", { maxTrades: 1 })).status).toBe(200);
    // The first tick learns the simulator's clock and stores the account; the second confirms it: a fresh stored state.
    await runOnce(u);
    await runOnce(u);
    const [state] = await env.db.sql<{ synced_at: Date | null }[]>`select synced_at from account_states where user_id = ${u.userId}`;
    expect(state?.synced_at).toBeTruthy();

    // Opened on the broker's own platform, not through the product.
    const res = await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${u.brokerToken}`, "content-type": "application/json" },
      body: JSON.stringify({ order: { type: "MARKET", instrument: "EUR_USD", units: "10000", timeInForce: "FOK", positionFill: "DEFAULT" } }),
    });
    const tradeId = ((await res.json()) as { orderFillTransaction: { tradeOpened: { tradeID: string } } }).orderFillTransaction.tradeOpened.tradeID;

    proxy.counts.clear();
    proxy.state.counting = true;
    await runOnce(u);
    proxy.state.counting = false;
    expect(proxy.counts.get("GET transactions/sinceid"), JSON.stringify(Object.fromEntries(proxy.counts))).toBe(1);
    expect(accountLines(u.userId).at(-1)).toMatchObject({ deferred: false, synced: true, accountSource: "broker" });
    const booked = await env.db.sql<{ status: string }[]>`select status from trades where user_id = ${u.userId} and broker_trade_id = ${tradeId}`;
    expect(booked.map((t) => t.status)).toEqual(["open"]);
    // The open trade is what the tick decided on: no opening was sent to the broker.
    expect(proxy.counts.get("POST orders")).toBeUndefined();

    // Another run-once right away reads the transactions again (nothing happened: the stored state, valued at the quotes).
    proxy.counts.clear();
    proxy.state.counting = true;
    await runOnce(u);
    proxy.state.counting = false;
    expect(proxy.counts.get("GET transactions/sinceid")).toBe(1);
    expect(accountLines(u.userId).at(-1)).toMatchObject({ deferred: false, synced: true, accountSource: "stored" });
  });
});
