/**
 * Issue 24 "Availability under abuse", the identity items, over real HTTP (production build, real
 * PostgreSQL, the OANDA simulator):
 * - lockout: an attacker who knows an e-mail cannot lock its owner out: failures lock the (account,
 *   source) pair only; the owner logs in from another address with the right password (admins
 *   included), while the attacker's address stays refused; failures spread over many addresses
 *   slow the account's logins down (a progressive delay) without refusing the right password;
 * - POST /api/oanda-auth/test-token is limited per user (429 with a Portuguese message and
 *   Retry-After), other users unaffected;
 * - NUL and lone surrogates in any string of a JSON body or a form → 400 with a Portuguese message,
 *   never 500, and nothing written;
 * - forgot-password answers as fast for a known e-mail as for an unknown one (the e-mail work runs
 *   after the answer);
 * - an admin cannot change another admin's password or e-mail (403, nothing changed); their own, and
 *   other fields of another admin, stay editable.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { isPortugueseMessage, rawRequest, type RawReply } from "../setup/probe";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";
import { markVerified, registerVerifiedAndLogin } from "../setup/verify";

const ADMIN_EMAIL = "admin-abuso@teste.com";
const ADMIN_PASSWORD = "Admin1234";
const LOCKED = /^Muitas tentativas de login\. Aguarde \d+ (segundos|minutos) e tente novamente\.$/;
const TOO_MANY = /^Muitas requisições\. Aguarde \d+ segundos e tente novamente\.$/;
const BAD_TEXT = "Dados inválidos: o texto contém caracteres não permitidos (caractere nulo ou Unicode malformado).";

let env: TradingEnv;
let app: AppServer;
let admin: { token: string; id: string };

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp({ WORKERS: "off", AUTH_RATE_LIMIT: "100000", USER_ACTION_RATE_LIMIT: "10", ADMIN_EMAIL, ADMIN_PASSWORD });
  const a = await login(ADMIN_EMAIL, ADMIN_PASSWORD, "192.0.2.1");
  expect(a.status).toBe(200);
  const [row] = await env.db.sql<{ id: string }[]>`select id from users where email = ${ADMIN_EMAIL}`;
  admin = { token: a.token, id: row!.id };
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await env?.close();
});

/** A JSON request from the address `ip` (the test server trusts the loopback proxy's X-Forwarded-For). */
function api(method: string, p: string, opts: { token?: string; ip?: string; body?: unknown } = {}): Promise<RawReply> {
  const headers: Record<string, string> = { accept: "application/json", "content-type": "application/json" };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.ip) headers["x-forwarded-for"] = opts.ip;
  return rawRequest(app.url, method, p, headers, opts.body === undefined ? undefined : typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body));
}

async function login(email: string, password: string, ip: string): Promise<{ status: number; token: string; message: string; ms: number }> {
  const t0 = performance.now();
  const r = await api("POST", "/api/auth/login", { ip, body: { email, password } });
  return { status: r.status, token: String(r.json?.token ?? ""), message: String(r.json?.message ?? ""), ms: performance.now() - t0 };
}

async function registerVerified(email: string, password = "Senha123"): Promise<void> {
  const r = await api("POST", "/api/auth/register", { ip: "192.0.2.200", body: { firstName: "Ana", lastName: "Souza", email, password } });
  expect(r.status, r.text).toBe(201);
  await markVerified(env.db.url, email);
}

