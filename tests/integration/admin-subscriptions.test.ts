/**
 * Admin subscriptions (issue 10; PRODUCT.md §2 "Subscriptions", §3 Provider subscription and
 * Subscription metrics, §7 Admin, §9 page size 50), on the real app whose `stripe` SDK talks to a
 * standalone Stripe simulator over HTTP. Stripe is the source: 55 monthly subscriptions are created
 * through the SDK (customers with a card on file), plus a yearly one with quantity 2, a USD one, and
 * one of our users subscribing through Checkout.
 * - every endpoint × {anonymous 401, user 403, admin};
 * - the list: §3 shape, our user's name and e-mail, the local plan name, the dashboard link, 50 a
 *   page with a cursor, no item twice; bad status / limit / cursor → 400;
 * - metrics: active count and monthly value per currency (yearly / 12 × quantity);
 * - cancel at period end: Stripe says so, and our user's status/summary shows it at once (before the
 *   webhook), and after it; cancel now; twice → 409; unknown → 404; audit rows;
 * - the /admin/assinaturas page: figures, rows, next page link, the no-JS confirm step and cancel;
 * - Stripe unreachable: 502 'Erro ao carregar assinaturas do Stripe' (API and page).
 */
import type Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripeClientFor } from "../../app/services/billing/stripe.server";
import { CARDS, startStripeSimulator } from "../../server/stripe-sim";
import { apiClient, type AppServer } from "../setup/app-server";
import { rawRequest } from "../setup/probe";
import { createTradingEnv, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

const SECRET_KEY = "sk_test_admin_subs_it";
const WEBHOOK_SECRET = "whsec_admin_subs_it";
const ADMIN = { email: "admin-assinaturas@teste.com", password: "Admin1234" };
const MONTHLY = 55;

let env: TradingEnv;
let app: AppServer;
let sim: Awaited<ReturnType<typeof startStripeSimulator>>;
let sdk: Stripe;
let admin: ReturnType<typeof apiClient>;
let adminCookie: string;
let user: ReturnType<typeof apiClient>;
let userEmail: string;
let userSubscription: string;
let planPrice: string;
const sdkSubs: string[] = [];

interface Item {
  id: string;
  customerName: string | null;
  customerEmail: string | null;
  customerId: string | null;
  localPlanName: string | null;
  nickname: string | null;
  priceId: string | null;
  interval: string | null;
  intervalCount: number;
  unitAmount: number | null;
  quantity: number;
  currency: string;
  status: string;
  currentPeriodEnd: number;
  cancelAtPeriodEnd: boolean;
  livemode: boolean;
  dashboardUrl: string;
}
interface Page {
  data: Item[];
  has_more: boolean;
  next_cursor: string | null;
}

async function login(email: string, password: string): Promise<{ token: string; cookie: string }> {
  const res = await fetch(`${app.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  const body = (await res.json()) as { token: string };
  expect(res.status).toBe(200);
  return { token: body.token, cookie: res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
}

/** Every delivered event processed by the app. */
async function settled() {
  await sim.sim.webhooksIdle();
  const until = Date.now() + 60_000;
  while ((await env.db.sql`select 1 from stripe_events where processed_at is null`).length > 0) {
    if (Date.now() > until) throw new Error(`eventos não processados: ${JSON.stringify(await env.db.sql`select type, attempts, last_error from stripe_events where processed_at is null limit 3`)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** A Stripe customer with a card on file and an active subscription on `price`. */
async function sdkSubscription(n: number, price: string, quantity = 1): Promise<string> {
  const c = await sdk.customers.create({ email: `cliente${n}@externo.com`, name: `Cliente ${n}` });
  sim.sim.setCard(c.id, CARDS.ok);
  const s = await sdk.subscriptions.create({ customer: c.id, items: [{ price, quantity }] });
  expect(s.status).toBe("active");
  return s.id;
}

const status = async () =>
  (await user<{ subscriptionStatus: string; hasValidLicense: boolean; subscriptionDetails: { cancel_at_period_end: boolean; current_period_end: number } | null }>("GET", "/api/subscriptions/status")).body;
const audit = (id: string) => env.db.sql<{ action: string; admin_email: string; before: Record<string, unknown>; after: Record<string, unknown> }[]>`
  select action, admin_email, before, after from admin_audit_log where target_type = 'subscription' and target_id = ${id} order by id`;
const page = (method: "GET" | "POST", p: string, form?: Record<string, string>) =>
  rawRequest(app.url, method, p, { accept: "text/html", cookie: adminCookie, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) }, form ? new URLSearchParams(form).toString() : undefined);

beforeAll(async () => {
  env = await createTradingEnv();
  sim = await startStripeSimulator({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET });
  app = await env.startApp({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: sim.url, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  sim.sim.setWebhookUrl(`${app.url.replace("localhost", "127.0.0.1")}/api/webhooks/stripe`);
  sdk = stripeClientFor({ secretKey: SECRET_KEY, apiBase: sim.url });
  const s = await login(ADMIN.email, ADMIN.password);
  admin = apiClient(app.url, s.token);
  adminCookie = s.cookie;

  // The plan, created by the admin (so it has a Stripe price).
  const created = await admin<{ plan: { id: string; stripePriceId: string; stripeProductId: string } }>("POST", "/api/admin/plans", { name: "Mensal", description: "Mensal", price: 9700, features: ["IA"] });
  expect(created.status).toBe(201);
  planPrice = created.body.plan.stripePriceId;
  const planId = created.body.plan.id;

  // Our user subscribes through Checkout (first, so it is the oldest subscription).
  userEmail = `paula-${Date.now()}@teste.com`;
  const reg = await registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Paula", lastName: "Teste", email: userEmail, password: "Senha123" });
  user = apiClient(app.url, reg.token);
  const co = await user<{ checkoutUrl: string }>("POST", "/api/subscriptions/create-checkout-session", { planId });
  const pay = await fetch(`${co.body.checkoutUrl}/pay`, { method: "POST", redirect: "manual", body: new URLSearchParams({ card: CARDS.ok, email: userEmail }) });
  expect(pay.status).toBe(303);
  await settled();
  userSubscription = (await env.db.sql<{ stripe_subscription_id: string }[]>`select stripe_subscription_id from users where email = ${userEmail}`)[0]!.stripe_subscription_id;
  expect(userSubscription).toMatch(/^sub_/);

  // Stripe-side subscriptions of customers we do not know: monthly, a yearly ×2, a USD one (their
  // events are recorded by the simulator, not delivered: none of them is a user of ours).
  sim.sim.setWebhookUrl(undefined);
  for (let i = 0; i < MONTHLY; i++) sdkSubs.push(await sdkSubscription(i, planPrice));
  const yearly = await sdk.prices.create({ product: created.body.plan.stripeProductId, unit_amount: 120_000, currency: "brl", recurring: { interval: "year" } });
  sdkSubs.push(await sdkSubscription(900, yearly.id, 2));
  const usdProduct = await sdk.products.create({ name: "Global" });
  const usd = await sdk.prices.create({ product: usdProduct.id, unit_amount: 1999, currency: "usd", recurring: { interval: "month" }, nickname: "Global USD" });
  sdkSubs.push(await sdkSubscription(901, usd.id));
  sim.sim.setWebhookUrl(`${app.url.replace("localhost", "127.0.0.1")}/api/webhooks/stripe`);
}, 180_000);

let simClosed = false;
afterAll(async () => {
  if (!simClosed) await sim?.close();
  await env?.close();
});

describe("who may call the subscriptions API", () => {
  it.each([
    ["GET", "/api/admin/subscriptions"],
    ["GET", "/api/admin/subscriptions/metrics"],
    ["POST", "/api/admin/subscriptions/sub_qualquer/cancel"],
    ["POST", "/api/admin/subscriptions/sub_qualquer/cancel?atPeriodEnd=true"],
  ])("%s %s: anonymous 401, user 403", async (method, p) => {
    const anon = await apiClient(app.url)(method, p);
    expect(anon.status).toBe(401);
    expect(anon.body.message).toBe("Token inválido ou expirado");
    const u = await user(method, p);
    expect(u.status).toBe(403);
    expect(u.body.message).toBe("Acesso restrito a administradores.");
  });

  it("a user cannot cancel someone's subscription: Stripe is untouched", async () => {
    const r = await user("POST", `/api/admin/subscriptions/${sdkSubs[0]}/cancel`);
    expect(r.status).toBe(403);
    expect((await sdk.subscriptions.retrieve(sdkSubs[0]!)).status).toBe("active");
  });
});

describe("the list (Stripe is the source)", () => {
  const total = MONTHLY + 3;

  it("50 a page by default, a cursor to the rest, no item twice", async () => {
    const first = await admin<Page>("GET", "/api/admin/subscriptions?status=active");
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(50);
    expect(first.body.has_more).toBe(true);
    expect(first.body.next_cursor).toBe(first.body.data[49]!.id);
    const second = await admin<Page>("GET", `/api/admin/subscriptions?status=active&limit=50&starting_after=${first.body.next_cursor}`);
    expect(second.body.data).toHaveLength(total - 50);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    const ids = [...first.body.data, ...second.body.data].map((s) => s.id);
    expect(new Set(ids).size).toBe(total);
    expect(ids).toEqual(expect.arrayContaining([...sdkSubs, userSubscription]));
    const small = await admin<Page>("GET", "/api/admin/subscriptions?limit=5");
    expect(small.body.data).toHaveLength(5);
  });

  it("items in the §3 shape: our user's name and e-mail, the local plan name, the dashboard link", async () => {
    const all: Item[] = [];
    let cursor: string | null = null;
    do {
      const r: { body: Page } = await admin<Page>("GET", `/api/admin/subscriptions${cursor ? `?starting_after=${cursor}` : ""}`);
      all.push(...r.body.data);
      cursor = r.body.next_cursor;
    } while (cursor);
    const mine = all.find((s) => s.id === userSubscription)!;
    expect(mine).toMatchObject({
      customerName: "Paula Teste",
      customerEmail: userEmail,
      localPlanName: "Mensal",
      priceId: planPrice,
      interval: "month",
      intervalCount: 1,
      unitAmount: 9700,
      quantity: 1,
      currency: "BRL",
      status: "active",
      cancelAtPeriodEnd: false,
      livemode: false,
      dashboardUrl: `https://dashboard.stripe.com/test/subscriptions/${userSubscription}`,
    });
    expect(mine.customerId).toMatch(/^cus_/);
    expect(mine.currentPeriodEnd).toBeGreaterThan(Date.now() / 1000 + 25 * 86_400);
    // A customer we do not know: Stripe's name and e-mail.
    const other = all.find((s) => s.id === sdkSubs[0])!;
    expect(other).toMatchObject({ customerName: "Cliente 0", customerEmail: "cliente0@externo.com", localPlanName: "Mensal" });
    expect(all.find((s) => s.id === sdkSubs.at(-1))).toMatchObject({ localPlanName: null, nickname: "Global USD", currency: "USD", unitAmount: 1999 });
  });

  it.each([
    ["?status=ativa", "Status de assinatura inválido."],
    ["?limit=0", "limit deve ser um número inteiro de 1 a 100."],
    ["?limit=101", "limit deve ser um número inteiro de 1 a 100."],
    ["?starting_after=nao-e-cursor", "Cursor de paginação inválido."],
    ["?starting_after=sub_nao_existe", "Cursor de paginação inválido."],
  ])("%s → 400 %s", async (q, message) => {
    const r = await admin("GET", `/api/admin/subscriptions${q}`);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
  });
});

describe("metrics", () => {
  it("active count and monthly value per currency (yearly / 12 × quantity)", async () => {
    const r = await admin<{ active_count: number; mrr_monthly_by_currency: Record<string, number> }>("GET", "/api/admin/subscriptions/metrics");
    expect(r.status).toBe(200);
    expect(r.body.active_count).toBe(MONTHLY + 3);
    expect(r.body.mrr_monthly_by_currency).toEqual({ BRL: 9700 * (MONTHLY + 1) + (120_000 * 2) / 12, USD: 1999 });
  });
});

describe("cancel", () => {
  it("at period end: Stripe says so, our user's status shows it at once (before the webhook) and after it; audited", async () => {
    sim.sim.pauseWebhooks();
    let r;
    try {
      r = await admin<{ success: boolean; message: string; subscription: Item }>("POST", `/api/admin/subscriptions/${userSubscription}/cancel?atPeriodEnd=true`);
      expect(r.status).toBe(200);
      expect(r.body.success).toBe(true);
      expect(r.body.message).toMatch(/^A assinatura será cancelada no fim do período \(\d{2}\/\d{2}\/\d{4}\)\.$/);
      expect(r.body.subscription).toMatchObject({ id: userSubscription, status: "active", cancelAtPeriodEnd: true });
      expect((await sdk.subscriptions.retrieve(userSubscription)).cancel_at_period_end).toBe(true);
      // Our books, before any webhook arrived.
      const s = await status();
      expect(s).toMatchObject({ subscriptionStatus: "active", hasValidLicense: true });
      expect(s.subscriptionDetails?.cancel_at_period_end).toBe(true);
    } finally {
      sim.sim.flushWebhooks();
    }
    await settled();
    const after = await status();
    expect(after.subscriptionDetails?.cancel_at_period_end).toBe(true);
    expect(after.hasValidLicense).toBe(true);
    const [row] = await audit(userSubscription);
    expect(row).toMatchObject({ action: "subscription.cancel_at_period_end", admin_email: ADMIN.email });
    expect(row!.before).toMatchObject({ cancelAtPeriodEnd: false, status: "active" });
    expect(row!.after).toMatchObject({ cancelAtPeriodEnd: true, status: "active" });
  });

  it("now: canceled at Stripe, listed as canceled, out of the metrics; twice → 409; unknown → 404", async () => {
    const id = sdkSubs[1]!;
    const r = await admin<{ success: boolean; message: string }>("POST", `/api/admin/subscriptions/${id}/cancel`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, message: "Assinatura cancelada no Stripe." });
    expect((await sdk.subscriptions.retrieve(id)).status).toBe("canceled");
    expect((await audit(id))[0]).toMatchObject({ action: "subscription.cancel" });
    const again = await admin("POST", `/api/admin/subscriptions/${id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, message: "Esta assinatura já está cancelada." });
    expect(again.body.error).toBe("Esta assinatura já está cancelada.");
    const canceled = await admin<Page>("GET", "/api/admin/subscriptions?status=canceled");
    expect(canceled.body.data.map((s) => s.id)).toContain(id);
    const m = await admin<{ active_count: number }>("GET", "/api/admin/subscriptions/metrics");
    expect(m.body.active_count).toBe(MONTHLY + 2);
    const unknown = await admin("POST", "/api/admin/subscriptions/sub_nao_existe/cancel");
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Assinatura não encontrada no Stripe.");
    await settled();
  });
});

describe("the /admin/assinaturas page (no JavaScript)", () => {
  it("figures, rows, the dashboard link and the next page link", async () => {
    const r = await page("GET", "/admin/assinaturas");
    expect(r.status).toBe(200);
    const has = (text: string, what: string) => expect(text.includes(what), `the page shows ${what}`).toBe(true);
    has(r.text, "Assinaturas ativas");
    has(r.text, "Cliente 901");
    has(r.text, "R$ 97,00/mês");
    // Newest first: our user's (the oldest) is on the next page, behind the cursor link.
    const next = /href="(\/admin\/assinaturas\?status=active&amp;after=sub_[A-Za-z0-9]+)"/.exec(r.text)?.[1]?.replace(/&amp;/g, "&");
    expect(next).toBeTruthy();
    const second = await page("GET", next!);
    has(second.text, "Paula Teste");
    has(second.text, `https://dashboard.stripe.com/test/subscriptions/${userSubscription}`);
    has(second.text, "Primeira página");
    const empty = await page("GET", "/admin/assinaturas?status=past_due");
    has(empty.text, "Nenhuma assinatura encontrada.");
  });

  it("cancel through the confirm step", async () => {
    const id = sdkSubs[2]!;
    const confirm = await page("GET", `/admin/assinaturas?status=active&cancelar=${id}&fim=1`);
    expect(confirm.text.includes("Cancelar esta assinatura no Stripe?")).toBe(true);
    const r = await page("POST", "/admin/assinaturas", { intent: "cancel", id, atPeriodEnd: "1", status: "active" });
    expect(r.status).toBe(303);
    expect(r.headers.location).toMatch(/^\/admin\/assinaturas\?status=active&aviso=scheduled&ate=\d+$/);
    expect((await sdk.subscriptions.retrieve(id)).cancel_at_period_end).toBe(true);
    const shown = await page("GET", r.headers.location as string);
    expect(shown.text.includes("A assinatura será cancelada no fim do período")).toBe(true);
    const bad = await page("POST", "/admin/assinaturas", { intent: "cancel", id: "sub_nao_existe", atPeriodEnd: "0" });
    expect(bad.status).toBe(404);
    expect(bad.text.includes("Erro ao cancelar assinatura: Assinatura não encontrada no Stripe.")).toBe(true);
    await settled();
  });
});

describe("Stripe unreachable", () => {
  it("the API answers 502 'Erro ao carregar assinaturas do Stripe'; the page shows it", async () => {
    await sim.close();
    simClosed = true;
    for (const p of ["/api/admin/subscriptions", "/api/admin/subscriptions/metrics"]) {
      const r = await admin("GET", p);
      expect(r.status).toBe(502);
      expect(r.body).toMatchObject({ success: false, message: "Erro ao carregar assinaturas do Stripe" });
    }
    const cancel = await admin("POST", `/api/admin/subscriptions/${sdkSubs[3]}/cancel`);
    expect(cancel.status).toBe(502);
    expect(cancel.body.error).toBe("Erro ao cancelar assinatura: O provedor de pagamento não respondeu. Tente novamente em instantes.");
    const r = await page("GET", "/admin/assinaturas");
    expect(r.status).toBe(200);
    expect(r.text.includes("Erro ao carregar assinaturas do Stripe")).toBe(true);
  }, 60_000);
});
