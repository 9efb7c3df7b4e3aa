/**
 * POST /api/auth/register answers as PRODUCT.md §7 says ("→ token, user") when no e-mail verification is
 * needed (EMAIL_VERIFICATION=off): a working bearer token, the same kind login returns, and the user
 * created verified. With verification on (the default) the token is null and the answer says why
 * (needsVerification, reason 'Verifique seu e-mail para ativar a conta.').
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, startAppServer, type AppServer } from "../setup/app-server";
import { createTestDatabase, type TestDatabase } from "../setup/db";

let db: TestDatabase;
let open: AppServer;
let verifying: AppServer;

beforeAll(async () => {
  db = await createTestDatabase();
  // One after the other: two first boots on a fresh database would race on its migrations and queues.
  open = await startAppServer({ DATABASE_URL: db.url, WORKERS: "off", OANDA_MODE: "sim", EMAIL_VERIFICATION: "off" });
  verifying = await startAppServer({ DATABASE_URL: db.url, WORKERS: "off", OANDA_MODE: "sim" });
}, 120_000);
afterAll(async () => {
  await open?.stop();
  await verifying?.stop();
  await db?.drop();
});

type RegisterBody = { success: boolean; token: string | null; needsVerification: boolean; reason?: string; user: { id: string; email: string; emailVerifiedAt: string | null } };

describe("register's token (§7 Auth)", () => {
  it("without verification: 201 with a bearer token that opens /api/auth/me, like login's", async () => {
    const person = { firstName: "Rui", lastName: "Costa", email: "rui.costa@exemplo.com", password: "Senha123" };
    const reg = await apiClient(open.url)<RegisterBody>("POST", "/api/auth/register", person);
    expect(reg.status).toBe(201);
    expect(reg.body.needsVerification).toBe(false);
    expect(reg.body.reason).toBeUndefined();
    expect(typeof reg.body.token).toBe("string");
    expect(reg.body.user.emailVerifiedAt).not.toBeNull();
    const me = await apiClient(open.url, reg.body.token!)<{ user: { email: string } }>("GET", "/api/auth/me");
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(person.email);
    // The same account logs in at once (no verification pending), and its login token is the same kind.
    const login = await apiClient(open.url)<{ token: string; needsVerification: boolean }>("POST", "/api/auth/login", { email: person.email, password: person.password });
    expect(login.body.needsVerification).toBe(false);
    expect(login.body.token).toHaveLength(reg.body.token!.length);
    // The token is a session: logout ends it.
    expect((await apiClient(open.url, reg.body.token!)("POST", "/api/auth/logout")).status).toBe(200);
    expect((await apiClient(open.url, reg.body.token!)("GET", "/api/auth/me")).status).toBe(401);
  });

  it("with verification: token null, and the answer says why in Portuguese", async () => {
    const reg = await apiClient(verifying.url)<RegisterBody>("POST", "/api/auth/register", { firstName: "Lia", lastName: "Reis", email: "lia.reis@exemplo.com", password: "Senha123" });
    expect(reg.status).toBe(201);
    expect(reg.body.token).toBeNull();
    expect(reg.body.needsVerification).toBe(true);
    expect(reg.body.reason).toBe("Verifique seu e-mail para ativar a conta.");
  });
});
