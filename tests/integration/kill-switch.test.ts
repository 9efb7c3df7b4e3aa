/**
 * Issue 22 "Graduated kill switch", over real HTTP against the real server process, PostgreSQL and a
 * standalone OANDA simulator (ticks only through run-once: deterministic). What a user notices at
 * each level:
 * - 'Parar novas entradas': the AI stays on; over many ticks it opens nothing while a twin user with
 *   the same settings on the same clock does; a trade with a stop loss still closes at the broker and
 *   is reconciled; a licence lapsing and coming back does not lift it; "Retomar entradas" does.
 * - 'Pausar IA': the loop is off.
 * - 'Fechar tudo e pausar': no open trade at the broker AND the loop off, so a forced tick (run-once)
 *   cannot reopen, until the user starts the AI again.
 * Each leaves a notification saying the level, where (app/push) and the result. Bad input gets 400 in
 * Portuguese. The hero shows the control, the current level and a server-rendered confirmation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, tradeWithoutEdge, userWithBroker, type TradingEnv } from "../setup/trading-env";

type User = Awaited<ReturnType<typeof userWithBroker>>;
interface KillJson {
  success: boolean;
  level: string;
  changed: boolean;
  isActive: boolean;
  message: string;
  closed?: number;
  failed?: number;
}
interface StatusJson {
  isActive: boolean;
  manageOnly: boolean;
  loopState: { manageOnlyCode: string | null; lastStopReason: string | null };
}

let env: TradingEnv;
let app: AppServer;
let a: User;
let b: User;

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp({ WORKERS: "off" });
  a = await userWithBroker(env, app, `ks-a${Date.now()}@teste.com`);
  b = await userWithBroker(env, app, `ks-b${Date.now()}@teste.com`);
  for (const u of [a, b]) await tradeWithoutEdge(u.call);
  for (const u of [a, b]) expect((await u.call("POST", "/api/trades/ai/loop/start", { intervalSec: 60 })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

const kill = (u: User, body: unknown) => u.call<KillJson & { message: string }>("POST", "/api/trades/ai/kill-switch", body);
const status = async (u: User) => (await u.call<StatusJson>("GET", "/api/trades/ai/loop/status")).body;
const count = async (table: "decisions" | "order_intents", userId: string) =>
  (await env.db.sql<{ n: number }[]>`select count(*)::int as n from ${env.db.sql(table)} where user_id = ${userId}`)[0]!.n;
const audit = (userId: string, level: string) =>
  env.db.sql<{ type: string; title: string; message: string; metadata: Record<string, unknown> }[]>`
    select type, title, message, metadata from notifications where user_id = ${userId} and metadata->>'killSwitch' = ${level} order by id`;
async function brokerOpenTrades(u: User): Promise<{ id: string }[]> {
  const res = await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}/openTrades`, { headers: { authorization: `Bearer ${u.brokerToken}` } });
  return ((await res.json()) as { trades: { id: string }[] }).trades;
}
/** A market order placed by the user at the broker (optionally with a stop loss `slDistance` away); returns the trade id. */
async function marketOrder(u: User, units: string, slDistance?: string): Promise<string> {
  const res = await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}/orders`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${u.brokerToken}` },
    body: JSON.stringify({
      order: { type: "MARKET", instrument: "EUR_USD", units, timeInForce: "FOK", positionFill: "DEFAULT", ...(slDistance ? { stopLossOnFill: { distance: slDistance } } : {}) },
    }),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { orderFillTransaction: { tradeOpened: { tradeID: string } } };
  return body.orderFillTransaction.tradeOpened.tradeID;
}
const hero = async (u: User, query = "") => (await fetch(`${app.url}/${query}`, { headers: { authorization: `Bearer ${u.token}` } })).text();

