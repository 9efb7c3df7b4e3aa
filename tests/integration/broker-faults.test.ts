/**
 * Issue 8, "prove it stays that way": broker fault injection during a multi-bot run. The real app
 * (pg-boss workers on) trades on the standalone simulator; nine users have bots ticking every 5 s
 * while the simulator's fault API (`/sim/faults`, server/simulator/faults.ts) makes the broker fail
 * for some of them — 5xx, 429 with Retry-After, a broker that never answers, connections dropped
 * mid-body, malformed 200 bodies, a stalled pricing stream, a revoked token — and the others run
 * clean, with the sim clock moving. Asserted:
 * - 0 crashes: the process stays up and `/api/health` answers throughout;
 * - 0 server errors of our own: no 500 from the API; broker trouble is 502/503 with a §8 message;
 * - a revoked token (401) pauses the bot with reason 'broker' and an 'error' notification;
 * - after transient faults clear (they expire by themselves) every bot ticks cleanly again, with
 *   no manual action;
 * - no tick outlives its deadline (TICK_TIMEOUT_SEC): each tick's duration (debug log) stays under
 *   it, and an abandoned tick's retries stop with it — the broker sees no request of a tick after
 *   its deadline even when a 429 asks to retry later (bug found here: the retry used to fire after
 *   the tick was over).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES_PT } from "../../core/oanda/errors";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

const DEADLINE_SEC = 5;
const DEADLINE_PT = `O ciclo da IA excedeu o limite de ${DEADLINE_SEC} s e foi interrompido (corretora lenta ou sem resposta).`;
/** How long the transient faults last (they expire by themselves: no manual action). */
const FAULT_SEC = 12;

type User = Awaited<ReturnType<typeof userWithBroker>>;
type BotRow = { is_active: boolean; last_tick_at: Date | null; last_tick_error: string | null; last_stop_reason: string | null };

let env: TradingEnv;
let app: AppServer;
const users: Record<string, User> = {};
const FAULTED = ["http_5xx", "rate_limit", "timeout", "drop", "malformed_2xx"] as const;
const LOOPING = ["clean", "stall_stream", ...FAULTED, "revoke_token"] as const;

