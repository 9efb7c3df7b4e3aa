/**
 * Issue 8 item 8: ticks used to run one at a time per process (one pg-boss worker, batchSize 1), so
 * one user's stalled broker stalled every bot of the process. Now the tick scheduler (ADR 0024) runs
 * up to `TICK_CONCURRENCY` ticks side by side, every tick has a deadline (`TICK_TIMEOUT_SEC`) after
 * which it is abandoned with its error stored and the lock released, and the bot's next due slot is
 * the retry.
 *
 * User A's broker connection points at a local HTTP server that accepts requests and never answers;
 * user B trades on the simulator. B's bot keeps ticking every few seconds while A's ticks hang.
 */
import http from "node:http";
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

const TIMEOUT_SEC = 8;
const DEADLINE_PT = `O ciclo da IA excedeu o limite de ${TIMEOUT_SEC} s e foi interrompido (corretora lenta ou sem resposta).`;

let env: TradingEnv;
let app: AppServer;
let stall: http.Server;
let stallUrl: string;
let stalledRequests = 0;
const sockets = new Set<Socket>();

beforeAll(async () => {
  stall = http.createServer(() => {
    stalledRequests++; // never answered
  });
  stall.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => stall.listen(0, "127.0.0.1", r));
  stallUrl = `http://127.0.0.1:${(stall.address() as { port: number }).port}`;
  env = await createTradingEnv({ speed: 0 });
  // Live accounts go to the stalling server; practice ones to the simulator.
  app = await env.startApp({
    OANDA_LIVE_API_URL: stallUrl,
    OANDA_LIVE_STREAM_URL: stallUrl,
    TICK_TIMEOUT_SEC: String(TIMEOUT_SEC),
    AUTH_RATE_LIMIT: "1000",
    USER_ACTION_RATE_LIMIT: "1000",
  });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
  for (const s of sockets) s.destroy();
  await new Promise((r) => stall?.close(r));
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Distinct ticks that stored decisions for a user (one insert per tick, one timestamp). */
async function ticksOf(userId: string): Promise<number> {
  const [row] = await env.db.sql<{ n: number }[]>`select count(distinct created_at)::int as n from decisions where user_id = ${userId}`;
  return row!.n;
}

describe("a stalled broker does not stall the other bots", () => {
  it("B's ticks complete promptly while A's broker never answers; A's tick is abandoned at its deadline with the error stored and the lock released", async () => {
    const a = await userWithBroker(env, app, `stalled-${Date.now()}@teste.com`);
    const b = await userWithBroker(env, app, `healthy-${Date.now()}@teste.com`);
    await env.db.sql`update broker_connections set environment = 'live' where user_id = ${a.userId}`;

    // A's loop first: its tick takes a worker and hangs on the broker.
    const startedA = Date.now();
    expect((await a.call("POST", "/api/trades/ai/loop/start", { intervalSec: 5 })).status).toBe(200);
    for (let i = 0; i < 100 && stalledRequests === 0; i++) await sleep(100);
    expect(stalledRequests).toBeGreaterThan(0);

    // B's loop while A's tick hangs: two ticks of B within 15 s.
    const startedB = Date.now();
    expect((await b.call("POST", "/api/trades/ai/loop/start", { intervalSec: 5 })).status).toBe(200);
    while (Date.now() - startedB < 15_000 && (await ticksOf(b.userId)) < 2) await sleep(250);
    const bTicks = await ticksOf(b.userId);
    console.log(`B: ${bTicks} ticks in ${Date.now() - startedB} ms while A's broker hangs (${stalledRequests} requests)`);
    expect(bTicks).toBeGreaterThanOrEqual(2);

    // A's tick was abandoned at its deadline: the error is stored on A's bot, in Portuguese.
    let row: { last_tick_error: string | null; last_tick_at: Date | null } | undefined;
    while (Date.now() - startedA < (TIMEOUT_SEC + 10) * 1000) {
      [row] = await env.db.sql<{ last_tick_error: string | null; last_tick_at: Date | null }[]>`
        select last_tick_error, last_tick_at from bots where user_id = ${a.userId}`;
      if (row?.last_tick_error) break;
      await sleep(250);
    }
    expect(row?.last_tick_error).toBe(DEADLINE_PT);
    const status = await a.call<{ loopState: { lastTickError: string } }>("GET", "/api/trades/ai/loop/status");
    expect(status.body.loopState.lastTickError).toBe(DEADLINE_PT);

    // And the lock was released: with A's loop stopped, a run-once of A runs (not 'busy') and ends
    // at the deadline with the same error, a 200 — never a hang.
    expect((await a.call("POST", "/api/trades/ai/loop/stop")).status).toBe(200);
    let once: { status: number; body: { success: boolean; message: string } } | undefined;
    let took = 0;
    for (let i = 0; i < 40; i++) {
      const t0 = Date.now();
      once = await a.call<{ success: boolean; message: string }>("POST", "/api/trades/ai/loop/run-once");
      took = Date.now() - t0;
      if (once.body.message !== "Outro ciclo da IA já está em execução.") break;
      await sleep(500);
    }
    expect(once?.status).toBe(200);
    expect(once?.body).toMatchObject({ success: false, message: DEADLINE_PT });
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_SEC * 1000 - 500);
    expect(took).toBeLessThan((TIMEOUT_SEC + 5) * 1000);

    // B is still ticking.
    const before = await ticksOf(b.userId);
    const t1 = Date.now();
    while (Date.now() - t1 < 15_000 && (await ticksOf(b.userId)) <= before) await sleep(250);
    expect(await ticksOf(b.userId)).toBeGreaterThan(before);
  }, 150_000);
});
