/**
 * Issue 8 item 2: the pool deadlock. A bot tick used to reserve a connection of the app's pool for
 * its advisory lock and then need more connections of the same 10-connection pool: about 10 ticks at
 * once held every connection while waiting for another, and every query of the process hung for
 * good. Now the lock lives on its own session (ADR 0013) and a query that cannot get a connection in
 * time fails with a clear error instead of waiting for ever.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPool, DatabaseBusyError } from "../../app/services/platform/db.server";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;

beforeAll(async () => {
  env = await createTradingEnv({ speed: 0 });
  app = await env.startApp({ WORKERS: "off", AUTH_RATE_LIMIT: "1000", USER_ACTION_RATE_LIMIT: "1000" });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

/** A request that gives up after `ms` (a hang shows as status 0). */
async function timed(url: string, init: RequestInit, ms: number): Promise<{ status: number; ms: number; body: string }> {
  const started = Date.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(ms) });
    return { status: res.status, ms: Date.now() - started, body: await res.text() };
  } catch {
    return { status: 0, ms: Date.now() - started, body: "sem resposta" };
  }
}

describe("pool wait timeout", () => {
  it("a query that finds every connection taken fails with DatabaseBusyError after the wait, and the pool recovers", async () => {
    const sql = createPool(env.db.url, { max: 1, waitTimeoutMs: 300 });
    try {
      const reserved = await sql.reserve();
      const started = Date.now();
      const err = await sql`select 1`.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(DatabaseBusyError);
      expect((err as DatabaseBusyError).message).toBe("Servidor ocupado no momento. Tente novamente em instantes.");
      expect((err as DatabaseBusyError).status).toBe(503);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(Date.now() - started).toBeLessThan(3_000);
      // A transaction's BEGIN waits the same way.
      await expect(sql.begin((tx) => tx`select 1`)).rejects.toBeInstanceOf(DatabaseBusyError);
      reserved.release();
      expect(await sql`select 2 as n`).toEqual([{ n: 2 }]);
      // A query on a connection is never cut by the wait timeout, however long it runs.
      expect(await sql`select pg_sleep(0.6), 3 as n`.then((r) => r[0]!.n)).toBe(3);
      // A fragment that is only interpolated is never executed, so never armed.
      const fragment = sql`where true`;
      await new Promise((r) => setTimeout(r, 400));
      expect(await sql`select 4 as n ${fragment}`).toEqual([{ n: 4 }]);
    } finally {
      await sql.end();
    }
  });
});

describe("50 concurrent run-once requests", () => {
  it("every request answers (200 or a clear 4xx), never a hang or a 5xx, and the app stays responsive during and after", async () => {
    const users: Awaited<ReturnType<typeof userWithBroker>>[] = [];
    for (let i = 0; i < 12; i++) users.push(await userWithBroker(env, app, `pool${i}-${Date.now()}@teste.com`));
    // 12 users: 3 requests each plus 14 more on the first user (the same user at once).
    const targets = [...users.flatMap((u) => [u, u, u]), ...Array.from({ length: 14 }, () => users[0]!)];
    expect(targets.length).toBe(50);

    const runs = Promise.all(
      targets.map((u) =>
        timed(`${app.url}/api/trades/ai/loop/run-once`, { method: "POST", headers: { authorization: `Bearer ${u.token}`, "content-type": "application/json" } }, 60_000),
      ),
    );
    // While they run: health answers within a few seconds, again and again.
    const during: { status: number; ms: number }[] = [];
    let settled = false;
    void runs.finally(() => (settled = true));
    while (!settled) {
      during.push(await timed(`${app.url}/api/health`, {}, 5_000));
      await new Promise((r) => setTimeout(r, 200));
    }
    const results = await runs;
    const after = await timed(`${app.url}/api/health`, {}, 5_000);

    const statuses = results.map((r) => r.status);
    console.log(`run-once: ${JSON.stringify(countBy(statuses))}, slowest ${Math.max(...results.map((r) => r.ms))} ms; health during: ${during.map((d) => d.ms).join(", ")} ms`);
    for (const r of results) {
      expect(r.status, r.body).toBeGreaterThanOrEqual(200);
      expect(r.status, r.body).toBeLessThan(500);
      expect([200, 409, 429]).toContain(r.status);
    }
    expect(during.length).toBeGreaterThan(0);
    for (const d of during) expect(d.status, `health during the run-once burst (${d.ms} ms)`).toBe(200);
    expect(after.status).toBe(200);
    expect(after.ms).toBeLessThan(5_000);

    // The ticks did their work: every user has its decisions stored, and the same-user requests
    // that found the lock taken said so instead of waiting.
    for (const u of users) {
      const [n] = await env.db.sql<{ n: number }[]>`select count(*)::int as n from decisions where user_id = ${u.userId}`;
      expect(n!.n).toBeGreaterThan(0);
    }
    const bodies = results.map((r) => JSON.parse(r.body) as { success: boolean; message: string });
    expect(bodies.filter((b) => b.success).length).toBeGreaterThanOrEqual(users.length);
    for (const b of bodies.filter((x) => !x.success)) expect(b.message).toBe("Outro ciclo da IA já está em execução.");

    // Nothing left holding a lock: a later run-once of the first user runs.
    const again = await users[0]!.call<{ success: boolean }>("POST", "/api/trades/ai/loop/run-once");
    expect(again.status).toBe(200);
    expect(again.body.success).toBe(true);
  }, 180_000);
});

function countBy(xs: number[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) out[x] = (out[x] ?? 0) + 1;
  return out;
}
