/**
 * Admin Usuários (issue 10; PRODUCT.md §2 Admin "Users", §3 User, §5 admin user form, §6 roles, §7
 * Admin users, §8 Admin, §9) on the real server (production build), real PostgreSQL and the OANDA
 * simulator:
 * - every endpoint × {anonymous 401, user 403, admin}; pages redirect anonymous → /admin/login, users → /;
 * - the list: §3 shape with licence and broker summaries, search, status filter, 50 a page, newest
 *   first, soft-deleted users left out; never a password hash or a broker token;
 * - create / edit: §5 validation with clear Portuguese messages and nothing changed on bad input;
 *   duplicate e-mail 409; a created user is verified, has the 7-day trial and can log in; a new
 *   password revokes the user's sessions;
 * - extend licence: seen by the user's GET /api/subscriptions/status (valid, end + 30 d), a manual
 *   licence when none is valid; refused on admins;
 * - delete (soft): bot off, broker connection gone, sessions revoked, trades kept, e-mail free to
 *   register again, cannot log in; refused on admins and with a live Stripe subscription;
 * - the read-only support view (status, bot, last 20 decisions, broker errors), no token in it;
 * - audit rows for every write (action, before/after), never a password hash;
 * - the no-JavaScript pages: list, search, create form, delete confirm step, support view.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { rawRequest, type RawReply } from "../setup/probe";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

const ADMIN_EMAIL = "admin-usuarios@teste.com";
const ADMIN_PASSWORD = "Admin1234";
const DAY = 86_400_000;

let env: TradingEnv;
let app: AppServer;
let admin: { token: string; cookie: string; id: string };
let target: { token: string; userId: string; accountId: string; brokerToken: string };
let plain: { token: string; userId: string };

async function login(email: string, password: string): Promise<{ status: number; token: string; cookie: string }> {
  const res = await fetch(`${app.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  const body = (await res.json()) as { token?: string };
  return { status: res.status, token: body.token ?? "", cookie: res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
}

/** A JSON API call with an optional bearer token. */
function api(method: string, p: string, token?: string, body?: unknown): Promise<RawReply> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (method !== "GET") {
    headers["content-type"] = "application/json";
    payload = typeof body === "string" ? body : JSON.stringify(body ?? {});
  }
  return rawRequest(app.url, method, p, headers, payload);
}

/** A page request with the admin's cookie (form body for POSTs). */
function page(method: "GET" | "POST", p: string, cookie?: string, form?: Record<string, string>): Promise<RawReply> {
  const headers: Record<string, string> = { accept: "text/html" };
  if (cookie) headers.cookie = cookie;
  if (form) headers["content-type"] = "application/x-www-form-urlencoded";
  return rawRequest(app.url, method, p, headers, form ? new URLSearchParams(form).toString() : undefined);
}

async function usersChecksum(): Promise<string> {
  const [r] = await env.db.sql<{ sum: string }[]>`
    select md5(coalesce(string_agg((to_jsonb(u) - 'last_login_at')::text, '|' order by u.id), '')) as sum from users u`;
  return r!.sum;
}
async function licencesChecksum(): Promise<string> {
  const [r] = await env.db.sql<{ sum: string }[]>`select md5(coalesce(string_agg(l::text, '|' order by l.id), '')) as sum from licenses l`;
  return r!.sum;
}
async function auditCount(): Promise<number> {
  const [r] = await env.db.sql<{ n: number }[]>`select count(*)::int as n from admin_audit_log`;
  return r!.n;
}
async function lastAudit(action: string, targetId: string) {
  const [row] = await env.db.sql<{ admin_email: string; before: unknown; after: unknown; ip: string | null }[]>`
    select admin_email, before, after, ip from admin_audit_log where action = ${action} and target_id = ${targetId} order by id desc limit 1`;
  return row;
}

