/**
 * The Stripe simulator (server/stripe-sim) driven by the real `stripe` SDK (host/port/protocol), with
 * a local HTTP receiver verifying every webhook with `stripe.webhooks.constructEvent`: checkout with
 * 4242 (active, paid, signed events), a declined card, portal cancel at period end then the clock past
 * it, renewals, a failed renewal (past_due), idempotency, error bodies, duplicate/reordered delivery.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CARDS, startStripeSimulator } from "../../../server/stripe-sim";

const SECRET = "whsec_test_simulator";
const DAY = 86_400;
let sim: Awaited<ReturnType<typeof startStripeSimulator>>;
let receiver: Server;
let stripe: Stripe;
let received: Stripe.Event[] = [];
let failNext = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (failNext > 0) {
        failNext--;
        res.writeHead(500).end();
        return;
      }
      try {
        received.push(stripe.webhooks.constructEvent(Buffer.concat(chunks), String(req.headers["stripe-signature"]), SECRET));
        res.writeHead(200).end("{}");
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  sim = await startStripeSimulator({ webhookUrl: hookUrl, webhookSecret: SECRET, retryDelaysMs: [50, 50] });
  stripe = new Stripe("sk_test_simulator", { host: "127.0.0.1", port: sim.port, protocol: "http", maxNetworkRetries: 0 });
});
afterAll(async () => {
  await sim?.close();
  await new Promise((r) => receiver?.close(r));
});
beforeEach(() => {
  received = [];
  failNext = 0;
});

const control = (path: string, body?: unknown) =>
  fetch(`${sim.url}/sim${path}`, { method: body === undefined ? "GET" : "POST", headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
const idle = () => control("/webhooks/idle", {});
/** Types of the received events about one customer (other tests' subscriptions renew too: one simulator). */
const typesFor = (customer: string) => received.filter((e) => (e.data.object as { customer?: unknown }).customer === customer).map((e) => e.type);

async function plan(amount = 9700) {
  const product = await stripe.products.create({ name: "Mensal" });
  const price = await stripe.prices.create({ product: product.id, unit_amount: amount, currency: "brl", recurring: { interval: "month" } });
  return { product, price };
}

/** Creates a checkout session and posts the hosted page's form with `card`; returns the session and the form reply. */
async function checkout(card: string, extra: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
  const { price } = await plan();
  const customer = await stripe.customers.create({ email: "trader@example.com" });
  const session = await stripe.checkout.sessions.create({
    mode: "subscription", customer: customer.id, client_reference_id: "user-42", line_items: [{ price: price.id, quantity: 1 }],
    success_url: "http://app.test/subscription/success?session_id={CHECKOUT_SESSION_ID}", cancel_url: "http://app.test/subscription/canceled", ...extra,
  });
  const page = await fetch(session.url!);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('name="card"');
  const reply = await fetch(`${session.url!}/pay`, { method: "POST", redirect: "manual", body: new URLSearchParams({ card }) });
  return { session, customer, price, reply };
}

