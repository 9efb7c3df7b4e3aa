/**
 * Which subscription a Stripe event is about, and the period and summary read from a subscription
 * (app/services/billing/subscription-sync.server.ts, stripe-events.server.ts), on the hand-written Stripe reply
 * shapes of API version 2026-10-28 (tests/integration/stripe-sim/fixtures): an invoice's subscription
 * is under `parent.subscription_details`, a subscription's period under its items.
 */
import type Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { subscriptionOfEvent } from "../../../app/services/billing/stripe-events.server";
import { idOf, subscriptionPeriod, summarize } from "../../../app/services/billing/subscription-sync.server";
import invoice from "../../integration/stripe-sim/fixtures/invoice.json";
import session from "../../integration/stripe-sim/fixtures/checkout.session.json";
import subscription from "../../integration/stripe-sim/fixtures/subscription.json";

const event = (type: string, object: unknown) => ({ id: "evt_1", object: "event", type, created: 1, livemode: false, data: { object } }) as unknown as Stripe.Event;
const sub = subscription as unknown as Stripe.Subscription;

describe("subscriptionOfEvent", () => {
  it("reads an invoice's subscription from parent.subscription_details", () => {
    const id = (invoice as { parent: { subscription_details: { subscription: string } } }).parent.subscription_details.subscription;
    expect(id).toMatch(/^sub_/);
    expect(subscriptionOfEvent(event("invoice.paid", invoice))).toBe(id);
    expect(subscriptionOfEvent(event("invoice.payment_failed", invoice))).toBe(id);
  });

  it("takes a subscription event's own id", () => {
    for (const t of ["customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted"])
      expect(subscriptionOfEvent(event(t, sub))).toBe(sub.id);
  });

  it("acts on a completed checkout only when it is paid (or needs no payment)", () => {
    const paid = { ...session, mode: "subscription", status: "complete", payment_status: "paid", subscription: "sub_123" };
    expect(subscriptionOfEvent(event("checkout.session.completed", paid))).toBe("sub_123");
    expect(subscriptionOfEvent(event("checkout.session.completed", { ...paid, payment_status: "no_payment_required" }))).toBe("sub_123");
    expect(subscriptionOfEvent(event("checkout.session.completed", { ...paid, payment_status: "unpaid" }))).toBeNull();
    expect(subscriptionOfEvent(event("checkout.session.completed", { ...paid, mode: "payment" }))).toBeNull();
  });

  it("ignores other event types", () => {
    expect(subscriptionOfEvent(event("charge.succeeded", { id: "ch_1" }))).toBeNull();
  });
});

describe("subscription period and summary", () => {
  it("takes the period from the items (not the removed top-level fields)", () => {
    const item = sub.items.data[0]!;
    expect(subscriptionPeriod(sub)).toEqual({ start: item.current_period_start, end: item.current_period_end });
    const twoItems = { ...sub, items: { ...sub.items, data: [item, { ...item, current_period_start: item.current_period_start - 10, current_period_end: item.current_period_end + 10 }] } } as Stripe.Subscription;
    expect(subscriptionPeriod(twoItems)).toEqual({ start: item.current_period_start - 10, end: item.current_period_end + 10 });
  });

  it("summarises price, product and period for the pages", () => {
    const s = summarize(sub, "Mensal");
    const price = sub.items.data[0]!.price;
    expect(s).toMatchObject({ id: sub.id, status: sub.status, cancel_at_period_end: sub.cancel_at_period_end, price: { id: price.id, unit_amount: price.unit_amount, currency: price.currency }, product: { name: "Mensal" } });
    expect(s.current_period_end).toBe(sub.items.data[0]!.current_period_end);
  });

  it("idOf reads ids and expanded objects", () => {
    expect(idOf("cus_1")).toBe("cus_1");
    expect(idOf({ id: "cus_2" })).toBe("cus_2");
    expect(idOf(null)).toBeNull();
  });
});