interface UserJson {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  isActive: boolean;
  preferences: { language: string; currency: string; timezone: string };
  licenseStatus: string;
  hasValidLicense: boolean;
  license: { endDate: string } | null;
  oandaAuth: { isConnected: boolean; environment: string | null; accountId: string | null };
  emailVerifiedAt: string | null;
  createdAt: string;
}

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp({ WORKERS: "off", AUTH_RATE_LIMIT: "100000", ADMIN_EMAIL, ADMIN_PASSWORD });
  const a = await login(ADMIN_EMAIL, ADMIN_PASSWORD);
  const [row] = await env.db.sql<{ id: string }[]>`select id from users where email = ${ADMIN_EMAIL} and role = 'admin'`;
  admin = { token: a.token, cookie: a.cookie, id: row!.id };
  const t = await userWithBroker(env, app, "alvo-admin@teste.com");
  target = { token: t.token, userId: t.userId, accountId: t.accountId, brokerToken: t.brokerToken };
  const p = await registerVerifiedAndLogin<{ token: string; user: { id: string } }>(app.url, env.db.url, { firstName: "Bruno", lastName: "Lima", email: "comum-admin@teste.com", password: "Senha123" });
  plain = { token: p.token, userId: p.user.id };
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await env?.close();
});

describe("access: every endpoint × {anonymous, user, admin}", () => {
  it("anonymous → 401 'Token inválido ou expirado', user → 403 'Acesso restrito a administradores.', nothing changes", async () => {
    const probes: [string, string, unknown?][] = [
      ["GET", "/api/admin/users"],
      ["POST", "/api/admin/users", { email: "intruso@teste.com", firstName: "I", lastName: "N", password: "Senha123" }],
      ["GET", `/api/admin/users/${target.userId}`],
      ["PUT", `/api/admin/users/${target.userId}`, { firstName: "Hack" }],
      ["DELETE", `/api/admin/users/${target.userId}`],
      ["POST", `/api/admin/users/${target.userId}/extend-license`, { days: 30 }],
    ];
    const before = [await usersChecksum(), await licencesChecksum(), await auditCount()];
    for (const [method, p, body] of probes) {
      const anon = await api(method, p, undefined, body);
      expect(anon.status, `${method} ${p} anonymous`).toBe(401);
      expect(anon.json?.message).toBe("Token inválido ou expirado");
      const user = await api(method, p, plain.token, body);
      expect(user.status, `${method} ${p} user`).toBe(403);
      expect(user.json?.message).toBe("Acesso restrito a administradores.");
    }
    expect([await usersChecksum(), await licencesChecksum(), await auditCount()]).toEqual(before);
    // The user's own session still works: a 403 here is not a logout.
    expect((await api("GET", "/api/auth/me", plain.token)).status).toBe(200);
  });

  it("pages: anonymous → /admin/login, user → /, admin 200", async () => {
    const userCookie = (await login("comum-admin@teste.com", "Senha123")).cookie;
    for (const p of ["/admin/usuarios", `/admin/usuarios/${target.userId}`]) {
      const anon = await page("GET", p);
      expect(anon.status).toBe(302);
      expect(anon.headers.location).toBe("/admin/login");
      const user = await page("GET", p, userCookie);
      expect(user.headers.location).toBe("/");
      expect((await page("GET", p, admin.cookie)).status).toBe(200);
    }
    const post = await page("POST", "/admin/usuarios", userCookie, { intent: "delete", id: target.userId });
    expect(post.headers.location).toBe("/");
    const [u] = await env.db.sql`select deleted_at from users where id = ${target.userId}`;
    expect(u!.deleted_at).toBeNull();
  });

  it("a wrong method is 405 with Allow", async () => {
    const r = await api("PATCH", "/api/admin/users", admin.token, {});
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe("GET, HEAD, POST");
  });
});