describe("Stripe simulator through the stripe SDK", () => {
  it("creates a product, a price and a customer in Stripe's shapes", async () => {
    const { product, price } = await plan();
    expect(product.id).toMatch(/^prod_/);
    expect(price).toMatchObject({ object: "price", unit_amount: 9700, currency: "brl", recurring: { interval: "month", interval_count: 1 }, product: product.id });
    const customer = await stripe.customers.create({ email: "a@b.c", metadata: { userId: "7" } });
    expect(customer).toMatchObject({ object: "customer", email: "a@b.c", metadata: { userId: "7" } });
    expect((await stripe.customers.retrieve(customer.id)).id).toBe(customer.id);
    const listed = await stripe.prices.list({ product: product.id });
    expect(listed.object).toBe("list");
    expect(listed.data.map((p) => p.id)).toEqual([price.id]);
  });

  it("checkout with 4242: subscription active, invoice paid, signed events received", async () => {
    const { session, reply, customer } = await checkout("4242 4242 4242 4242");
    expect(session.id).toMatch(/^cs_test_/);
    expect(reply.status).toBe(303);
    expect(reply.headers.get("location")).toBe(`http://app.test/subscription/success?session_id=${session.id}`);
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["subscription"] });
    expect(done).toMatchObject({ status: "complete", payment_status: "paid", client_reference_id: "user-42", customer: customer.id });
    const sub = done.subscription as Stripe.Subscription;
    expect(sub.status).toBe("active");
    expect(sub.items.data[0]!.current_period_end).toBeGreaterThan(sub.items.data[0]!.current_period_start);
    const invoice = await stripe.invoices.retrieve(sub.latest_invoice as string);
    expect(invoice).toMatchObject({ status: "paid", amount_paid: 9700, parent: { subscription_details: { subscription: sub.id } } });
    await idle();
    expect(received.map((e) => e.type)).toEqual(["customer.subscription.created", "invoice.paid", "checkout.session.completed"]);
    const completed = received[2]! as Stripe.CheckoutSessionCompletedEvent;
    expect(completed.data.object.subscription).toBe(sub.id);
    expect(completed.api_version).toBe("2026-10-28.endive");
    const preview = await stripe.invoices.createPreview({ subscription: sub.id });
    expect(preview).toMatchObject({ amount_due: 9700, next_payment_attempt: sub.items.data[0]!.current_period_end });
  });

  it("a declined card shows an error and creates no subscription", async () => {
    const { session, reply, customer } = await checkout("4000 0000 0000 0002");
    expect(reply.status).toBe(402);
    expect(await reply.text()).toContain("Your card was declined.");
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe("open");
    expect((await stripe.subscriptions.list({ customer: customer.id, status: "all" })).data).toEqual([]);
    const cancel = await fetch(`${session.url!}/cancel`, { redirect: "manual" });
    expect(cancel.headers.get("location")).toBe("http://app.test/subscription/canceled");
    await idle();
    expect(received).toEqual([]);
  });

  it("portal: cancel at period end, then the clock past the period deletes the subscription", async () => {
    const { customer } = await checkout(CARDS.ok);
    const [sub] = (await stripe.subscriptions.list({ customer: customer.id })).data;
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: "http://app.test/billing" });
    expect(portal.id).toMatch(/^bps_/);
    const html = await (await fetch(portal.url)).text();
    expect(html).toContain("Cancel subscription");
    expect(html).toContain('href="http://app.test/billing"');
    const post = await fetch(`${portal.url}/cancel`, { method: "POST", redirect: "manual", body: new URLSearchParams({ subscription: sub!.id }) });
    expect(post.status).toBe(303);
    const canceling = await stripe.subscriptions.retrieve(sub!.id);
    expect(canceling).toMatchObject({ status: "active", cancel_at_period_end: true, cancel_at: canceling.items.data[0]!.current_period_end });
    await expect(stripe.invoices.createPreview({ subscription: sub!.id })).rejects.toMatchObject({ code: "invoice_upcoming_none" });
    await idle();
    received = [];
    expect((await control("/clock", { advanceSeconds: 32 * DAY })).status).toBe(200);
    await idle();
    expect(typesFor(customer.id)).toEqual(["customer.subscription.deleted"]);
    expect((await stripe.subscriptions.retrieve(sub!.id)).status).toBe("canceled");
  });

  it("portal resume clears cancel_at_period_end", async () => {
    const { customer } = await checkout(CARDS.ok);
    const [sub] = (await stripe.subscriptions.list({ customer: customer.id })).data;
    await stripe.subscriptions.update(sub!.id, { cancel_at_period_end: true });
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: "http://app.test/billing" });
    await fetch(`${portal.url}/resume`, { method: "POST", redirect: "manual", body: new URLSearchParams({ subscription: sub!.id }) });
    expect((await stripe.subscriptions.retrieve(sub!.id)).cancel_at_period_end).toBe(false);
    await idle();
    const updates = received.filter((e) => e.type === "customer.subscription.updated") as Stripe.CustomerSubscriptionUpdatedEvent[];
    expect(updates.at(-1)!.data.previous_attributes).toMatchObject({ cancel_at_period_end: true });
  });

  it("renewal by clock advance: a new paid invoice and the period moves on", async () => {
    const { customer } = await checkout(CARDS.ok);
    const [sub] = (await stripe.subscriptions.list({ customer: customer.id })).data;
    const end = sub!.items.data[0]!.current_period_end;
    await idle();
    received = [];
    sim.sim.advanceClock(end - sim.sim.now() + 60);
    await idle();
    expect(typesFor(customer.id)).toEqual(["customer.subscription.updated", "invoice.paid"]);
    const renewed = await stripe.subscriptions.retrieve(sub!.id);
    expect(renewed.items.data[0]!.current_period_start).toBe(end);
    const invoices = await stripe.invoices.list({ subscription: sub!.id });
    expect(invoices.data.map((i) => [i.status, i.billing_reason])).toEqual([["paid", "subscription_cycle"], ["paid", "subscription_create"]]);
  });

  it("a failing renewal: invoice.payment_failed and past_due; paying the invoice makes it active again", async () => {
    const { customer } = await checkout(CARDS.ok);
    const [sub] = (await stripe.subscriptions.list({ customer: customer.id })).data;
    expect((await control(`/customers/${customer.id}/card`, { number: "4000 0000 0000 0341" })).status).toBe(200);
    await idle();
    received = [];
    await control("/clock", { advanceSeconds: 31 * DAY });
    await idle();
    expect(typesFor(customer.id)).toEqual(["customer.subscription.updated", "invoice.payment_failed"]);
    const failed = received.find((e) => e.type === "invoice.payment_failed")!.data.object as Stripe.Invoice;
    expect(failed).toMatchObject({ status: "open", attempted: true, amount_paid: 0 });
    expect((await stripe.subscriptions.retrieve(sub!.id)).status).toBe("past_due");
    await expect(stripe.invoices.pay(failed.id!)).rejects.toBeInstanceOf(Stripe.errors.StripeCardError);
    // The customer puts a good card in the portal: the open invoice is charged again.
    const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: "http://app.test/billing" });
    const declined = await fetch(`${portal.url}/card`, { method: "POST", redirect: "manual", body: new URLSearchParams({ card: CARDS.declined }) });
    expect(await (await fetch(new URL(declined.headers.get("location")!, portal.url))).text()).toContain("Your card was declined.");
    await fetch(`${portal.url}/card`, { method: "POST", redirect: "manual", body: new URLSearchParams({ card: "4242 4242 4242 4242" }) });
    expect((await stripe.invoices.retrieve(failed.id!)).status).toBe("paid");
    expect((await stripe.subscriptions.retrieve(sub!.id)).status).toBe("active");
  });

  it("a trial: trialing with a zero invoice, then the trial end charges", async () => {
    const { session } = await checkout(CARDS.ok, { subscription_data: { trial_period_days: 7 } });
    const done = await stripe.checkout.sessions.retrieve(session.id, { expand: ["subscription.latest_invoice"] });
    expect(done.payment_status).toBe("no_payment_required");
    const sub = done.subscription as Stripe.Subscription;
    expect(sub.status).toBe("trialing");
    expect((sub.latest_invoice as Stripe.Invoice).amount_paid).toBe(0);
    sim.sim.advanceClock(8 * DAY);
    const after = await stripe.subscriptions.retrieve(sub.id);
    expect(after.status).toBe("active");
    expect((await stripe.invoices.retrieve(after.latest_invoice as string)).amount_paid).toBe(9700);
  });

  it("subscriptions.create without a card on file is incomplete; paying the invoice activates it; cancel deletes it", async () => {
    const { price } = await plan(4900);
    const customer = await stripe.customers.create({ email: "direct@example.com" });
    const sub = await stripe.subscriptions.create({ customer: customer.id, items: [{ price: price.id }], metadata: { userId: "9" } }, { idempotencyKey: "sub-create-direct" });
    expect(sub).toMatchObject({ object: "subscription", status: "incomplete", metadata: { userId: "9" } });
    const invoice = await stripe.invoices.retrieve(sub.latest_invoice as string);
    expect(invoice).toMatchObject({ status: "open", amount_due: 4900, amount_paid: 0 });
    sim.sim.setCard(customer.id, CARDS.ok);
    await stripe.invoices.pay(invoice.id!);
    expect((await stripe.subscriptions.retrieve(sub.id)).status).toBe("active");
    const canceled = await stripe.subscriptions.cancel(sub.id);
    expect(canceled).toMatchObject({ status: "canceled", cancellation_details: { reason: "cancellation_requested" } });
    expect((await stripe.subscriptions.list({ customer: customer.id })).data).toEqual([]);
    await idle();
    expect(typesFor(customer.id)).toEqual(["customer.subscription.created", "invoice.payment_failed", "invoice.paid", "customer.subscription.updated", "customer.subscription.deleted"]);
  });

  it("honours Idempotency-Key: same body → same reply, different body → idempotency error", async () => {
    const a = await stripe.customers.create({ email: "idem@example.com" }, { idempotencyKey: "key-1" });
    const b = await stripe.customers.create({ email: "idem@example.com" }, { idempotencyKey: "key-1" });
    expect(b.id).toBe(a.id);
    expect(b.lastResponse.headers["idempotent-replayed"]).toBe("true");
    await expect(stripe.customers.create({ email: "other@example.com" }, { idempotencyKey: "key-1" })).rejects.toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect((await stripe.customers.list({ email: "idem@example.com" })).data).toHaveLength(1);
  });

  it("answers Stripe's error bodies, parsed by the SDK", async () => {
    const missing = await stripe.checkout.sessions.create({ mode: "subscription", success_url: "http://x" }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ statusCode: 400, code: "parameter_missing", param: "line_items" });
    const absent = await stripe.customers.retrieve("cus_nope").catch((e: unknown) => e);
    expect(absent).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(absent).toMatchObject({ statusCode: 404, code: "resource_missing", param: "id", message: "No such customer: 'cus_nope'" });
    const badPrice = await stripe.checkout.sessions.create({ mode: "subscription", success_url: "http://x", line_items: [{ price: "price_nope", quantity: 1 }] }).catch((e: unknown) => e);
    expect(badPrice).toMatchObject({ statusCode: 404, param: "line_items[0][price]" });
    const badKey = new Stripe("sk_live_wrong", { host: "127.0.0.1", port: sim.port, protocol: "http", maxNetworkRetries: 0 });
    await expect(badKey.customers.list()).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    const raw = await fetch(`${sim.url}/v1/customers`, { headers: { authorization: "Bearer sk_test_x", "stripe-version": "2020-08-27" } });
    expect(raw.status).toBe(400);
  });

  it("retries a non-2xx delivery and re-delivers, duplicates and reorders events through the control API", async () => {
    await idle();
    received = [];
    failNext = 1;
    await checkout(CARDS.ok);
    await idle();
    const events = (await control("/events")).body.events as { id: string; type: string; attempts: { status: number }[] }[];
    const mine = events.slice(-3);
    expect(mine[0]!.attempts.map((a) => a.status)).toEqual([500, 200]);
    // The retried event arrives after the ones sent meanwhile (Stripe does not keep the order either).
    expect(received.map((e) => e.id).sort()).toEqual(mine.map((e) => e.id).sort());

    received = [];
    expect((await control(`/events/${mine[1]!.id}/redeliver`, {})).status).toBe(200);
    expect((await control("/events/duplicate", { ids: [mine[2]!.id], times: 2 })).status).toBe(200);
    await idle();
    expect(received.map((e) => e.id)).toEqual([mine[1]!.id, mine[2]!.id, mine[2]!.id]);

    received = [];
    await control("/webhooks/pause", {});
    await checkout(CARDS.ok);
    await idle();
    expect(received).toEqual([]);
    const flushed = (await control("/webhooks/flush", { order: "reverse" })).body.sent as string[];
    await idle();
    expect(received.map((e) => e.type)).toEqual(["checkout.session.completed", "invoice.paid", "customer.subscription.created"]);
    expect(received.map((e) => e.id)).toEqual(flushed);
    expect((await control("/events/redeliver-nope", {})).status).toBe(404);
  });

  it("refuses cross-origin control calls", async () => {
    const res = await fetch(`${sim.url}/sim/clock`, { method: "POST", headers: { "content-type": "application/json", origin: "https://evil.example" }, body: JSON.stringify({ advanceSeconds: DAY }) });
    expect(res.status).toBe(403);
  });
});
