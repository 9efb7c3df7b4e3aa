/**
 * The pure parts of the admin plans and subscriptions (issue 10): the plan body schema (defaults,
 * empty features dropped, the Stripe interval bound, messages in pt/en/es), price units ↔ cents of the
 * page form, the monthly value of a subscription item and the Stripe dashboard link; and the
 * catalogs (app `admin-billing`, core `admin-plans`) have the same keys and parameters in pt/en/es.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
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

describe("catalogs", () => {
  const root = join(__dirname, "../../..");
  const read = (dir: string, lang: string, ns: string) => JSON.parse(readFileSync(join(root, dir, lang, `${ns}.json`), "utf8")) as Record<string, unknown>;
  const leaves = (obj: Record<string, unknown>, prefix = ""): [string, string][] =>
    Object.entries(obj).flatMap(([k, v]) => (typeof v === "object" && v !== null ? leaves(v as Record<string, unknown>, `${prefix}${k}.`) : [[`${prefix}${k}`, String(v)] as [string, string]]));
  const shape = (obj: Record<string, unknown>) => leaves(obj).map(([k, v]) => `${k}:${[...v.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort().join(",")}`).sort();
  it.each([
    ["app/i18n/locales", "admin-billing"],
    ["core/i18n/locales", "admin-plans"],
  ])("%s/*/%s.json: en and es have the pt keys and parameters, no empty text", (dir, ns) => {
    const pt = read(dir, "pt", ns);
    for (const lang of ["en", "es"]) {
      const other = read(dir, lang, ns);
      expect(shape(other), `${lang}/${ns}`).toEqual(shape(pt));
      for (const [key, text] of leaves(other)) expect(text.trim(), key).not.toBe("");
    }
  });
});
