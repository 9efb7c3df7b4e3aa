/**
 * Admin plans (issue 10; PRODUCT.md §2 "Plans", §3 Plan, §5 admin plan form, §7 Admin, §8), on the
 * real app (production build, PostgreSQL, pg-boss) whose `stripe` SDK talks to a standalone Stripe
 * simulator over HTTP:
 * - every endpoint × {anonymous 401, user 403, admin};
 * - bad input: a clear message, nothing changed (no plan, no audit row, nothing at Stripe);
 * - create / edit / delete reflected in GET /api/plans/active and at Stripe (product and price read
 *   through the SDK): a new price when the amount or interval changes, the old one deactivated;
 * - a plan with a subscriber (checkout through the simulator) is archived, not deleted;
 * - payments not configured (production without a key): saved locally, and the answer says so;
 * - the /admin/planos page: cards, the form (price in units → cents), the no-JS delete confirm step;
 * - audit rows for every write.
 */
import fc from "fast-check";
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripeClientFor } from "../../app/services/billing/stripe.server";
import { CARDS, startStripeSimulator } from "../../server/stripe-sim";
import { apiClient, type AppServer } from "../setup/app-server";
import { isPortugueseMessage, rawRequest } from "../setup/probe";
import { createTradingEnv, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

const SECRET_KEY = "sk_test_admin_plans_it";
const WEBHOOK_SECRET = "whsec_admin_plans_it";
const ADMIN = { email: "admin-planos@teste.com", password: "Admin1234" };

let env: TradingEnv;
let app: AppServer;
let sim: Awaited<ReturnType<typeof startStripeSimulator>>;
let sdk: Stripe;
let admin: ReturnType<typeof apiClient>;
let adminId: string;
let adminCookie: string;
let user: ReturnType<typeof apiClient>;
let userEmail: string;

interface AdminPlan {
  id: string;
  name: string;
  description: string;
  price: number;
  currency: string;
  durationDays: number;
  interval: string;
  intervalCount: number;
  features: string[];
  isHighlighted: boolean;
  isActive: boolean;
  stripeProductId: string | null;
  stripePriceId: string | null;
  createdBy: string | null;
  subscriberCount: number;
  formattedPrice: string;
}

const VALID = { name: "Pro", description: "Plano profissional", price: 14990, features: ["IA", "  ", "", "Suporte"], isHighlighted: true };

async function login(email: string, password: string): Promise<{ token: string; cookie: string }> {
  const res = await fetch(`${app.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  const body = (await res.json()) as { token: string };
  expect(res.status).toBe(200);
  return { token: body.token, cookie: res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
}

const adminPlans = async () => (await admin<{ plans: AdminPlan[] }>("GET", "/api/admin/plans")).body.plans;
const activePlans = async () => (await apiClient(app.url)<{ plans: { id: string; name: string; price: number; interval: string; formattedPrice: string }[] }>("GET", "/api/plans/active")).body.plans;
const auditRows = (targetId?: string) =>
  env.db.sql<{ action: string; admin_email: string; admin_id: string; target_id: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null }[]>`
    select action, admin_email, admin_id, target_id, before, after from admin_audit_log where target_type = 'plan' ${targetId ? env.db.sql`and target_id = ${targetId}` : env.db.sql``} order by id`;
const countPlans = async () => (await env.db.sql<{ n: number }[]>`select count(*)::int as n from plans`)[0]!.n;

/** A page request with the admin's session cookie (form body for POST). */
const page = (method: "GET" | "POST", p: string, form?: Record<string, string | string[]>) => {
  const body = form ? new URLSearchParams(Object.entries(form).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))).toString() : undefined;
  return rawRequest(app.url, method, p, { accept: "text/html", cookie: adminCookie, ...(body !== undefined ? { "content-type": "application/x-www-form-urlencoded" } : {}) }, body);
};

beforeAll(async () => {
  env = await createTradingEnv();
  sim = await startStripeSimulator({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  app = await env.startApp({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: sim.url, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  sim.sim.setWebhookUrl(`${app.url.replace("localhost", "127.0.0.1")}/api/webhooks/stripe`);
  sdk = stripeClientFor({ secretKey: SECRET_KEY, apiBase: sim.url });
  const s = await login(ADMIN.email, ADMIN.password);
  admin = apiClient(app.url, s.token);
  adminCookie = s.cookie;
  adminId = (await env.db.sql<{ id: string }[]>`select id from users where email = ${ADMIN.email}`)[0]!.id;
  userEmail = `assinante-${Date.now()}@teste.com`;
  const reg = await registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Paula", lastName: "Assinante", email: userEmail, password: "Senha123" });
  user = apiClient(app.url, reg.token);
}, 120_000);

afterAll(async () => {
  await sim?.close();
  await env?.close();
});


/** Production needs the operator's identity (issue 22 item 10). */
const OPERATOR_ENV = { OPERATOR_COMPANY: "Forex IA Tecnologia Ltda.", OPERATOR_CNPJ: "12.345.678/0001-90", OPERATOR_ADDRESS: "Av. Paulista, 1000, São Paulo - SP", OPERATOR_DPO_NAME: "Maria Encarregada", OPERATOR_DPO_EMAIL: "dpo@forexia.com.br", SUPPORT_EMAIL: "suporte@forexia.com.br" };
describe("who may call the plans API", () => {
  const ID = "00000000-0000-4000-8000-000000000001";
  const calls: [string, string, unknown?][] = [
    ["GET", "/api/admin/plans"],
    ["POST", "/api/admin/plans", VALID],
    ["GET", `/api/admin/plans/${ID}`],
    ["PUT", `/api/admin/plans/${ID}`, VALID],
    ["DELETE", `/api/admin/plans/${ID}`],
  ];
  it.each(calls)("%s %s: anonymous 401, user 403, nothing written", async (method, p, body) => {
    const before = await countPlans();
    const anon = await apiClient(app.url)(method, p, body);
    expect(anon.status).toBe(401);
    expect(anon.body.message).toBe("Token inválido ou expirado");
    const u = await user(method, p, body);
    expect(u.status).toBe(403);
    expect(u.body.message).toBe("Acesso restrito a administradores.");
    expect(await countPlans()).toBe(before);
  });

  it("the admin: GET lists, unknown ids are 404", async () => {
    expect((await admin("GET", "/api/admin/plans")).status).toBe(200);
    expect((await admin("GET", `/api/admin/plans/${ID}`)).status).toBe(404);
    expect((await admin("PUT", `/api/admin/plans/${ID}`, VALID)).body.message).toBe("Plano não encontrado.");
    expect((await admin("DELETE", `/api/admin/plans/nao-e-uuid`)).status).toBe(404);
    expect((await admin("PATCH", "/api/admin/plans")).status).toBe(405);
  });
});

describe("bad input on the plan form: a clear message, nothing changed", () => {
  it.each([
    [{}, "Informe o nome do plano."],
    [{ ...VALID, name: "   " }, "Informe o nome do plano."],
    [{ ...VALID, name: "x".repeat(101) }, "O nome do plano deve ter no máximo 100 caracteres."],
    [{ ...VALID, description: "" }, "Informe a descrição do plano."],
    [{ ...VALID, price: 97.5 }, "O preço deve ser um número inteiro de centavos, maior ou igual a zero."],
    [{ ...VALID, price: -1 }, "O preço deve ser um número inteiro de centavos, maior ou igual a zero."],
    [{ ...VALID, price: "9700" }, "O preço deve ser um número inteiro de centavos, maior ou igual a zero."],
    [{ ...VALID, price: 100_000_000 }, "O preço deve ser no máximo 99.999.999 centavos."],
    [{ ...VALID, currency: "REAL" }, "A moeda deve ser um código ISO de 3 letras (ex.: BRL)."],
    [{ ...VALID, durationDays: 0 }, "A duração deve ser um número inteiro de dias, de 1 a 3650."],
    [{ ...VALID, durationDays: 1.5 }, "A duração deve ser um número inteiro de dias, de 1 a 3650."],
    [{ ...VALID, interval: "week" }, "O intervalo deve ser month (mês) ou year (ano)."],
    [{ ...VALID, intervalCount: 0 }, "A quantidade de intervalos deve ser um número inteiro de 1 a 36."],
    [{ ...VALID, interval: "year", intervalCount: 4 }, "O intervalo de cobrança pode ter no máximo 3 anos (36 meses)."],
    [{ ...VALID, features: "IA" }, "Os recursos devem ser uma lista de textos (até 20, com no máximo 200 caracteres cada)."],
    [{ ...VALID, features: ["x".repeat(201)] }, "Os recursos devem ser uma lista de textos (até 20, com no máximo 200 caracteres cada)."],
    [{ ...VALID, isHighlighted: "sim" }, "O destaque (isHighlighted) deve ser verdadeiro ou falso."],
  ])("%j → 400 %s", async (body, message) => {
    const [plans, audit, products] = [await countPlans(), (await auditRows()).length, sim.sim.store.all("product").length];
    const r = await admin("POST", "/api/admin/plans", body);
    expect(r.status).toBe(400);
    expect(r.body.success).toBe(false);
    expect(r.body.message).toBe(message);
    expect([await countPlans(), (await auditRows()).length, sim.sim.store.all("product").length]).toEqual([plans, audit, products]);
  });

  it("generated bodies (fast-check, fixed seed): never a 5xx; a refusal has a Portuguese message and writes nothing", async () => {
    const field = fc.oneof(fc.anything(), fc.string({ unit: "binary" }), fc.integer(), fc.double(), fc.constant(null), fc.array(fc.anything(), { maxLength: 25 }));
    const body = fc.record(
      { name: fc.oneof(field, fc.string({ minLength: 1, maxLength: 120 })), description: fc.oneof(field, fc.string({ minLength: 1 })), price: fc.oneof(field, fc.nat()), currency: field, durationDays: field, interval: fc.oneof(field, fc.constantFrom("month", "year")), intervalCount: field, features: field, isHighlighted: field, isActive: field },
      { requiredKeys: [] },
    );
    const failures: string[] = [];
    for (const b of fc.sample(body, { numRuns: 120, seed: 4242 })) {
      const [plans, audit] = [await countPlans(), (await auditRows()).length];
      const r = await admin("POST", "/api/admin/plans", b);
      if (r.status >= 500) failures.push(`${r.status} ${JSON.stringify(b).slice(0, 200)}`);
      else if (r.status >= 400) {
        if (!isPortugueseMessage(r.body.message)) failures.push(`not Portuguese: ${JSON.stringify(r.body.message)} for ${JSON.stringify(b).slice(0, 200)}`);
        if ((await countPlans()) !== plans || (await auditRows()).length !== audit) failures.push(`wrote on refusal: ${JSON.stringify(b).slice(0, 200)}`);
      } else if (r.status === 201) await admin("DELETE", `/api/admin/plans/${(r.body.plan as { id: string }).id}`);
      else failures.push(`unexpected ${r.status}`);
    }
    expect(failures, failures.join("\n")).toEqual([]);
  }, 120_000);

  it("malformed JSON and form bodies are refused", async () => {
    const bad = await rawRequest(app.url, "POST", "/api/admin/plans", { "content-type": "application/json", authorization: `Bearer ${(await login(ADMIN.email, ADMIN.password)).token}` }, "{nome");
    expect(bad.status).toBe(400);
    const form = await rawRequest(app.url, "POST", "/api/admin/plans", { "content-type": "application/x-www-form-urlencoded", cookie: adminCookie }, "name=x");
    expect(form.status).toBe(415);
  });

  it("the English-speaking admin reads the message in English", async () => {
    await env.db.sql`update users set preferences = jsonb_set(preferences, '{language}', '"en"') where id = ${adminId}`;
    try {
      const r = await admin("POST", "/api/admin/plans", { ...VALID, durationDays: 0 });
      expect(r.body.message).toBe("The duration must be a whole number of days, from 1 to 3650.");
    } finally {
      await env.db.sql`update users set preferences = jsonb_set(preferences, '{language}', '"pt"') where id = ${adminId}`;
    }
  });
});

describe("plan CRUD, /api/plans/active and Stripe", () => {
  let plan: AdminPlan;

  it("creates: defaults, empty features dropped, createdBy, product and price at Stripe, audited", async () => {
    const r = await admin<{ plan: AdminPlan; stripe: { status: string }; message: string }>("POST", "/api/admin/plans", VALID);
    expect(r.status).toBe(201);
    expect(r.body.stripe.status).toBe("synced");
    expect(r.body.message).toBe("Plano criado.");
    plan = r.body.plan;
    expect(plan).toMatchObject({ name: "Pro", price: 14990, currency: "BRL", durationDays: 30, interval: "month", intervalCount: 1, features: ["IA", "Suporte"], isHighlighted: true, isActive: true, createdBy: adminId, formattedPrice: "R$ 149,90" });
    expect(plan.stripeProductId).toMatch(/^prod_/);
    expect(plan.stripePriceId).toMatch(/^price_/);
    const product = await sdk.products.retrieve(plan.stripeProductId!);
    expect(product).toMatchObject({ name: "Pro", description: "Plano profissional", active: true });
    const price = await sdk.prices.retrieve(plan.stripePriceId!);
    expect(price).toMatchObject({ unit_amount: 14990, currency: "brl", active: true, product: plan.stripeProductId });
    expect(price.recurring).toMatchObject({ interval: "month", interval_count: 1 });
    expect((await activePlans()).find((p) => p.id === plan.id)).toMatchObject({ name: "Pro", price: 14990 });
    expect((await adminPlans()).find((p) => p.id === plan.id)?.subscriberCount).toBe(0);
    const [audit] = await auditRows(plan.id);
    expect(audit).toMatchObject({ action: "plan.create", admin_email: ADMIN.email, admin_id: adminId });
    expect(audit!.after).toMatchObject({ name: "Pro", price: 14990 });
  });

  it("edits name and description: the product follows, the price stays", async () => {
    const r = await admin<{ plan: AdminPlan }>("PUT", `/api/admin/plans/${plan.id}`, { ...VALID, name: "Pro Plus", description: "Mais" });
    expect(r.status).toBe(200);
    expect(r.body.plan.stripePriceId).toBe(plan.stripePriceId);
    expect(await sdk.products.retrieve(plan.stripeProductId!)).toMatchObject({ name: "Pro Plus", description: "Mais" });
    expect((await activePlans()).find((p) => p.id === plan.id)?.name).toBe("Pro Plus");
    const rows = await auditRows(plan.id);
    expect(rows.at(-1)).toMatchObject({ action: "plan.update" });
    expect(rows.at(-1)!.before).toMatchObject({ name: "Pro" });
    expect(rows.at(-1)!.after).toMatchObject({ name: "Pro Plus" });
    plan = r.body.plan;
  });

  it("a new amount or interval makes a new price; the old one is deactivated; back to an old amount reactivates it", async () => {
    const first = plan.stripePriceId!;
    const r1 = await admin<{ plan: AdminPlan }>("PUT", `/api/admin/plans/${plan.id}`, { ...VALID, name: "Pro Plus", description: "Mais", price: 19900 });
    const second = r1.body.plan.stripePriceId!;
    expect(second).not.toBe(first);
    expect((await sdk.prices.retrieve(first)).active).toBe(false);
    expect(await sdk.prices.retrieve(second)).toMatchObject({ unit_amount: 19900, active: true, product: plan.stripeProductId });
    expect((await activePlans()).find((p) => p.id === plan.id)).toMatchObject({ price: 19900, formattedPrice: "R$ 199,00" });

    const r2 = await admin<{ plan: AdminPlan }>("PUT", `/api/admin/plans/${plan.id}`, { ...VALID, name: "Pro Plus", description: "Mais", price: 19900, interval: "year" });
    const third = r2.body.plan.stripePriceId!;
    expect(third).not.toBe(second);
    expect((await sdk.prices.retrieve(third)).recurring).toMatchObject({ interval: "year", interval_count: 1 });
    expect((await sdk.prices.retrieve(second)).active).toBe(false);
    expect((await activePlans()).find((p) => p.id === plan.id)?.interval).toBe("year");

    const r3 = await admin<{ plan: AdminPlan }>("PUT", `/api/admin/plans/${plan.id}`, { ...VALID, name: "Pro Plus", description: "Mais", price: 19900 });
    const back = r3.body.plan.stripePriceId!;
    expect(await sdk.prices.retrieve(back)).toMatchObject({ unit_amount: 19900, active: true });
    expect(back).not.toBe(third);
    expect((await sdk.prices.retrieve(third)).active).toBe(false);
    plan = r3.body.plan;
  });

  it("deletes a plan without subscribers: gone from both lists, product inactive at Stripe, audited", async () => {
    const r = await admin<{ outcome: string; message: string }>("DELETE", `/api/admin/plans/${plan.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, outcome: "deleted", message: "Plano excluído." });
    expect((await adminPlans()).some((p) => p.id === plan.id)).toBe(false);
    expect((await activePlans()).some((p) => p.id === plan.id)).toBe(false);
    expect((await sdk.products.retrieve(plan.stripeProductId!)).active).toBe(false);
    expect((await sdk.prices.retrieve(plan.stripePriceId!)).active).toBe(false);
    const rows = await auditRows(plan.id);
    expect(rows.at(-1)).toMatchObject({ action: "plan.delete", after: null });
    expect(rows.at(-1)!.before).toMatchObject({ name: "Pro Plus" });
    expect((await admin("DELETE", `/api/admin/plans/${plan.id}`)).status).toBe(404);
  });
});