beforeAll(async () => {
  env = await createTradingEnv({ speed: 0 });
  app = await env.startApp({
    TICK_TIMEOUT_SEC: String(DEADLINE_SEC),
    TICK_CONCURRENCY: "6",
    // A never-answering broker: 2 attempts × 4 s + backoff > the 5 s deadline, so the deadline cuts it.
    OANDA_TIMEOUT_MS: "4000",
    OANDA_RETRIES: "1",
    LOG_LEVEL: "debug",
    AUTH_RATE_LIMIT: "1000",
  });
  const stamp = Date.now();
  for (const name of [...LOOPING, "late_retry"]) users[name] = await userWithBroker(env, app, `${name.replace(/_/g, "")}-${stamp}@teste.com`);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bot = async (u: User) => (await env.db.sql<BotRow[]>`select is_active, last_tick_at, last_tick_error, last_stop_reason from bots where user_id = ${u.userId}`)[0];
const fault = (body: Record<string, unknown>) => env.simCall<{ id: string }>("POST", "/sim/faults", body);

/** Every message the API may answer a broker failure with (PRODUCT.md §8, in Portuguese). */
const BROKER_MESSAGES = new Set<string>([
  MESSAGES_PT.network, MESSAGES_PT.invalidResponse, MESSAGES_PT.auth,
  ...[429, 500, 502, 503, 504].map((s) => MESSAGES_PT.status(s)), DEADLINE_PT,
]);

describe("broker faults during a multi-bot run", () => {
  it("no crash, no 500, revoked token pauses its bot, transient faults heal by themselves, no tick past its deadline", async () => {
    // All loops on; every bot ticks cleanly once before the faults.
    for (const name of LOOPING) expect((await users[name]!.call("POST", "/api/trades/ai/loop/start", { intervalSec: 5 })).status).toBe(200);
    const t0 = Date.now();
    for (const name of LOOPING) {
      while (Date.now() - t0 < 40_000) {
        const b = await bot(users[name]!);
        if (b?.last_tick_at && !b.last_tick_error) break;
        await sleep(250);
      }
      expect((await bot(users[name]!))?.last_tick_at, name).toBeTruthy();
    }

    // Faults, each for one user; `clean` runs clean.
    const u = users;
    await fault({ kind: "http_5xx", token: u.http_5xx!.brokerToken, durationSeconds: FAULT_SEC });
    await fault({ kind: "rate_limit", token: u.rate_limit!.brokerToken, retryAfterSeconds: 2, durationSeconds: FAULT_SEC });
    await fault({ kind: "timeout", token: u.timeout!.brokerToken, durationSeconds: FAULT_SEC });
    await fault({ kind: "drop", token: u.drop!.brokerToken, durationSeconds: FAULT_SEC });
    await fault({ kind: "malformed_2xx", token: u.malformed_2xx!.brokerToken, durationSeconds: FAULT_SEC });
    await fault({ kind: "stall_stream", accountId: u.stall_stream!.accountId, durationSeconds: FAULT_SEC });
    await fault({ kind: "revoke_token", token: u.revoke_token!.brokerToken });
    // A 429 asking to come back after the deadline, for a run-once with the loop off: nothing of
    // that tick may reach the broker once the tick is over.
    const late = await fault({ kind: "rate_limit", token: u.late_retry!.brokerToken, retryAfterSeconds: 9, durationSeconds: 120 });
    const faultedAt = Date.now();
    const healedAt = faultedAt + FAULT_SEC * 1000;

    const lateRun = (async () => {
      const r = await u.late_retry!.call<{ success: boolean; message: string }>("POST", "/api/trades/ai/loop/run-once");
      return { ...r, answeredAt: Date.now() };
    })();

    // Drive: the clock moves, health and the users' API are called while the faults last and after.
    const responses: { who: string; path: string; status: number; body: unknown }[] = [];
    const healthStatuses: number[] = [];
    const erroredWhileFaulted = new Set<string>();
    const busy = new Set<string>();
    const api = (who: string, method: string, path: string) => {
      const key = `${who} ${path}`;
      if (busy.has(key)) return;
      busy.add(key);
      void users[who]!.call(method, path)
        .then((r) => responses.push({ who, path, status: r.status, body: r.body }))
        .catch((e: unknown) => responses.push({ who, path, status: -1, body: String(e) }))
        .finally(() => busy.delete(key));
    };
    const healed = new Set<string>();
    let allHealedAt: number | undefined;
    while (Date.now() - faultedAt < 70_000) {
      await env.simCall("POST", "/sim/clock", { advanceSeconds: 60 });
      const h = await fetch(`${app.url}/api/health`).catch(() => undefined);
      healthStatuses.push(h?.status ?? -1);
      expect(app.proc.exitCode).toBeNull();
      for (const who of LOOPING) {
        api(who, "GET", "/api/account/summary");
        api(who, "GET", "/api/oanda-auth/status");
        api(who, "GET", "/api/trades/ai/loop/status");
        if (Date.now() < healedAt - 4000) api(who, "POST", "/api/trades/ai/loop/run-once");
      }
      for (const name of LOOPING) {
        const b = await bot(users[name]!);
        if (Date.now() < healedAt && b?.last_tick_error) erroredWhileFaulted.add(name);
        if (Date.now() > healedAt + 500 && b?.is_active && b.last_tick_at && b.last_tick_at.getTime() > healedAt && !b.last_tick_error) healed.add(name);
      }
      if ([...FAULTED, "clean", "stall_stream"].every((n) => healed.has(n))) {
        allHealedAt ??= Date.now();
        if (Date.now() > faultedAt + 25_000) break;
      }
      await sleep(1000);
    }
    for (let i = 0; i < 100 && busy.size > 0; i++) await sleep(100); // the last API calls answer
    console.log(`healed: ${[...healed].join(", ")} — all ${allHealedAt === undefined ? "never" : `${Math.round((allHealedAt - healedAt) / 1000)} s after the faults expired`}`);
    const lateResult = await lateRun;
    const lateFault = (await env.simCall<{ faults: { id: string; hits: number; lastHitAt?: string }[] }>("GET", "/sim/faults")).faults.find((f) => f.id === late.id);
    await env.simCall("DELETE", "/sim/faults");

    // 0 crashes; health answered every time.
    expect(app.proc.exitCode).toBeNull();
    expect(healthStatuses.every((s) => s === 200 || s === 503), JSON.stringify(healthStatuses)).toBe(true);

    // 0 server errors of our own: never a 500; broker trouble is a 502/503 with a §8 message.
    const fiveXX = responses.filter((r) => r.status >= 500 || r.status < 0);
    const statusCount = responses.reduce<Record<number, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
    console.log(`API replies during the run: ${JSON.stringify(statusCount)}; 5xx: ${JSON.stringify(fiveXX.map((r) => [r.who, r.path, r.status, (r.body as { message?: string }).message]))}`);
    for (const r of fiveXX) {
      expect([502, 503], `${r.who} ${r.path}: ${JSON.stringify(r.body)}`).toContain(r.status);
      expect(BROKER_MESSAGES.has((r.body as { message?: string }).message ?? ""), `${r.who} ${r.path}: ${JSON.stringify(r.body)}`).toBe(true);
    }
    expect(responses.length).toBeGreaterThan(100);
    // A failing, throttling or garbling broker is an upstream failure (502), never "bad input" (400,
    // as it was); only a refusal (revoked token) is a 400, with its §8 message.
    for (const r of responses.filter((x) => (FAULTED as readonly string[]).includes(x.who) && x.status >= 400 && x.status !== 429))
      expect(r.status, `${r.who} ${r.path}: ${JSON.stringify(r.body)}`).toBe(502);
    const refused = responses.filter((x) => x.who === "revoke_token" && x.path === "/api/account/summary");
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r).toMatchObject({ status: 400, body: { message: MESSAGES_PT.auth } });

    // The faults did reach the bots: each faulted bot stored a tick error while they lasted.
    for (const name of FAULTED) expect(erroredWhileFaulted.has(name), `${name} never failed a tick`).toBe(true);

    // Revoked token: the bot paused with reason 'broker' and an 'error' notification; the others never paused.
    const revoked = await bot(u.revoke_token!);
    expect(revoked).toMatchObject({ is_active: false, last_stop_reason: "broker", last_tick_error: MESSAGES_PT.auth });
    const [note] = await env.db.sql<{ type: string }[]>`select type from notifications
      where user_id = ${u.revoke_token!.userId} and metadata->>'reason' = 'broker'`;
    expect(note?.type).toBe("error");
    for (const name of LOOPING.filter((n) => n !== "revoke_token")) expect((await bot(users[name]!))?.is_active, name).toBe(true);

    // Transient faults healed by themselves: a clean tick after they expired, bot still active.
    expect([...healed].sort()).toEqual([...FAULTED, "clean", "stall_stream"].sort());
    // The broker-error kinds restored the connection (the 'Conexão restabelecida' notice).
    for (const name of ["http_5xx", "rate_limit", "drop", "malformed_2xx"]) {
      const [row] = await env.db.sql<{ status: string }[]>`select status from broker_connections where user_id = ${users[name]!.userId}`;
      expect(row?.status, name).toBe("connected");
      const [restored] = await env.db.sql`select 1 from notifications where user_id = ${users[name]!.userId} and type = 'success'`;
      expect(restored, name).toBeTruthy();
    }

    // No tick outlived its deadline (every tick's duration from the debug log) …
    const ticks = app
      .output()
      .split("\n")
      .filter((l) => l.includes('"msg":"tick"'))
      .map((l) => JSON.parse(l) as { userId: string; ms: number });
    expect(ticks.length).toBeGreaterThan(30);
    const longest = Math.max(...ticks.map((t) => t.ms));
    console.log(`${ticks.length} ticks, longest ${longest} ms (deadline ${DEADLINE_SEC * 1000} ms)`);
    expect(longest).toBeLessThan(DEADLINE_SEC * 1000 + 2500); // the error is stored after the deadline; a tick left to its broker calls would take ≥ 8.5 s
    // … the never-answering broker's ticks were cut at it …
    expect(ticks.filter((t) => t.userId === u.timeout!.userId && t.ms >= DEADLINE_SEC * 1000 - 200).length).toBeGreaterThan(0);
    // … and a tick abandoned while waiting out a 429's Retry-After sent nothing after its deadline.
    expect(lateResult.status).toBe(200);
    expect(lateResult.body).toMatchObject({ success: false, message: DEADLINE_PT });
    expect(lateFault?.lastHitAt).toBeDefined();
    expect(Date.parse(lateFault!.lastHitAt!)).toBeLessThanOrEqual(lateResult.answeredAt);
  }, 150_000);
});