describe("GET /api/admin/users", () => {
  it("the §3 shape with licence and broker summaries; never a hash or a token", async () => {
    const r = await api("GET", "/api/admin/users", admin.token);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ success: true, page: 1, pageSize: 50 });
    const users = r.json!.users as UserJson[];
    expect(r.json!.total).toBe(users.length);
    const t = users.find((u) => u.id === target.userId)!;
    expect(t).toMatchObject({ email: "alvo-admin@teste.com", firstName: "Ana", lastName: "Souza", role: "user", isActive: true, licenseStatus: "valid", hasValidLicense: true });
    expect(t.oandaAuth).toMatchObject({ isConnected: true, environment: "practice", accountId: target.accountId });
    expect(t.preferences).toEqual({ language: "pt", currency: "BRL", timezone: "America/Sao_Paulo" });
    const a = users.find((u) => u.email === ADMIN_EMAIL)!;
    expect(a).toMatchObject({ role: "admin", licenseStatus: "admin" });
    expect(r.text).not.toMatch(/password|argon2|token_encrypted/i);
    expect(r.text).not.toContain(target.brokerToken);
    // Newest first.
    const created = users.map((u) => Date.parse(u.createdAt));
    expect(created).toEqual([...created].sort((x, y) => y - x));
  });

  it("search over e-mail, first and last name (case-insensitive, wildcards literal)", async () => {
    const emails = async (q: string) => ((await api("GET", `/api/admin/users?search=${encodeURIComponent(q)}`, admin.token)).json!.users as UserJson[]).map((u) => u.email);
    expect(await emails("ALVO-ADMIN")).toEqual(["alvo-admin@teste.com"]);
    expect(await emails("bruno")).toEqual(["comum-admin@teste.com"]);
    expect(await emails("souza")).toEqual(["alvo-admin@teste.com"]);
    expect(await emails("Ana Souza")).toEqual(["alvo-admin@teste.com"]);
    expect(await emails("%")).toEqual([]);
    expect(await emails("ninguém-aqui")).toEqual([]);
  });

  it("status filter on the subscription status: all, active, inactive, past_due, canceled", async () => {
    const ids = async (s: string) => ((await api("GET", `/api/admin/users?status=${s}`, admin.token)).json!.users as UserJson[]).map((u) => u.id);
    await env.db.sql`update users set subscription_status = 'past_due' where id = ${plain.userId}`;
    try {
      expect(await ids("past_due")).toEqual([plain.userId]);
      expect(await ids("inactive")).toContain(target.userId);
      expect(await ids("inactive")).not.toContain(plain.userId);
      expect(await ids("active")).toEqual([]);
      expect(await ids("canceled")).toEqual([]);
      expect((await ids("all")).length).toBeGreaterThanOrEqual(3);
    } finally {
      await env.db.sql`update users set subscription_status = 'inactive' where id = ${plain.userId}`;
    }
  });

  it("50 a page, newest first, with the total", async () => {
    await env.db.sql`insert into users (email, first_name, last_name, password_hash, created_at)
      select 'lote' || i || '@pagina.com', 'Lote', 'N' || i, 'x', now() - (i || ' minutes')::interval from generate_series(1, 55) i`;
    try {
      const p1 = await api("GET", "/api/admin/users?search=pagina.com", admin.token);
      const p2 = await api("GET", "/api/admin/users?search=pagina.com&page=2", admin.token);
      expect(p1.json!.total).toBe(55);
      expect((p1.json!.users as UserJson[]).length).toBe(50);
      expect((p2.json!.users as UserJson[]).map((u) => u.email)).toEqual(["lote51@pagina.com", "lote52@pagina.com", "lote53@pagina.com", "lote54@pagina.com", "lote55@pagina.com"]);
      expect((p1.json!.users as UserJson[])[0]!.email).toBe("lote1@pagina.com");
      expect(p2.json!.page).toBe(2);
    } finally {
      await env.db.sql`delete from users where email like '%@pagina.com'`;
    }
  });
});

