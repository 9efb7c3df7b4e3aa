/**
 * The news blackout in the backtest (issue 11): the same executor and risk rule as live, over the
 * shipped EUR_USD candles of January 2026 and the shipped calendar. With the calendar no trade opens
 * inside the window of a high-impact EUR/USD event and the refused entries are counted; without it
 * nothing is refused for news (and some trades do open inside those windows).
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runBacktest, type BacktestResult } from "../../../core/backtest/run";
import { CalendarIndex, newsCalendar, parseCalendarCsv } from "../../../core/calendar";
import { defaultSettings } from "../../../core/settings";
import { loadCsvCandles } from "../../../app/services/backtest/candle-files";
import { readFileSync } from "node:fs";
import { edgeEverywhere } from "../../support/edge-tables";

const root = path.resolve(import.meta.dirname, "../../..");
const events = parseCalendarCsv(readFileSync(path.join(root, "data/calendar/ff_high_impact_2025-07_2026-01.csv"), "utf8"));
const settings = defaultSettings();
const { beforeMin, afterMin } = settings.aiSettings.news.blackout;
/** Windows of the high-impact events that concern EUR_USD. */
const windows = events
  .filter((e) => e.impact === "high" && ["EUR", "USD", "All"].includes(e.currency))
  .map((e) => ({ e, from: e.time.getTime() - beforeMin * 60_000, to: e.time.getTime() + afterMin * 60_000 }));
const inWindow = (iso: string) => windows.find((w) => w.from <= Date.parse(iso) && Date.parse(iso) <= w.to);

async function run(withCalendar: boolean): Promise<BacktestResult> {
  return runBacktest({
    instruments: ["EUR_USD"],
    candles: { EUR_USD: loadCsvCandles(path.join(root, "data"), "EUR_USD") },
    settings,
    from: "2026-01-05T00:00:00Z",
    to: "2026-01-31T00:00:00Z",
    initialBalance: "10000",
    accountCurrency: "USD",
    edgeGate: edgeEverywhere(),
    ...(withCalendar ? { calendar: newsCalendar(new CalendarIndex(events), settings.aiSettings.news) } : {}),
  });
}

describe("backtest with the shipped calendar", () => {
  it("opens nothing inside a blackout window and counts the refused entries with their events", async () => {
    const [without, withCal] = [await run(false), await run(true)];
    expect(without.newsBlocked).toEqual([]);
    expect(without.blocked.news_blackout).toBeUndefined();
    expect(without.trades.filter((t) => inWindow(t.entryTime)).length).toBeGreaterThan(0);

    expect(withCal.trades.filter((t) => inWindow(t.entryTime))).toEqual([]);
    expect(withCal.newsBlocked.length).toBeGreaterThan(0);
    expect(withCal.blocked.news_blackout).toBe(withCal.newsBlocked.length);
    for (const b of withCal.newsBlocked) {
      const w = inWindow(b.time);
      expect(w, `${b.time} fora de qualquer janela`).toBeDefined();
      expect(b.event).toMatch(/\((USD|EUR|All)\)$/);
    }
    expect(withCal.newsBlocked.map((b) => b.event)).toContain("Unemployment Claims (USD)");
  }, 60_000);
});
