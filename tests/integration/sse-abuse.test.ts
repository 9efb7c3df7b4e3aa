/**
 * Issue 24, SSE under abuse (app/services/streams/sse-routes.server.ts), against the real server:
 * - the per-user limit is atomic: 60 simultaneous opens for one user (each from its own address, so only
 *   the user's limit applies) give exactly SSE_MAX_PER_USER (10) streams and 50 refusals with the limit's
 *   message (the old code checked before two database waits and counted after them: 58 of 60 opened);
 * - the per-IP bound: SSE_MAX_PER_IP streams from one client address, then 429 in Portuguese, while another
 *   address still opens; a closed stream gives its slot back;
 * - streams end with the session: a logout ends the user's stream at once, a session revoked elsewhere
 *   (another process, here straight in the database) or a deactivated user within one heartbeat
 *   (SSE_HEARTBEAT_MS 400); the old code kept them streaming.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, type AppServer } from "../setup/app-server";
import { openSse, type SseConnection } from "../setup/sse-client";
import { createTradingEnv, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

const HEARTBEAT_MS = 400;
let env: TradingEnv;
let app: AppServer;
const open: SseConnection[] = [];
let n = 0;

async function user() {
  const email = `sse-abuse-${Date.now()}-${n++}@teste.com`;
  return registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Ana", lastName: "Souza", email, password: "Senha123" });
}

/** Opens a price stream as `token` from client address `ip` (X-Forwarded-For; the test is a trusted loopback proxy). */
async function stream(token: string, ip: string) {
  const c = await openSse(`${app.url}/api/stream/prices?instruments=EUR_USD`, { token, headers: { "x-forwarded-for": ip } });
  open.push(c);
  return c;
}

/** Resolves true when `c` ended within `ms`, false otherwise. */
const endsWithin = (c: SseConnection, ms: number) => Promise.race([c.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp({ WORKERS: "off", SSE_HEARTBEAT_MS: String(HEARTBEAT_MS), SSE_MAX_PER_IP: "3", AUTH_RATE_LIMIT: "100000" });
}, 120_000);
afterAll(async () => {
  for (const c of open) c.close();
  await env?.close();
});

describe("SSE limits", () => {
  it("60 simultaneous opens for one user give exactly 10 streams; the other 50 get the limit's 429", async () => {
    const u = await user();
    const all = await Promise.all(Array.from({ length: 60 }, (_, i) => stream(u.token, `10.1.${Math.floor(i / 250)}.${(i % 250) + 1}`)));
    const ok = all.filter((c) => c.status === 200);
    const refused = all.filter((c) => c.status !== 200);
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(50);
    for (const c of refused) {
      expect(c.status).toBe(429);
      expect(String(c.body?.message)).toMatch(/conexões de preços ao vivo demais abertas\. Feche outras abas/);
    }
    // Closing one gives its slot back.
    ok[0]!.close();
    await new Promise((r) => setTimeout(r, 300));
    expect((await stream(u.token, "10.2.0.1")).status).toBe(200);
    for (const c of all) c.close();
  }, 60_000);

  it("bounds the streams of one client address (SSE_MAX_PER_IP 3): 429 beyond, another address still opens, a close frees a slot", async () => {
    const [a, b] = [await user(), await user()];
    const held = [await stream(a.token, "203.0.113.7"), await stream(a.token, "203.0.113.7"), await stream(b.token, "203.0.113.7")];
    expect(held.map((c) => c.status)).toEqual([200, 200, 200]);
    const fourth = await stream(b.token, "203.0.113.7");
    expect(fourth.status).toBe(429);
    expect(fourth.headers.get("retry-after")).toBe("30");
    expect(String(fourth.body?.message)).toBe("Conexões de preços ao vivo demais abertas a partir do seu endereço. Feche outras abas e tente novamente.");
    // An unauthenticated flood from the address is refused by the same bound, before any session read.
    expect((await openSse(`${app.url}/api/stream/prices`, { headers: { "x-forwarded-for": "203.0.113.7" } })).status).toBe(429);
    expect((await stream(b.token, "198.51.100.9")).status).toBe(200);
    held[0]!.close();
    await new Promise((r) => setTimeout(r, 300));
    expect((await stream(b.token, "203.0.113.7")).status).toBe(200);
  }, 60_000);
});

describe("streams end with the session", () => {
  it("a logout ends the user's open stream within one heartbeat; a later open gets 401", async () => {
    const u = await user();
    const c = await stream(u.token, "192.0.2.10");
    expect(c.status).toBe(200);
    await c.next((e) => e.event === "hello");
    const out = await apiClient(app.url, u.token)("POST", "/api/auth/logout");
    expect(out.status).toBe(200);
    expect(await endsWithin(c, HEARTBEAT_MS + 600)).toBe(true);
    expect((await stream(u.token, "192.0.2.10")).status).toBe(401);
  }, 30_000);

  it("a session revoked by another process, or a deactivated user, ends the stream at the next heartbeat", async () => {
    const u1 = await user();
    const revoked = await stream(u1.token, "192.0.2.11");
    const u2 = await user();
    const deactivated = await stream(u2.token, "192.0.2.12");
    const u3 = await user();
    const kept = await stream(u3.token, "192.0.2.13");
    expect([revoked.status, deactivated.status, kept.status]).toEqual([200, 200, 200]);
    await env.db.sql`update sessions set revoked_at = now() where user_id = ${u1.user.id}`;
    await env.db.sql`update users set is_active = false where id = ${u2.user.id}`;
    expect(await endsWithin(revoked, 2 * HEARTBEAT_MS + 600)).toBe(true);
    expect(await endsWithin(deactivated, 2 * HEARTBEAT_MS + 600)).toBe(true);
    // A live session keeps streaming: heartbeats still arrive.
    const from = kept.events.length;
    await kept.next((e) => e.event === "heartbeat", 3_000, from);
    expect(await endsWithin(kept, 10)).toBe(false);
  }, 30_000);
});