describe("POST /api/admin/users", () => {
  it("creates a verified user with the 7-day trial and the defaults; the user can log in; audited without the hash", async () => {
    const r = await api("POST", "/api/admin/users", admin.token, { email: "  Novo.Admin@Teste.com ", firstName: " Carla ", lastName: "Dias", password: "Senha123" });
    expect(r.status).toBe(201);
    expect(r.json?.message).toBe("Usuário criado.");
    const u = r.json!.user as UserJson;
    expect(u).toMatchObject({ email: "novo.admin@teste.com", firstName: "Carla", lastName: "Dias", role: "user", isActive: true, licenseStatus: "valid", hasValidLicense: true });
    expect(u.preferences).toEqual({ language: "pt", currency: "BRL", timezone: "America/Sao_Paulo" });
    expect(u.emailVerifiedAt).not.toBeNull();
    expect(Math.abs(Date.parse(u.license!.endDate) - (Date.now() + 7 * DAY))).toBeLessThan(5 * 60_000);
    expect((await login("novo.admin@teste.com", "Senha123")).status).toBe(200);
    const audit = await lastAudit("user.create", u.id);
    expect(audit?.admin_email).toBe(ADMIN_EMAIL);
    expect(audit?.after).toMatchObject({ email: "novo.admin@teste.com", firstName: "Carla", isActive: true });
    expect(JSON.stringify(audit)).not.toMatch(/argon2|password_hash|Senha123/);
  });

  it("takes isActive and preferences (an inactive user cannot log in)", async () => {
    const r = await api("POST", "/api/admin/users", admin.token, {
      email: "inativo-admin@teste.com",
      firstName: "Dora",
      lastName: "Reis",
      password: "Senha123",
      isActive: false,
      preferences: { language: "es", currency: "EUR", timezone: "Europe/Madrid" },
    });
    expect(r.status).toBe(201);
    expect(r.json!.user).toMatchObject({ isActive: false, preferences: { language: "es", currency: "EUR", timezone: "Europe/Madrid" } });
    expect((await login("inativo-admin@teste.com", "Senha123")).status).toBe(403);
  });

  it.each([
    [{ firstName: "A", lastName: "B", password: "Senha123" }, "Informe o e-mail do usuário."],
    [{ email: "", firstName: "A", lastName: "B", password: "Senha123" }, "Informe o e-mail do usuário."],
    [{ email: "nao-e-email", firstName: "A", lastName: "B", password: "Senha123" }, "O e-mail do usuário é inválido."],
    [{ email: "x1@teste.com", firstName: "  ", lastName: "B", password: "Senha123" }, "Informe o nome do usuário."],
    [{ email: "x1@teste.com", firstName: "A", password: "Senha123" }, "Informe o sobrenome do usuário."],
    [{ email: "x1@teste.com", firstName: "A", lastName: "B" }, "Informe a senha do novo usuário."],
    [{ email: "x1@teste.com", firstName: "A", lastName: "B", password: "fraca" }, "A senha deve ter pelo menos 8 caracteres."],
    [{ email: "x1@teste.com", firstName: "A", lastName: "B", password: "senha1234" }, "A senha deve ter uma letra maiúscula."],
    [{ email: "x1@teste.com", firstName: "A", lastName: "B", password: "Senha123", isActive: "sim" }, "O status (isActive) deve ser verdadeiro (Ativo) ou falso (Inativo)."],
    [{ email: "x1@teste.com", firstName: "A", lastName: "B", password: "Senha123", preferences: { language: "fr" } }, "O idioma deve ser pt, en ou es."],
    [{ email: "x1@teste.com", firstName: "A", lastName: "B", password: "Senha123", preferences: { currency: "JPY" } }, "A moeda deve ser BRL, USD ou EUR."],
    [{ email: "x1@teste.com", firstName: "A", lastName: "B", password: "Senha123", preferences: { timezone: "Asia/Tokyo" } }, "Fuso horário inválido: use um dos 8 fusos da lista."],
    [[1, 2], "Corpo inválido: esperado um objeto com os dados do usuário."],
  ])("bad input %j → 400 %s, nothing created", async (body, message) => {
    const before = [await usersChecksum(), await licencesChecksum(), await auditCount()];
    const r = await api("POST", "/api/admin/users", admin.token, body);
    expect(r.status).toBe(400);
    expect(r.json?.message).toBe(message);
    expect([await usersChecksum(), await licencesChecksum(), await auditCount()]).toEqual(before);
  });

  it("a malformed JSON body is a 400, not a 500", async () => {
    const r = await api("POST", "/api/admin/users", admin.token, "{nope");
    expect(r.status).toBe(400);
  });

  it("two concurrent creates with one e-mail: one 201, one 409, one row", async () => {
    const body = { email: "corrida-admin@teste.com", firstName: "C", lastName: "R", password: "Senha123" };
    const replies = await Promise.all([api("POST", "/api/admin/users", admin.token, body), api("POST", "/api/admin/users", admin.token, body)]);
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await env.db.sql`select 1 from users where email = 'corrida-admin@teste.com'`).toHaveLength(1);
    expect(await env.db.sql`select 1 from admin_audit_log where action = 'user.create' and after->>'email' = 'corrida-admin@teste.com'`).toHaveLength(1);
  });

  it("a taken e-mail (any case) → 409 'Este e-mail já está cadastrado.', nothing created", async () => {
    const before = [await usersChecksum(), await auditCount()];
    const r = await api("POST", "/api/admin/users", admin.token, { email: "ALVO-ADMIN@teste.com", firstName: "A", lastName: "B", password: "Senha123" });
    expect(r.status).toBe(409);
    expect(r.json?.message).toBe("Este e-mail já está cadastrado.");
    expect([await usersChecksum(), await auditCount()]).toEqual(before);
  });
});

