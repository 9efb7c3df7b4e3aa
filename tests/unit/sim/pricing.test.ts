/** Unit tests of the simulator's pure parts: time formats, clock, replay geometry, path and spread rules. */
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { Decimal } from "../../../core/decimal";
import { SimClock } from "../../../core/simulator/clock";
import { type MarketData, PERIOD_MS, aggregate } from "../../../core/simulator/market-data";
import { loadMarketData } from "../../../server/simulator/load-market-data";
import { Pricing, halfSpread, spreadMultiplier } from "../../../core/simulator/pricing";
import { parseDateTime, rfc3339, toUnixTimes, unixString } from "../../../core/simulator/time";

let md: MarketData;
let pricing: Pricing;
beforeAll(() => {
  md = loadMarketData(join(process.cwd(), "data"));
  pricing = new Pricing(md);
});

describe("time formats", () => {
  it("RFC3339 with 9 digits, UNIX strings, parsing both", () => {
    expect(rfc3339(Date.parse("2017-03-09T13:22:13.832Z"))).toBe("2017-03-09T13:22:13.832000000Z");
    expect(unixString(1509281144757)).toBe("1509281144.757000000");
    expect(parseDateTime("2017-03-09T13:22:13.832587780Z")).toBe(Date.parse("2017-03-09T13:22:13.832Z"));
    expect(parseDateTime("1509281144.757577547")).toBe(1509281144757);
    expect(parseDateTime("yesterday")).toBeNull();
    expect(toUnixTimes({ time: "2017-03-09T13:22:13.832000000Z", price: "1.1" })).toEqual({ time: "1489065733.832000000", price: "1.1" });
  });
});

describe("SimClock", () => {
  it("runs at speed × real time and re-anchors forward only", () => {
    let real = 0;
    const c = new SimClock(() => real, 1_000_000, 10);
    real = 500;
    expect(c.now()).toBe(1_005_000);
    c.adjust({ speed: 1, advanceSeconds: 60 });
    expect(c.now()).toBe(1_065_000);
    real = 1500;
    expect(c.now()).toBe(1_066_000);
    expect(() => c.adjust({ advanceSeconds: -1 })).toThrow();
  });
});

describe("market data replay", () => {
  it("starts on the Sunday before the data and repeats every 91 days", () => {
    expect(new Date(md.epoch).toISOString()).toBe("2026-01-04T00:00:00.000Z");
    const s = md.source("EUR_USD");
    expect(s.gran).toBe("M5");
    expect(md.source("USD_JPY").gran).toBe("M3");
    const t = Date.parse("2026-01-13T10:02:00Z");
    const g = md.indexAtOrBefore(s, t);
    expect(md.barStart(s, g)).toBe(Date.parse("2026-01-13T10:00:00Z"));
    const g2 = md.indexAtOrBefore(s, t + PERIOD_MS);
    expect(g2 - g).toBe(s.n);
    expect(md.bar(s, g2).c).toBe(md.bar(s, g).c);
    expect(md.indexAtOrBefore(s, md.epoch - 1)).toBe(-1);
  });

  it("market is closed on weekends and open on weekdays", () => {
    expect(md.isOpen("EUR_USD", Date.parse("2026-01-17T12:00:00Z"))).toBe(false);
    expect(md.isOpen("EUR_USD", Date.parse("2026-01-14T12:00:00Z"))).toBe(true);
    expect(md.isOpen("EUR_USD", Date.parse("2026-04-18T12:00:00Z"))).toBe(false); // replayed Saturday
  });

  it("aggregates USD_JPY M3 bars into M5 buckets by start time", () => {
    const m5 = md.series("USD_JPY", "M5")!;
    const src = md.source("USD_JPY");
    expect(m5.t.every((t) => t % 300_000 === 0)).toBe(true);
    expect(m5.v.reduce((a, b) => a + b, 0)).toBe(src.v.reduce((a, b) => a + b, 0));
    const again = aggregate(src, "M5");
    expect(again.n).toBe(m5.n);
  });
});

describe("path and spread", () => {
  it("moves open → nearer extreme → other extreme → close within a bar", () => {
    const s = md.source("EUR_USD");
    const start = Date.parse("2026-01-13T10:00:00Z");
    const bar = md.bar(s, md.indexAtOrBefore(s, start));
    const pts = [...pricing.path("EUR_USD", start, start + s.durMs)];
    expect(pts.map((p) => p.t - start)).toEqual([0, 100_000, 200_000, 300_000]);
    const highFirst = Math.abs(bar.h - bar.o) <= Math.abs(bar.o - bar.l);
    expect(pts.map((p) => p.mid.toNumber())).toEqual([bar.o, highFirst ? bar.h : bar.l, highFirst ? bar.l : bar.h, bar.c]);
    const mid = pricing.quote("EUR_USD", start + 50_000).mid;
    expect(mid.eq(new Decimal(bar.o).add(new Decimal(highFirst ? bar.h : bar.l).sub(bar.o).div(2)))).toBe(true);
  });

  it("spreads: base pips, wider at rollover and into the Friday close; bid/ask at displayPrecision", () => {
    expect(halfSpread("EUR_USD", Date.parse("2026-01-13T10:00:00Z")).toFixed()).toBe("0.00005");
    expect(halfSpread("USD_JPY", Date.parse("2026-01-13T10:00:00Z")).toFixed()).toBe("0.006");
    expect(spreadMultiplier(Date.parse("2026-01-13T21:30:00Z")).toNumber()).toBe(3);
    expect(spreadMultiplier(Date.parse("2026-01-16T21:00:00Z")).toNumber()).toBe(3);
    expect(spreadMultiplier(Date.parse("2026-01-16T20:00:00Z")).toNumber()).toBe(2.5);
    expect(spreadMultiplier(Date.parse("2026-01-16T18:30:00Z")).toNumber()).toBe(1.5);
    const q = pricing.quote("GBP_USD", Date.parse("2026-01-13T10:01:23Z"));
    expect(q.bid.decimalPlaces()).toBeLessThanOrEqual(5);
    expect(q.ask.sub(q.bid).toNumber()).toBeCloseTo(0.00015, 6);
  });

  it("converts currencies through the three pairs", () => {
    const t = Date.parse("2026-01-13T10:00:00Z");
    expect(pricing.currencies().sort()).toEqual(["EUR", "GBP", "JPY", "USD"]);
    const eurJpy = pricing.rate("EUR", "JPY", t);
    expect(eurJpy.eq(pricing.quote("EUR_USD", t).mid.mul(pricing.quote("USD_JPY", t).mid))).toBe(true);
    expect(() => pricing.rate("CHF", "USD", t)).toThrow();
  });
});
