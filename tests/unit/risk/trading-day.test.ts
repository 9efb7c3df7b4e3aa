import { describe, expect, it } from "vitest";
import { nextTradingDayStart, tradingDayStart } from "../../../core/risk";

describe("trading day boundary (local midnight, PRODUCT.md §9)", () => {
  it("America/Sao_Paulo (UTC−3): the day starts at 03:00 UTC", () => {
    expect(tradingDayStart(new Date("2026-01-05T02:59:59Z")).toISOString()).toBe("2026-01-04T03:00:00.000Z");
    expect(tradingDayStart(new Date("2026-01-05T03:00:00Z")).toISOString()).toBe("2026-01-05T03:00:00.000Z");
    expect(nextTradingDayStart(new Date("2026-01-05T03:00:00Z")).toISOString()).toBe("2026-01-06T03:00:00.000Z");
    expect(nextTradingDayStart(new Date("2026-12-31T12:00:00Z")).toISOString()).toBe("2027-01-01T03:00:00.000Z");
  });
  it("handles DST (America/New_York, 2016-03-13)", () => {
    expect(tradingDayStart(new Date("2016-03-13T12:00:00Z"), "America/New_York").toISOString()).toBe("2016-03-13T05:00:00.000Z");
    expect(tradingDayStart(new Date("2016-03-14T12:00:00Z"), "America/New_York").toISOString()).toBe("2016-03-14T04:00:00.000Z");
    expect(nextTradingDayStart(new Date("2016-03-13T12:00:00Z"), "America/New_York").toISOString()).toBe("2016-03-14T04:00:00.000Z");
  });
  it("UTC and east of UTC", () => {
    expect(tradingDayStart(new Date("2026-06-01T23:30:00Z"), "UTC").toISOString()).toBe("2026-06-01T00:00:00.000Z");
    expect(tradingDayStart(new Date("2026-06-01T23:30:00Z"), "Europe/Lisbon").toISOString()).toBe("2026-06-01T23:00:00.000Z");
  });
});
