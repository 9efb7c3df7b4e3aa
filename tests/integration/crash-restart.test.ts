/**
 * A process killed in the middle of a tick (after the broker filled the order, before our
 * bookkeeping) and restarted: the trade is recovered from the broker's transactions, no second
 * order is ever sent for the same decision, and an active bot resumes by itself after a restart.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv, tradeWithoutEdge } from "../setup/trading-env";

let env: TradingEnv;

beforeAll(async () => {
  env = await createTradingEnv({ startAt: "2026-01-20T09:00:00Z" });
}, 120_000);
afterAll(async () => env?.close());

describe("crash in the middle of a tick", () => {
  it("recovers the filled order after restart without a duplicate trade, and resumes the active bot", async () => {
    const crashy = await env.startApp({ CRASH_AT: "after-order", WORKERS: "off" });
    const u = await userWithBroker(env, crashy);
    await tradeWithoutEdge(u.call); // the AI trades despite no proven edge (the edge gate's override, issue 21)
    // Drive ticks until one sends an order: the process then dies right after the fill.
    let died = false;
    for (let i = 0; i < 150 && !died; i++) {
      await env.simCall("POST", "/sim/clock", { advanceSeconds: 900 });
      await u.call("POST", "/api/trades/ai/loop/run-once").catch(() => undefined);
      died = crashy.proc.exitCode !== null || crashy.proc.signalCode !== null;
    }
    expect(died).toBe(true);
    const [pending] = await env.db.sql`select client_order_id, status from order_intents where user_id = ${u.userId}`;
    expect(pending!.status).toBe("pending");
    expect(await env.db.sql`select 1 from trades where user_id = ${u.userId}`).toHaveLength(0);
    const brokerOpen = async () =>
      (await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}/openTrades`, { headers: { authorization: `Bearer ${u.brokerToken}` } }).then((r) => r.json())) as {
        trades: { id: string; clientExtensions?: { id: string } }[];
      };
    const before = await brokerOpen();
    expect(before.trades).toHaveLength(1);
    expect(before.trades[0]!.clientExtensions?.id).toBe(pending!.client_order_id);

    // Restart on the same database and data folder; the session survives (stored in PostgreSQL).
    const app = await env.startApp({ WORKERS: "off" });
    const call = apiClient(app.url, u.token);
    for (let i = 0; i < 3; i++) await call("POST", "/api/trades/ai/loop/run-once"); // same market time: same decisions
    const trades = await env.db.sql`select broker_trade_id, client_order_id from trades where user_id = ${u.userId}`;
    expect(trades).toHaveLength(1);
    expect(trades[0]).toMatchObject({ broker_trade_id: before.trades[0]!.id, client_order_id: pending!.client_order_id });
    const [intent] = await env.db.sql`select status from order_intents where client_order_id = ${pending!.client_order_id}`;
    expect(intent!.status).toBe("filled");
    expect((await brokerOpen()).trades).toHaveLength(1);
    const orders = (await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}/transactions/sinceid?id=1`, {
      headers: { authorization: `Bearer ${u.brokerToken}` },
    }).then((r) => r.json())) as { transactions: { type: string; clientExtensions?: { id: string } }[] };
    expect(orders.transactions.filter((t) => t.type === "MARKET_ORDER" && t.clientExtensions?.id === pending!.client_order_id)).toHaveLength(1);
    await app.stop();

    // An active bot resumes after a hard kill without anyone pressing start again.
    const worker = await env.startApp();
    const wcall = apiClient(worker.url, u.token);
    expect((await wcall("POST", "/api/trades/ai/loop/start", { intervalSec: 5 })).status).toBe(200);
    await worker.kill();
    const restartedAt = new Date();
    const resumed = await env.startApp();
    let ticked = false;
    for (let i = 0; i < 60 && !ticked; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const [bot] = await env.db.sql`select is_active, last_tick_at from bots where user_id = ${u.userId}`;
      ticked = bot!.is_active && bot!.last_tick_at > restartedAt;
    }
    expect(ticked).toBe(true);
    await resumed.stop();
  }, 300_000);
});
