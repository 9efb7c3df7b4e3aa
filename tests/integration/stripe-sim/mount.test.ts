/**
 * Mounting the Stripe simulator inside another Express app, as the product will: `api` (`/v1`) at
 * the app's root — the SDK has no base-path option — and `ui` (hosted pages, control API) under a
 * prefix named by `publicUrl`. Also: a checkout session expires after 24 simulated hours.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import Stripe from "stripe";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createStripeSimulator, type StripeSimulator } from "../../../server/stripe-sim";

let server: Server;
let sim: StripeSimulator;
let stripe: Stripe;
let base: string;

beforeAll(async () => {
  const app = express();
  app.get("/", (_req, res) => res.send("the product"));
  server = createServer(app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  sim = createStripeSimulator({ publicUrl: `${base}/stripe-sim` });
  app.use(sim.api);
  app.use("/stripe-sim", sim.ui);
  stripe = new Stripe("sk_test_mount", { host: "127.0.0.1", port, protocol: "http", maxNetworkRetries: 0 });
});
afterAll(async () => {
  sim?.stop();
  await new Promise((r) => server?.close(r));
});

async function session() {
  const price = await stripe.prices.create({ product_data: { name: "Anual" }, unit_amount: 97000, currency: "brl", recurring: { interval: "year" } });
  return stripe.checkout.sessions.create({ mode: "subscription", customer_email: "x@example.com", line_items: [{ price: price.id }], success_url: `${base}/ok?s={CHECKOUT_SESSION_ID}`, cancel_url: `${base}/no` });
}

it("serves /v1 at the root and the pages under the prefix", async () => {
  expect(await (await fetch(base)).text()).toBe("the product");
  const s = await session();
  expect(s.url).toBe(`${base}/stripe-sim/checkout/${s.id}`);
  const pay = await fetch(`${s.url!}/pay`, { method: "POST", redirect: "manual", body: new URLSearchParams({ card: "4242424242424242" }) });
  expect(pay.headers.get("location")).toBe(`${base}/ok?s=${s.id}`);
  const done = await stripe.checkout.sessions.retrieve(s.id, { expand: ["customer", "line_items"] });
  expect((done.customer as Stripe.Customer).email).toBe("x@example.com");
  expect(done.line_items!.data[0]!.amount_total).toBe(97000);
  const clock = await fetch(`${base}/stripe-sim/sim/clock`);
  expect(clock.status).toBe(200);
});

it("after a declined card the page's form and cancel link still point at the session (not relative to …/pay)", async () => {
  const s = await session();
  const declined = await fetch(`${s.url!}/pay`, { method: "POST", redirect: "manual", body: new URLSearchParams({ card: "4000000000000002" }) });
  expect(declined.status).toBe(402);
  const html = await declined.text();
  expect(html).toContain(`action="/stripe-sim/checkout/${s.id}/pay"`);
  expect(html).toContain(`href="/stripe-sim/checkout/${s.id}/cancel"`);
  const retry = await fetch(new URL(`/stripe-sim/checkout/${s.id}/pay`, base), { method: "POST", redirect: "manual", body: new URLSearchParams({ card: "4242424242424242" }) });
  expect(retry.status).toBe(303);
});

it("expires an unpaid checkout session after 24 hours", async () => {
  const s = await session();
  sim.advanceClock(86_400);
  expect((await stripe.checkout.sessions.retrieve(s.id)).status).toBe("expired");
  expect((await fetch(s.url!)).status).toBe(410);
  const pay = await fetch(`${s.url!}/pay`, { method: "POST", redirect: "manual", body: new URLSearchParams({ card: "4242424242424242" }) });
  expect(pay.status).toBe(410);
  expect((await stripe.checkout.sessions.retrieve(s.id)).status).toBe("expired");
});