describe("PUT /api/admin/users/{id}", () => {
  it("edits names and preferences (others kept); audited with before/after", async () => {
    const r = await api("PUT", `/api/admin/users/${target.userId}`, admin.token, { firstName: "Ana Maria", preferences: { language: "en" } });
    expect(r.status).toBe(200);
    expect(r.json?.message).toBe("Usuário atualizado.");
    expect(r.json!.user).toMatchObject({ firstName: "Ana Maria", lastName: "Souza", email: "alvo-admin@teste.com", preferences: { language: "en", currency: "BRL", timezone: "America/Sao_Paulo" } });
    const audit = await lastAudit("user.update", target.userId);
    expect(audit?.before).toMatchObject({ firstName: "Ana", preferences: { language: "pt" } });
    expect(audit?.after).toMatchObject({ firstName: "Ana Maria", preferences: { language: "en" } });
    // The user's session survives an edit without a new password.
    expect((await api("GET", "/api/auth/me", target.token)).status).toBe(200);
  });

  it.each([
    [{ email: "invalido" }, 400, "O e-mail do usuário é inválido."],
    [{ firstName: "" }, 400, "Informe o nome do usuário."],
    [{ password: "fraca" }, 400, "A senha deve ter pelo menos 8 caracteres."],
    [{ preferences: { timezone: "UTC" } }, 400, "Fuso horário inválido: use um dos 8 fusos da lista."],
    [{ email: "comum-admin@teste.com" }, 409, "Este e-mail já está cadastrado."],
  ])("bad input %j → %i %s, nothing changed", async (body, status, message) => {
    const before = [await usersChecksum(), await auditCount()];
    const r = await api("PUT", `/api/admin/users/${target.userId}`, admin.token, body);
    expect(r.status).toBe(status);
    expect(r.json?.message).toBe(message);
    expect([await usersChecksum(), await auditCount()]).toEqual(before);
  });

  it("the role is not editable (a regular user stays a user)", async () => {
    const r = await api("PUT", `/api/admin/users/${plain.userId}`, admin.token, { role: "admin" });
    expect(r.status).toBe(200);
    expect((r.json!.user as UserJson).role).toBe("user");
  });

  it("unknown ids → 404 'Usuário não encontrado.'", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "nao-e-um-id"]) {
      const r = await api("PUT", `/api/admin/users/${id}`, admin.token, { firstName: "X" });
      expect(r.status).toBe(404);
      expect(r.json?.message).toBe("Usuário não encontrado.");
      expect((await api("GET", `/api/admin/users/${id}`, admin.token)).status).toBe(404);
    }
  });

  it("a new password revokes the user's sessions and works at login; a blank one keeps it; audit has no hash", async () => {
    const s = await login("comum-admin@teste.com", "Senha123");
    expect((await api("PUT", `/api/admin/users/${plain.userId}`, admin.token, { password: "" })).status).toBe(200);
    expect((await api("GET", "/api/auth/me", s.token)).status).toBe(200);
    const r = await api("PUT", `/api/admin/users/${plain.userId}`, admin.token, { password: "NovaSenha1" });
    expect(r.status).toBe(200);
    expect((await api("GET", "/api/auth/me", s.token)).status).toBe(401);
    expect((await login("comum-admin@teste.com", "Senha123")).status).toBe(401);
    const fresh = await login("comum-admin@teste.com", "NovaSenha1");
    expect(fresh.status).toBe(200);
    plain.token = fresh.token;
    const audit = await lastAudit("user.update", plain.userId);
    expect(audit?.after).toMatchObject({ credentialChanged: true });
    expect(JSON.stringify(audit)).not.toMatch(/argon2|NovaSenha1|password_hash/);
  });

  it("an admin cannot deactivate their own account", async () => {
    const r = await api("PUT", `/api/admin/users/${admin.id}`, admin.token, { isActive: false });
    expect(r.status).toBe(400);
    expect(r.json?.message).toBe("Você não pode desativar a sua própria conta.");
  });
});

