/**
 * Issue 22: the dashboard's 'P&L hoje' follows the trading day the user chose (settings.tradingDayBoundary),
 * the same rule as the daily limits; and old stored settings without the field load as local midnight.
 */
import { describe, expect, it } from "vitest";
import { normaliseLoadedSettings, parseSettingsUpdate, defaultSettings } from "../../../core/settings";
import { decodeIssueMessage } from "../../../core/i18n/zod-message";
import { renderMsg } from "../../../core/i18n";
import { localDayBounds, tradeStats } from "../../../app/lib/trading";

// 2026-01-14 23:00 UTC = 20:00 São Paulo = 18:00 New York (after the 17:00 close).
const NOW = new Date("2026-01-14T23:00:00Z");
const trades = [
  { pnl: "-30.00", closeTime: "2026-01-14T15:00:00Z" }, // 12:00 São Paulo, 10:00 New York: before the close
  { pnl: "12.50", closeTime: "2026-01-14T22:30:00Z" }, // 19:30 São Paulo, 17:30 New York: after the close
];

describe("P&L hoje by the chosen trading day", () => {
  it("local midnight (default): every trade closed since São Paulo midnight", () => {
    expect(tradeStats(trades, NOW, "America/Sao_Paulo").pnlToday).toBe(-17.5);
    expect(tradeStats(trades, NOW, "America/Sao_Paulo", "local_midnight").pnlToday).toBe(-17.5);
  });
  it("ny_close: only the trades closed since 17:00 New York", () => {
    expect(tradeStats(trades, NOW, "America/Sao_Paulo", "ny_close").pnlToday).toBe(12.5);
    const [start, end] = localDayBounds(NOW, "America/Sao_Paulo", "ny_close");
    expect([start.toISOString(), end.toISOString()]).toEqual(["2026-01-14T22:00:00.000Z", "2026-01-15T22:00:00.000Z"]);
  });
});

describe("tradingDayBoundary setting", () => {
  it("defaults to local midnight, also for old stored settings without it", () => {
    expect(defaultSettings().tradingDayBoundary).toBe("local_midnight");
    const old = { ...defaultSettings() } as Record<string, unknown>;
    delete old.tradingDayBoundary;
    expect(normaliseLoadedSettings(old).tradingDayBoundary).toBe("local_midnight");
    expect(normaliseLoadedSettings({ tradingDayBoundary: "ny_close" }).tradingDayBoundary).toBe("ny_close");
    expect(normaliseLoadedSettings({ tradingDayBoundary: "tokyo" }).tradingDayBoundary).toBe("local_midnight");
  });
  it("an update accepts the two values and refuses others with a Portuguese message naming the field", () => {
    const ok = parseSettingsUpdate({ tradingDayBoundary: "ny_close" }, defaultSettings());
    expect(ok.ok && ok.settings.tradingDayBoundary).toBe("ny_close");
    const bad = parseSettingsUpdate({ tradingDayBoundary: "tokyo" }, defaultSettings());
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.field).toBe("tradingDayBoundary");
      expect(renderMsg(decodeIssueMessage(bad.message), "pt")).toBe("tradingDayBoundary deve ser um de local_midnight, ny_close");
    }
  });
});

describe("backtest statistics: the daily returns of the Sharpe ratio follow the chosen trading day", () => {
  it("with ny_close a sample after 17:00 New York belongs to the next day", async () => {
    const { computeTradeStats } = await import("../../../core/stats");
    const curve = (monEvening: string) => [
      { time: Date.parse("2026-01-12T12:00:00Z"), equity: "10000" }, // Monday 07:00 New York
      { time: Date.parse(monEvening), equity: "10100" },
      { time: Date.parse("2026-01-13T12:00:00Z"), equity: "10050" },
      { time: Date.parse("2026-01-14T12:00:00Z"), equity: "10200" },
      { time: Date.parse("2026-01-15T12:00:00Z"), equity: "10150" },
    ];
    const mondayEvening = "2026-01-12T23:00:00Z"; // 18:00 New York: after Monday's close
    const local = computeTradeStats([], { equityCurve: curve(mondayEvening), timezone: "UTC" }).sharpe;
    const ny = computeTradeStats([], { equityCurve: curve(mondayEvening), timezone: "UTC", tradingDayBoundary: "ny_close" }).sharpe;
    expect(ny).not.toBe(local);
    // The same as if that sample had been taken on Tuesday (local midnight).
    expect(ny).toBe(computeTradeStats([], { equityCurve: curve("2026-01-13T01:00:00Z"), timezone: "UTC" }).sharpe);
  });
});
