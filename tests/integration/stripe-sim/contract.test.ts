/**
 * Contract of the Stripe simulator: its raw JSON replies against reply shapes written by hand from
 * Stripe's API reference for the version the `stripe` SDK pins (2026-10-28.endive, fixtures/*.json).
 * Same keys at every level (no key missing, none invented; `metadata` is a free map, lists are
 * compared through their first element) and the same JSON type wherever both sides are non-null
 * (a null in the fixture stands for a nullable field).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STRIPE_API_VERSION, startStripeSimulator } from "../../../server/stripe-sim";

const fixture = (name: string): unknown => JSON.parse(readFileSync(join(import.meta.dirname, "fixtures", `${name}.json`), "utf8"));
const jsonType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Differences between a recorded shape and an actual reply, as "path: problem" lines. */
function shapeDiff(expected: unknown, actual: unknown, path = "$", skip: string[] = []): string[] {
  if (skip.includes(path) || expected === null || actual === null) return [];
  if (jsonType(expected) !== jsonType(actual)) return [`${path}: ${jsonType(actual)} instead of ${jsonType(expected)}`];
  if (Array.isArray(expected)) {
    const [e] = expected, [a] = actual as unknown[];
    return e === undefined || a === undefined ? [] : shapeDiff(e, a, `${path}[0]`, skip);
  }
  if (typeof expected !== "object" || path.endsWith(".metadata")) return [];
  const exp = expected as Record<string, unknown>, act = actual as Record<string, unknown>;
  return [
    ...Object.keys(exp).filter((k) => !(k in act)).map((k) => `${path}.${k}: missing`),
    ...Object.keys(act).filter((k) => !(k in exp)).map((k) => `${path}.${k}: not in Stripe's shape`),
    ...Object.keys(exp).filter((k) => k in act).flatMap((k) => shapeDiff(exp[k], act[k], `${path}.${k}`, skip)),
  ];
}

let sim: Awaited<ReturnType<typeof startStripeSimulator>>;
const replies: Record<string, { status: number; body: unknown }> = {};

async function raw(method: string, path: string, body?: Record<string, string>) {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { authorization: "Bearer sk_test_contract", "stripe-version": STRIPE_API_VERSION, ...(body && { "content-type": "application/x-www-form-urlencoded" }) },
    body: body && new URLSearchParams(body),
  });
  return { status: res.status, body: (await res.json()) as unknown, headers: res.headers };
}

beforeAll(async () => {
  sim = await startStripeSimulator({});
  const stripe = new Stripe("sk_test_contract", { host: "127.0.0.1", port: sim.port, protocol: "http", maxNetworkRetries: 0 });
  const product = await stripe.products.create({ name: "Mensal" });
  const price = await stripe.prices.create({ product: product.id, unit_amount: 9700, currency: "brl", recurring: { interval: "month" } });
  const customer = await stripe.customers.create({ email: "trader@example.com" });
  const session = await stripe.checkout.sessions.create({
    mode: "subscription", customer: customer.id, client_reference_id: "42", line_items: [{ price: price.id, quantity: 1 }],
    success_url: "https://app.example/subscription/success?session_id={CHECKOUT_SESSION_ID}", cancel_url: "https://app.example/subscription/canceled",
  });
  await fetch(`${session.url!}/pay`, { method: "POST", redirect: "manual", body: new URLSearchParams({ card: "4242424242424242" }) });
  const sub = (await stripe.subscriptions.list({ customer: customer.id })).data[0]!;
  const portal = await stripe.billingPortal.sessions.create({ customer: customer.id, return_url: "https://app.example/billing" });
  replies.product = await raw("GET", `/v1/products/${product.id}`);
  replies.price = await raw("GET", `/v1/prices/${price.id}`);
  replies.customer = await raw("GET", `/v1/customers/${customer.id}`);
  replies["checkout.session"] = await raw("GET", `/v1/checkout/sessions/${session.id}`);
  replies.subscription = await raw("GET", `/v1/subscriptions/${sub.id}`);
  replies.invoice = await raw("GET", `/v1/invoices/${sub.latest_invoice as string}`);
  replies["billing_portal.session"] = await raw("POST", "/v1/billing_portal/sessions", { customer: customer.id, return_url: "https://app.example/billing" });
  replies.event = await raw("GET", `/v1/events?type=invoice.paid&limit=1`).then((r) => ({ status: r.status, body: (r.body as { data: unknown[] }).data[0] }));
  replies.list = await raw("GET", "/v1/customers?email=nobody@example.com");
  replies["error-missing-param"] = await raw("POST", "/v1/checkout/sessions", { mode: "subscription", success_url: "https://x.example" });
  replies["error-resource-missing"] = await raw("GET", "/v1/customers/cus_nope");
  expect(portal.url).toContain("/portal/bps_");
});
afterAll(async () => {
  await sim?.close();
});

describe("Stripe simulator replies match Stripe's recorded shapes", () => {
  it.each(["product", "price", "customer", "checkout.session", "subscription", "invoice", "billing_portal.session", "event", "list"])("%s", (name) => {
    expect(replies[name]!.status).toBe(200);
    expect(shapeDiff(fixture(name), replies[name]!.body, "$", ["$.data.object"])).toEqual([]);
    const id = (replies[name]!.body as { id?: string }).id;
    const expectedId = (fixture(name) as { id?: string }).id;
    if (expectedId) expect(id).toMatch(new RegExp(`^${expectedId.split("_").slice(0, -1).join("_")}_`));
  });

  it("an event's data.object is the object's full shape", () => {
    const event = replies.event!.body as { data: { object: unknown } };
    expect(shapeDiff(fixture("invoice"), event.data.object)).toEqual([]);
  });

  it.each([["error-missing-param", 400], ["error-resource-missing", 404]] as const)("%s", (name, status) => {
    expect(replies[name]!.status).toBe(status);
    expect(shapeDiff(fixture(name), replies[name]!.body)).toEqual([]);
    expect(replies[name]!.body).toEqual(fixture(name));
  });

  it("the differ catches a missing key, an invented key and a wrong type (self-check)", () => {
    expect(shapeDiff({ a: 1, b: { c: "x" }, d: null }, { a: "1", b: {}, e: 2, d: 5 })).toEqual(["$.e: not in Stripe's shape", "$.a: string instead of number", "$.b.c: missing"]);
  });
});