describe("POST /api/admin/users/{id}/extend-license", () => {
  const status = async (token: string) => (await api("GET", "/api/subscriptions/status", token)).json as { hasValidLicense: boolean; license: { endDate: string } | null };

  it("extends the valid trial by 30 days (default), as the user's subscription status shows", async () => {
    const before = await status(target.token);
    expect(before.hasValidLicense).toBe(true);
    const r = await api("POST", `/api/admin/users/${target.userId}/extend-license`, admin.token, {});
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ success: true, change: "extended", days: 30 });
    expect(String(r.json!.message)).toMatch(/^Licença estendida por 30 dias, até \d{2}\/\d{2}\/\d{4}\.$/);
    const after = await status(target.token);
    expect(after.hasValidLicense).toBe(true);
    expect(Date.parse(after.license!.endDate) - Date.parse(before.license!.endDate)).toBe(30 * DAY);
    const [change] = await env.db.sql`select change, source from license_changes where user_id = ${target.userId} order by id desc limit 1`;
    expect(change).toMatchObject({ change: "extended", source: "admin" });
    const audit = await lastAudit("user.extend_license", target.userId);
    expect(audit?.after).toMatchObject({ days: 30, change: "extended" });
    // The admin's gift is no longer a trial: the user's status says a manual licence (issue 22 item 1).
    expect((after as { license: { kind?: string } }).license.kind).toBe("manual");
  });

  it("an expired user gets a manual licence from now: valid again, ends in 30 days", async () => {
    await env.db.sql`update licenses set end_date = now() - interval '1 day', start_date = now() - interval '8 days' where user_id = ${plain.userId}`;
    expect((await status(plain.token)).hasValidLicense).toBe(false);
    const r = await api("POST", `/api/admin/users/${plain.userId}/extend-license`, admin.token, { days: 30 });
    expect(r.status).toBe(200);
    expect(r.json?.change).toBe("created");
    const after = await status(plain.token);
    expect(after.hasValidLicense).toBe(true);
    expect(Math.abs(Date.parse(after.license!.endDate) - (Date.now() + 30 * DAY))).toBeLessThan(5 * 60_000);
    const [lic] = await env.db.sql`select kind from licenses where user_id = ${plain.userId} order by end_date desc limit 1`;
    expect(lic!.kind).toBe("manual");
  });

  it.each([[{ days: 0 }], [{ days: 3651 }], [{ days: 1.5 }], [{ days: "30" }]])("bad days %j → 400, nothing changed", async (body) => {
    const before = [await licencesChecksum(), await auditCount()];
    const r = await api("POST", `/api/admin/users/${target.userId}/extend-license`, admin.token, body);
    expect(r.status).toBe(400);
    expect(r.json?.message).toBe("Os dias devem ser um número inteiro de 1 a 3650.");
    expect([await licencesChecksum(), await auditCount()]).toEqual(before);
  });

  it("refused on an admin (403), unknown user 404", async () => {
    const r = await api("POST", `/api/admin/users/${admin.id}/extend-license`, admin.token, {});
    expect(r.status).toBe(403);
    expect(r.json?.message).toBe("Não é possível estender a licença de um administrador.");
    expect((await api("POST", "/api/admin/users/00000000-0000-4000-8000-000000000000/extend-license", admin.token, {})).status).toBe(404);
  });
});

