/**
 * What a signed Stripe event may change (issue 24, "Smaller": Stripe), on the real app (production
 * build, PostgreSQL, pg-boss) with the `stripe` SDK pointed at a standalone Stripe simulator:
 * - an event about a subscription Stripe answers 404 for is acknowledged and not applied: no licence,
 *   no customer, no status (before: applied from the event's own snapshot);
 * - an event whose `livemode` differs from the key in use (a live event at an `sk_test_` key) is
 *   acknowledged and not applied, while the same event in the key's mode is (before: both applied).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CARDS, signatureHeader, startStripeSimulator } from "../../server/stripe-sim";
import { apiClient, startAppServer, type AppServer } from "../setup/app-server";
import { createTestDatabase, type TestDatabase } from "../setup/db";
import { registerVerifiedAndLogin } from "../setup/verify";

const SECRET_KEY = "sk_test_webhook_trust_it";
const WEBHOOK_SECRET = "whsec_webhook_trust_it";
const DAY = 86_400;

let db: TestDatabase;
let app: AppServer;
let stripeSim: Awaited<ReturnType<typeof startStripeSimulator>>;
let planId: string;
let seq = 0;

async function subscriber(name: string) {
  const email = `${name}-${Date.now()}-${seq++}@teste.com`;
  const reg = await registerVerifiedAndLogin(app.url, db.url, { firstName: name, lastName: "Teste", email, password: "Senha123" });
  return { call: apiClient(app.url, reg.token), userId: reg.user.id, email };
}

/** Posts an event signed with the webhook secret, as Stripe would. */
async function deliver(event: Record<string, unknown>): Promise<number> {
  const payload = JSON.stringify(event);
  const res = await fetch(`${app.url}/api/webhooks/stripe`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signatureHeader(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000)) },
    body: payload,
  });
  await res.body?.cancel();
  return res.status;
}

/** Waits until the stored event is processed (the pg-boss job ran); returns its row. */
async function processed(eventId: string): Promise<{ last_error: string | null }> {
  const end = Date.now() + 20_000;
  for (;;) {
    const [row] = await db.sql<{ processed_at: Date | null; last_error: string | null }[]>`select processed_at, last_error from stripe_events where id = ${eventId}`;
    if (row?.processed_at) return row;
    if (Date.now() > end) throw new Error(`evento ${eventId} não processado`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

const paidLicences = (userId: string) => db.sql`select 1 from licenses where user_id = ${userId} and kind = 'paid'`;
const userRow = async (userId: string) =>
  (await db.sql<{ stripe_customer_id: string | null; subscription_status: string | null }[]>`select stripe_customer_id, subscription_status from users where id = ${userId}`)[0]!;

beforeAll(async () => {
  db = await createTestDatabase();
  stripeSim = await startStripeSimulator({ secretKey: SECRET_KEY, webhookSecret: WEBHOOK_SECRET, retryDelaysMs: [200, 500] });
  app = await startAppServer({ DATABASE_URL: db.url, OANDA_MODE: "sim", AUTH_RATE_LIMIT: "100000", STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: stripeSim.url });
  // Stripe never reaches the app by itself here: every event the app gets is one this file sends.
  stripeSim.sim.setWebhookUrl(undefined);
  const [plan] = await db.sql<{ id: string }[]>`
    insert into plans (name, description, price_cents, currency, interval, features, is_highlighted)
    values ('Mensal', 'Plano mensal', 9700, 'BRL', 'month', ${["IA"]}, true) returning id`;
  planId = plan!.id;
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await stripeSim?.close();
  await db?.drop();
});

describe("signed Stripe events the app must not apply", () => {
  it("an event about a subscription Stripe answers 404 for grants nothing (its snapshot is not trusted)", async () => {
    const u = await subscriber("forjado");
    const now = Math.floor(Date.now() / 1000);
    const snapshot = {
      id: "sub_inexistente_na_stripe",
      object: "subscription",
      customer: "cus_inexistente_na_stripe",
      status: "active",
      metadata: { userId: u.userId },
      cancel_at_period_end: false,
      cancel_at: null,
      ended_at: null,
      created: now,
      start_date: now,
      livemode: false,
      items: { object: "list", data: [{ id: "si_x", current_period_start: now, current_period_end: now + 365 * DAY, price: { id: "price_x", unit_amount: 9700, currency: "brl", recurring: { interval: "month", interval_count: 1 }, product: "prod_x" } }] },
    };
    const eventId = `evt_sub404_${Date.now()}`;
    expect(await deliver({ id: eventId, object: "event", type: "customer.subscription.updated", created: now, livemode: false, data: { object: snapshot } })).toBe(200);
    const row = await processed(eventId);
    expect(await paidLicences(u.userId)).toHaveLength(0);
    expect(row.last_error).toBe("subscription not found at Stripe");
    const after = await userRow(u.userId);
    expect(after.stripe_customer_id).toBeNull();
    expect(after.subscription_status).not.toBe("active");
    expect((await u.call<{ hasValidLicense: boolean; subscriptionStatus: string | null }>("GET", "/api/subscriptions/status")).body.subscriptionStatus).not.toBe("active");
  });

  it("an event whose livemode differs from the key in use is not applied; the same event in the key's mode is", async () => {
    const u = await subscriber("modo");
    // A paid checkout at the simulator whose events never reached the app.
    const r = await u.call<{ checkoutUrl: string }>("POST", "/api/subscriptions/create-checkout-session", { planId });
    expect(r.status).toBe(200);
    const pay = await fetch(`${r.body.checkoutUrl}/pay`, { method: "POST", redirect: "manual", body: new URLSearchParams({ card: CARDS.ok, email: u.email }) });
    expect(pay.status).toBe(303);
    const customer = (await userRow(u.userId)).stripe_customer_id;
    const created = stripeSim.sim.events().find((e) => e.type === "customer.subscription.created" && (e.object.data as { object: { customer: string } }).object.customer === customer);
    expect(created).toBeTruthy();
    const sub = (created!.object.data as { object: Record<string, unknown> }).object;
    expect(await paidLicences(u.userId)).toHaveLength(0);

    const live = `evt_live_${Date.now()}`;
    expect(await deliver({ id: live, object: "event", type: "customer.subscription.updated", created: Math.floor(Date.now() / 1000), livemode: true, data: { object: { ...sub, livemode: true } } })).toBe(200);
    const ignored = await processed(live);
    expect(await paidLicences(u.userId)).toHaveLength(0);
    expect(ignored.last_error).toMatch(/livemode/);

    const test = `evt_test_${Date.now()}`;
    expect(await deliver({ id: test, object: "event", type: "customer.subscription.updated", created: Math.floor(Date.now() / 1000), livemode: false, data: { object: sub } })).toBe(200);
    expect((await processed(test)).last_error).toBeNull();
    expect(await paidLicences(u.userId)).toHaveLength(1);
  });
});
