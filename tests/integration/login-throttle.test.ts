/**
 * Issue 8 item 1 (and the login-timing part of item 10), over real HTTP against two server processes
 * on one database:
 * - the per-IP limit keys on the route the router resolves: once `/api/auth/login` answers 429,
 *   `/api/auth/login/`, `/API/AUTH/LOGIN`, `/api/auth/%6Cogin` do too, and the right password
 *   through them opens no session; the same for `/auth` (`/auth/`, `/AUTH`, `/auth.data`,
 *   `/auth?index`, PUT), register, forgot-password and resend-confirmation;
 * - the backoff lives in PostgreSQL: after 5 failed attempts from one address the account is locked
 *   for that address (429 with a Portuguese message and `retryAfter`) on every process and on both
 *   login paths (JSON and the /auth form), the right password included; concurrent guesses cannot
 *   slip past it; after the lock a right password logs in and ends the streak (other addresses are
 *   never locked out: tests/integration/abuse-identity.test.ts, issue 24);
 * - an unknown e-mail costs about as much time as a wrong password on a real account.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../setup/app-server";
import { createTestDatabase, type TestDatabase } from "../setup/db";
import { markVerified } from "../setup/verify";

let db: TestDatabase;
/** AUTH_RATE_LIMIT=3: for the per-IP limit. */
let strict: AppServer;
/** A high per-IP limit: for the per-account backoff (second process on the same database). */
let lax: AppServer;
let lax2: AppServer;

const LOCKED = /^Muitas tentativas de login\. Aguarde \d+ (segundos|minutos) e tente novamente\.$/;
const IP_LIMIT = "Muitas tentativas. Aguarde alguns minutos e tente novamente.";

beforeAll(async () => {
  db = await createTestDatabase();
  // One after the other: pg-boss's queue creation can deadlock when processes boot at the same instant.
  strict = await startAppServer({ DATABASE_URL: db.url, WORKERS: "off", AUTH_RATE_LIMIT: "3" });
  lax = await startAppServer({ DATABASE_URL: db.url, WORKERS: "off", AUTH_RATE_LIMIT: "1000" });
  lax2 = await startAppServer({ DATABASE_URL: db.url, WORKERS: "off", AUTH_RATE_LIMIT: "1000" });
});
afterAll(async () => {
  await Promise.all([strict?.stop(), lax?.stop(), lax2?.stop()]);
  await db?.drop();
});