describe("a plan with a subscriber is archived, not deleted", () => {
  it("checkout on the plan, then DELETE → archived (kept, inactive, product off at Stripe); the subscription goes on", async () => {
    const created = await admin<{ plan: AdminPlan }>("POST", "/api/admin/plans", { name: "Mensal Arquivo", description: "Mensal", price: 9700, features: ["IA"] });
    const plan = created.body.plan;
    const co = await user<{ checkoutUrl: string }>("POST", "/api/subscriptions/create-checkout-session", { planId: plan.id });
    expect(co.status).toBe(200);
    const pay = await fetch(`${co.body.checkoutUrl}/pay`, { method: "POST", redirect: "manual", body: new URLSearchParams({ card: CARDS.ok, email: userEmail }) });
    expect(pay.status).toBe(303);
    await sim.sim.webhooksIdle();
    const until = Date.now() + 20_000;
    for (;;) {
      const [lic] = await env.db.sql`select 1 from licenses where plan_id = ${plan.id} and kind = 'paid'`;
      if (lic) break;
      if (Date.now() > until) throw new Error("licença paga não chegou");
      await new Promise((r) => setTimeout(r, 150));
    }
    expect((await adminPlans()).find((p) => p.id === plan.id)?.subscriberCount).toBe(1);

    const del = await admin<{ outcome: string; archived: boolean; message: string }>("DELETE", `/api/admin/plans/${plan.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ success: true, outcome: "archived", archived: true });
    expect(del.body.message).toContain("foi arquivado");
    const kept = (await adminPlans()).find((p) => p.id === plan.id);
    expect(kept).toMatchObject({ isActive: false, subscriberCount: 1 });
    expect((await activePlans()).some((p) => p.id === plan.id)).toBe(false);
    expect((await sdk.products.retrieve(plan.stripeProductId!)).active).toBe(false);
    const status = (await user<{ subscriptionStatus: string; hasValidLicense: boolean }>("GET", "/api/subscriptions/status")).body;
    expect(status).toMatchObject({ subscriptionStatus: "active", hasValidLicense: true });
    expect((await auditRows(plan.id)).at(-1)).toMatchObject({ action: "plan.archive" });
    // Checkout on an archived plan is refused.
    const again = await user("POST", "/api/subscriptions/create-checkout-session", { planId: plan.id });
    expect(again.status).toBeGreaterThanOrEqual(400);

    // Restored with isActive: offered again, product active at Stripe.
    const restored = await admin<{ plan: AdminPlan }>("PUT", `/api/admin/plans/${plan.id}`, { name: "Mensal Arquivo", description: "Mensal", price: 9700, features: ["IA"], isActive: true });
    expect(restored.body.plan.isActive).toBe(true);
    expect((await activePlans()).some((p) => p.id === plan.id)).toBe(true);
    expect((await sdk.products.retrieve(plan.stripeProductId!)).active).toBe(true);
  }, 60_000);
});

describe("payments not configured (production, no Stripe key)", () => {
  it("a plan is saved locally and the answer says so; subscriptions answer 503 with a clear message", async () => {
    const app2 = await env.startApp({ NODE_ENV: "production", WORKERS: "off", SESSION_SECRET: "s".repeat(32), ENCRYPTION_KEY: "a".repeat(64), ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, ...OPERATOR_ENV });
    try {
      const res = await fetch(`${app2.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
      const call = apiClient(app2.url, ((await res.json()) as { token: string }).token);
      const r = await call<{ plan: AdminPlan; stripe: { status: string; message: string }; message: string }>("POST", "/api/admin/plans", { name: "Local", description: "Sem Stripe", price: 5000 });
      expect(r.status).toBe(201);
      expect(r.body.stripe.status).toBe("not_configured");
      expect(r.body.message).toContain("Pagamentos não configurados: o plano foi salvo apenas localmente");
      expect(r.body.plan).toMatchObject({ name: "Local", price: 5000, stripePriceId: null, stripeProductId: null });
      expect((await activePlans()).some((p) => p.id === r.body.plan.id)).toBe(true);
      for (const p of ["/api/admin/subscriptions", "/api/admin/subscriptions/metrics"]) {
        const s = await call("GET", p);
        expect(s.status).toBe(503);
        expect(s.body.message).toBe("Pagamentos ainda não configurados. Tente novamente mais tarde ou fale com o suporte.");
      }
      expect((await call("POST", "/api/admin/subscriptions/sub_x/cancel")).status).toBe(503);
      const del = await call<{ outcome: string }>("DELETE", `/api/admin/plans/${r.body.plan.id}`);
      expect(del.body.outcome).toBe("deleted");
    } finally {
      await app2.stop();
    }
  }, 90_000);
});

describe("the /admin/planos page (no JavaScript)", () => {
  it("lists cards, creates through the form (units → cents), refuses a bad price, deletes through the confirm step", async () => {
    const list = await page("GET", "/admin/planos");
    expect(list.status).toBe(200);
    expect(list.text).toContain("Mensal Arquivo");
    expect(list.text).toContain("Novo Plano");

    const form = await page("GET", "/admin/planos?novo=1");
    expect(form.text).toContain('name="features"');

    const before = await countPlans();
    const bad = await page("POST", "/admin/planos", { intent: "save", name: "Página", description: "Pela página", price: "12.345", durationDays: "30", interval: "month", intervalCount: "1", features: ["A"] });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Informe o preço com até duas casas decimais");
    const badDays = await page("POST", "/admin/planos", { intent: "save", name: "Página", description: "Pela página", price: "12.34", durationDays: "0", interval: "month", intervalCount: "1" });
    expect(badDays.status).toBe(400);
    expect(badDays.text).toContain("A duração deve ser um número inteiro de dias, de 1 a 3650.");
    expect(await countPlans()).toBe(before);

    const ok = await page("POST", "/admin/planos", { intent: "save", name: "Página", description: "Pela página", price: "123,45", currency: "BRL", durationDays: "31", interval: "month", intervalCount: "1", features: ["Um", "", "Dois"], isHighlighted: "on", isActive: "on" });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe("/admin/planos?aviso=created");
    const created = (await adminPlans()).find((p) => p.name === "Página")!;
    expect(created).toMatchObject({ price: 12345, durationDays: 31, features: ["Um", "Dois"], isHighlighted: true, createdBy: adminId });
    expect((await page("GET", "/admin/planos?aviso=created")).text).toContain("Plano criado.");

    const confirm = await page("GET", `/admin/planos?excluir=${created.id}`);
    expect(confirm.text).toContain("Tem certeza que deseja excluir este plano?");
    const del = await page("POST", "/admin/planos", { intent: "delete", id: created.id });
    expect(del.status).toBe(303);
    expect(del.headers.location).toBe("/admin/planos?aviso=deleted");
    expect((await adminPlans()).some((p) => p.id === created.id)).toBe(false);
  });

  it("empty state", async () => {
    // Plans referenced by a paid licence stay; the others are removed straight in the database for this check.
    await env.db.sql`delete from plans where id not in (select plan_id from licenses where plan_id is not null)`;
    await env.db.sql`update licenses set plan_id = null`;
    await env.db.sql`delete from plans`;
    const r = await page("GET", "/admin/planos");
    expect(r.text).toContain("Nenhum plano cadastrado.");
  });
});
