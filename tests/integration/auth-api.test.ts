/**
 * Accounts over real HTTP against the real server process and PostgreSQL: register, login, me,
 * logout (PRODUCT.md §7 Auth), argon2id hashes, DB sessions accepted as cookie, Bearer and x-session,
 * the 7-day trial licence, and Portuguese 4xx messages for bad input. Registration opens no session
 * and login waits for e-mail verification (the e-mail itself: email-flow.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, startAppServer, type AppServer } from "../setup/app-server";
import { createTestDatabase, type TestDatabase } from "../setup/db";
import { markVerified } from "../setup/verify";

let db: TestDatabase;
let app: AppServer;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startAppServer({ DATABASE_URL: db.url, WORKERS: "off", OANDA_MODE: "sim" });
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const person = { firstName: "Maria", lastName: "Silva", email: "  Maria.Silva@Exemplo.COM ", password: "Senha123" };

describe("auth API", () => {
  it("registers with trimmed, lowercased e-mail, an argon2id hash and a 7-day trial, without a session", async () => {
    const raw = await fetch(`${app.url}/api/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(person) });
    expect(raw.status).toBe(201);
    expect(raw.headers.get("set-cookie") ?? "").not.toMatch(/__session=/);
    const res = { status: raw.status, body: (await raw.json()) as { token: string | null; needsVerification: boolean; user: Record<string, unknown> } };
    expect(res.body.token).toBeNull();
    expect(res.body.needsVerification).toBe(true);
    expect(res.body.user.emailVerifiedAt).toBeNull();
    const [sessions] = await db.sql`select count(*)::int as n from sessions`;
    expect(sessions!.n).toBe(0);
    expect(res.body.user.email).toBe("maria.silva@exemplo.com");
    expect(res.body.user.firstName).toBe("Maria");
    expect(res.body.user).not.toHaveProperty("password");
    expect(res.body.user.hasValidLicense).toBe(true);
    expect(res.body.user.licenseStatus).toBe("valid");
    const [row] = await db.sql`select password_hash from users where email = 'maria.silva@exemplo.com'`;
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    const [lic] = await db.sql`select kind, end_date - start_date as span from licenses`;
    expect(lic!.kind).toBe("trial");
    expect(String(lic!.span)).toBe("7 days");
  });

  it("rejects a weak password and a taken e-mail with Portuguese messages", async () => {
    const call = apiClient(app.url);
    const weak = await call<{ message: string }>("POST", "/api/auth/register", { ...person, email: "x@y.com", password: "fraca" });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toBe("A senha deve ter pelo menos 8 caracteres.");
    const noDigit = await call<{ message: string }>("POST", "/api/auth/register", { ...person, email: "x@y.com", password: "SemNumero" });
    expect(noDigit.body.message).toBe("A senha deve ter um número.");
    const taken = await call<{ message: string }>("POST", "/api/auth/register", person);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("Este e-mail já está cadastrado.");
    const badJson = await fetch(`${app.url}/api/auth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(badJson.status).toBe(400);
  });

  it("refuses login before verification: needsVerification, no session", async () => {
    const res = await fetch(`${app.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: person.email, password: person.password }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie") ?? "").not.toMatch(/__session=/);
    expect(await res.json()).toMatchObject({
      success: false,
      needsVerification: true,
      token: null,
      message: "Email não verificado. Verifique sua caixa de entrada para confirmar sua conta.",
    });
    const [sessions] = await db.sql`select count(*)::int as n from sessions`;
    expect(sessions!.n).toBe(0);
    // A wrong password says nothing about verification.
    const bad = await apiClient(app.url)<{ message: string; needsVerification?: boolean }>("POST", "/api/auth/login", { email: person.email, password: "Errada123" });
    expect(bad.status).toBe(401);
    expect(bad.body.needsVerification).toBeUndefined();
  });

  it("logs in, answers /me by Bearer, x-session and cookie, and logout revokes the session", async () => {
    await markVerified(db.url, person.email);
    const call = apiClient(app.url);
    const bad = await call<{ message: string }>("POST", "/api/auth/login", { email: person.email, password: "Errada123" });
    expect(bad.status).toBe(401);
    expect(bad.body.message).toBe("Email ou senha inválidos.");

    const res = await fetch(`${app.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "MARIA.silva@exemplo.com", password: person.password }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { token: string; needsVerification: boolean };
    expect(body.needsVerification).toBe(false);
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(/__session=.+HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);

    const me = await apiClient(app.url, body.token)<{ user: { email: string } }>("GET", "/api/auth/me");
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe("maria.silva@exemplo.com");
    const viaHeader = await fetch(`${app.url}/api/auth/me`, { headers: { "x-session": body.token } });
    expect(viaHeader.status).toBe(200);
    const viaCookie = await fetch(`${app.url}/api/auth/me`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(viaCookie.status).toBe(200);

    const out = await apiClient(app.url, body.token)("POST", "/api/auth/logout");
    expect(out.status).toBe(200);
    const after = await apiClient(app.url, body.token)<{ message: string }>("GET", "/api/auth/me");
    expect(after.status).toBe(401);
    expect(after.body.message).toBe("Token inválido ou expirado");
    const cookieAfter = await fetch(`${app.url}/api/auth/me`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(cookieAfter.status).toBe(401);
  });

  it("refuses a cross-site cookie mutation (Origin check)", async () => {
    const res = await fetch(`${app.url}/api/auth/logout`, { method: "POST", headers: { origin: "https://evil.example" } });
    expect(res.status).toBe(403);
  });

  it("reports health with database, queue and broker", async () => {
    for (const p of ["/health", "/api/health", "/api/status"]) {
      const res = await fetch(app.url + p);
      const body = (await res.json()) as { database: { ok: boolean }; queue: { ok: boolean }; broker: { ok: boolean; mode: string } };
      expect(body.database.ok).toBe(true);
      expect(body.queue.ok).toBe(true);
      expect(body.broker).toMatchObject({ ok: true, mode: "sim" });
      expect(res.status).toBe(200);
    }
  });
});