describe("the kill switch API refuses bad input in Portuguese", () => {
  it("400 on an unknown level and without confirm: true, changing nothing", async () => {
    const bad = await kill(a, { level: "desligar", confirm: true });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Nível inválido: use stop_entries, pause ou close_all.");
    for (const body of [{ level: "pause" }, { level: "pause", confirm: "sim" }, { level: "close_all", confirm: false }]) {
      const r = await kill(a, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toBe("Confirme a parada de emergência (confirm: true).");
    }
    expect(await status(a)).toMatchObject({ isActive: true, manageOnly: false });
    const resume = await a.call<{ message: string }>("POST", "/api/trades/ai/kill-switch/resume");
    expect(resume.status).toBe(409);
    expect(resume.body.message).toBe("As novas entradas não estão paradas.");
  });
});

describe("'Parar novas entradas'", () => {
  it("keeps the AI on managing only: over many ticks A opens nothing while its twin B enters; A's stop loss still closes its trade, reconciled", async () => {
    // The user's own trade with a tight stop loss: the broker closes it while A only manages.
    const own = await marketOrder(a, "1000", "0.0005");
    const r = await kill(a, { level: "stop_entries", confirm: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ success: true, level: "stop_entries", changed: true, isActive: true });
    expect(await status(a)).toMatchObject({ isActive: true, manageOnly: true, loopState: { manageOnlyCode: "user" } });
    const [note] = await audit(a.userId, "stop_entries");
    expect(note).toMatchObject({ type: "warning", title: "Parada de emergência: novas entradas paradas", metadata: { source: "app", changed: true } });
    expect(note!.message).toMatch(/^Acionada no app\. A IA segue ligada só gerindo as operações abertas/);

    const before = { decisions: await count("decisions", a.userId), intents: await count("order_intents", a.userId) };
    const [bStart] = await env.db.sql<{ id: string }[]>`select coalesce(max(id), 0)::text as id from decisions where user_id = ${b.userId}`;
    let bOpened = 0;
    let ownClosed = false;
    for (let i = 0; i < 120 && !(bOpened > 0 && ownClosed && i >= 4); i++) {
      await env.simCall("POST", "/sim/clock", { advanceSeconds: 900 });
      const ra = await a.call<{ success: boolean; decisions: unknown[]; manageOnly?: string }>("POST", "/api/trades/ai/loop/run-once");
      expect(ra.body).toMatchObject({ success: true, decisions: [], manageOnly: "user" });
      await b.call("POST", "/api/trades/ai/loop/run-once");
      const [n] = await env.db.sql<{ n: number }[]>`select count(*)::int as n from decisions where user_id = ${b.userId} and id > ${bStart!.id} and action = 'open' and executed`;
      bOpened = n!.n;
      const [row] = await env.db.sql<{ status: string }[]>`select status from trades where user_id = ${a.userId} and broker_trade_id = ${own}`;
      ownClosed = row?.status === "closed";
    }
    expect(bOpened, "the engine opened trades for the twin").toBeGreaterThan(0);
    expect(ownClosed, "A's trade closed at its stop loss and was reconciled").toBe(true);
    expect(await count("decisions", a.userId)).toBe(before.decisions);
    expect(await count("order_intents", a.userId)).toBe(before.intents);
    expect(await brokerOpenTrades(a)).toEqual([]);
    expect(await status(a)).toMatchObject({ isActive: true, manageOnly: true, loopState: { manageOnlyCode: "user" } });
  }, 900_000);

  it("the hero shows the level, the other levels and 'Retomar entradas'; ?parada=close_all renders the confirmation without JavaScript", async () => {
    const html = await hero(a);
    expect(html).toMatch(/data-testid="kill-switch-current" data-state="stop_entries"[^>]*>.*?Somente gestão: novas entradas paradas</s);
    expect(html).toContain('data-testid="kill-switch-pause"');
    expect(html).toContain('data-testid="kill-switch-close_all"');
    expect(html).toContain('data-testid="kill-switch-resume"');
    expect(html).not.toContain('data-testid="kill-switch-confirm"');
    const ask = await hero(a, "?parada=close_all");
    expect(ask).toMatch(/data-testid="kill-switch-confirm" data-level="close_all"/);
    expect(ask).toContain("Fechar tudo e pausar?");
    expect(ask).toMatch(/<form method="post"[^>]*>.*?name="level" value="close_all".*?name="confirm" value="1"/s);
  });

  it("survives the licence lapsing and coming back; 'Retomar entradas' lifts it", async () => {
    await env.db.sql`update licenses set end_date = now() - interval '1 minute' where user_id = ${a.userId}`;
    await a.call("POST", "/api/trades/ai/loop/run-once");
    expect((await status(a)).loopState.manageOnlyCode).toBe("user");
    const refused = await a.call<{ message: string }>("POST", "/api/trades/ai/kill-switch/resume");
    expect(refused.status).toBe(402);
    expect(refused.body.message).toBe("Licença necessária para retomar entradas.");
    await env.db.sql`insert into licenses (user_id, key, kind, plan_name, start_date, end_date)
      values (${a.userId}, ${`PAID-${Date.now()}`}, 'paid', 'Mensal', now(), now() + interval '30 days')`;
    const r = await a.call<{ manageOnly?: string }>("POST", "/api/trades/ai/loop/run-once");
    expect(r.body.manageOnly).toBe("user");
    expect((await status(a)).loopState.manageOnlyCode).toBe("user");
    // No licence manage-only notice in between: the user's stop held.
    expect(await env.db.sql`select 1 from notifications where user_id = ${a.userId} and metadata->>'mode' in ('manage_only', 'trading')`).toHaveLength(0);

    const resumed = await a.call<KillJson>("POST", "/api/trades/ai/kill-switch/resume");
    expect(resumed.status).toBe(200);
    expect(resumed.body.message).toBe("Retomadas no app. A IA volta a abrir operações no próximo ciclo.");
    expect(await status(a)).toMatchObject({ isActive: true, manageOnly: false });
    const next = await a.call<{ manageOnly?: string; decisions: unknown[] }>("POST", "/api/trades/ai/loop/run-once");
    expect(next.body.manageOnly).toBeUndefined();
    expect(next.body.decisions.length).toBeGreaterThan(0);
    expect(await audit(a.userId, "resume_entries")).toHaveLength(1);
  }, 120_000);
});

describe("'Pausar IA'", () => {
  it("turns the loop off (stop reason manual) and says so in a notification", async () => {
    const r = await kill(a, { level: "pause", confirm: true });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ level: "pause", changed: true, isActive: false });
    expect(await status(a)).toMatchObject({ isActive: false, loopState: { lastStopReason: "manual" } });
    const [note] = await audit(a.userId, "pause");
    expect(note).toMatchObject({ title: "Parada de emergência: IA pausada", metadata: { source: "app" } });
    // 'Parar novas entradas' needs the AI on.
    const off = await kill(a, { level: "stop_entries", confirm: true });
    expect(off.status).toBe(409);
    expect(off.body.message).toBe("A IA está desligada: não há novas entradas a parar.");
  });
});

