/**
 * Admin system settings (issue 10, PRODUCT.md §3 System settings, §7 Admin, §8) on the real server
 * (production build, PostgreSQL, the embedded Stripe simulator, a local SMTP server):
 * - every settings endpoint × {anonymous 401, user 403, admin};
 * - "Testar Stripe": OK against the embedded simulator, 'Falha no teste do Stripe: …' with a bad key;
 * - "Testar SMTP": not configured, OK against a local SMTP server with the right login, failing with a wrong key;
 * - the round trip with masking: a secret sent once is never returned, an empty one keeps the stored
 *   one, the stored value is encrypted; bad input (key prefixes, e-mails) changes nothing;
 * - audit rows for every save, secrets redacted; the /admin/auditoria page and its filters;
 * - the /admin/configuracoes page (no-JS form): save and test;
 * - fuzz (fast-check, fixed seed): generated bodies get 200/400 (Portuguese, nothing changed) or the tests' 502, never a 500.
 */
import net, { type AddressInfo } from "node:net";
import fc from "fast-check";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, startAppServer, type AppServer } from "../setup/app-server";
import { createTestDatabase, type TestDatabase } from "../setup/db";
import { isPortugueseMessage } from "../setup/probe";
import { registerVerifiedAndLogin } from "../setup/verify";

let db: TestDatabase;
let app: AppServer;
let smtp: SMTPServer;
let smtpPort: number;
let adminToken: string;
let adminCookie: string;
let userToken: string;

const ADMIN = { email: "admin-config@teste.com", password: "Admin1234" };
const SMTP_LOGIN = "conta@smtp-brevo.com";
const SMTP_KEY = "xsmtpsib-chave-certa-123";

/** The secrets of the round trip: none may ever come back, in any response or audit row. */
const SECRETS = {
  stripeSecret: "sk_test_roundtrip_SEGREDO_4242",
  stripeWebhookSecret: "whsec_roundtrip_SEGREDO_9999",
  vapidPrivateKey: "vapidPrivSEGREDO_abcdefghijklmnopqrstuvwxyz0123",
};
const VAPID_PUBLIC = `B${"x".repeat(86)}`;

const anon = () => apiClient(app.url);
const admin = () => apiClient(app.url, adminToken);
const user = () => apiClient(app.url, userToken);

