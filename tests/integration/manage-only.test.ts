/**
 * Issue 9 "Lapsed licence: manage-only", over real HTTP against the real server process, PostgreSQL
 * and a standalone OANDA simulator. Two users trade side by side on one simulator clock with the same
 * settings: A's licence lapses while its AI is on with an open AI trade, B keeps a valid one (B is the
 * control: what the engine does at those ticks). A's bot stays on in manage-only: over many ticks it
 * places no order and records no decision while B's engine opens trades; A's open trade keeps its stop
 * loss / take profit at the broker and its close is still reconciled into A's books; one notification
 * on entering; the status API, run-once and the hero say manage-only. A paid licence row, later an
 * active subscription, resumes entries on the next tick with one notification each time. Starting the
 * AI without a licence is still refused (402) and stopping leaves manage-only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv, tradeWithoutEdge } from "../setup/trading-env";

type User = Awaited<ReturnType<typeof userWithBroker>>;
interface StatusJson {
  isActive: boolean;
  manageOnly: boolean;
  manageOnlyReason: string | null;
  manageOnlyReasonMsg: { key: string } | null;
  loopState: { manageOnlyCode: string | null; manageOnlySince: string | null; lastStopReason: string | null };
}
interface RunOnceJson {
  success: boolean;
  message: string;
  decisions?: unknown[];
  manageOnly?: string;
  manageOnlyReason?: string;
}
interface BrokerTrade {
  id: string;
  stopLossOrder?: { price: string };
  takeProfitOrder?: { price: string };
}

const MANAGE_ONLY_PT = "Licença inválida ou expirada: a IA não abre novas operações; as abertas seguem com stop e alvo";

let env: TradingEnv;
let app: AppServer;
let a: User;
let b: User;

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp({ WORKERS: "off" }); // ticks only through run-once: deterministic
  a = await userWithBroker(env, app, `mo-a${Date.now()}@teste.com`);
  b = await userWithBroker(env, app, `mo-b${Date.now()}@teste.com`);
  // The AI trades these pairs despite no proven edge (the user's override of the edge gate, issue 21).
  for (const u of [a, b]) await tradeWithoutEdge(u.call);
  for (const u of [a, b]) expect((await u.call("POST", "/api/trades/ai/loop/start", { intervalSec: 60 })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

/** Advances the simulator and runs one tick of each user (A first), returning A's answer. */
async function tickBoth(advanceSeconds = 900): Promise<RunOnceJson> {
  await env.simCall("POST", "/sim/clock", { advanceSeconds });
  const ra = await a.call<RunOnceJson>("POST", "/api/trades/ai/loop/run-once");
  expect(ra.status, JSON.stringify(ra.body)).toBe(200);
  await b.call("POST", "/api/trades/ai/loop/run-once");
  return ra.body;
}

const count = async (table: "decisions" | "order_intents" | "trades", userId: string) =>
  (await env.db.sql<{ n: number }[]>`select count(*)::int as n from ${env.db.sql(table)} where user_id = ${userId}`)[0]!.n;
const notes = (userId: string, mode: string) =>
  env.db.sql<{ type: string; title: string; message: string }[]>`
    select type, title, message from notifications where user_id = ${userId} and metadata->>'mode' = ${mode} order by id`;
const status = async (u: User) => (await u.call<StatusJson>("GET", "/api/trades/ai/loop/status")).body;
/** The user's open trades as the simulator (the broker) holds them. */
async function brokerOpenTrades(u: User): Promise<BrokerTrade[]> {
  const res = await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}/openTrades`, { headers: { authorization: `Bearer ${u.brokerToken}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { trades: BrokerTrade[] }).trades;
}
const lapse = (u: User) => env.db.sql`update licenses set end_date = now() - interval '1 minute' where user_id = ${u.userId}`;

