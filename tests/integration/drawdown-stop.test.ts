/**
 * Issue 21 "Drawdown stop that means it", live: the real app over HTTP (pg-boss off, ticks through
 * run-once) against the standalone simulator with its clock stopped. Losses are real: market orders
 * opened and closed at once at the broker (each loses its spread), reconciled into the books by the
 * next tick.
 * - A max-drawdown stop stops the bot once and sends ONE notification that states the drawdown, the
 *   high-water mark, the NAV and the trades closed since the mark (not the one closed before it); the
 *   status says a re-arm is needed. The next trading day the bot is still stopped: run-once trades
 *   nothing, a plain start answers 409 in Portuguese, and no second notification comes. A start with
 *   {rearm: true} resets the high-water mark (the next tick sets it to its NAV) and the bot trades on
 *   without stopping again.
 * - A daily-loss stop is unchanged: no re-arm needed, and started the next trading day the bot runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

type User = Awaited<ReturnType<typeof userWithBroker>>;
interface DrawdownStopJson {
  highWaterMark: string;
  nav: string;
  drawdownPct: string;
  drawdownAmount: string;
  currency: string;
  trades: { id: string; instrument: string; pl: string }[];
  tradesPl: string;
  highWaterMarkNow: string | null;
}
interface StatusJson {
  isActive: boolean;
  rearmRequired: boolean;
  drawdownStop: DrawdownStopJson | null;
  loopState: { lastStopReason: string | null; lastStopReasonText: string | null };
}
interface RunOnceJson {
  success: boolean;
  message: string;
  stopped?: string;
}

const DAY = 86_400;
const UNITS = "2000000"; // 2 M EUR/USD on 100 000 USD: each round trip loses its spread, about 0.2 % of the account

let env: TradingEnv;
let app: AppServer;

beforeAll(async () => {
  env = await createTradingEnv({ speed: 0, startAt: "2026-01-14T13:00:00Z" }); // a Wednesday, 10:00 in São Paulo
  app = await env.startApp({ WORKERS: "off" });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

/** A request straight to the simulator (the broker) with the user's token. */
async function atBroker<T>(u: User, method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}${p}`, {
    method,
    headers: { authorization: `Bearer ${u.brokerToken}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, p).toBeLessThan(300);
  return (await res.json()) as T;
}
const nav = async (u: User) => (await atBroker<{ account: { NAV: string } }>(u, "GET", "/summary")).account.NAV;
/** Opens and at once closes a market order at the broker (the clock is stopped: the loss is the spread); returns the trade id. */
async function roundTrip(u: User): Promise<string> {
  const opened = await atBroker<{ orderFillTransaction: { tradeOpened: { tradeID: string } } }>(u, "POST", "/orders", {
    order: { type: "MARKET", instrument: "EUR_USD", units: UNITS, timeInForce: "FOK", positionFill: "DEFAULT" },
  });
  const id = opened.orderFillTransaction.tradeOpened.tradeID;
  await atBroker(u, "PUT", `/trades/${id}/close`, { units: "ALL" });
  return id;
}
/** Round trips until the NAV is at most `factor` × `from`; returns their trade ids. */
async function loseTo(u: User, from: string, factor: number): Promise<string[]> {
  const ids: string[] = [];
  while (Number(await nav(u)) > Number(from) * factor) {
    ids.push(await roundTrip(u));
    expect(ids.length).toBeLessThan(20);
  }
  return ids;
}
const advance = (seconds: number) => env.simCall("POST", "/sim/clock", { advanceSeconds: seconds });
async function runOnce(u: User): Promise<RunOnceJson> {
  const r = await u.call<RunOnceJson>("POST", "/api/trades/ai/loop/run-once");
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}
const status = async (u: User) => (await u.call<StatusJson>("GET", "/api/trades/ai/loop/status")).body;
const stopNotes = (u: User, reason: string) =>
  env.db.sql<{ type: string; title: string; message: string }[]>`
    select type, title, message from notifications where user_id = ${u.userId} and metadata->>'reason' = ${reason} order by created_at`;
const peak = async (u: User) => (await env.db.sql<{ peak: string | null }[]>`select peak_balance::text as peak from bots where user_id = ${u.userId}`)[0]!.peak;
/** Settings that keep the AI itself from entering while the test makes the losses (cooldown after the broker trades, no news). */
async function setUp(u: User, limits: { maxDrawdownPct: number; dailyLossLimitPct: number }) {
  const saved = await u.call("PUT", "/api/settings", { settings: { instruments: ["EUR_USD"], ...limits, aiSettings: { cooldownSec: 3600, news: { enabled: false } } } });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  expect((await u.call("POST", "/api/trades/ai/loop/start", { intervalSec: 60 })).status).toBe(200);
}