describe("'Fechar tudo e pausar'", () => {
  it("leaves no open trade and the loop off, so a forced tick cannot reopen until the user starts the AI", async () => {
    expect((await a.call("POST", "/api/trades/ai/loop/start", { intervalSec: 60 })).status).toBe(200);
    await marketOrder(a, "1000");
    await marketOrder(a, "-2000");
    const open = (await brokerOpenTrades(a)).length;
    expect(open).toBeGreaterThanOrEqual(2);

    const r = await kill(a, { level: "close_all", confirm: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ level: "close_all", isActive: false, closed: open, failed: 0 });
    expect(await brokerOpenTrades(a)).toEqual([]);
    expect(await status(a)).toMatchObject({ isActive: false });
    const [note] = await audit(a.userId, "close_all");
    expect(note).toMatchObject({ title: "Parada de emergência: fechar tudo e pausar", metadata: { source: "app", closed: open, failed: 0 } });
    expect(note!.message).toBe(`Acionada no app. A IA foi desligada antes de fechar. Operações fechadas: ${open}.`);

    // Forced ticks (run-once) over a stretch of market time: refused, nothing reopens.
    const intents = await count("order_intents", a.userId);
    for (let i = 0; i < 6; i++) {
      await env.simCall("POST", "/sim/clock", { advanceSeconds: 900 });
      const t = await a.call<{ success: boolean; message: string }>("POST", "/api/trades/ai/loop/run-once");
      expect(t.body.message).toBe("Tudo foi fechado pela parada de emergência: ative a IA para voltar a operar.");
    }
    expect(await count("order_intents", a.userId)).toBe(intents);
    expect(await brokerOpenTrades(a)).toEqual([]);
    expect(await hero(a)).toMatch(/data-testid="kill-switch-current" data-state="close_all"/);

    // The user turns the AI on again: ticks run again.
    expect((await a.call("POST", "/api/trades/ai/loop/start", { intervalSec: 60 })).status).toBe(200);
    const t = await a.call<{ decisions?: unknown[] }>("POST", "/api/trades/ai/loop/run-once");
    expect(t.body.decisions?.length).toBeGreaterThan(0);
  }, 300_000);

  it("the no-JavaScript form on the hero runs a confirmed level (same-origin post) and refuses one without confirm", async () => {
    const post = (fields: Record<string, string>) =>
      fetch(`${app.url}/?index`, {
        method: "POST",
        redirect: "manual",
        headers: { authorization: `Bearer ${a.token}`, "content-type": "application/x-www-form-urlencoded", origin: app.url },
        body: new URLSearchParams(fields).toString(),
      });
    const refused = await post({ intent: "kill_switch", level: "pause" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Confirme a parada de emergência (confirm: true).");
    expect(await status(a)).toMatchObject({ isActive: true });
    const ok = await post({ intent: "kill_switch", level: "pause", confirm: "1" });
    expect(ok.status).toBe(302);
    expect(await status(a)).toMatchObject({ isActive: false });
  });
});