const json = (base: string, p: string, body: unknown, method = "POST") =>
  fetch(base + p, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const form = (base: string, p: string, fields: Record<string, string>, method = "POST") =>
  fetch(base + p, { method, headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" }, body: new URLSearchParams(fields), redirect: "manual" });

async function registerVerified(base: string, email: string, password: string) {
  const reg = await json(base, "/api/auth/register", { firstName: "Ana", lastName: "Teste", email, password });
  expect(reg.status).toBe(201);
  await markVerified(db.url, email);
}

describe("per-IP auth limit keyed on the resolved route", () => {
  it("JSON login: every spelling of the path shares the bucket; the right password through an alias opens no session", async () => {
    await registerVerified(lax.url, "ip@exemplo.com", "Senha123");
    for (let i = 0; i < 3; i++) expect((await json(strict.url, "/api/auth/login", { email: `x${i}@exemplo.com`, password: "Errada123" })).status).toBe(401);
    const blocked = await json(strict.url, "/api/auth/login", { email: "ip@exemplo.com", password: "Senha123" });
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toMatchObject({ success: false, message: IP_LIMIT });
    for (const p of ["/api/auth/login/", "/API/AUTH/LOGIN", "/Api/Auth/Login//", "/api/auth/%6Cogin", "/api//auth/login", "/api/auth/login?index"]) {
      const res = await json(strict.url, p, { email: "ip@exemplo.com", password: "Senha123" });
      expect(res.status, p).toBe(429);
      expect(res.headers.get("set-cookie") ?? "", p).not.toMatch(/__session=/);
    }
    const [s] = await db.sql`select count(*)::int as n from sessions`;
    expect(s!.n).toBe(0);
  });

  it("/auth form: /auth/, /AUTH, /auth.data, /auth?index and PUT share one bucket", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await form(strict.url, "/auth", { intent: "login", email: `y${i}@exemplo.com`, password: "Errada123", js: "1" });
      expect(res.status).toBe(401);
    }
    for (const [p, method] of [["/auth", "POST"], ["/auth/", "POST"], ["/AUTH", "POST"], ["/auth.data", "POST"], ["/auth?index", "POST"], ["/Auth/?index", "POST"], ["/auth", "PUT"]] as const) {
      const res = await form(strict.url, p, { intent: "login", email: "ip@exemplo.com", password: "Senha123" }, method);
      expect(res.status, `${method} ${p}`).toBe(429);
      expect(res.headers.get("set-cookie") ?? "", p).not.toMatch(/__session=/);
    }
    const page = await form(strict.url, "/AUTH/", { intent: "login", email: "ip@exemplo.com", password: "Senha123" });
    expect(await page.text()).toBe(IP_LIMIT);
  });

  it("register, forgot-password and resend-confirmation: aliases are limited too", async () => {
    for (const route of ["/api/auth/register", "/api/auth/forgot-password", "/api/auth/resend-confirmation"]) {
      for (let i = 0; i < 3; i++) await json(strict.url, route, { email: `z${i}-${route.length}@exemplo.com` });
      for (const p of [route, `${route}/`, route.toUpperCase(), `${route}.data`]) expect((await json(strict.url, p, { email: "w@exemplo.com" })).status, p).toBe(429);
    }
  });

  it("reads are not limited", async () => {
    expect((await fetch(`${strict.url}/auth`)).status).toBe(200);
  });
});

describe("per-account backoff in PostgreSQL", () => {
  it("locks after 5 failures, on every process and both login paths, the right password included; unlocks later and a success ends the streak", async () => {
    const email = "lock@exemplo.com";
    await registerVerified(lax.url, email, "Senha123");
    for (let i = 0; i < 5; i++) {
      const res = await json(i % 2 ? lax2.url : lax.url, "/api/auth/login", { email, password: `Errada${i}1` });
      expect(res.status).toBe(401);
    }
    // Sixth attempt, right password, the other process: locked.
    const locked = await json(lax2.url, "/api/auth/login", { email: "  LOCK@exemplo.com ", password: "Senha123" });
    expect(locked.status).toBe(429);
    const body = (await locked.json()) as { message: string; retryAfter: number; token?: string };
    expect(body.message).toMatch(LOCKED);
    expect(body.retryAfter).toBeGreaterThan(0);
    expect(body.retryAfter).toBeLessThanOrEqual(30);
    expect(body.token).toBeUndefined();
    // The /auth form path shares the counter.
    const viaForm = await form(lax.url, "/auth", { intent: "login", email, password: "Senha123", js: "1" });
    expect(viaForm.status).toBe(429);
    expect(viaForm.headers.get("set-cookie") ?? "").not.toMatch(/__session=/);
    expect(await viaForm.text()).toContain("Muitas tentativas de login");
    const [{ n }] = (await db.sql`select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.email = ${email}`) as unknown as [{ n: number }];
    expect(n).toBe(0);

    // The lock runs out: the next failure doubles it (60 s).
    await db.sql`update login_throttle set locked_until = now() - interval '1 second' where email = ${email}`;
    expect((await json(lax.url, "/api/auth/login", { email, password: "Errada999" })).status).toBe(401);
    const [row] = await db.sql<{ failures: number; secs: number }[]>`
      select failures, extract(epoch from locked_until - now())::float as secs from login_throttle where email = ${email} and source <> '*'`;
    expect(row!.failures).toBe(6);
    expect(row!.secs).toBeGreaterThan(50);
    expect(row!.secs).toBeLessThanOrEqual(60);

    await db.sql`update login_throttle set locked_until = now() - interval '1 second' where email = ${email}`;
    const ok = await json(lax2.url, "/api/auth/login", { email, password: "Senha123" });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { token: string }).token).toBeTruthy();
    const rows = await db.sql`select 1 from login_throttle where email = ${email}`;
    expect(rows.length).toBe(0);
  });

  it("concurrent guesses cannot slip past the lock", async () => {
    const email = "race@exemplo.com";
    await registerVerified(lax.url, email, "Senha123");
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => json(i % 2 ? lax2.url : lax.url, "/api/auth/login", { email, password: `Errada${i}1` }).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 401).length).toBe(5);
    expect(statuses.filter((s) => s === 429).length).toBe(15);
  });

  it("an unknown e-mail is throttled the same way (the answer does not reveal accounts)", async () => {
    for (let i = 0; i < 5; i++) expect((await json(lax.url, "/api/auth/login", { email: "ninguem@exemplo.com", password: "Errada123" })).status).toBe(401);
    const res = await json(lax.url, "/api/auth/login", { email: "ninguem@exemplo.com", password: "Errada123" });
    expect(res.status).toBe(429);
    expect(((await res.json()) as { message: string }).message).toMatch(LOCKED);
  });
});

describe("login timing", () => {
  it("an unknown e-mail takes about as long as a wrong password on a real account (argon2 on a dummy hash)", async () => {
    await registerVerified(lax.url, "timing@exemplo.com", "Senha123");
    const time = async (email: string) => {
      const t0 = performance.now();
      const res = await json(lax.url, "/api/auth/login", { email, password: "Errada123" });
      expect(res.status).toBe(401);
      return performance.now() - t0;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    await time("aquecimento@exemplo.com");
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      known.push(await time("timing@exemplo.com"));
      unknown.push(await time(`desconhecido${i}@exemplo.com`));
    }
    // Before the fix: ~12 ms against ~180 ms.
    expect(median(unknown)).toBeGreaterThan(median(known) * 0.5);
  });
});