/** Logs in through the API; returns the bearer token and the session cookie. */
async function login(email: string, password: string): Promise<{ token: string; cookie: string }> {
  const res = await fetch(`${app.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  const body = (await res.json()) as { token: string };
  if (res.status !== 200) throw new Error(`login falhou: ${JSON.stringify(body)}`);
  return { token: body.token, cookie: res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
}

/** A page form POST with the admin's cookie (no JavaScript: urlencoded body). */
async function postPage(path: string, fields: Record<string, string | string[]>): Promise<{ status: number; text: string }> {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  const res = await fetch(app.url + path, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", cookie: adminCookie, accept: "text/html" }, body });
  return { status: res.status, text: await res.text() };
}

async function getPage(path: string): Promise<{ status: number; text: string; location: string | null }> {
  const res = await fetch(app.url + path, { redirect: "manual", headers: { cookie: adminCookie, accept: "text/html" } });
  return { status: res.status, text: await res.text(), location: res.headers.get("location") };
}

async function storedRows(): Promise<Record<string, Record<string, unknown>>> {
  const rows = await db.sql<{ key: string; value: Record<string, unknown> }[]>`select key, value from system_settings where key in ('stripe', 'smtp', 'vapid', 'admins')`;
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth(auth, _session, cb) {
      if (auth.username === SMTP_LOGIN && auth.password === SMTP_KEY) cb(null, { user: auth.username });
      else cb(new Error("Invalid login: 535 Authentication failed"));
    },
    onData(stream, _s, cb) {
      stream.resume();
      stream.on("end", () => cb());
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  db = await createTestDatabase();
  app = await startAppServer({ DATABASE_URL: db.url, OANDA_MODE: "sim", WORKERS: "off", AUTH_RATE_LIMIT: "100000", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  const a = await login(ADMIN.email, ADMIN.password);
  adminToken = a.token;
  adminCookie = a.cookie;
  userToken = (await registerVerifiedAndLogin(app.url, db.url, { firstName: "Rui", lastName: "Costa", email: "rui.config@teste.com", password: "Senha123" })).token;
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await db?.drop();
  await new Promise<void>((r) => (smtp ? smtp.close(() => r()) : r()));
});

describe("admin settings API: who may call it", () => {
  const endpoints: [string, string, unknown][] = [
    ["GET", "/api/admin/settings", undefined],
    ["PUT", "/api/admin/settings", { brevoSenderName: "Forex IA" }],
    ["POST", "/api/admin/settings/test/stripe", {}],
    ["POST", "/api/admin/settings/test/brevo", {}],
    ["GET", "/api/admin/dashboard", undefined],
  ];
  it.each(endpoints)("%s %s: anonymous 401, user 403, nothing changed", async (method, path, body) => {
    const before = await storedRows();
    const a = await anon()(method, path, body);
    expect(a.status).toBe(401);
    expect((a.body as { message: string }).message).toBe("Token inválido ou expirado");
    const u = await user()(method, path, body);
    expect(u.status).toBe(403);
    expect((u.body as { message: string }).message).toBe("Acesso restrito a administradores.");
    expect(await storedRows()).toEqual(before);
    expect((await db.sql`select count(*)::int as n from admin_audit_log`)[0]!.n).toBe(0);
  });

  it("admin: GET answers the §3 shape, nothing configured yet", async () => {
    const r = await admin()<{ success: boolean; values: Record<string, unknown>; meta: Record<string, unknown> }>("GET", "/api/admin/settings");
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(Object.keys(r.body.values).sort()).toEqual(
      [
        "brevoFromEmail",
        "brevoSenderName",
        "brevoSmtpHost",
        "brevoSmtpKey",
        "brevoSmtpLogin",
        "brevoSmtpPort",
        "stripeSecret",
        "stripeWebhookSecret",
        "superAdminEmails",
        "vapidPrivateKey",
        "vapidPublicKey",
        "vapidSubject",
        "operatorCompany",
        "operatorCnpj",
        "operatorAddress",
        "operatorDpoName",
        "operatorDpoEmail",
        "supportEmail",
      ].sort(),
    );
    expect(r.body.values).toMatchObject({ stripeSecret: "", stripeWebhookSecret: "", brevoSmtpKey: "", vapidPrivateKey: "", superAdminEmails: [] });
    expect(r.body.meta).toMatchObject({ stripeConfigured: false, stripeWebhookConfigured: false, brevoConfigured: false, stripeSource: "simulator" });
    expect(r.body.meta.env).toMatchObject({ stripeSecret: false, smtp: false, vapidPrivateKey: false });
  });
});

describe("Testar Stripe", () => {
  it("OK against the embedded simulator (the keys in force)", async () => {
    const r = await admin()<{ message: string }>("POST", "/api/admin/settings/test/stripe", {});
    expect(r.status).toBe(200);
    expect(r.body.message).toBe("Stripe OK");
  });

  it("a bad key fails with the §8 message (and is never echoed whole)", async () => {
    const bad = "sk_test_chave_errada_000111";
    const r = await admin()<{ message: string }>("POST", "/api/admin/settings/test/stripe", { stripeSecret: bad });
    expect(r.status).toBe(502);
    expect(r.body.message).toMatch(/^Falha no teste do Stripe: /);
    expect(r.body.message).toContain("Invalid API Key");
    expect(JSON.stringify(r.body)).not.toContain(bad);
  });

  it("a key without the sk_/rk_ prefix is refused before any call", async () => {
    const r = await admin()<{ message: string }>("POST", "/api/admin/settings/test/stripe", { stripeSecret: "pk_test_publica_123456" });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("Chave secreta da Stripe inválida: deve começar com sk_ ou rk_.");
  });
});

describe("Testar SMTP", () => {
  it("nothing configured: a clear failure", async () => {
    const r = await admin()<{ message: string }>("POST", "/api/admin/settings/test/brevo", {});
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("Falha no teste do SMTP: nada configurado (nem salvo aqui nem em variável de ambiente)");
  });

  it("OK with the stored settings of a local SMTP server; a wrong key fails", async () => {
    const put = await admin()<{ message: string; values: Record<string, unknown> }>("PUT", "/api/admin/settings", {
      brevoSmtpHost: "127.0.0.1",
      brevoSmtpPort: smtpPort,
      brevoSmtpLogin: SMTP_LOGIN,
      brevoSmtpKey: SMTP_KEY,
    });
    expect(put.status).toBe(200);
    expect(put.body.message).toBe("Configurações salvas.");
    const ok = await admin()<{ message: string }>("POST", "/api/admin/settings/test/brevo", {});
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.message).toBe("SMTP OK");
    // The given login/key are tried against the stored host/port.
    const given = await admin()<{ message: string }>("POST", "/api/admin/settings/test/brevo", { brevoSmtpLogin: SMTP_LOGIN, brevoSmtpKey: SMTP_KEY });
    expect(given.body.message).toBe("SMTP OK");
    const wrong = await admin()<{ message: string }>("POST", "/api/admin/settings/test/brevo", { brevoSmtpLogin: SMTP_LOGIN, brevoSmtpKey: "xsmtpsib-chave-errada" });
    expect(wrong.status).toBe(502);
    expect(wrong.body.message).toMatch(/^Falha no teste do SMTP: /);
    expect(wrong.body.message).not.toContain("xsmtpsib-chave-errada");
    expect(wrong.body.message).toBe("Falha no teste do SMTP: o servidor recusou o login ou a chave");
  });

  it("is no port scanner (issue 24): a closed port, a silent one and one that is not SMTP give the same message, without address or system error", async () => {
    const closed = net.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r)); // nothing listens there now: ECONNREFUSED
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((s) => void sockets.add(s.on("error", () => {}))); // accepts, never greets
    const http = net.createServer((s) => s.on("error", () => {}).end("HTTP/1.1 400 Bad Request\r\n\r\n")); // another protocol
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    await new Promise<void>((r) => http.listen(0, "127.0.0.1", r));
    try {
      const messages: string[] = [];
      for (const port of [closedPort, (silent.address() as AddressInfo).port, (http.address() as AddressInfo).port]) {
        const r = await admin()<{ message: string }>("POST", "/api/admin/settings/test/brevo", { brevoSmtpLogin: SMTP_LOGIN, brevoSmtpKey: SMTP_KEY, brevoSmtpHost: "127.0.0.1", brevoSmtpPort: port });
        expect(r.status).toBe(502);
        expect(r.body.message).not.toMatch(/ECONN|ETIMEDOUT|127\.0\.0\.1|timeout|greeting|\d{4,5}/i);
        messages.push(r.body.message);
      }
      expect(new Set(messages)).toEqual(new Set(["Falha no teste do SMTP: não foi possível falar com o servidor SMTP (confira host, porta e TLS; o detalhe está no log do servidor)"]));
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((r) => silent.close(r));
      await new Promise((r) => http.close(r));
    }
  }, 60_000);
});

describe("settings round trip", () => {
  it("secrets are write-only: masked on the way out, encrypted at rest, kept when sent empty", async () => {
    const put = await admin()<{ message: string; values: Record<string, unknown>; meta: Record<string, unknown> }>("PUT", "/api/admin/settings", {
      ...SECRETS,
      brevoFromEmail: " No-Reply@Forex.COM ",
      brevoSenderName: "Forex IA",
      superAdminEmails: " Ana@Empresa.com, , joao@empresa.com,ana@empresa.com ",
      vapidPublicKey: VAPID_PUBLIC,
      vapidSubject: "mailto:ops@empresa.com",
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.message).toBe("Configurações salvas.");
    const text = JSON.stringify(put.body);
    for (const s of Object.values(SECRETS)) expect(text).not.toContain(s);
    expect(put.body.values).toMatchObject({
      stripeSecret: "sk_t••••4242",
      stripeWebhookSecret: "whse••••9999",
      vapidPrivateKey: "vapi••••0123",
      brevoSmtpKey: "xsmt••••-123",
      brevoFromEmail: "no-reply@forex.com",
      superAdminEmails: ["ana@empresa.com", "joao@empresa.com"],
      vapidPublicKey: VAPID_PUBLIC,
      vapidSubject: "mailto:ops@empresa.com",
    });
    expect(put.body.meta).toMatchObject({ stripeConfigured: true, stripeWebhookConfigured: true, brevoConfigured: true, vapidConfigured: true, stripeSource: "admin" });

    const got = await admin()<{ values: Record<string, unknown> }>("GET", "/api/admin/settings");
    expect(got.body.values).toEqual(put.body.values);
    for (const s of Object.values(SECRETS)) expect(JSON.stringify(got.body)).not.toContain(s);

    // At rest: AES-GCM ciphertext, never the plain text.
    const stored = await storedRows();
    const rawText = JSON.stringify(stored);
    for (const s of [...Object.values(SECRETS), SMTP_KEY]) expect(rawText).not.toContain(s);
    expect(stored.stripe!.secretKey).toMatch(/^v1:/);
    expect(stored.stripe!.webhookSecret).toMatch(/^v1:/);
    expect(stored.smtp!.key).toMatch(/^v1:/);
    expect(stored.vapid!.privateKey).toMatch(/^v1:/);
    expect(stored.admins).toEqual({ superAdminEmails: ["ana@empresa.com", "joao@empresa.com"] });

    // An empty (or absent) secret keeps the stored one; other fields change.
    const again = await admin()<{ values: Record<string, unknown> }>("PUT", "/api/admin/settings", { stripeSecret: "", stripeWebhookSecret: "  ", brevoSenderName: "Forex IA Suporte" });
    expect(again.status).toBe(200);
    const after = await storedRows();
    expect(after.stripe).toEqual(stored.stripe);
    expect(after.smtp!.key).toBe(stored.smtp!.key);
    expect(after.smtp!.senderName).toBe("Forex IA Suporte");
    expect(again.body.values.stripeSecret).toBe("sk_t••••4242");
  });

  it.each([
    [{ stripeSecret: "pk_live_publica_12345678" }, "Chave secreta da Stripe inválida: deve começar com sk_ ou rk_."],
    [{ stripeWebhookSecret: "segredo_sem_prefixo_123" }, "Segredo do webhook da Stripe inválido: deve começar com whsec_."],
    [{ superAdminEmails: "ana@empresa.com, nao-e-email" }, "E-mail de super administrador inválido: separe os e-mails por vírgulas."],
    [{ brevoFromEmail: "remetente@" }, "E-mail do remetente inválido."],
    [{ vapidSubject: "http://inseguro.com" }, "Assunto VAPID inválido: use mailto:email@dominio ou uma URL https://."],
    [{ brevoSmtpPort: 70000 }, "Porta SMTP inválida: um número entre 1 e 65535."],
  ])("bad input %j: 400 with the field's message, nothing saved", async (body, message) => {
    const before = await storedRows();
    const audits = (await db.sql`select count(*)::int as n from admin_audit_log`)[0]!.n;
    const r = await admin()<{ message: string }>("PUT", "/api/admin/settings", { ...body, brevoSenderName: "Não deveria salvar" });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
    expect(await storedRows()).toEqual(before);
    expect((await db.sql`select count(*)::int as n from admin_audit_log`)[0]!.n).toBe(audits);
  });

  it("every save is audited, with the secrets redacted", async () => {
    const rows = await db.sql<{ admin_email: string; action: string; target_type: string; before: unknown; after: Record<string, unknown>; ip: string | null }[]>`
      select admin_email, action, target_type, before, after, ip from admin_audit_log order by id`;
    expect(rows.length).toBe(3); // SMTP setup, the round trip, the empty-secret save
    for (const r of rows) {
      expect(r).toMatchObject({ admin_email: ADMIN.email, action: "settings.update", target_type: "settings" });
      expect(r.ip).toBeTruthy();
    }
    const all = JSON.stringify(rows);
    for (const s of [...Object.values(SECRETS), SMTP_KEY]) expect(all).not.toContain(s);
    expect(all).not.toContain("v1:");
    const roundTrip = rows[1]!.after;
    expect(roundTrip.stripeSecret).toBe("[redacted]");
    expect(roundTrip.vapidPrivateKey).toBe("[redacted]");
    expect(roundTrip.rotated).toEqual(["stripeSecret", "stripeWebhookSecret", "vapidPrivateKey"]);
    expect(roundTrip.brevoSenderName).toBe("Forex IA");
  });

  it("clearSecrets removes a stored secret (the simulator is in force again)", async () => {
    const r = await admin()<{ values: Record<string, unknown>; meta: Record<string, unknown> }>("PUT", "/api/admin/settings", { clearSecrets: ["stripeSecret", "stripeWebhookSecret"] });
    expect(r.status).toBe(200);
    expect(r.body.values.stripeSecret).toBe("");
    expect(r.body.meta).toMatchObject({ stripeConfigured: false, stripeSource: "simulator" });
    expect((await storedRows()).stripe).toEqual({});
    expect((await admin()<{ message: string }>("POST", "/api/admin/settings/test/stripe", {})).body.message).toBe("Stripe OK");
  });
});

describe("admin pages: /admin/configuracoes and /admin/auditoria", () => {
  it("the settings page shows masked secrets and empty inputs", async () => {
    const page = await getPage("/admin/configuracoes");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Configurações");
    expect(page.text).toContain("preencha para trocar");
    expect(page.text).toContain("vapi••••0123");
    for (const s of [...Object.values(SECRETS), SMTP_KEY]) expect(page.text).not.toContain(s);
  });

  it("the no-JS form saves and tests", async () => {
    const saved = await postPage("/admin/configuracoes", {
      intent: "save",
      brevoSmtpLogin: SMTP_LOGIN,
      brevoSmtpKey: "",
      brevoFromEmail: "no-reply@forex.com",
      brevoSenderName: "Forex IA Página",
      brevoSmtpHost: "127.0.0.1",
      brevoSmtpPort: String(smtpPort),
      superAdminEmails: "ana@empresa.com",
      vapidPublicKey: VAPID_PUBLIC,
      vapidSubject: "mailto:ops@empresa.com",
      stripeSecret: "",
      stripeWebhookSecret: "",
      vapidPrivateKey: "",
    });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain("Configurações salvas.");
    const stored = await storedRows();
    expect(stored.smtp!.senderName).toBe("Forex IA Página");
    expect(stored.smtp!.key).toMatch(/^v1:/); // the empty key input kept the stored key
    expect(stored.admins).toEqual({ superAdminEmails: ["ana@empresa.com"] });

    const bad = await postPage("/admin/configuracoes", { intent: "save", stripeSecret: "pk_errada_1234567" });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Erro ao salvar: Chave secreta da Stripe inválida");

    const smtpOk = await postPage("/admin/configuracoes", { intent: "testSmtp", brevoSmtpLogin: SMTP_LOGIN, brevoSmtpKey: "" });
    expect(smtpOk.status).toBe(200);
    expect(smtpOk.text).toContain("SMTP OK");
    const stripeFail = await postPage("/admin/configuracoes", { intent: "testStripe", stripeSecret: "sk_test_errada_123456789" });
    expect(stripeFail.status).toBe(200); // the page shows the failure; only the API answers 502
    expect(stripeFail.text).toContain("Falha no teste do Stripe");
  });

  it("the audit page lists the saves, filters, and shows no secret", async () => {
    const page = await getPage("/admin/auditoria");
    expect(page.status).toBe(200);
    expect(page.text).toContain("settings.update");
    expect(page.text).toContain(ADMIN.email);
    expect(page.text).toContain("[redacted]");
    for (const s of [...Object.values(SECRETS), SMTP_KEY]) expect(page.text).not.toContain(s);
    const none = await getPage("/admin/auditoria?action=plan.&targetType=plan");
    expect(none.text).toContain("Nenhum registro de auditoria encontrado.");
    const byAdmin = await getPage(`/admin/auditoria?adminEmail=${encodeURIComponent(ADMIN.email.toUpperCase())}&targetType=settings`);
    expect(byAdmin.text).toContain("settings.update");
    const other = await getPage("/admin/auditoria?adminEmail=outro%40teste.com");
    expect(other.text).toContain("Nenhum registro de auditoria encontrado.");
  });

  it("the audit page pages by 50 with a 'next' cursor", async () => {
    // Fill past one page: 55 more saves through the API.
    for (let i = 0; i < 55; i++) await admin()("PUT", "/api/admin/settings", { brevoSenderName: `Remetente ${i}` });
    const total = (await db.sql`select count(*)::int as n from admin_audit_log`)[0]!.n;
    expect(total).toBeGreaterThan(50);
    const first = await getPage("/admin/auditoria");
    const entries = (t: string) => (t.match(/<li class="rounded-2xl/g) ?? []).length;
    expect(entries(first.text)).toBe(50);
    const next = /href="(\/admin\/auditoria\?before=\d+)"/.exec(first.text);
    expect(next).not.toBeNull();
    const second = await getPage(next![1]!);
    expect(entries(second.text)).toBe(total - 50);
    expect(second.text).toContain("Primeira página");
  });
});

describe("operator identity (issue 22 item 10): admin settings, with the environment above them", () => {
  const IDENTITY = {
    operatorCompany: "Forex IA Tecnologia Ltda.",
    operatorCnpj: "12.345.678/0001-90",
    operatorAddress: "Av. Paulista, 1000, São Paulo - SP",
    operatorDpoName: "Maria Encarregada",
    operatorDpoEmail: "dpo@forexia.com.br",
    supportEmail: "suporte@forexia.com.br",
  };

  it("a bad CNPJ or e-mail is refused in Portuguese and nothing is stored", async () => {
    for (const [field, value, text] of [
      ["operatorCnpj", "123", "CNPJ inválido: 14 dígitos (00.000.000/0000-00)."],
      ["operatorDpoEmail", "não-é-email", "E-mail do encarregado inválido."],
      ["supportEmail", "x@", "E-mail de suporte inválido."],
    ] as const) {
      const r = await admin()<{ message: string }>("PUT", "/api/admin/settings", { ...IDENTITY, [field]: value });
      expect(r.status, field).toBe(400);
      expect(r.body.message).toBe(text);
    }
    expect((await db.sql`select count(*)::int as n from system_settings where key = 'operator'`)[0]!.n).toBe(0);
    const page = await (await fetch(`${app.url}/termos`, { headers: { accept: "text/html" } })).text();
    expect(page).toContain("[RAZÃO SOCIAL — a definir]");
  });

  it("saved by an admin (page form, no JS), the legal pages print it instead of the placeholders; the meta says complete", async () => {
    const saved = await postPage("/admin/configuracoes", { intent: "save", ...IDENTITY });
    expect(saved.status).toBe(200);
    expect(saved.text).toContain("Configurações salvas.");
    for (const path of ["/termos", "/privacidade"]) {
      const page = await (await fetch(app.url + path, { headers: { accept: "text/html" } })).text();
      expect(page, path).toContain("Forex IA Tecnologia Ltda.");
      expect(page, path).toContain("12.345.678/0001-90");
      expect(page, path).not.toContain("a definir");
    }
    const r = await admin()<{ values: Record<string, string>; meta: { operatorComplete: boolean; env: { operator: Record<string, boolean> } } }>("GET", "/api/admin/settings");
    expect(r.body.values).toMatchObject(IDENTITY);
    expect(r.body.meta.operatorComplete).toBe(true);
    expect(Object.values(r.body.meta.env.operator)).toEqual([false, false, false, false, false, false]);
    const audit = await db.sql<{ action: string }[]>`select action from admin_audit_log order by created_at desc limit 1`;
    expect(audit[0]!.action).toBe("settings.update");
  });

  it("production boots on the stored identity alone, refuses without it, and the environment wins over the stored value", async () => {
    const prod = { NODE_ENV: "production", OANDA_MODE: "oanda", WORKERS: "off", SESSION_SECRET: "s".repeat(32), ENCRYPTION_KEY: "a".repeat(64), DATABASE_URL: db.url };
    const app2 = await startAppServer({ ...prod, OPERATOR_COMPANY: "Empresa do Ambiente S.A." });
    try {
      const terms = await (await fetch(`${app2.url}/termos`, { headers: { accept: "text/html" } })).text();
      expect(terms).toContain("Empresa do Ambiente S.A.");
      expect(terms).toContain("suporte@forexia.com.br");
      expect(terms).not.toContain("Forex IA Tecnologia Ltda.");
    } finally {
      await app2.stop();
    }
    await db.sql`delete from system_settings where key = 'operator'`;
    await expect(startAppServer(prod)).rejects.toThrow(/OPERATOR_COMPANY, OPERATOR_CNPJ, OPERATOR_ADDRESS, OPERATOR_DPO_NAME, OPERATOR_DPO_EMAIL, SUPPORT_EMAIL: obrigatórios quando NODE_ENV=production/);
  }, 90_000);
});

describe("fuzz: generated bodies never break the settings API", () => {
  const field = fc.oneof(fc.string({ maxLength: 80 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 20 }), { maxLength: 4 }), fc.object({ maxDepth: 1 }));
  const body = fc.oneof(
    fc.record(
      {
        stripeSecret: field,
        stripeWebhookSecret: field,
        brevoSmtpLogin: field,
        brevoSmtpKey: field,
        brevoFromEmail: field,
        brevoSenderName: field,
        brevoSmtpPort: field,
        superAdminEmails: field,
        vapidPublicKey: field,
        vapidSubject: field,
        clearSecrets: field,
      },
      { requiredKeys: [] },
    ),
    fc.anything({ maxDepth: 2 }),
  );

  it("PUT: 200 or 400 with a Portuguese message; a refused body changes nothing", async () => {
    const failures: string[] = [];
    for (const b of fc.sample(body, { numRuns: 60, seed: 20261123 })) {
      const before = await storedRows();
      const r = await admin()<{ message?: string }>("PUT", "/api/admin/settings", b);
      const label = `${JSON.stringify(b)?.slice(0, 120)} → ${r.status} ${JSON.stringify(r.body).slice(0, 120)}`;
      if (r.status !== 200 && r.status !== 400) failures.push(label);
      else if (r.status === 400) {
        if (!isPortugueseMessage(r.body.message)) failures.push(`not Portuguese: ${label}`);
        if (JSON.stringify(await storedRows()) !== JSON.stringify(before)) failures.push(`changed: ${label}`);
      }
    }
    expect(failures, failures.join("\n")).toEqual([]);
  }, 120_000);

  it("the tests: never a 500, always a Portuguese message", async () => {
    const failures: string[] = [];
    for (const [i, b] of fc.sample(body, { numRuns: 30, seed: 7 }).entries()) {
      const path = i % 2 ? "/api/admin/settings/test/stripe" : "/api/admin/settings/test/brevo";
      const r = await admin()<{ message?: string }>("POST", path, b);
      if (r.status >= 500 && r.status !== 502) failures.push(`${path} ${r.status}`);
      if (!isPortugueseMessage(r.body.message)) failures.push(`${path} not Portuguese: ${JSON.stringify(r.body).slice(0, 160)}`);
    }
    expect(failures, failures.join("\n")).toEqual([]);
  }, 120_000);
});