describe("lockout: per (account, source) and a progressive delay per account, never a lock on the owner", () => {
  it("an attacker failing from address A locks only A; the owner logs in from B with the right password; A stays refused", async () => {
    const email = "dono@teste.com";
    await registerVerified(email);
    const A = "203.0.113.5";
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await login(email, `Errada${i}1`, A)).status);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5)).toEqual([429, 429, 429]);
    const owner = await login(email, "Senha123", "198.51.100.7");
    expect(owner.status).toBe(200);
    expect(owner.token).toBeTruthy();
    // The attacker's address is still refused, the right password included.
    const again = await login(email, "Senha123", A);
    expect(again.status).toBe(429);
    expect(again.message).toMatch(LOCKED);
    expect(again.token).toBe("");
  });

  it("admins included: a locked-out address does not lock the admin account", async () => {
    const A = "203.0.113.66";
    for (let i = 0; i < 5; i++) expect((await login(ADMIN_EMAIL, `Errada${i}1`, A)).status).toBe(401);
    expect((await login(ADMIN_EMAIL, ADMIN_PASSWORD, A)).status).toBe(429);
    expect((await login(ADMIN_EMAIL, ADMIN_PASSWORD, "198.51.100.66")).status).toBe(200);
  });

  it("failures from many addresses slow the account down progressively; the right password still logs in", async () => {
    const email = "espalhado@teste.com";
    await registerVerified(email);
    const times: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await login(email, `Errada${i}1`, `203.0.113.${100 + i}`);
      expect(r.status, `tentativa ${i + 1}`).toBe(401);
      times.push(r.ms);
    }
    // The 13th attempt on the account (the owner's) waits its delay (1 s: 250 ms doubling past 10), then succeeds.
    const owner = await login(email, "Senha123", "198.51.100.99");
    expect(owner.status).toBe(200);
    expect(owner.ms).toBeGreaterThanOrEqual(1000);
    // The first 10 were not delayed (relative to them, so a loaded machine does not matter).
    const median = [...times.slice(0, 10)].sort((a, b) => a - b)[5]!;
    expect(owner.ms - median).toBeGreaterThan(700);
    // The owner's success ends the account's streak (the next login is not delayed); the attackers' addresses keep theirs.
    const rows = await env.db.sql<{ source: string }[]>`select source from login_throttle where email = ${email}`;
    expect(rows.map((r) => r.source).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `203.0.113.${100 + i}`).sort());
  });
});

describe("test-token: a per-user limit", () => {
  it("10 a minute per user, the 11th is 429 with a Portuguese message and Retry-After; another user is not affected", async () => {
    const u = await userWithBroker(env, app, "testa-token@teste.com");
    const other = await userWithBroker(env, app, "outro-token@teste.com");
    for (let i = 0; i < 10; i++) {
      const r = await api("POST", "/api/oanda-auth/test-token", { token: u.token, body: { token: u.brokerToken, environment: "practice" } });
      expect(r.status, `#${i + 1} ${r.text}`).toBe(200);
    }
    const refused = await api("POST", "/api/oanda-auth/test-token", { token: u.token, body: { token: u.brokerToken, environment: "practice" } });
    expect(refused.status).toBe(429);
    expect(String(refused.json?.message)).toMatch(TOO_MANY);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    const theirs = await api("POST", "/api/oanda-auth/test-token", { token: other.token, body: { token: other.brokerToken, environment: "practice" } });
    expect(theirs.status).toBe(200);
  });
});

