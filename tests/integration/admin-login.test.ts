/**
 * /admin/login (issue 10, PRODUCT.md §2 "/admin/login", §6) on the real server: the form in admin
 * mode (no JavaScript: a plain urlencoded POST). An admin gets a session and lands on /admin; a
 * regular user with the right password is refused ('Acesso restrito a administradores.') and NO
 * session row is created; wrong credentials get /auth's message; the per-account login backoff
 * applies (the 6th wrong password in a row is locked); logged-in visitors are sent on (admin →
 * /admin, user → /); the path shares the auth per-IP rate limit (server/rate-limits.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../setup/app-server";
import { createTestDatabase, type TestDatabase } from "../setup/db";
import { registerVerifiedAndLogin } from "../setup/verify";

let db: TestDatabase;
let app: AppServer;
const ADMIN = { email: "admin-login@teste.com", password: "Admin1234" };
const USER = { firstName: "Lia", lastName: "Reis", email: "lia.login@teste.com", password: "Senha123" };

/** POSTs the login form; returns status, Location, the session cookie (if any) and the body. */
async function submit(fields: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.url}/admin/login`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", ...headers },
    body: new URLSearchParams(fields),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__session="));
  return { status: res.status, location: res.headers.get("location"), cookie: cookie?.split(";")[0], text: await res.text() };
}

async function sessionsOf(email: string): Promise<number> {
  const [r] = await db.sql<{ n: number }[]>`select count(*)::int as n from sessions s join users u on u.id = s.user_id where u.email = ${email}`;
  return r!.n;
}

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startAppServer({ DATABASE_URL: db.url, OANDA_MODE: "sim", WORKERS: "off", AUTH_RATE_LIMIT: "100000", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  await registerVerifiedAndLogin(app.url, db.url, USER);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

describe("/admin/login", () => {
  it("shows the admin form to anonymous visitors", async () => {
    const res = await fetch(`${app.url}/admin/login`, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Área administrativa");
    expect(html).toContain('name="remember"');
  });

  it("refuses a regular user with the right password, and creates no session", async () => {
    const before = await sessionsOf(USER.email);
    const r = await submit({ email: USER.email, password: USER.password, remember: "on" });
    expect(r.status).toBe(403);
    expect(r.text).toContain("Acesso restrito a administradores.");
    expect(r.cookie).toBeUndefined();
    expect(await sessionsOf(USER.email)).toBe(before);
  });

  it("wrong credentials: /auth's message, no session", async () => {
    const before = await sessionsOf(ADMIN.email);
    const r = await submit({ email: ADMIN.email, password: "Errada123" });
    expect(r.status).toBe(401);
    expect(r.text).toContain("Email ou senha inválidos.");
    expect(r.cookie).toBeUndefined();
    expect(await sessionsOf(ADMIN.email)).toBe(before);
  });

  it("an admin gets a session and lands on /admin; then /admin/login sends them on", async () => {
    const before = await sessionsOf(ADMIN.email);
    const r = await submit({ email: ADMIN.email.toUpperCase(), password: ADMIN.password, remember: "on" });
    expect(r.status).toBe(302);
    expect(r.location).toBe("/admin");
    expect(r.cookie).toBeTruthy();
    expect(await sessionsOf(ADMIN.email)).toBe(before + 1);
    const dash = await fetch(`${app.url}/admin`, { headers: { cookie: r.cookie!, accept: "text/html" }, redirect: "manual" });
    expect(dash.status).toBe(200);
    const again = await fetch(`${app.url}/admin/login`, { headers: { cookie: r.cookie!, accept: "text/html" }, redirect: "manual" });
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe("/admin");
  });

  it("a logged-in regular user visiting /admin/login goes to /", async () => {
    const res = await fetch(`${app.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: USER.email, password: USER.password }) });
    const cookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const page = await fetch(`${app.url}/admin/login`, { headers: { cookie, accept: "text/html" }, redirect: "manual" });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/");
  });

  it("the per-account backoff applies: after 5 wrong passwords the account is locked (the right one too)", async () => {
    const email = "ninguem-admin@teste.com";
    for (let i = 0; i < 5; i++) expect((await submit({ email, password: `Errada${i}x` })).status).toBe(401);
    const locked = await submit({ email, password: "Errada9x" });
    expect(locked.status).toBe(429);
    expect(locked.text).toMatch(/Muitas tentativas|Aguarde/);
  });
});

describe("/admin/login shares the auth per-IP limit", () => {
  it("past AUTH_RATE_LIMIT posts from one IP: 429 with the Portuguese text", async () => {
    const limited = await startAppServer({ DATABASE_URL: db.url, OANDA_MODE: "sim", WORKERS: "off", AUTH_RATE_LIMIT: "2" });
    try {
      const post = () =>
        fetch(`${limited.url}/admin/login`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" }, body: "email=a%40b.com&password=x" });
      expect((await post()).status).not.toBe(429);
      expect((await post()).status).not.toBe(429);
      const third = await post();
      expect(third.status).toBe(429);
      expect(await third.text()).toBe("Muitas tentativas. Aguarde alguns minutos e tente novamente.");
    } finally {
      await limited.stop();
    }
  });
});
