/**
 * The pure parts of the admin plans and subscriptions (issue 10): the plan body schema (defaults,
 * empty features dropped, the Stripe interval bound, messages in pt/en/es), price units ↔ cents of the
 * page form, the monthly value of a subscription item and the Stripe dashboard link.
 */
import { describe, expect, it } from "vitest";
import { decodeIssueMessage } from "../../../core/i18n/zod-message";
import { translateMsg } from "../../../app/i18n";
import { centsToUnits, planInputSchema, unitsToCents } from "../../../app/lib/admin-plans";
import { dashboardUrl, monthlyCents } from "../../../app/services/admin/subscriptions.server";

describe("planInputSchema", () => {
  it("defaults: BRL, 30 days, month × 1, no features, not highlighted; empty features dropped; currency upper-cased", () => {
    expect(planInputSchema.parse({ name: " Pro ", description: "D", price: 0 })).toEqual({
      name: "Pro",
      description: "D",
      price: 0,
      currency: "BRL",
      durationDays: 30,
      interval: "month",
      intervalCount: 1,
      features: [],
      isHighlighted: false,
    });
    expect(planInputSchema.parse({ name: "P", description: "D", price: 1, currency: "usd", features: [" a ", "", "  ", "b"] })).toMatchObject({ currency: "USD", features: ["a", "b"] });
  });

  it("Stripe's bound: at most 3 years or 36 months", () => {
    expect(planInputSchema.safeParse({ name: "P", description: "D", price: 1, interval: "month", intervalCount: 36 }).success).toBe(true);
    expect(planInputSchema.safeParse({ name: "P", description: "D", price: 1, interval: "year", intervalCount: 3 }).success).toBe(true);
    const r = planInputSchema.safeParse({ name: "P", description: "D", price: 1, interval: "year", intervalCount: 4 });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["intervalCount"]);
  });

  it("messages in pt, en and es", () => {
    const text = planInputSchema.safeParse({ name: "P", description: "D", price: 1.5 }).error!.issues[0]!.message;
    expect(text).toBe("O preço deve ser um número inteiro de centavos, maior ou igual a zero.");
    const m = decodeIssueMessage(text);
    expect(translateMsg(m, "en")).toBe("The price must be a whole number of cents, zero or more.");
    expect(translateMsg(m, "es")).toBe("El precio debe ser un número entero de centavos, mayor o igual a cero.");
  });
});

describe("price units ↔ cents (the page form)", () => {
  it.each([
    ["97", 9700],
    ["97.5", 9750],
    ["97,50", 9750],
    ["0.01", 1],
    [" 123.45 ", 12345],
    ["0", 0],
  ])("%j → %d", (text, cents) => expect(unitsToCents(text)).toBe(cents));

  it.each(["", "abc", "-1", "1.234", "1.234,56", "1e3", "97."])("%j is refused", (text) => expect(unitsToCents(text)).toBeNull());

  it("cents back to units with two decimals", () => {
    expect([centsToUnits(9700), centsToUnits(5), centsToUnits(12345)]).toEqual(["97.00", "0.05", "123.45"]);
  });
});

describe("monthly value and dashboard link", () => {
  it("monthly: as is; yearly / 12; × quantity; / interval count", () => {
    expect(monthlyCents(9700, 1, "month", 1)).toBe(9700);
    expect(monthlyCents(120_000, 2, "year", 1)).toBe(20_000);
    expect(monthlyCents(27_000, 1, "month", 3)).toBe(9000);
    expect(monthlyCents(240_000, 1, "year", 2)).toBe(10_000);
  });

  it("Stripe's dashboard, /test/ outside live mode", () => {
    expect(dashboardUrl("sub_1", false)).toBe("https://dashboard.stripe.com/test/subscriptions/sub_1");
    expect(dashboardUrl("sub_1", true)).toBe("https://dashboard.stripe.com/subscriptions/sub_1");
  });
});
