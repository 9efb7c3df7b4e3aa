/**
 * Billing end to end (issue 9): the real app (production build, PostgreSQL, pg-boss) configured with
 * Stripe keys pointing the real `stripe` SDK at a standalone Stripe simulator over HTTP, whose signed
 * webhooks reach the app's `/api/webhooks/stripe` over HTTP. Payment goes through the simulator's
 * hosted checkout form; Stripe's clock is the simulator's.
 *
 * The simulator's clock starts 40 days before the wall clock, so the lapses happen in the app's
 * past: a cancellation at period end and a failed renewal (past_due) end access; then the simulator
 * is brought to the present for a checkout whose licence is valid now, its renewal, and the webhook
 * rules (duplicates, reordering, bad and stale signatures, 50 concurrent deliveries of one event).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig, setConfig } from "../../app/services/platform/config.server";
import { closeDb } from "../../app/services/platform/db.server";
import { sweepSubscriptions } from "../../app/services/billing/stripe-events.server";
import { CARDS, signatureHeader, startStripeSimulator } from "../../server/stripe-sim";
import { apiClient, type AppServer } from "../setup/app-server";
import { createTradingEnv, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

const SECRET_KEY = "sk_test_billing_it";
const WEBHOOK_SECRET = "whsec_billing_it";
const DAY = 86_400;
const START_OFFSET_MS = 40 * DAY * 1000;

let env: TradingEnv;
let app: AppServer;
let stripeSim: Awaited<ReturnType<typeof startStripeSimulator>>;
let planId: string;

type Call = ReturnType<typeof apiClient>;
interface Subscriber {
  call: Call;
  token: string;
  userId: string;
  email: string;
}

async function subscriber(name: string): Promise<Subscriber> {
  const email = `${name}-${Date.now()}@teste.com`;
  const reg = await registerVerifiedAndLogin(app.url, env.db.url, { firstName: name, lastName: "Teste", email, password: "Senha123" });
  return { call: apiClient(app.url, reg.token), token: reg.token, userId: reg.user.id, email };
}

/** The /billing page as a browser without JavaScript gets it: a GET, or a plain form POST (no redirect followed). */
function billingPage(s: Subscriber, form?: Record<string, string>): Promise<Response> {
  return fetch(`${app.url}/billing`, {
    method: form ? "POST" : "GET",
    redirect: "manual",
    headers: { accept: "text/html", authorization: `Bearer ${s.token}`, ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
}

/** Polls until `check` resolves truthy (webhooks are processed by a pg-boss job). */
async function waitFor<T>(check: () => Promise<T | undefined | null | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error(`tempo esgotado esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** Every delivered event processed: the simulator has nothing in flight and no stored event is pending. */
async function settled() {
  await stripeSim.sim.webhooksIdle();
  await waitFor(async () => (await env.db.sql`select 1 from stripe_events where processed_at is null`).length === 0, "eventos processados");
}

/** Checkout through the app's API and the hosted page; returns the session id. */
async function checkout(s: Subscriber, card: string = CARDS.ok): Promise<{ status: number; sessionId: string; location: string | null }> {
  const r = await s.call<{ checkoutUrl: string; sessionId: string }>("POST", "/api/subscriptions/create-checkout-session", { planId });
  expect(r.status).toBe(200);
  const pay = await fetch(`${r.body.checkoutUrl}/pay`, { method: "POST", redirect: "manual", body: new URLSearchParams({ card, email: s.email }) });
  return { status: pay.status, sessionId: r.body.sessionId, location: pay.headers.get("location") };
}

const status = async (s: Subscriber) => (await s.call<Record<string, unknown> & { license: { endDate: string; kind: string } | null; subscriptionDetails: Record<string, unknown> | null }>("GET", "/api/subscriptions/status")).body;
const paidLicences = (userId: string) => env.db.sql<{ id: string; end_date: Date; stripe_subscription_id: string }[]>`
  select id, end_date, stripe_subscription_id from licenses where user_id = ${userId} and kind = 'paid'`;
const changes = (userId: string) => env.db.sql<{ change: string; end_after: Date; stripe_event_id: string | null }[]>`
  select change, end_after, stripe_event_id from license_changes where user_id = ${userId} order by id`;
const customerOf = async (userId: string) => (await env.db.sql<{ stripe_customer_id: string }[]>`select stripe_customer_id from users where id = ${userId}`)[0]!.stripe_customer_id;

/** The simulator's portal for a user (through the app's portal-session API), then a portal form. */
async function portal(s: Subscriber, action: "cancel" | "resume", subscriptionId: string) {
  const r = await s.call<{ portalUrl: string }>("POST", "/api/billing/portal-session");
  expect(r.status).toBe(200);
  const res = await fetch(`${r.body.portalUrl}/${action}`, { method: "POST", redirect: "manual", body: new URLSearchParams({ subscription: subscriptionId }) });
  expect(res.status).toBeLessThan(400);
}

async function postWebhook(payload: string, signature: string) {
  const res = await fetch(`${app.url}/api/webhooks/stripe`, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": signature }, body: payload });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  env = await createTradingEnv();
  stripeSim = await startStripeSimulator({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, now: () => Date.now() - START_OFFSET_MS, retryDelaysMs: [200, 500] });
  app = await env.startApp({ STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripeSim.url });
  stripeSim.sim.setWebhookUrl(`${app.url.replace("localhost", "127.0.0.1")}/api/webhooks/stripe`);
  const [plan] = await env.db.sql<{ id: string }[]>`
    insert into plans (name, description, price_cents, currency, interval, features, is_highlighted)
    values ('Mensal', 'Plano mensal', 9700, 'BRL', 'month', ${["IA"]}, true) returning id`;
  planId = plan!.id;
}, 120_000);

afterAll(async () => {
  await stripeSim?.close();
  await env?.close();
});

describe("in the simulator's past (lapses the app can see)", () => {
  let cancelling: Subscriber;
  let failing: Subscriber;
  const before: Record<string, { end_date: Date; stripe_subscription_id: string }> = {};

  // Two subscribers whose 7-day trial is over subscribe 40 days ago; one card fails at renewals.
  beforeAll(async () => {
    cancelling = await subscriber("cancela");
    failing = await subscriber("falha");
    for (const s of [cancelling, failing]) {
      await env.db.sql`update licenses set start_date = now() - interval '50 days', end_date = now() - interval '43 days' where user_id = ${s.userId} and kind = 'trial'`;
      expect((await status(s)).hasValidLicense).toBe(false);
      expect((await checkout(s)).status).toBe(303);
    }
    await settled();
    for (const s of [cancelling, failing]) before[s.userId] = (await paidLicences(s.userId))[0]!;
    stripeSim.sim.setCard(await customerOf(failing.userId), CARDS.failsLater);
  });

  it("cancel at period end: access until the end, then none", async () => {
    const lic = before[cancelling.userId]!;
    await portal(cancelling, "cancel", lic.stripe_subscription_id);
    await settled();
    let s = await status(cancelling);
    // Still active at Stripe (until the period end): access stays, the summary says it will end.
    expect(s.subscriptionStatus).toBe("active");
    expect(s.hasValidLicense).toBe(true);
    expect(s.subscriptionDetails?.cancel_at_period_end).toBe(true);
    // The period ends (in the app's past: the simulator runs 40 days behind): Stripe deletes it.
    stripeSim.sim.advanceClock(32 * DAY);
    await settled();
    s = await status(cancelling);
    expect(s.subscriptionStatus).toBe("canceled");
    expect(s.hasValidLicense).toBe(false);
    const [after] = await paidLicences(cancelling.userId);
    expect(after!.end_date.getTime()).toBe(lic.end_date.getTime()); // access ran to the period end, not a day more
  });

  it("failed renewal → past_due → no access (manage-only), the licence not extended", async () => {
    // The same 32 days passed for this subscriber: the renewal charge failed.
    const s = await status(failing);
    expect(s.subscriptionStatus).toBe("past_due");
    expect(s.hasValidLicense).toBe(false);
    const [after] = await paidLicences(failing.userId);
    expect(after!.end_date.getTime()).toBe(before[failing.userId]!.end_date.getTime());
    const notes = await env.db.sql<{ title: string }[]>`select title from notifications where user_id = ${failing.userId}`;
    expect(notes.map((n) => n.title)).toContain("Pagamento pendente");
  });

  it("/billing for past_due (issue 22 item 3): 'Pagamento pendente' with the portal and 'Já paguei', no 'Assinatura Necessária' nor checkout; plain forms", async () => {
    const res = await billingPage(failing);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Pagamento pendente");
    expect(html).toContain("Atualizar cartão no portal");
    expect(html).toContain("Já paguei, validar agora");
    expect(html).not.toContain("Assinatura Necessária");
    expect(html).not.toContain('name="intent" value="subscribe"');
    // The portal form: a 303 to Stripe's Billing Portal.
    const toPortal = await billingPage(failing, { intent: "portal" });
    expect(toPortal.status).toBe(303);
    expect(toPortal.headers.get("location")).toMatch(/^https?:\/\//);
    // 'Já paguei, validar agora' re-reads Stripe and answers on the page: not paid yet.
    const check = await billingPage(failing, { intent: "validate", stay: "1" });
    expect(check.status).toBe(200);
    const answer = await check.text();
    expect(answer).toContain("Ainda não identificamos o seu pagamento");
    expect(answer).not.toContain("Assinatura Necessária");
  });

  it("past_due: no second subscription; a new card in the portal pays the renewal and access returns", async () => {
    const again = await failing.call<{ message: string }>("POST", "/api/subscriptions/create-checkout-session", { planId });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain("Portal de Cobrança");
    const r = await failing.call<{ portalUrl: string }>("POST", "/api/billing/portal-session");
    expect(r.status).toBe(200);
    const card = await fetch(`${r.body.portalUrl}/card`, { method: "POST", redirect: "manual", body: new URLSearchParams({ card: CARDS.ok }) });
    expect(card.status).toBeLessThan(400);
    await settled();
    const s = await status(failing);
    expect(s.subscriptionStatus).toBe("active");
    expect(s.hasValidLicense).toBe(true);
    const [after] = await paidLicences(failing.userId);
    expect(after!.end_date.getTime()).toBeGreaterThan(before[failing.userId]!.end_date.getTime());
    // 'Já paguei, validar agora' from the 'Pagamento pendente' section now confirms it on the page (issue 22 item 3).
    const check = await billingPage(failing, { intent: "validate", stay: "1" });
    expect(check.status).toBe(200);
    const answer = await check.text();
    expect(answer).toContain("Pagamento confirmado. Sua assinatura está ativa.");
    expect(answer).not.toContain("Atualizar cartão no portal");
  });
});

describe("in the present", () => {
  let ana: Subscriber;
  let sessionId: string;

  beforeAll(() => {
    // Bring Stripe's clock to the wall clock (renewals due on the way are walked).
    stripeSim.sim.advanceClock(Math.floor(Date.now() / 1000) - stripeSim.sim.now() + 5);
  });

  it("the modal's subscribe form without JavaScript: a plan and the terms first, then a 303 to the hosted checkout; an unknown intent is refused", async () => {
    const bia = await subscriber("bia");
    const noPlan = await billingPage(bia, { intent: "subscribe", terms: "on" });
    expect(noPlan.status).toBe(400);
    expect(await noPlan.text()).toContain("Selecione um plano.");
    const noTerms = await billingPage(bia, { intent: "subscribe", planId });
    expect(noTerms.status).toBe(400);
    const refused = await noTerms.text();
    expect(refused).toContain("Aceite os Termos de Uso e a Política de Privacidade para continuar.");
    expect(new RegExp(`<input[^>]*name="planId"[^>]*value="${planId}"[^>]*>`).exec(refused)?.[0]).toContain('checked=""'); // the chosen plan stays selected
    const toCheckout = await billingPage(bia, { intent: "subscribe", planId, terms: "on" });
    expect(toCheckout.status).toBe(303);
    expect(toCheckout.headers.get("location")).toMatch(/^https?:\/\//);
    const unknown = await billingPage(bia, { intent: "outra" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("Dados inválidos.");
  });

  it("a trial user pays by checkout: the paid licence comes from Stripe's webhooks, the trial stays", async () => {
    ana = await subscriber("ana");
    const before = await status(ana);
    expect(before.license?.kind).toBe("trial");
    expect(before.subscriptionStatus).toBe("inactive");
    const paid = await checkout(ana);
    sessionId = paid.sessionId;
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`${app.url}/subscription/success?session_id=${sessionId}`);
    // No browser call: the webhooks alone grant the licence.
    await settled();
    const s = await status(ana);
    expect(s.subscriptionStatus).toBe("active");
    expect(s.hasValidLicense).toBe(true);
    expect(s.license?.kind).toBe("paid");
    expect(new Date(s.license!.endDate).getTime()).toBeGreaterThan(Date.now() + 27 * DAY * 1000);
    const price = (s.subscriptionDetails?.items as { data: { price: { unit_amount: number; currency: string; recurring: { interval: string } } }[] }).data[0]!.price;
    expect(price).toMatchObject({ unit_amount: 9700, currency: "brl", recurring: { interval: "month" } });
    const trial = await env.db.sql`select 1 from licenses where user_id = ${ana.userId} and kind = 'trial'`;
    expect(trial.length).toBe(1);
    expect((await changes(ana.userId)).map((c) => c.change)).toEqual(["created"]);
    const notes = await env.db.sql<{ title: string }[]>`select title from notifications where user_id = ${ana.userId}`;
    expect(notes.map((n) => n.title)).toContain("Assinatura ativa");
  });

  it("validate-session confirms the caller's session and refuses anyone else's", async () => {
    const ok = await ana.call<{ valid: boolean; hasValidLicense: boolean }>("GET", `/api/subscriptions/validate-session/${sessionId}`);
    expect(ok.status).toBe(200);
    expect(ok.body.valid).toBe(true);
    const other = await subscriber("outro");
    const refused = await other.call("GET", `/api/subscriptions/validate-session/${sessionId}`);
    expect(refused.status).toBe(404);
    expect((await status(other)).hasValidLicense).toBe(true); // their own trial, untouched
    expect(await paidLicences(other.userId)).toHaveLength(0);
    // A second checkout while subscribed is refused.
    const again = await ana.call<{ message: string }>("POST", "/api/subscriptions/create-checkout-session", { planId });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain("assinatura ativa");
  });

  it("the upcoming invoice names the next charge", async () => {
    const r = await ana.call<{ upcoming: { amount_due: number; next_payment_attempt: number; period_end: number } }>("GET", "/api/billing/upcoming");
    expect(r.status).toBe(200);
    expect(r.body.upcoming.amount_due).toBe(9700);
    const [lic] = await paidLicences(ana.userId);
    expect(r.body.upcoming.next_payment_attempt).toBe(lic!.end_date.getTime() / 1000);
  });

  it("a duplicate delivery is a 200 no-op", async () => {
    const events = stripeSim.sim.events().filter((e) => e.type === "invoice.paid" && (e.object.data as { object: { customer: string } }).object.customer);
    const before = await env.db.sql`select count(*)::int as n from stripe_events`;
    stripeSim.sim.redeliver(events.map((e) => e.id));
    await settled();
    const after = await env.db.sql`select count(*)::int as n from stripe_events`;
    expect(after[0]!.n).toBe(before[0]!.n);
    expect((await changes(ana.userId)).map((c) => c.change)).toEqual(["created"]);
  });

  it("reordered events end in Stripe's current state", async () => {
    const [lic] = await paidLicences(ana.userId);
    stripeSim.sim.pauseWebhooks();
    await portal(ana, "cancel", lic!.stripe_subscription_id);
    await portal(ana, "resume", lic!.stripe_subscription_id);
    // The "cancel" event arrives last: the app re-reads the subscription and keeps it resumed.
    stripeSim.sim.flushWebhooks("reverse");
    await settled();
    const s = await status(ana);
    expect(s.subscriptionStatus).toBe("active");
    expect(s.subscriptionDetails?.cancel_at_period_end).toBe(false);
  });

  it("a bad or stale signature is a 400 and nothing is stored", async () => {
    const payload = JSON.stringify({ id: "evt_forjado_1", object: "event", type: "invoice.paid", created: Math.floor(Date.now() / 1000), livemode: false, data: { object: { object: "invoice" } } });
    const t = Math.floor(Date.now() / 1000);
    const wrong = await postWebhook(payload, signatureHeader(payload, "whsec_outro", t));
    expect(wrong.status).toBe(400);
    expect(String(wrong.body.message)).toContain("Assinatura do webhook inválida");
    const stale = await postWebhook(payload, signatureHeader(payload, WEBHOOK_SECRET, t - 600));
    expect(stale.status).toBe(400);
    const none = await postWebhook(payload, "");
    expect(none.status).toBe(400);
    expect(await env.db.sql`select 1 from stripe_events where id = 'evt_forjado_1'`).toHaveLength(0);
  });

  it("a renewal extends the licence; 50 concurrent deliveries of its invoice.paid make exactly one change", async () => {
    const [lic] = await paidLicences(ana.userId);
    stripeSim.sim.pauseWebhooks();
    stripeSim.sim.advanceClock(Math.ceil(lic!.end_date.getTime() / 1000) - stripeSim.sim.now() + 60);
    const renewal = stripeSim.sim.events().filter((e) => e.type === "invoice.paid").at(-1)!;
    const payload = JSON.stringify(renewal.object);
    const sig = signatureHeader(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000));
    const replies = await Promise.all(Array.from({ length: 50 }, () => postWebhook(payload, sig)));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    expect(replies.filter((r) => r.body.duplicate === false)).toHaveLength(1);
    await waitFor(async () => (await env.db.sql`select 1 from stripe_events where id = ${renewal.id} and processed_at is not null`).length > 0, "renovação processada");
    // The held events (subscription.updated, and the same invoice.paid again) change nothing more.
    stripeSim.sim.flushWebhooks();
    await settled();
    const log = await changes(ana.userId);
    expect(log.map((c) => c.change)).toEqual(["created", "extended"]);
    expect(log[1]!.stripe_event_id).toBe(renewal.id);
    const [after] = await paidLicences(ana.userId);
    expect(after!.end_date.getTime()).toBeGreaterThan(lic!.end_date.getTime() + 27 * DAY * 1000);
  });

  it("the daily sweep finds a subscription whose events never arrived", async () => {
    const late = await subscriber("semwebhook");
    stripeSim.sim.setWebhookUrl(undefined); // Stripe cannot reach us
    expect((await checkout(late)).status).toBe(303);
    expect(await paidLicences(late.userId)).toHaveLength(0);
    stripeSim.sim.setWebhookUrl(`${app.url.replace("localhost", "127.0.0.1")}/api/webhooks/stripe`);
    // The sweep job's work (jobs/stripe-handlers.ts calls it), run here in process against the same database and Stripe.
    setConfig(parseConfig({ DATABASE_URL: env.db.url, NODE_ENV: "test", LOG_LEVEL: "silent", STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_API_BASE: stripeSim.url }));
    try {
      const r = await sweepSubscriptions();
      expect(r.failures).toBe(0);
      expect(r.customers).toBeGreaterThanOrEqual(4);
    } finally {
      await closeDb();
      globalThis.__forexIaConfig = undefined;
    }
    const s = await status(late);
    expect(s.subscriptionStatus).toBe("active");
    expect(await paidLicences(late.userId)).toHaveLength(1);
  });
});

describe("the embedded Stripe simulator", () => {
  it("is not mounted when a real key is configured", async () => {
    const res = await fetch(`${app.url}/stripe-sim/sim/clock`, { redirect: "manual" });
    expect(res.status).toBe(302); // the app's catch-all, not the simulator
  });

  it("is mounted without a key: payments work out of the box", async () => {
    const bare = await env.startApp({});
    try {
      const clock = await fetch(`${bare.url.replace("localhost", "127.0.0.1")}/stripe-sim/sim/clock`);
      expect(clock.status).toBe(200);
      expect(((await clock.json()) as { now: number }).now).toBeGreaterThan(0);
      const email = `embutido-${Date.now()}@teste.com`;
      const reg = await registerVerifiedAndLogin(bare.url, env.db.url, { firstName: "Emb", lastName: "Teste", email, password: "Senha123" });
      const call = apiClient(bare.url, reg.token);
      expect((await call<{ paymentsConfigured: boolean }>("GET", "/api/subscriptions/status")).body.paymentsConfigured).toBe(true);
      const r = await call<{ checkoutUrl: string }>("POST", "/api/subscriptions/create-checkout-session", { planId });
      expect(r.status).toBe(200);
      expect(r.body.checkoutUrl).toContain(`${bare.url}/stripe-sim/checkout/cs_test_`);
      const pay = await fetch(`${r.body.checkoutUrl.replace("localhost", "127.0.0.1")}/pay`, { method: "POST", redirect: "manual", body: new URLSearchParams({ card: CARDS.ok, email }) });
      expect(pay.status).toBe(303);
      await waitFor(async () => (await call<{ subscriptionStatus: string }>("GET", "/api/subscriptions/status")).body.subscriptionStatus === "active", "assinatura ativa no simulador embutido");
    } finally {
      await bare.stop();
    }
  });
});