describe("GET /api/admin/users/{id}: the read-only support view", () => {
  it("status, licences, bot, the last 20 decisions with reasons, broker errors; never the token", async () => {
    await env.db.sql`insert into decisions (user_id, decision_id, instrument, action, reason, created_at)
      select ${target.userId}, 'd' || i, 'EUR_USD', 'hold', 'Motivo número ' || i, now() - ((30 - i) || ' seconds')::interval from generate_series(1, 25) i`;
    await env.db.sql`insert into notifications (user_id, type, title, message) values (${target.userId}, 'error', 'Conexão com a Oanda perdida', 'Tempo esgotado')`;
    await env.db.sql`update broker_connections set status = 'error', last_error = 'Erro na API da Oanda (503). Tente novamente.' where user_id = ${target.userId}`;
    const r = await api("GET", `/api/admin/users/${target.userId}`, admin.token);
    expect(r.status).toBe(200);
    const j = r.json as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(j.user).toMatchObject({ id: target.userId, email: "alvo-admin@teste.com", deletedAt: null });
    expect(j.decisions).toHaveLength(20);
    expect(j.decisions[0]).toMatchObject({ instrument: "EUR_USD", action: "hold", reason: "Motivo número 25" });
    expect(j.brokerErrors.connectionError).toBe("Erro na API da Oanda (503). Tente novamente.");
    expect(j.brokerErrors.notifications[0]).toMatchObject({ title: "Conexão com a Oanda perdida" });
    expect(j.licences.length).toBeGreaterThanOrEqual(1);
    expect(j.bot).toMatchObject({ isActive: false });
    const [conn] = await env.db.sql<{ token_encrypted: string }[]>`select token_encrypted from broker_connections where user_id = ${target.userId}`;
    expect(r.text).not.toContain(target.brokerToken);
    expect(r.text).not.toContain(conn!.token_encrypted);
    const pg = await page("GET", `/admin/usuarios/${target.userId}`, admin.cookie);
    expect(pg.status).toBe(200);
    expect(pg.text).toContain("Últimas decisões");
    expect(pg.text).toContain("Motivo número 25");
    expect(pg.text).not.toContain(target.brokerToken);
    await env.db.sql`update broker_connections set status = 'connected', last_error = null where user_id = ${target.userId}`;
  });
});

