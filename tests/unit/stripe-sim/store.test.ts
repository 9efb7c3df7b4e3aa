/**
 * Stripe simulator pieces without HTTP: period arithmetic (month ends), the Stripe-Signature header
 * (verified by the SDK's own `constructEvent`), and the store's clock walking renewals in order.
 */
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { CARDS, StripeStore, addInterval, nextBoundary } from "../../../server/stripe-sim/store";
import { signatureHeader } from "../../../server/stripe-sim/webhooks";

const at = (iso: string) => Date.parse(iso) / 1000;
const iso = (sec: number) => new Date(sec * 1000).toISOString();

describe("addInterval", () => {
  it("nextBoundary counts from the anchor", () => {
    const anchor = at("2026-01-31T00:00:00Z");
    expect(iso(nextBoundary(anchor, "month", 1, at("2026-02-28T00:00:00Z")))).toBe("2026-03-31T00:00:00.000Z");
  });

  it("keeps the day of month, clamped to the month's end", () => {
    expect(iso(addInterval(at("2026-01-31T10:00:00Z"), "month", 1))).toBe("2026-02-28T10:00:00.000Z");
    expect(iso(addInterval(at("2026-11-15T00:00:00Z"), "month", 2))).toBe("2027-01-15T00:00:00.000Z");
    expect(iso(addInterval(at("2028-02-29T00:00:00Z"), "year", 1))).toBe("2029-02-28T00:00:00.000Z");
    expect(addInterval(100, "week", 2)).toBe(100 + 14 * 86_400);
  });
});

describe("signatureHeader", () => {
  it("is accepted by stripe.webhooks.constructEvent, and refused with another secret", () => {
    const stripe = new Stripe("sk_test_x");
    const payload = JSON.stringify({ id: "evt_1", object: "event", type: "invoice.paid" });
    const header = signatureHeader(payload, "whsec_a", Math.floor(Date.now() / 1000));
    expect(stripe.webhooks.constructEvent(payload, header, "whsec_a").id).toBe("evt_1");
    expect(() => stripe.webhooks.constructEvent(payload, header, "whsec_b")).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });
});

describe("StripeStore clock", () => {
  it("renews each period in order over a long jump and fails when the card on file fails", () => {
    const types: string[] = [];
    const store = new StripeStore({ now: () => Date.parse("2026-01-31T12:00:00Z"), onEvent: (e) => types.push(e.type as string) });
    const price = store.createPrice({ product_data: { name: "Mensal" }, unit_amount: "9700", currency: "BRL", recurring: { interval: "month" } });
    const customer = store.createCustomer({ email: "a@b.c" });
    const session = store.createCheckoutSession({ mode: "subscription", customer: customer.id, line_items: [{ price: price.id }], success_url: "http://x" }, "http://sim");
    store.payCheckoutSession(session.id, CARDS.ok);
    types.length = 0;
    store.advance(90 * 86_400);
    expect(types).toEqual(Array(3).fill(["customer.subscription.updated", "invoice.paid"]).flat());
    const sub = store.get("subscription", session.subscription as string);
    const item = (sub.items as { data: { current_period_start: number }[] }).data[0]!;
    // Anchored on the 31st: Feb 28, Mar 31, Apr 30 (Stripe's billing cycle anchor).
    expect(iso(item.current_period_start)).toBe("2026-04-30T12:00:00.000Z");
    store.cards.set(customer.id, CARDS.failsLater);
    store.advance(31 * 86_400);
    expect(sub.status).toBe("past_due");
    expect(types.at(-1)).toBe("invoice.payment_failed");
  });
});