describe("NUL and lone surrogates are refused with 400, never 500", () => {
  it("every JSON endpoint probed: login, register, forgot, resend, settings, preferences, admin users, plans and settings", async () => {
    const user = await registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Bia", lastName: "Lopes", email: "nul@teste.com", password: "Senha123" });
    const [{ id: otherId }] = (await env.db.sql`select id from users where email = 'dono@teste.com'`) as unknown as [{ id: string }];
    const before = await env.db.sql<{ sum: string }[]>`select md5(string_agg((to_jsonb(u) - 'last_login_at')::text, '|' order by id)) as sum from users u`;
    for (const bad of ["a\u0000b", "x\ud800y", "\udfff"]) {
      const probes: [string, string, string | undefined, unknown][] = [
        ["POST", "/api/auth/login", undefined, { email: "nul@teste.com", password: bad }],
        ["POST", "/api/auth/login", undefined, { email: `${bad}@teste.com`, password: "Senha123" }],
        ["POST", "/api/auth/register", undefined, { firstName: bad, lastName: "Souza", email: "novo-nul@teste.com", password: "Senha123" }],
        ["POST", "/api/auth/forgot-password", undefined, { email: `nul${bad}@teste.com` }],
        ["POST", "/api/auth/resend-confirmation", undefined, { email: `nul${bad}@teste.com` }],
        ["PUT", "/api/settings", user.token, { settings: { timezone: bad } }],
        ["PUT", "/api/settings", user.token, { settings: { [bad]: 1 } }],
        ["POST", "/api/oanda-auth/test-token", user.token, { token: bad, environment: "practice" }],
        ["POST", "/api/admin/users", admin.token, { email: "criado-nul@teste.com", firstName: bad, lastName: "X", password: "Senha123" }],
        ["PUT", `/api/admin/users/${otherId}`, admin.token, { lastName: bad }],
        ["POST", "/api/admin/plans", admin.token, { name: bad, description: "d", price: 1000, currency: "usd", durationDays: 30, interval: "month", features: [bad] }],
        ["PUT", "/api/admin/settings", admin.token, { brevoSenderName: bad }],
      ];
      for (const [method, p, token, body] of probes) {
        const r = await api(method, p, { token, ip: "192.0.2.77", body });
        const label = `${method} ${p} ${JSON.stringify(body)}`;
        expect(r.status, `${label} → ${r.text}`).toBe(400);
        expect(r.json?.message, label).toBe(BAD_TEXT);
        expect(isPortugueseMessage(r.json?.message)).toBe(true);
      }
    }
    const after = await env.db.sql<{ sum: string }[]>`select md5(string_agg((to_jsonb(u) - 'last_login_at')::text, '|' order by id)) as sum from users u`;
    expect(after[0]!.sum).toBe(before[0]!.sum);
  });

  it("a form with a NUL byte (the /auth page) → 400 with the message, never 500", async () => {
    const forms: Record<string, string>[] = [{ intent: "login", email: "nul@teste.com", password: "a\u0000b" }, { intent: "register", firstName: "a\u0000", lastName: "b", email: "form-nul@teste.com", password: "Senha123" }];
    for (const fields of forms) {
      const r = await rawRequest(app.url, "POST", "/auth", { "content-type": "application/x-www-form-urlencoded", accept: "text/html", "x-forwarded-for": "192.0.2.78" }, new URLSearchParams(fields).toString());
      expect(r.status, r.text).toBe(400);
      expect(r.text).toContain(BAD_TEXT);
    }
  });
});

