/**
 * The admin dashboard's figures (issue 10, PRODUCT.md §2 Admin panel "Dashboard", §9) on a seeded
 * database, through the real server: GET /api/admin/dashboard (JSON) and the /admin page. Users (new
 * this week = 7 days), active / inactive, valid / expired licences, broker-connected %, admins,
 * monthly revenue in USD (fixed rates), 5 recent users, language split, 8 latest logins, and the
 * operator figures (AI loops, ticks / decisions / broker errors in the last hour, queue depth, dead
 * letters). Soft-deleted users are left out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, startAppServer, type AppServer } from "../setup/app-server";
import { createTestDatabase, type TestDatabase } from "../setup/db";

let db: TestDatabase;
let app: AppServer;
let adminToken: string;
let adminCookie: string;

const ADMIN = { email: "admin-dash@teste.com", password: "Admin1234" };

interface Seed {
  email: string;
  createdDaysAgo: number;
  active?: boolean;
  language?: string;
  lastLoginHoursAgo?: number | null;
  deleted?: boolean;
  subscription?: string;
}

/** Inserts a user straight into the database; returns its id. */
async function seedUser(s: Seed): Promise<string> {
  const [row] = await db.sql<{ id: string }[]>`
    insert into users (email, first_name, last_name, password_hash, is_active, preferences, subscription_status, created_at, last_login_at, email_verified_at, deleted_at)
    values (${s.email}, ${s.email.split("@")[0]!}, 'Seed', 'x', ${s.active ?? true},
      ${db.sql.json({ language: s.language ?? "pt", currency: "BRL", timezone: "America/Sao_Paulo" })}, ${s.subscription ?? "inactive"},
      now() - ${s.createdDaysAgo} * interval '1 day',
      ${s.lastLoginHoursAgo === null || s.lastLoginHoursAgo === undefined ? null : db.sql`now() - ${s.lastLoginHoursAgo} * interval '1 hour'`},
      now(), ${s.deleted ? db.sql`now()` : null})
    returning id`;
  return row!.id;
}

async function licence(userId: string, opts: { valid: boolean; planId?: string | null }) {
  await db.sql`insert into licenses (user_id, key, kind, plan_id, start_date, end_date)
    values (${userId}, ${`K-${userId}`}, ${opts.planId ? "paid" : "trial"}, ${opts.planId ?? null}, now() - interval '40 days',
      ${opts.valid ? db.sql`now() + interval '10 days'` : db.sql`now() - interval '1 day'`})`;
}

async function broker(userId: string, accountId: string) {
  await db.sql`insert into broker_connections (user_id, environment, account_id, token_encrypted) values (${userId}, 'practice', ${accountId}, 'v1:x:y:z')`;
}