describe("a licence that lapses while the AI is on", () => {
  let tradeId: string;
  let sl: string;
  let tp: string;

  it("opens an AI trade first (both users, valid licences)", async () => {
    let open: { id: string; broker_trade_id: string; stop_loss: string; take_profit: string }[] = [];
    for (let i = 0; i < 120 && open.length === 0; i++) {
      await tickBoth();
      open = await env.db.sql`select id, broker_trade_id, stop_loss::text, take_profit::text from trades
        where user_id = ${a.userId} and status = 'open' and client_order_id like 'ia-%' order by id limit 1`;
    }
    expect(open).toHaveLength(1);
    tradeId = open[0]!.broker_trade_id;
    sl = open[0]!.stop_loss;
    tp = open[0]!.take_profit;
    expect(sl && tp).toBeTruthy();
  }, 300_000);

  it("keeps the bot on in manage-only: no decision, no order over many ticks while the engine (user B) enters; the open trade keeps SL/TP and its close is reconciled", async () => {
    await lapse(a);
    const before = { decisions: await count("decisions", a.userId), intents: await count("order_intents", a.userId), trades: await count("trades", a.userId) };
    const [bStart] = await env.db.sql<{ id: string }[]>`select coalesce(max(id), 0)::text as id from decisions where user_id = ${b.userId}`;

    const first = await a.call<RunOnceJson>("POST", "/api/trades/ai/loop/run-once");
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, decisions: [], manageOnly: "licence", manageOnlyReason: MANAGE_ONLY_PT });

    const st = await status(a);
    expect(st).toMatchObject({ isActive: true, manageOnly: true, manageOnlyReason: MANAGE_ONLY_PT, manageOnlyReasonMsg: { key: "risk:licenceInvalid" } });
    expect(st.loopState.manageOnlyCode).toBe("licence");
    expect(st.loopState.manageOnlySince).toBeTruthy();

    // Tick on until A's trade has closed (stop loss / take profit at the broker) and B's engine opened a new trade.
    let closed = false;
    let bOpened = 0;
    let ticks = 0;
    for (; ticks < 150 && !(closed && bOpened > 0 && ticks >= 8); ticks++) {
      const r = await tickBoth(1800);
      expect(r).toMatchObject({ success: true, decisions: [], manageOnly: "licence" });
      const atBroker = (await brokerOpenTrades(a)).find((t) => t.id === tradeId);
      if (atBroker) {
        // Still open: stop loss and take profit untouched at the broker.
        expect(Number(atBroker.stopLossOrder?.price)).toBeCloseTo(Number(sl), 8);
        expect(Number(atBroker.takeProfitOrder?.price)).toBeCloseTo(Number(tp), 8);
      }
      const [row] = await env.db.sql<{ status: string }[]>`select status from trades where user_id = ${a.userId} and broker_trade_id = ${tradeId}`;
      closed = row!.status === "closed";
      const [n] = await env.db.sql<{ n: number }[]>`select count(*)::int as n from decisions
        where user_id = ${b.userId} and id > ${bStart!.id} and action = 'open' and executed`;
      bOpened = n!.n;
    }
    expect(bOpened, "the engine opened trades for the licensed twin").toBeGreaterThan(0);
    if (!closed) {
      // Not triggered in the window: the user closes it on the broker; the next tick reconciles it.
      const res = await fetch(`${env.sim.url}/practice/v3/accounts/${a.accountId}/trades/${tradeId}/close`, {
        method: "PUT",
        headers: { authorization: `Bearer ${a.brokerToken}`, "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(200);
      await tickBoth(60);
    }
    expect(ticks).toBeGreaterThanOrEqual(8);
    const [done] = await env.db.sql<{ status: string; realized_pl: string | null; result: string | null; stop_loss: string; take_profit: string; close_reason: string }[]>`
      select status, realized_pl::text, result, stop_loss::text, take_profit::text, close_reason from trades where user_id = ${a.userId} and broker_trade_id = ${tradeId}`;
    expect(done).toMatchObject({ status: "closed", stop_loss: sl, take_profit: tp });
    // Closed by its own stop loss / take profit at the broker (or the executor's max hold / weekend flat, or by hand).
    expect(done!.close_reason).toBeTruthy();
    expect(done!.realized_pl).not.toBeNull();
    expect(["WIN", "LOSS", "BE"]).toContain(done!.result);

    // Nothing decided, nothing sent, nothing opened for A; its bot is still on, in manage-only.
    expect(await count("decisions", a.userId)).toBe(before.decisions);
    expect(await count("order_intents", a.userId)).toBe(before.intents);
    expect(await count("trades", a.userId)).toBe(before.trades);
    expect(await brokerOpenTrades(a)).toEqual([]);
    expect(await status(a)).toMatchObject({ isActive: true, manageOnly: true });

    // Exactly one notification on entering, however many ticks saw it.
    const entered = await notes(a.userId, "manage_only");
    expect(entered).toEqual([
      {
        type: "warning",
        title: "IA em modo somente gestão",
        message:
          "Sua licença expirou: a IA não abre novas operações. As operações abertas seguem com stop loss e take profit e continuam sendo acompanhadas. Assine para voltar a operar.",
      },
    ]);
    expect(await notes(a.userId, "trading")).toEqual([]);
    // The licensed twin was never touched.
    expect(await status(b)).toMatchObject({ isActive: true, manageOnly: false, manageOnlyReason: null });
  }, 900_000);

  it("the hero says manage-only (pt) with a way to subscribe, and the AI badge of the health card", async () => {
    const res = await fetch(`${app.url}/`, { headers: { authorization: `Bearer ${a.token}` } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/data-testid="status-badge"[^>]*>.*?Somente gestão</s);
    expect(html).toMatch(/data-testid="hero-title"[^>]*>Somente Gestão</);
    expect(html).toContain('data-testid="hero-message">Licença expirada: a IA não abre novas operações; as abertas seguem com stop e alvo.<');
    expect(html).toMatch(/data-testid="power-button"[^>]*data-state="manage-only"/);
    expect(html).toMatch(/data-testid="manage-only-subscribe"[^>]*>Assinar para voltar a operar</);
    expect(html).toMatch(/data-testid="health-ai"[^>]*>Somente gestão</);
  });

  it("starting the AI without a licence is still refused (402), and changes nothing", async () => {
    const start = await a.call<{ message: string }>("POST", "/api/trades/ai/loop/start", { intervalSec: 60 });
    expect(start.status).toBe(402);
    expect(start.body.message).toBe("Licença necessária para ativar a IA.");
    expect(await status(a)).toMatchObject({ isActive: true, manageOnly: true });
  });

  it("a paid licence resumes entries on the next tick, with one notification", async () => {
    await env.db.sql`insert into licenses (user_id, key, kind, plan_name, start_date, end_date)
      values (${a.userId}, ${`PAID-${Date.now()}`}, 'paid', 'Mensal', now(), now() + interval '30 days')`;
    const decisionsBefore = await count("decisions", a.userId);
    const r = await a.call<RunOnceJson & { decisions: unknown[] }>("POST", "/api/trades/ai/loop/run-once");
    expect(r.body.success).toBe(true);
    expect(r.body.manageOnly).toBeUndefined();
    expect(r.body.decisions.length).toBeGreaterThan(0); // the engine decided again on this very tick
    expect(await count("decisions", a.userId)).toBeGreaterThan(decisionsBefore);
    expect(await status(a)).toMatchObject({ isActive: true, manageOnly: false, manageOnlyReason: null, loopState: { manageOnlyCode: null, manageOnlySince: null } });

    const trades = await count("trades", a.userId);
    let opened = false;
    for (let i = 0; i < 120 && !opened; i++) {
      await tickBoth();
      const [n] = await env.db.sql<{ n: number }[]>`select count(*)::int as n from trades where user_id = ${a.userId} and status = 'open'`;
      opened = (await count("trades", a.userId)) > trades && n!.n > 0;
    }
    expect(opened, "A opens trades again").toBe(true);
    expect(await notes(a.userId, "trading")).toEqual([{ type: "success", title: "IA voltou a operar", message: "Licença ativa novamente: a IA voltou a abrir novas operações." }]);
    expect(await notes(a.userId, "manage_only")).toHaveLength(1);
  }, 600_000);

  it("lapsing again enters manage-only again (a second notification) and the executor still closes its trade at the scalper's max hold; an active subscription resumes it", async () => {
    const [open] = await env.db.sql<{ broker_trade_id: string }[]>`select broker_trade_id from trades
      where user_id = ${a.userId} and status = 'open' and client_order_id like 'ia-%' order by id desc limit 1`;
    expect(open).toBeTruthy();
    await lapse(a);
    const put = await a.call<{ settings: { aiSettings: { scalper: { enabled: boolean; maxHoldSec: number } } } }>("PUT", "/api/settings", {
      settings: { aiSettings: { tradingStyle: "scalper", scalper: { enabled: true, maxHoldSec: 60 } } },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.settings.aiSettings.scalper).toMatchObject({ enabled: true, maxHoldSec: 60 });
    for (let i = 0; i < 3; i++) expect(await tickBoth(120)).toMatchObject({ success: true, decisions: [], manageOnly: "licence" });
    expect(await notes(a.userId, "manage_only")).toHaveLength(2);
    // The max hold elapsed in manage-only: the executor closed the AI's trade and the books recorded it.
    const [row] = await env.db.sql<{ status: string; close_reason: string | null }[]>`select status, close_reason from trades
      where user_id = ${a.userId} and broker_trade_id = ${open!.broker_trade_id}`;
    expect(row).toMatchObject({ status: "closed", close_reason: "MARKET_ORDER_TRADE_CLOSE" });
    expect(await brokerOpenTrades(a)).toEqual([]);

    await env.db.sql`update users set subscription_status = 'active' where id = ${a.userId}`;
    const r = await tickBoth(60);
    expect(r.manageOnly).toBeUndefined();
    await tickBoth(60);
    expect(await notes(a.userId, "trading")).toHaveLength(2);
    expect(await status(a)).toMatchObject({ isActive: true, manageOnly: false });
  }, 300_000);

  it("stopping the AI in manage-only turns it off and leaves manage-only; run-once with the loop off is refused", async () => {
    await env.db.sql`update users set subscription_status = 'inactive' where id = ${a.userId}`;
    await tickBoth(60);
    expect(await status(a)).toMatchObject({ isActive: true, manageOnly: true });
    const stop = await a.call("POST", "/api/trades/ai/loop/stop");
    expect(stop.status).toBe(200);
    expect(await status(a)).toMatchObject({ isActive: false, manageOnly: false, manageOnlyReason: null, loopState: { lastStopReason: "manual" } });
    const [row] = await env.db.sql`select manage_only_since, manage_only_reason from bots where user_id = ${a.userId}`;
    expect(row).toEqual({ manage_only_since: null, manage_only_reason: null });
    const once = await a.call<RunOnceJson>("POST", "/api/trades/ai/loop/run-once");
    expect(once.body).toEqual({ success: false, message: "Licença necessária" });
    expect(await notes(a.userId, "manage_only")).toHaveLength(3);
  }, 120_000);
});