describe("a max-drawdown stop", () => {
  let u: User;
  let mark: string;
  let behind: string[];
  let before: string;

  it("stops the bot once, with one notification stating the drawdown, the mark, the NAV and the trades since the mark", { timeout: 120_000 }, async () => {
    u = await userWithBroker(env, app, `dd-${Date.now()}@teste.com`);
    await setUp(u, { maxDrawdownPct: 1, dailyLossLimitPct: 20 });
    before = await roundTrip(u); // closed before the mark: not behind the drawdown
    await advance(60);
    expect((await runOnce(u)).stopped).toBeUndefined();
    mark = await nav(u);
    expect(Number(await peak(u))).toBe(Number(mark));

    await advance(60);
    behind = await loseTo(u, mark, 0.985); // 1.5 % below the mark, past the 1 % limit
    await advance(60);
    const tick = await runOnce(u);
    expect(tick.stopped).toBe("max_drawdown");
    const navAtStop = await nav(u);

    const s = await status(u);
    expect(s.isActive).toBe(false);
    expect(s.rearmRequired).toBe(true);
    expect(s.loopState.lastStopReason).toBe("max_drawdown");
    expect(s.loopState.lastStopReasonText).toBe("Parado pelo drawdown máximo");
    const stop = s.drawdownStop!;
    expect(Number(stop.highWaterMark)).toBe(Number(mark));
    expect(Number(stop.nav)).toBe(Number(navAtStop));
    const dd = ((Number(mark) - Number(navAtStop)) / Number(mark)) * 100;
    expect(Number(stop.drawdownPct)).toBeCloseTo(dd, 2);
    expect(Number(stop.drawdownAmount)).toBeCloseTo(Number(mark) - Number(navAtStop), 2);
    expect(stop.trades.map((t) => t.id)).toEqual(behind);
    expect(stop.trades.map((t) => t.id)).not.toContain(before);
    expect(stop.trades.every((t) => Number(t.pl) < 0)).toBe(true);

    const notes = await stopNotes(u, "max_drawdown");
    expect(notes).toHaveLength(1);
    expect(notes[0]!.type).toBe("limit");
    expect(notes[0]!.title).toBe("IA parada: drawdown máximo");
    const ptNumber = (v: string) => new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(v));
    expect(notes[0]!.message).toContain(`Drawdown de ${stop.drawdownPct.replace(".", ",")}% (${ptNumber(stop.drawdownAmount)} USD)`);
    expect(notes[0]!.message).toContain(`a máxima de patrimônio era ${ptNumber(stop.highWaterMark)} USD e o NAV está em ${ptNumber(stop.nav)} USD`);
    expect(notes[0]!.message).toContain(`Operações fechadas desde a máxima (${behind.length}, total ${ptNumber(stop.tradesPl)} USD): EUR/USD ${ptNumber(stop.trades[0]!.pl)} USD`);
  });

  it("stays stopped the next trading day: run-once trades nothing, a plain start is refused with 409, no second notification", { timeout: 60_000 }, async () => {
    await advance(DAY);
    for (let i = 0; i < 3; i++) {
      await advance(300);
      const r = await runOnce(u);
      expect(r.success).toBe(false);
      expect(r.message).toBe("A IA está parada pelo drawdown máximo: reative-a para operar de novo.");
    }
    const plain = await u.call<{ message: string }>("POST", "/api/trades/ai/loop/start", { intervalSec: 60 });
    expect(plain.status).toBe(409);
    expect(plain.body.message).toMatch(/^A IA foi parada pelo drawdown máximo \(\d+,\d{2}% abaixo da máxima de patrimônio\) e só volta quando você a reativar\./);
    expect(plain.body.message).toContain('{"rearm": true}');
    const bad = await u.call<{ message: string }>("POST", "/api/trades/ai/loop/start", { intervalSec: 60, rearm: "sim" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("rearm deve ser true ou false.");
    const s = await status(u);
    expect(s.isActive).toBe(false);
    expect(s.rearmRequired).toBe(true);
    expect(await stopNotes(u, "max_drawdown")).toHaveLength(1);
    expect(Number(await peak(u))).toBe(Number(mark)); // the mark is kept until the re-arm
  });

  it("a confirmed re-arm resets the high-water mark to the NAV and the bot runs on without stopping again", { timeout: 60_000 }, async () => {
    const r = await u.call<{ success: boolean; isActive: boolean }>("POST", "/api/trades/ai/loop/start", { intervalSec: 60, rearm: true });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.isActive).toBe(true);
    let s = await status(u);
    expect(s.rearmRequired).toBe(false);
    expect(s.drawdownStop).toBeNull();
    await advance(300);
    expect((await runOnce(u)).stopped).toBeUndefined();
    const reset = await peak(u);
    expect(Number(reset)).toBeLessThan(Number(mark) * 0.99);
    expect(Number(reset)).toBeGreaterThanOrEqual(Number(await nav(u)));
    for (let i = 0; i < 3; i++) {
      await advance(3600);
      expect((await runOnce(u)).stopped).toBeUndefined();
    }
    s = await status(u);
    expect(s.isActive).toBe(true);
    expect(await stopNotes(u, "max_drawdown")).toHaveLength(1);
  });
});

describe("a daily-loss stop", () => {
  it("needs no re-arm and, started the next trading day, the bot runs on", { timeout: 120_000 }, async () => {
    const u = await userWithBroker(env, app, `dl-${Date.now()}@teste.com`);
    await setUp(u, { maxDrawdownPct: 100, dailyLossLimitPct: 0.5 });
    await advance(60);
    expect((await runOnce(u)).stopped).toBeUndefined();
    const start = await nav(u);
    await advance(60);
    await loseTo(u, start, 0.994);
    await advance(60);
    expect((await runOnce(u)).stopped).toBe("daily_loss_limit");
    let s = await status(u);
    expect(s.isActive).toBe(false);
    expect(s.rearmRequired).toBe(false);
    expect(s.drawdownStop).toBeNull();
    expect(s.loopState.lastStopReasonText).toBe("Parado por limite diário de perdas");
    expect(await stopNotes(u, "daily_loss_limit")).toHaveLength(1);

    await advance(DAY);
    const started = await u.call("POST", "/api/trades/ai/loop/start", { intervalSec: 60 });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    for (let i = 0; i < 3; i++) {
      await advance(300);
      expect((await runOnce(u)).stopped).toBeUndefined();
    }
    s = await status(u);
    expect(s.isActive).toBe(true);
  });
});
