/**
 * The main job end to end over real HTTP: a user connects a simulator practice account, the AI
 * loop runs on the tick scheduler (ADR 0024), decisions (including "no trade") are stored, a trade opens with stop loss
 * and take profit attached, later closes, and is recorded with realized P&L and a result.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, tickUntil, userWithBroker, type TradingEnv, tradeWithoutEdge } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;
let u: Awaited<ReturnType<typeof userWithBroker>>;

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp();
  u = await userWithBroker(env, app);
  // The AI trades these pairs despite no proven edge (the user's override of the edge gate, issue 21).
  await tradeWithoutEdge(u.call);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

describe("broker connection", () => {
  it("lists the token's accounts, refuses the other environment in Portuguese, and stores the token encrypted", async () => {
    const ok = await u.call<{ accounts: { id: string; balance: string; currency: string }[] }>("POST", "/api/oanda-auth/test-token", {
      token: u.brokerToken,
      environment: "practice",
    });
    expect(ok.status).toBe(200);
    expect(ok.body.accounts).toEqual([expect.objectContaining({ id: u.accountId, currency: "USD" })]);
    const wrongEnv = await u.call<{ message: string }>("POST", "/api/oanda-auth/test-token", { token: u.brokerToken, environment: "live" });
    expect(wrongEnv.status).toBe(400);
    expect(wrongEnv.body.message).toBe("Token inválido ou expirado. Verifique seu token.");
    const empty = await u.call<{ message: string }>("POST", "/api/oanda-auth/test-token", { token: "   ", environment: "practice" });
    expect(empty.body.message).toBe("Por favor, insira seu token da Oanda");
    const [row] = await env.db.sql`select token_encrypted from broker_connections where user_id = ${u.userId}`;
    expect(row!.token_encrypted).not.toContain(u.brokerToken);
    expect(row!.token_encrypted).toMatch(/^v1:/);
    const status = await u.call<{ isConnected: boolean; account: { balance: string; environment: string } }>("GET", "/api/oanda-auth/status");
    expect(status.body.isConnected).toBe(true);
    expect(status.body.account.environment).toBe("practice");
    expect(status.body.account.balance).toBe("100000.0000");
  });
});

describe("settings", () => {
  it("serves the PRODUCT.md §9 defaults and rejects out-of-range values without saving", async () => {
    const get = await u.call<{ settings: { maxTrades: number; slRatio: number; tpRatio: number } }>("GET", "/api/settings");
    expect(get.body.settings).toMatchObject({ maxTrades: 3, slRatio: 1, tpRatio: 1.5 });
    const bad = await u.call<{ message: string }>("PUT", "/api/settings", { settings: { maxTrades: 50 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/maxTrades/);
    const again = await u.call<{ settings: { maxTrades: number } }>("GET", "/api/settings");
    expect(again.body.settings.maxTrades).toBe(3);
    const good = await u.call<{ settings: { maxTrades: number } }>("PUT", "/api/settings", { settings: { maxTrades: "2" } });
    expect(good.status).toBe(200);
    expect(good.body.settings.maxTrades).toBe(2);
  });
});

describe("AI loop", () => {
  it("runs ticks on the scheduler once started and stores every decision, including no-trade reasons", async () => {
    const start = await u.call<{ success: boolean; isActive: boolean }>("POST", "/api/trades/ai/loop/start", { intervalSec: 5 });
    expect(start.body).toMatchObject({ success: true, isActive: true });
    const deadline = Date.now() + 30_000;
    let rows: { reason: string }[] = [];
    while (Date.now() < deadline && rows.length < 3) {
      await new Promise((r) => setTimeout(r, 500));
      rows = await env.db.sql<{ reason: string }[]>`select reason from decisions where user_id = ${u.userId}`;
    }
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const r of rows) expect(r.reason.length).toBeGreaterThan(5);
    // One tick stores its decisions before it writes its end on the bot (lastTickAt): wait for the end.
    const loopStatus = () => u.call<{ isActive: boolean; loopState: { lastStartedAt: string; lastTickAt: string } }>("GET", "/api/trades/ai/loop/status");
    await expect.poll(async () => (await loopStatus()).body.loopState.lastTickAt, { timeout: 10_000, interval: 250 }).toBeTruthy();
    const status = await loopStatus();
    expect(status.body.isActive).toBe(true);
    expect(status.body.loopState.lastStartedAt).toBeTruthy();
  });

  it("opens a trade with stop loss and take profit attached, then records its close with P&L and result", async () => {
    const opened = await tickUntil(env, u.call, async () => {
      const [n] = await env.db.sql<{ n: number }[]>`select count(*)::int as n from trades where user_id = ${u.userId}`;
      return n!.n > 0;
    });
    expect(opened).toBe(true);
    const [trade] = await env.db.sql`select * from trades where user_id = ${u.userId} order by id limit 1`;
    expect(trade!.client_order_id).toMatch(/^ia-[0-9a-f]{24}$/);
    expect(trade!.ai_reason).toBeTruthy();
    expect(trade!.stop_loss).not.toBeNull();
    expect(trade!.take_profit).not.toBeNull();
    const [intent] = await env.db.sql`select status, broker_trade_id from order_intents where client_order_id = ${trade!.client_order_id}`;
    expect(intent).toMatchObject({ status: "filled", broker_trade_id: trade!.broker_trade_id });

    const closed = await tickUntil(
      env,
      u.call,
      async () => {
        const [r] = await env.db.sql`select status from trades where id = ${trade!.id}`;
        return r!.status === "closed";
      },
      { advanceSeconds: 3600 },
    );
    expect(closed).toBe(true);
    const [done] = await env.db.sql`select * from trades where id = ${trade!.id}`;
    const pnl = Number(done!.realized_pl);
    expect(done!.result).toBe(pnl > 0 ? "WIN" : pnl < 0 ? "LOSS" : "BE");
    const history = await u.call<{ trades: { id: string; pnl: string; result: string }[] }>("GET", "/api/trades/account/history?days=3650");
    expect(history.body.trades.find((t) => t.id === done!.broker_trade_id)).toMatchObject({ pnl: done!.realized_pl, result: done!.result });
    const notes = await env.db.sql`select title from notifications where user_id = ${u.userId}`;
    expect(notes.map((n) => n.title)).toEqual(expect.arrayContaining(["Trade aberto"]));
  });

  it("stops with reason manual and says so in Portuguese", async () => {
    const stop = await u.call<{ isActive: boolean }>("POST", "/api/trades/ai/loop/stop");
    expect(stop.body.isActive).toBe(false);
    const status = await u.call<{ isActive: boolean; loopState: { lastStopReason: string; lastStopReasonText: string; lastStoppedAt: string } }>(
      "GET",
      "/api/trades/ai/loop/status",
    );
    expect(status.body.isActive).toBe(false);
    expect(status.body.loopState).toMatchObject({ lastStopReason: "manual", lastStopReasonText: "Parado manualmente" });
  });

  it("answers 400 in Portuguese for a bad interval and 404 for another account's trade", async () => {
    const bad = await u.call<{ message: string }>("POST", "/api/trades/ai/loop/start", { intervalSec: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("intervalSec deve estar entre 5 e 3600 segundos.");
    const notMine = await u.call<{ message: string }>("POST", "/api/trades/999999/close", {});
    expect(notMine.status).toBe(404);
  });
});