let ids: Record<string, string> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  app = await startAppServer({ DATABASE_URL: db.url, OANDA_MODE: "sim", WORKERS: "off", AUTH_RATE_LIMIT: "100000", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  const res = await fetch(`${app.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
  adminToken = ((await res.json()) as { token: string }).token;
  adminCookie = res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");

  // Plans: BRL 99,90 a month and USD 100 a year.
  const [monthly] = await db.sql<{ id: string }[]>`insert into plans (name, price_cents, currency, interval) values ('Mensal', 9990, 'BRL', 'month') returning id`;
  const [yearly] = await db.sql<{ id: string }[]>`insert into plans (name, price_cents, currency, interval) values ('Anual', 10000, 'USD', 'year') returning id`;

  ids = {
    u1: await seedUser({ email: "u1@seed.com", createdDaysAgo: 1, language: "en", lastLoginHoursAgo: 0.1, subscription: "active" }),
    u2: await seedUser({ email: "u2@seed.com", createdDaysAgo: 3, language: "es", lastLoginHoursAgo: 1 }),
    u3: await seedUser({ email: "u3@seed.com", createdDaysAgo: 10, active: false, lastLoginHoursAgo: 48 }),
    u4: await seedUser({ email: "u4@seed.com", createdDaysAgo: 30, subscription: "active" }),
    gone: await seedUser({ email: "gone@seed.com", createdDaysAgo: 0.05, language: "es", lastLoginHoursAgo: 0.01, deleted: true, subscription: "active" }),
  };
  // Six older users who logged in days ago (activity list overflow), no licence.
  for (let i = 0; i < 6; i++) ids[`x${i}`] = await seedUser({ email: `x${i}@seed.com`, createdDaysAgo: 20 + i, lastLoginHoursAgo: 72 + i * 24 });

  await licence(ids.u1!, { valid: true, planId: monthly!.id });
  await licence(ids.u2!, { valid: false, planId: monthly!.id });
  await licence(ids.u3!, { valid: true });
  await licence(ids.u4!, { valid: true, planId: yearly!.id });
  await licence(ids.gone!, { valid: true, planId: yearly!.id });
  await broker(ids.u1!, "101-001-0000001-001");
  await broker(ids.u2!, "101-001-0000002-001");
  await broker(ids.gone!, "101-001-0000003-001");

  await db.sql`insert into bots (user_id, is_active, last_tick_at, last_tick_error) values
    (${ids.u1!}, true, now() - interval '10 minutes', null),
    (${ids.u2!}, false, now() - interval '20 minutes', 'Erro na API da Oanda (503).'),
    (${ids.u3!}, false, now() - interval '3 hours', 'velho')`;
  for (const ago of ["5 minutes", "15 minutes", "50 minutes", "2 hours"])
    await db.sql`insert into decisions (user_id, decision_id, instrument, action, reason, created_at)
      values (${ids.u1!}, ${`d-${ago}`}, 'EUR_USD', 'hold', 'teste', now() - ${ago}::interval)`;

  // pg-boss 10: two waiting e-mails (nobody works them: WORKERS=off) and one dead letter.
  await db.sql`insert into pgboss.job (name, data, state, start_after) values
    ('email-send', '{}', 'created', now() + interval '1 day'),
    ('email-send', '{}', 'retry', now() + interval '1 day'),
    ('dead-letter', '{}', 'created', now() + interval '1 day')`;
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

describe("admin dashboard figures", () => {
  it("GET /api/admin/dashboard on the seeded database", async () => {
    const r = await apiClient(app.url, adminToken)<Record<string, any>>("GET", "/api/admin/dashboard"); // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const d = r.body;
    // admin + u1..u4 + x0..x5 = 11 (the deleted one is left out); new this week: admin, u1, u2.
    expect(d.users).toEqual({ total: 11, newThisWeek: 3, active: 10, inactive: 1, admins: 1, brokerConnected: 2, brokerConnectedPct: 18.2 });
    expect(d.licences).toEqual({ valid: 3, expired: 1 });
    // u1: BRL 99,90/month × 0.19 = 18.981; u4: USD 100/year ÷ 12 = 8.333 → 27.31 USD.
    expect(d.revenue).toMatchObject({ monthlyUsd: 27.31, subscribers: 2, byCurrencyCents: { BRL: 9990, USD: 833 }, unconverted: [] });
    expect(d.revenue.rates).toMatchObject({ USD: 1, BRL: 0.19 });
    expect(d.recentUsers.map((u: { email: string }) => u.email)).toEqual([ADMIN.email, "u1@seed.com", "u2@seed.com", "u3@seed.com", "x0@seed.com"]);
    expect(d.languages).toEqual([
      { language: "pt", count: 9, pct: 81.8 },
      { language: "en", count: 1, pct: 9.1 },
      { language: "es", count: 1, pct: 9.1 },
    ]);
    expect(d.activity.map((u: { email: string }) => u.email)).toEqual([ADMIN.email, "u1@seed.com", "u2@seed.com", "u3@seed.com", "x0@seed.com", "x1@seed.com", "x2@seed.com", "x3@seed.com"]);
    expect(d.operations).toMatchObject({ activeLoops: 1, botsTickedLastHour: 2, decisionsLastHour: 3, brokerErrorsLastHour: 1, deadLetters: 1 });
    expect(d.operations.queueDepth).toBeGreaterThanOrEqual(2);
    expect(d.operations.queues.find((q: { name: string }) => q.name === "email-send")).toMatchObject({ waiting: 2, active: 0 });
    expect(JSON.stringify(d)).not.toContain("gone@seed.com");
  });

  it("the /admin page shows the figures (pt, America/Sao_Paulo)", async () => {
    const res = await fetch(`${app.url}/admin`, { headers: { cookie: adminCookie, accept: "text/html" }, redirect: "manual" });
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const text of ["Dashboard", "Usuários recentes", "Atividade do sistema", "Português", "English", "Español", "+3 nesta semana", "1 inativo", "1 expirada", "18,2% do total", "Operação", "Dead letters", "u1@seed.com", "horário de Brasília"])
      expect(html, text).toContain(text);
    expect(html).toMatch(/US\$\s27,31/); // Intl puts a no-break space after the symbol
    expect(html).not.toContain("gone@seed.com");
  });
});