describe("DELETE /api/admin/users/{id}", () => {
  it("refused on an admin (403) and with a live Stripe subscription (409); nothing changes", async () => {
    const before = [await usersChecksum(), await auditCount()];
    const r = await api("DELETE", `/api/admin/users/${admin.id}`, admin.token);
    expect(r.status).toBe(403);
    expect(r.json?.message).toBe("Não é possível excluir um administrador.");
    await env.db.sql`update users set stripe_subscription_id = 'sub_vivo', subscription_status = 'active' where id = ${plain.userId}`;
    const live = await api("DELETE", `/api/admin/users/${plain.userId}`, admin.token);
    expect(live.status).toBe(409);
    expect(live.json?.message).toContain("assinatura ativa no Stripe");
    await env.db.sql`update users set stripe_subscription_id = null, subscription_status = 'inactive' where id = ${plain.userId}`;
    expect([await usersChecksum(), await auditCount()]).toEqual(before);
  });

  it("soft delete: bot off, broker connection gone, sessions revoked, trades kept, e-mail free, no login; audited", async () => {
    const start = await api("POST", "/api/trades/ai/loop/start", target.token, { intervalSec: 60 });
    expect(start.status).toBe(200);
    await env.db.sql`insert into trades (user_id, account_id, environment, broker_trade_id, instrument, side, units, open_price, close_price, realized_pl, status, result, open_time, close_time)
      values (${target.userId}, ${target.accountId}, 'practice', '880001', 'EUR_USD', 'buy', 1000, 1.1, 1.11, 10, 'closed', 'WIN', now() - interval '2 hours', now() - interval '1 hour')`;
    const r = await api("DELETE", `/api/admin/users/${target.userId}`, admin.token);
    expect(r.status).toBe(200);
    expect(r.json?.message).toMatch(/^Usuário excluído\./);
    expect(r.json!.outcome).toMatchObject({ botStopped: true, brokerDisconnected: true, tradesKept: 1 });

    const [bot] = await env.db.sql`select is_active, last_stop_reason from bots where user_id = ${target.userId}`;
    expect(bot).toMatchObject({ is_active: false, last_stop_reason: "account_deleted" });
    expect(await env.db.sql`select 1 from broker_connections where user_id = ${target.userId}`).toHaveLength(0);
    expect(await env.db.sql`select 1 from trades where user_id = ${target.userId}`).toHaveLength(1);
    expect(await env.db.sql`select 1 from decisions where user_id = ${target.userId}`).toHaveLength(25);
    const [u] = await env.db.sql`select email, deleted_email, deleted_at, is_active from users where id = ${target.userId}`;
    expect(u).toMatchObject({ email: `deleted+${target.userId}@invalid.local`, deleted_email: "alvo-admin@teste.com", is_active: false });
    expect(u!.deleted_at).not.toBeNull();
    expect(await env.db.sql`select 1 from sessions where user_id = ${target.userId} and revoked_at is null`).toHaveLength(0);

    expect((await api("GET", "/api/auth/me", target.token)).status).toBe(401);
    expect((await login("alvo-admin@teste.com", "Senha123")).status).toBe(401);
    const list = (await api("GET", "/api/admin/users", admin.token)).json!.users as UserJson[];
    expect(list.map((x) => x.id)).not.toContain(target.userId);
    // Support still sees the deleted account read-only.
    const detail = await api("GET", `/api/admin/users/${target.userId}`, admin.token);
    expect(detail.status).toBe(200);
    expect(detail.json!.user).toMatchObject({ deletedEmail: "alvo-admin@teste.com", isActive: false });
    // Writes on a deleted user are 404.
    expect((await api("DELETE", `/api/admin/users/${target.userId}`, admin.token)).status).toBe(404);
    expect((await api("PUT", `/api/admin/users/${target.userId}`, admin.token, { firstName: "X" })).status).toBe(404);
    expect((await api("POST", `/api/admin/users/${target.userId}/extend-license`, admin.token, {})).status).toBe(404);
    // The address is free again.
    const again = await fetch(`${app.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ firstName: "Ana", lastName: "Souza", email: "alvo-admin@teste.com", password: "Senha123" }),
    });
    expect(again.status).toBe(201);

    const audit = await lastAudit("user.delete", target.userId);
    expect(audit?.before).toMatchObject({ email: "alvo-admin@teste.com", broker: { environment: "practice", accountId: target.accountId } });
    expect(audit?.after).toMatchObject({ botStopped: true, brokerDisconnected: true, tradesKept: 1, isActive: false });
    expect(JSON.stringify(audit)).not.toContain(target.brokerToken);
    expect(JSON.stringify(audit)).not.toMatch(/argon2|token_encrypted/);
  });
});

describe("pages without JavaScript", () => {
  it("list with the crown badge, search in the URL, empty state", async () => {
    const list = await page("GET", "/admin/usuarios", admin.cookie);
    expect(list.status).toBe(200);
    for (const text of ["Usuários", "Adicionar Usuário", "Administrador", "comum-admin@teste.com", "Estender 30 dias"]) expect(list.text).toContain(text);
    const empty = await page("GET", "/admin/usuarios?search=ninguem-mesmo&status=canceled", admin.cookie);
    expect(empty.text).toContain("Nenhum usuário encontrado.");
  });

  it("create through the form: an error re-shows the form; success → 303 back to the list", async () => {
    const fields = { intent: "create", email: "pagina-admin@teste.com", firstName: "Eva", lastName: "Melo", password: "Senha123", language: "pt", currency: "BRL", isActive: "true", timezone: "America/Sao_Paulo" };
    const bad = await page("POST", "/admin/usuarios?novo=1", admin.cookie, { ...fields, email: "ruim" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("O e-mail do usuário é inválido.");
    expect(await env.db.sql`select 1 from users where email = 'pagina-admin@teste.com'`).toHaveLength(0);
    const ok = await page("POST", "/admin/usuarios?novo=1&search=x", admin.cookie, fields);
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe("/admin/usuarios?search=x&ok=created");
    expect(await env.db.sql`select 1 from users where email = 'pagina-admin@teste.com' and email_verified_at is not null`).toHaveLength(1);
  });

  it("delete asks first (confirm step), then deletes; extend from the row", async () => {
    const [u] = await env.db.sql<{ id: string }[]>`select id from users where email = 'pagina-admin@teste.com'`;
    const confirm = await page("GET", `/admin/usuarios?excluir=${u!.id}`, admin.cookie);
    expect(confirm.text).toContain("Tem certeza que deseja excluir este usuário?");
    const ext = await page("POST", "/admin/usuarios", admin.cookie, { intent: "extend", id: u!.id });
    expect(ext.status).toBe(303);
    expect(ext.headers.location).toBe("/admin/usuarios?ok=extended");
    const refused = await page("POST", "/admin/usuarios", admin.cookie, { intent: "delete", id: admin.id });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain("Não é possível excluir um administrador.");
    const del = await page("POST", `/admin/usuarios?excluir=${u!.id}`, admin.cookie, { intent: "delete", id: u!.id });
    expect(del.status).toBe(303);
    expect(del.headers.location).toBe("/admin/usuarios?ok=deleted");
    const [row] = await env.db.sql`select deleted_at from users where id = ${u!.id}`;
    expect(row!.deleted_at).not.toBeNull();
  });
});
