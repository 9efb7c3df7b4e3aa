/**
 * The trading day the user chooses (issue 22, core/risk/trading-day.ts `tradingDay`): local midnight in
 * the user's timezone (default) or the 17:00 New York close FX brokers use, DST-aware on both sides.
 */
import { describe, expect, it } from "vitest";
import { nextTradingDayStart, tradingDay, tradingDayStart } from "../../../core/risk";

/** [start, end) as ISO strings and the day's name, for compact assertions. */
function day(at: string, tz: string, boundary: "local_midnight" | "ny_close") {
  const d = tradingDay(new Date(at), tz, boundary);
  return [d.start.toISOString(), d.end.toISOString(), d.date];
}

const H = 3_600_000;

describe("ny_close: 17:00 New York to 17:00 New York, named by the closing day", () => {
  it("winter (EST, 22:00 UTC): one second before and at 17:00", () => {
    expect(day("2026-01-06T21:59:59Z", "America/Sao_Paulo", "ny_close")).toEqual(["2026-01-05T22:00:00.000Z", "2026-01-06T22:00:00.000Z", "2026-01-06"]);
    expect(day("2026-01-06T22:00:00Z", "America/Sao_Paulo", "ny_close")).toEqual(["2026-01-06T22:00:00.000Z", "2026-01-07T22:00:00.000Z", "2026-01-07"]);
  });
  it("summer (EDT, 21:00 UTC): one second before and at 17:00", () => {
    expect(day("2026-07-15T20:59:59Z", "America/Sao_Paulo", "ny_close")).toEqual(["2026-07-14T21:00:00.000Z", "2026-07-15T21:00:00.000Z", "2026-07-15"]);
    expect(day("2026-07-15T21:00:00Z", "America/Sao_Paulo", "ny_close")).toEqual(["2026-07-15T21:00:00.000Z", "2026-07-16T21:00:00.000Z", "2026-07-16"]);
  });
  it("New York DST changes: 23 h on 2026-03-08, 25 h on 2026-11-01", () => {
    const spring = tradingDay(new Date("2026-03-08T12:00:00Z"), "UTC", "ny_close");
    expect([spring.start.toISOString(), spring.end.toISOString(), spring.date]).toEqual(["2026-03-07T22:00:00.000Z", "2026-03-08T21:00:00.000Z", "2026-03-08"]);
    expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * H);
    const fall = tradingDay(new Date("2026-11-01T12:00:00Z"), "UTC", "ny_close");
    expect([fall.start.toISOString(), fall.end.toISOString(), fall.date]).toEqual(["2026-10-31T21:00:00.000Z", "2026-11-01T22:00:00.000Z", "2026-11-01"]);
    expect(fall.end.getTime() - fall.start.getTime()).toBe(25 * H);
  });
  it("weekends: Friday's close starts Saturday's (closed) day, Sunday's 17:00 open starts Monday's", () => {
    // 2026-01-09 is a Friday.
    expect(day("2026-01-09T21:59:00Z", "UTC", "ny_close")[2]).toBe("2026-01-09");
    expect(day("2026-01-09T22:00:00Z", "UTC", "ny_close")).toEqual(["2026-01-09T22:00:00.000Z", "2026-01-10T22:00:00.000Z", "2026-01-10"]);
    expect(day("2026-01-11T21:59:00Z", "UTC", "ny_close")).toEqual(["2026-01-10T22:00:00.000Z", "2026-01-11T22:00:00.000Z", "2026-01-11"]);
    expect(day("2026-01-11T22:05:00Z", "UTC", "ny_close")).toEqual(["2026-01-11T22:00:00.000Z", "2026-01-12T22:00:00.000Z", "2026-01-12"]);
  });
  it("does not depend on the user's timezone (an unknown one included)", () => {
    const at = "2026-01-06T23:00:00Z";
    expect(day(at, "Asia/Tokyo", "ny_close")).toEqual(day(at, "America/Sao_Paulo", "ny_close"));
    expect(day(at, "Not/AZone", "ny_close")).toEqual(day(at, "America/Sao_Paulo", "ny_close"));
    expect(tradingDayStart(new Date(at), "Europe/Lisbon", "ny_close").toISOString()).toBe("2026-01-06T22:00:00.000Z");
    expect(nextTradingDayStart(new Date(at), "Europe/Lisbon", "ny_close").toISOString()).toBe("2026-01-07T22:00:00.000Z");
  });
});

describe("local_midnight (the default): local midnight to the next one in the user's timezone", () => {
  it("is the default and matches tradingDayStart / nextTradingDayStart", () => {
    const at = new Date("2026-01-06T23:00:00Z"); // 20:00 in São Paulo
    expect(tradingDay(at)).toEqual(tradingDay(at, "America/Sao_Paulo", "local_midnight"));
    expect(day(at.toISOString(), "America/Sao_Paulo", "local_midnight")).toEqual(["2026-01-06T03:00:00.000Z", "2026-01-07T03:00:00.000Z", "2026-01-06"]);
    expect(tradingDayStart(at).toISOString()).toBe("2026-01-06T03:00:00.000Z");
    expect(nextTradingDayStart(at).toISOString()).toBe("2026-01-07T03:00:00.000Z");
  });
  it("São Paulo DST start (2018-11-04, midnight skipped to 01:00): the day starts at 01:00, the one before ends there", () => {
    expect(day("2018-11-04T12:00:00Z", "America/Sao_Paulo", "local_midnight")).toEqual(["2018-11-04T03:00:00.000Z", "2018-11-05T02:00:00.000Z", "2018-11-04"]);
    // 23:30 on 2018-11-03 (UTC−3): the 3rd runs a full 24 h up to the skipped midnight.
    expect(day("2018-11-04T02:30:00Z", "America/Sao_Paulo", "local_midnight")).toEqual(["2018-11-03T03:00:00.000Z", "2018-11-04T03:00:00.000Z", "2018-11-03"]);
  });
  it("São Paulo DST end (2019-02-17, 00:00 back to 23:00): the 16th lasts 25 h", () => {
    const d = tradingDay(new Date("2019-02-17T02:30:00Z"), "America/Sao_Paulo", "local_midnight"); // the second 23:30 of the 16th
    expect([d.start.toISOString(), d.end.toISOString(), d.date]).toEqual(["2019-02-16T02:00:00.000Z", "2019-02-17T03:00:00.000Z", "2019-02-16"]);
    expect(d.end.getTime() - d.start.getTime()).toBe(25 * H);
  });
  it("weekends are ordinary local days", () => {
    expect(day("2026-01-10T15:00:00Z", "America/Sao_Paulo", "local_midnight")).toEqual(["2026-01-10T03:00:00.000Z", "2026-01-11T03:00:00.000Z", "2026-01-10"]);
  });
  it("an unknown timezone throws RangeError", () => {
    expect(() => tradingDay(new Date(), "Not/AZone", "local_midnight")).toThrow(RangeError);
  });
});
