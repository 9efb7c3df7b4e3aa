/**
 * One home for the time-zone rules (core/risk/trading-day.ts; issue 23 item 3): which zone names are
 * usable, the fallback to America/Sao_Paulo, the local calendar date of an instant, and the display
 * helpers (app/lib) reading the same rule.
 */
import { describe, expect, it } from "vitest";
import { assertTimezone, DEFAULT_TIMEZONE, knownTimezone, localDate, localMidnight, resolveTimezone } from "../../../core/risk";
import { csvFileName } from "../../../app/lib/history";
import { zonedParts } from "../../../app/lib/format";

describe("time-zone rules in core", () => {
  it("a known IANA name is kept; an unknown, empty or missing one is undefined (known) or São Paulo (resolved)", () => {
    expect(knownTimezone("Europe/Lisbon")).toBe("Europe/Lisbon");
    for (const bad of ["Not/AZone", "", null, undefined]) {
      expect(knownTimezone(bad)).toBeUndefined();
      expect(resolveTimezone(bad)).toBe(DEFAULT_TIMEZONE);
    }
    expect(DEFAULT_TIMEZONE).toBe("America/Sao_Paulo");
    expect(() => assertTimezone("Not/AZone")).toThrow(RangeError);
    expect(() => assertTimezone("Asia/Tokyo")).not.toThrow();
  });
  it("the local date of an instant: the day in that zone, across midnight and DST", () => {
    const t = Date.parse("2026-01-05T02:00:00Z");
    expect(localDate(t, "America/Sao_Paulo")).toBe("2026-01-04");
    expect(localDate(new Date(t), "Asia/Tokyo")).toBe("2026-01-05");
    expect(localDate(localMidnight(2025, 10, 26, "Europe/Lisbon"), "Europe/Lisbon")).toBe("2025-10-26");
    expect(() => localDate(t, "Not/AZone")).toThrow(RangeError);
  });
  it("the CSV file name and the display fields use the same local day", () => {
    const t = Date.parse("2026-01-05T02:00:00Z");
    expect(csvFileName(t, "America/Sao_Paulo")).toBe("historico-trades-2026-01-04.csv");
    expect(zonedParts(t, "America/Sao_Paulo")).toEqual({ year: 2026, month: 1, day: 4, hour: 23, minute: 0 });
  });
});
