/**
 * One rule for a plan's monthly price (core/plans.ts; issue 23 item 3): the admin dashboard's revenue
 * and the subscriptions' MRR normalise a price to one month the same way.
 */
import { describe, expect, it } from "vitest";
import { monthlyCents } from "../../../core/plans";
import { monthlyCents as dashboardMonthly } from "~/services/admin/dashboard.server";
import { monthlyCents as subscriptionMonthly } from "~/services/admin/subscriptions.server";

describe("monthly price of a plan", () => {
  it("a yearly price counts 1/12, the interval count divides, weeks and days by the calendar", () => {
    expect(monthlyCents(9990, "month", 1)).toBe(9990);
    expect(monthlyCents(12_000, "year", 1)).toBe(1000);
    expect(monthlyCents(6000, "month", 3)).toBe(2000);
    expect(monthlyCents(240_000, "year", 2)).toBe(10_000);
    expect(monthlyCents(1200, "week", 1)).toBe(5200);
    expect(monthlyCents(1200, "day", 1)).toBe(36_500);
  });
  it("an unknown interval counts as a month; a missing or bad interval count as 1", () => {
    expect(monthlyCents(500, "fortnight", 1)).toBe(500);
    expect(monthlyCents(500, "constructor", 1)).toBe(500);
    expect(monthlyCents(12_000, "year", 0)).toBe(1000);
    expect(monthlyCents(12_000, "year", Number.NaN)).toBe(1000);
  });
  it("the dashboard and the subscriptions' MRR agree on every plan", () => {
    for (const [cents, interval, count] of [[9990, "month", 1], [12_000, "year", 1], [27_000, "month", 3], [99_900, "year", 2]] as const) {
      expect(dashboardMonthly(cents, interval, count)).toBe(subscriptionMonthly(cents, 1, interval, count));
    }
  });
});