describe("forgot-password timing does not tell whether the e-mail exists", () => {
  it("the median answer for known e-mails is within 1.5× of the unknown ones (it was ~2-3×)", async () => {
    const N = 15;
    const known = Array.from({ length: N }, (_, i) => `conhecido${i}@teste.com`);
    for (const email of [...known, "conhecido-aquece@teste.com"]) await registerVerified(email);
    const time = async (email: string, ip: string) => {
      const t0 = performance.now();
      const r = await api("POST", "/api/auth/forgot-password", { ip, body: { email } });
      expect(r.status, r.text).toBe(200);
      return performance.now() - t0;
    };
    // Warm both paths (first statements, first e-mail render).
    await time("aquece-desconhecido@teste.com", "10.9.0.1");
    await time("conhecido-aquece@teste.com", "10.9.0.2");
    const tk: number[] = [];
    const tu: number[] = [];
    for (let i = 0; i < N; i++) {
      tk.push(await time(known[i]!, `10.1.0.${i + 1}`));
      tu.push(await time(`desconhecido${i}@teste.com`, `10.2.0.${i + 1}`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const ratio = median(tk) / median(tu);
    expect(ratio, `conhecido ${median(tk).toFixed(1)} ms, desconhecido ${median(tu).toFixed(1)} ms`).toBeLessThan(1.5);
    // The reset e-mails still go out (after the answer).
    await expect.poll(async () => Number((await env.db.sql`select count(*)::int as n from email_outbox where kind = 'reset'`)[0]!.n), { timeout: 10_000 }).toBe(N + 1);
  });
});

describe("an admin cannot change another admin's password or e-mail", () => {
  it("403 with a Portuguese message through the API and the page; nothing changes; own credentials and other fields stay editable", async () => {
    await registerVerified("segundo-admin@teste.com", "Admin5678");
    const [{ id: otherId }] = (await env.db.sql`update users set role = 'admin' where email = 'segundo-admin@teste.com' returning id`) as unknown as [{ id: string }];
    const snapshot = async () => (await env.db.sql<{ email: string; password_hash: string }[]>`select email, password_hash from users where id = ${otherId}`)[0]!;
    const before = await snapshot();
    const REFUSED = "Não é possível alterar a senha ou o e-mail de outro administrador.";
    for (const body of [{ password: "Tomada1234" }, { email: "tomado@teste.com" }, { email: "tomado@teste.com", password: "Tomada1234", firstName: "X" }]) {
      const r = await api("PUT", `/api/admin/users/${otherId}`, { token: admin.token, body });
      expect(r.status, JSON.stringify(body)).toBe(403);
      expect(r.json?.message).toBe(REFUSED);
    }
    // The no-JavaScript page form: the same refusal.
    const cookie = await adminCookie();
    const page = await rawRequest(
      app.url,
      "POST",
      "/admin/usuarios",
      { "content-type": "application/x-www-form-urlencoded", accept: "text/html", cookie },
      new URLSearchParams({ intent: "update", id: otherId, email: "tomado@teste.com", firstName: "Ana", lastName: "Souza", password: "Tomada1234" }).toString(),
    );
    expect(page.status).toBe(403);
    expect(page.text).toContain(REFUSED);
    // The form offers neither field for another admin; it does for a regular user.
    const editOther = await rawRequest(app.url, "GET", `/admin/usuarios?editar=${otherId}`, { accept: "text/html", cookie });
    expect(editOther.status).toBe(200);
    expect(editOther.text).toContain('data-testid="credentials-locked"');
    expect(editOther.text).not.toContain('name="password"');
    const [{ id: regularId }] = (await env.db.sql`select id from users where email = 'conhecido1@teste.com'`) as unknown as [{ id: string }];
    const editRegular = await rawRequest(app.url, "GET", `/admin/usuarios?editar=${regularId}`, { accept: "text/html", cookie });
    expect(editRegular.text).toContain('name="password"');
    expect(editRegular.text).not.toContain('data-testid="credentials-locked"');
    expect(await snapshot()).toEqual(before);
    expect((await login("segundo-admin@teste.com", "Admin5678", "192.0.2.90")).status).toBe(200);

    // Another admin's name may still be edited; the same e-mail sent back is no change.
    expect((await api("PUT", `/api/admin/users/${otherId}`, { token: admin.token, body: { firstName: "Beatriz", email: "segundo-admin@teste.com" } })).status).toBe(200);
    // An admin's own password and e-mail: allowed.
    expect((await api("PUT", `/api/admin/users/${admin.id}`, { token: admin.token, body: { password: "Admin9999" } })).status).toBe(200);
    expect((await login(ADMIN_EMAIL, "Admin9999", "192.0.2.91")).status).toBe(200);
    // A regular user's credentials: allowed as before.
    const [{ id: userId }] = (await env.db.sql`select id from users where email = 'conhecido0@teste.com'`) as unknown as [{ id: string }];
    expect((await api("PUT", `/api/admin/users/${userId}`, { token: admin.token, body: { password: "Trocada123" } })).status).toBe(200);
  });
});

/** The admin's session cookie (a fresh login through the JSON API). */
async function adminCookie(): Promise<string> {
  const res = await fetch(`${app.url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": "192.0.2.92" },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}
