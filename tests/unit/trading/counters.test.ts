import { describe, expect, it } from "vitest";
import { deriveRiskCounters } from "../../../core/trading/counters";

const d = (s: string) => new Date(s);

describe("deriveRiskCounters (one derivation for live and backtest)", () => {
  // Trading day in America/Sao_Paulo (UTC−3): 2026-01-14 starts at 03:00Z.
  const now = d("2026-01-14T15:00:00Z");
  const trades = [
    { openTime: d("2026-01-13T20:00:00Z"), closeTime: d("2026-01-14T03:05:00Z"), realizedPL: "-120" }, // closed on the first bar of the day: counts today
    { openTime: d("2026-01-14T10:00:00Z"), closeTime: d("2026-01-14T11:00:00Z"), realizedPL: "0" }, // BE
    { openTime: d("2026-01-14T12:00:00Z"), closeTime: d("2026-01-14T13:00:00Z"), realizedPL: "-80.5" },
    { openTime: d("2026-01-14T14:00:00Z") }, // still open
    { openTime: d("2026-01-12T10:00:00Z"), closeTime: d("2026-01-12T11:00:00Z"), realizedPL: "-50" }, // older loss
  ];

  it("counts today's trades, today's realized P&L (incl. a close on the day's first bar) and the day-start balance", () => {
    const c = deriveRiskCounters({ trades, now, timezone: "America/Sao_Paulo", balance: "9749.5" });
    expect(c.dayStart.toISOString()).toBe("2026-01-14T03:00:00.000Z");
    expect(c.tradesToday).toBe(3);
    expect(c.realizedPLToday).toBe("-200.5");
    expect(c.dayStartBalance).toBe("9950"); // 9749.5 + 200.5
    expect(c.lastTradeAt?.toISOString()).toBe("2026-01-14T14:00:00.000Z");
  });

  it("a BE trade neither extends nor breaks the losing streak; a WIN breaks it; the run start bounds it", () => {
    expect(deriveRiskCounters({ trades, now, balance: "1" }).consecutiveLosses).toBe(3);
    const withWin = [...trades, { openTime: d("2026-01-13T01:00:00Z"), closeTime: d("2026-01-13T02:00:00Z"), realizedPL: "10" }];
    expect(deriveRiskCounters({ trades: withWin, now, balance: "1" }).consecutiveLosses).toBe(2);
    expect(deriveRiskCounters({ trades, now, balance: "1", runStartedAt: d("2026-01-14T09:00:00Z") }).consecutiveLosses).toBe(1);
  });

  it("the high-water mark only rises: the persisted mark survives a lower equity", () => {
    expect(deriveRiskCounters({ trades: [], now, balance: "9000", equity: "9100", highWaterMark: "10000" }).highWaterMark).toBe("10000");
    expect(deriveRiskCounters({ trades: [], now, balance: "9000", equity: "10100.25", highWaterMark: "10000" }).highWaterMark).toBe("10100.25");
    expect(deriveRiskCounters({ trades: [], now, balance: "9000" }).highWaterMark).toBe("9000");
  });
});

describe("localParts (cached UTC offsets per 15-minute slot)", () => {
  it("matches Intl across DST changes and half-hour zones", { timeout: 30_000 }, async () => {
    const { localParts } = await import("../../../core/risk/trading-day");
    for (const tz of ["America/Sao_Paulo", "America/New_York", "Europe/London", "Asia/Kolkata", "Australia/Adelaide"]) {
      const fm = new Intl.DateTimeFormat("en-US", { timeZone: tz, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" });
      const mismatches: string[] = [];
      for (let t = Date.UTC(2016, 0, 1); t < Date.UTC(2027, 0, 1); t += 11 * 3_600_000 + 7 * 60_000 + 7_001) {
        const p: Record<string, number> = {};
        for (const x of fm.formatToParts(new Date(t))) if (x.type !== "literal") p[x.type] = Number(x.value);
        const l = localParts(t, tz);
        if (l.y !== p.year || l.m !== p.month || l.d !== p.day || l.h !== p.hour || l.mi !== p.minute || l.s !== p.second) mismatches.push(`${tz} ${t}`);
      }
      expect(mismatches).toEqual([]);
    }
  });
});
