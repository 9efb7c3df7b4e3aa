/**
 * News blackout semantics (issue 11, ADR 0018): window edges, sensitivity mapping, impacted pairs,
 * overlapping events, the executor port, the hero's upcoming list, and the two source parsers.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  blackoutAt,
  CalendarIndex,
  eventKey,
  newsCalendar,
  parseCalendarCsv,
  parseFeed,
  upcoming,
  type CalendarEvent,
  type Impact,
  type NewsSettings,
} from "../../../core/calendar";
import { defaultSettings } from "../../../core/settings";

const root = path.resolve(import.meta.dirname, "../../..");
const news = (over: Partial<NewsSettings> = {}): NewsSettings => ({ ...defaultSettings().aiSettings.news, ...over });
const ev = (iso: string, currency: string, impact: Impact, title: string): CalendarEvent => ({ time: new Date(iso), currency, impact, title });
const at = (iso: string) => new Date(iso);

const NFP = ev("2026-01-09T13:30:00Z", "USD", "high", "Non-Farm Employment Change");

describe("window edges (defaults: 5 min before, 10 min after, both edges included)", () => {
  const idx = new CalendarIndex([NFP]);
  it.each([
    ["2026-01-09T13:24:59Z", false, "one second before the window opens"],
    ["2026-01-09T13:25:00Z", true, "exactly beforeMin before the event"],
    ["2026-01-09T13:30:00Z", true, "at the release"],
    ["2026-01-09T13:40:00Z", true, "exactly afterMin after the event"],
    ["2026-01-09T13:40:01Z", false, "one second after the window closes"],
  ])("%s → %s (%s)", (iso, active) => {
    expect(blackoutAt(idx, "EUR_USD", at(iso), news()).active).toBe(active);
  });

  it("follows the user's minutes (0 before, 240 after: bounds of PRODUCT.md §5)", () => {
    const s = news({ blackout: { beforeMin: 0, afterMin: 240 } });
    expect(blackoutAt(idx, "EUR_USD", at("2026-01-09T13:29:59Z"), s).active).toBe(false);
    expect(blackoutAt(idx, "EUR_USD", at("2026-01-09T17:30:00Z"), s).active).toBe(true);
    expect(blackoutAt(idx, "EUR_USD", at("2026-01-09T17:30:01Z"), s).active).toBe(false);
  });

  it("names the event and says until when", () => {
    const b = blackoutAt(idx, "EUR_USD", at("2026-01-09T13:28:00Z"), news());
    expect(b).toMatchObject({ active: true, event: "Non-Farm Employment Change (USD)" });
    expect(b.until?.toISOString()).toBe("2026-01-09T13:40:00.000Z");
  });

  it("never blocks when news is disabled", () => {
    expect(blackoutAt(idx, "EUR_USD", at("2026-01-09T13:30:00Z"), news({ enabled: false })).active).toBe(false);
  });
});

describe("sensitivity: low → high only; medium → high + medium; high → every impact", () => {
  const idx = new CalendarIndex([
    ev("2026-01-12T10:00:00Z", "EUR", "high", "H"),
    ev("2026-01-12T12:00:00Z", "EUR", "medium", "M"),
    ev("2026-01-12T14:00:00Z", "EUR", "low", "L"),
    ev("2026-01-12T00:00:00Z", "EUR", "non-economic", "Bank Holiday"),
  ]);
  const active = (sensitivity: NewsSettings["sensitivity"]) =>
    ["10:00", "12:00", "14:00", "00:00"].map((hm) => blackoutAt(idx, "EUR_USD", at(`2026-01-12T${hm}:00Z`), news({ sensitivity })).active);
  it.each([
    ["low", [true, false, false, false]],
    ["medium", [true, true, false, false]],
    ["high", [true, true, true, false]],
  ] as const)("%s", (sensitivity, expected) => {
    expect(active(sensitivity)).toEqual(expected);
  });
});

describe("impacted pairs", () => {
  const boj = ev("2026-01-23T03:00:00Z", "JPY", "high", "BOJ Policy Rate");
  const g7 = ev("2026-01-20T12:00:00Z", "All", "high", "G7 Meetings");
  const idx = new CalendarIndex([boj, g7]);
  it("a JPY event blacks out USD_JPY, not EUR_USD (impactedOnly on)", () => {
    expect(blackoutAt(idx, "USD_JPY", boj.time, news()).active).toBe(true);
    expect(blackoutAt(idx, "EUR_USD", boj.time, news()).active).toBe(false);
  });
  it("an 'All' event blacks out every pair", () => {
    for (const i of ["EUR_USD", "GBP_USD", "USD_JPY"]) expect(blackoutAt(idx, i, g7.time, news()).event).toBe("G7 Meetings (All)");
  });
  it("impactedOnly off: any event blacks out every pair", () => {
    expect(blackoutAt(idx, "EUR_USD", boj.time, news({ impactedOnly: false }))).toMatchObject({ active: true, event: "BOJ Policy Rate (JPY)" });
  });
});

describe("overlapping events", () => {
  it("names the most important, then the nearest; the blackout lasts until the last chained window ends", () => {
    const idx = new CalendarIndex([
      ev("2026-01-07T13:15:00Z", "USD", "medium", "ADP-ish"),
      ev("2026-01-07T13:20:00Z", "USD", "high", "Earlier high"),
      ev("2026-01-07T13:26:00Z", "USD", "high", "Nearer high"),
      ev("2026-01-07T13:45:00Z", "USD", "high", "Chained high"),
    ]);
    const b = blackoutAt(idx, "EUR_USD", at("2026-01-07T13:25:00Z"), news());
    expect(b.event).toBe("Nearer high (USD)");
    // 13:26 + 10 = 13:36 ≥ 13:45 − 5 = 13:40? no: chain stops at 13:36
    expect(b.until?.toISOString()).toBe("2026-01-07T13:36:00.000Z");
    const longer = blackoutAt(idx, "EUR_USD", at("2026-01-07T13:25:00Z"), news({ blackout: { beforeMin: 5, afterMin: 15 } }));
    expect(longer.until?.toISOString()).toBe("2026-01-07T14:00:00.000Z");
  });
});

describe("ports and the hero list", () => {
  const idx = new CalendarIndex([
    NFP,
    ev("2026-01-09T09:00:00Z", "EUR", "medium", "German Trade Balance"),
    ev("2026-01-09T23:50:00Z", "JPY", "medium", "Household Spending"),
    ev("2026-01-11T13:30:00Z", "USD", "high", "Too far"),
  ]);
  it("newsCalendar is the executor's port", () => {
    const cal = newsCalendar(idx, news());
    expect(cal.blackout("EUR_USD", at("2026-01-09T13:31:00Z"))).toMatchObject({ active: true, event: "Non-Farm Employment Change (USD)" });
    expect(cal.blackout("EUR_USD", at("2026-01-09T12:00:00Z"))).toEqual({ active: false });
  });
  it("upcoming lists the next 24 h for the user's pairs, a running blackout first", () => {
    const list = upcoming(idx, ["EUR_USD", "GBP_USD"], at("2026-01-09T09:05:00Z"), news());
    expect(list.map((u) => [u.event.title, u.active, u.instruments])).toEqual([
      ["German Trade Balance", true, ["EUR_USD"]],
      ["Non-Farm Employment Change", false, ["EUR_USD", "GBP_USD"]],
    ]);
    expect(upcoming(idx, ["USD_JPY"], at("2026-01-09T09:05:00Z"), news({ sensitivity: "low" })).map((u) => u.event.title)).toEqual(["Non-Farm Employment Change"]);
    expect(upcoming(idx, ["EUR_USD"], at("2026-01-09T09:05:00Z"), news({ enabled: false }))).toEqual([]);
  });
});

describe("sources", () => {
  it("parses the shipped CSV files (UTC, impacts, ids) and finds January 2026 events", () => {
    const dir = path.join(root, "data/calendar");
    const all = parseCalendarCsv(readFileSync(path.join(dir, "ff_calendar_2020-Q1_all_impacts.csv"), "utf8"));
    expect(all).toHaveLength(1208);
    expect(new Set(all.map((e) => e.impact))).toEqual(new Set(["high", "medium", "low", "non-economic"]));
    expect(all[0]).toMatchObject({ currency: "CAD", impact: "non-economic", title: "Bank Holiday", eventId: "113632" });
    expect(new Set(all.map(eventKey)).size).toBe(1208);
    const high = parseCalendarCsv(readFileSync(path.join(dir, "ff_high_impact_2025-07_2026-01.csv"), "utf8"));
    expect(high).toHaveLength(457);
    const nfp = high.find((e) => e.title === "Non-Farm Employment Change" && e.time.toISOString().startsWith("2026-01-09"));
    expect(nfp).toMatchObject({ currency: "USD", impact: "high", forecast: "66K", previous: "64K" });
    expect(nfp!.time.toISOString()).toBe("2026-01-09T13:30:00.000Z");
    expect(nfp!.actual).toBeUndefined();
  });

  it("refuses a CSV row with a bad time or impact, naming the line", () => {
    expect(() => parseCalendarCsv("time,currency,impact,event\n2026-01-09T13:30:00Z,USD,huge,X\n", "f.csv")).toThrow(/f\.csv: linha 2/);
    expect(() => parseCalendarCsv("time,currency,impact,event\nontem,USD,high,X\n")).toThrow(/linha 2/);
  });

  it("converts the feed's New York offsets to UTC across daylight saving, maps impacts, skips bad items", () => {
    const { events, skipped } = parseFeed([
      { title: "Non-Farm Employment Change", country: "USD", date: "2025-07-03T08:30:00-04:00", impact: "High", forecast: "111K", previous: "139K" },
      { title: "Non-Farm Employment Change", country: "USD", date: "2026-01-09T08:30:00-05:00", impact: "High", forecast: "", previous: "64K" },
      { title: "German Ifo", country: "EUR", date: "2026-01-26T04:00:00-05:00", impact: "Medium", forecast: "88.2", previous: "87.6" },
      { title: "Bank Holiday", country: "JPY", date: "2026-01-12T00:00:00-05:00", impact: "Holiday", forecast: "", previous: "" },
      { title: "OPEC", country: "All", date: "2026-01-20T07:00:00-05:00", impact: "Low" },
      { title: "no date", country: "USD", impact: "High" },
      { title: "bad date", country: "USD", date: "amanhã", impact: "High" },
    ]);
    expect(skipped).toBe(2);
    expect(events.map((e) => [e.time.toISOString(), e.currency, e.impact])).toEqual([
      ["2025-07-03T12:30:00.000Z", "USD", "high"],
      ["2026-01-09T13:30:00.000Z", "USD", "high"],
      ["2026-01-26T09:00:00.000Z", "EUR", "medium"],
      ["2026-01-12T05:00:00.000Z", "JPY", "non-economic"],
      ["2026-01-20T12:00:00.000Z", "All", "low"],
    ]);
    expect(events[1]!.forecast).toBeUndefined();
    expect(events[1]!.previous).toBe("64K");
    // the feed and the shipped CSV name the same release with the same key (no id in either)
    expect(eventKey(events[1]!)).toBe(eventKey(NFP));
    expect(() => parseFeed({ error: "rate limited" })).toThrow();
  });

  it("the index deduplicates and answers window queries", () => {
    const idx = new CalendarIndex([NFP, { ...NFP, forecast: "70K" }, ev("2026-01-09T15:00:00Z", "USD", "high", "UoM")]);
    expect(idx.size).toBe(2);
    expect(idx.events[0]!.forecast).toBe("70K");
    expect(idx.between(NFP.time.getTime(), NFP.time.getTime()).map((e) => e.title)).toEqual(["Non-Farm Employment Change"]);
    expect(idx.between(0, NFP.time.getTime() - 1)).toEqual([]);
  });
});
