/**
 * Issue 21 "Drawdown stop that means it", the pure part: the drawdown figures, the record of a stop
 * with the trades behind it, the notification's text in pt/en/es, what a start request does while
 * drawdown-stopped, when a stopped bot may trade again (never after a max-drawdown stop; the next
 * trading day after a daily-loss stop), and the backtest on the shipped 2026 data: one max-drawdown
 * stop ends the run's trading for good (no daily re-stop), a daily-loss stop still resumes the next
 * trading day.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { translateMsg } from "../../../app/i18n";
import { notices } from "../../../app/lib/notifications";
import { mulberry32 } from "../../../core/backtest/baseline";
import { runBacktest, type BacktestResult } from "../../../core/backtest/run";
import { drawdownFrom, drawdownStopRecord, resumeAfterStop, startRequest } from "../../../core/risk/drawdown";
import { maxDrawdownRule } from "../../../core/risk/rules";
import { tradingDayStart } from "../../../core/risk/trading-day";
import { defaultSettings, type TradingSettings } from "../../../core/settings";
import { loadCsvCandles } from "../../../app/services/backtest/candle-files";
import { riskContext as ctx } from "./context";

describe("drawdown figures and the stop record", () => {
  it("drawdown = (mark − NAV) / mark, amount and percent to 2 decimals; none at or above the mark", () => {
    expect(drawdownFrom("10000", "9480")).toEqual({ amount: "520.00", pct: "5.20" });
    expect(drawdownFrom("10000.00", "10000.01")).toEqual({ amount: "0.00", pct: "0.00" });
    expect(drawdownFrom("0", "-5")).toEqual({ amount: "0.00", pct: "0.00" });
  });

  it("the rule stops the bot with reason max_drawdown once the drop from the mark reaches the limit", () => {
    const settings = { ...defaultSettings(), maxDrawdownPct: 5 };
    expect(maxDrawdownRule(ctx({ settings, highWaterMark: "10000", equity: "9501" }))).toBeNull();
    expect(maxDrawdownRule(ctx({ settings, highWaterMark: "10000", equity: "9500" }))?.stopBot).toBe("max_drawdown");
  });

  it("records the mark, the NAV, the drawdown and the trades closed since the mark (oldest first, with their total)", () => {
    const r = drawdownStopRecord({
      at: new Date("2026-01-20T15:00:00Z"),
      limitPct: 5,
      highWaterMark: "10000",
      nav: "9450.5",
      currency: "USD",
      since: new Date("2026-01-14T10:00:00Z"),
      trades: [
        { id: "12", instrument: "GBP_USD", closeTime: "2026-01-19T10:00:00.000Z", pl: "-300.25" },
        { id: "9", instrument: "EUR_USD", closeTime: "2026-01-15T10:00:00.000Z", pl: "-249.25" },
      ],
    });
    expect(r).toMatchObject({ highWaterMark: "10000.00", nav: "9450.50", drawdownPct: "5.50", drawdownAmount: "549.50", limitPct: "5.0", tradesPl: "-549.50" });
    expect(r.trades.map((t) => t.id)).toEqual(["9", "12"]);
    expect(r.since).toBe("2026-01-14T10:00:00.000Z");
  });

  it("the one notification states the drawdown, the mark, the NAV and each trade's P&L, in pt, en and es", () => {
    const trades = Array.from({ length: 12 }, (_, i) => ({ id: String(i + 1), instrument: i === 0 ? "EUR_USD" : "GBP_USD", closeTime: new Date(Date.UTC(2026, 0, 15, i)).toISOString(), pl: "-45.5" }));
    const record = drawdownStopRecord({ at: new Date("2026-01-20T15:00:00Z"), limitPct: 5, highWaterMark: "10000", nav: "9454", currency: "USD", since: null, trades });
    const n = notices.drawdownStop(record, 10);
    const pt = translateMsg(n.message, "pt");
    expect(translateMsg(n.title, "pt")).toBe("IA parada: drawdown máximo");
    expect(pt).toContain("Drawdown de 5,46% (546,00 USD), no limite de 5,0%");
    expect(pt).toContain("a máxima de patrimônio era 10.000,00 USD e o NAV está em 9.454,00 USD");
    expect(pt).toContain("Operações fechadas desde a máxima (12, total -546,00 USD): EUR/USD -45,50 USD; GBP/USD -45,50 USD;");
    expect(pt).toContain("; mais 2.");
    expect(pt).toContain("A IA fica parada até você reativá-la");
    const en = translateMsg(n.message, "en");
    expect(en).toContain("Drawdown of 5.46% (546.00 USD), at the 5.0% limit: the equity high-water mark was 10,000.00 USD and the NAV is 9,454.00 USD.");
    expect(en).toContain("2 more.");
    expect(translateMsg(n.message, "es")).toContain("el máximo de patrimonio era 10.000,00 USD");
    const none = notices.drawdownStop({ ...record, trades: [], tradesPl: "0.00" });
    expect(translateMsg(none.message, "pt")).toContain("Nenhuma operação fechada desde a máxima");
  });
});

describe("stopped until the user re-arms", () => {
  it("a plain start is refused while drawdown-stopped; a confirmed re-arm starts; otherwise a start is a start", () => {
    expect(startRequest(true, false)).toBe("refuse");
    expect(startRequest(true, true)).toBe("rearm");
    expect(startRequest(false, false)).toBe("start");
    expect(startRequest(false, true)).toBe("start");
  });

  it("a max-drawdown stop never resumes by itself; a daily-loss (or losing-streak) stop resumes at the next local midnight", () => {
    const now = new Date("2026-01-14T18:30:00Z"); // 15:30 in São Paulo
    expect(resumeAfterStop("max_drawdown", now, "America/Sao_Paulo")).toBeNull();
    expect(resumeAfterStop("daily_loss_limit", now, "America/Sao_Paulo")?.toISOString()).toBe("2026-01-15T03:00:00.000Z");
    expect(resumeAfterStop("max_consecutive_losses", now, "America/Sao_Paulo")?.toISOString()).toBe("2026-01-15T03:00:00.000Z");
  });
});

describe("the backtest on the shipped 2026 data (random entries through the same gate)", () => {
  const DATA = path.resolve(import.meta.dirname, "../../../data");
  const candles = { GBP_USD: loadCsvCandles(DATA, "GBP_USD") };
  /** Settings with the pair allowed past the edge gate (the user's override), so entries reach the risk gate. */
  const settingsWith = (over: Partial<TradingSettings>): TradingSettings => {
    const base = defaultSettings();
    return { ...base, ...over, aiSettings: { ...base.aiSettings, edgeOverrides: ["GBP_USD"] } };
  };
  const run = (settings: TradingSettings) =>
    runBacktest({
      instruments: ["GBP_USD"],
      candles,
      settings,
      from: "2026-01-12T00:00:00Z",
      to: "2026-03-02T00:00:00Z",
      initialBalance: "10000",
      accountCurrency: "USD",
      entry: { kind: "random", probability: 0.05, random: mulberry32(21) },
    });
  let drawdown: BacktestResult;
  let daily: BacktestResult;
  beforeAll(async () => {
    drawdown = await run(settingsWith({ maxDrawdownPct: 1, dailyLossLimitPct: 20 }));
    daily = await run(settingsWith({ maxDrawdownPct: 100, dailyLossLimitPct: 0.5 }));
  }, 120_000);

  it("one max-drawdown stop, then no entry and no other stop for the rest of the run (no daily re-stop)", () => {
    const dd = drawdown.stops.filter((s) => s.code === "max_drawdown");
    expect(dd).toHaveLength(1);
    expect(drawdown.stops.at(-1)).toBe(dd[0]);
    expect(drawdown.trades.length).toBeGreaterThan(0);
    expect(drawdown.trades.every((t) => t.entryTime < dd[0]!.time)).toBe(true);
  });

  it("a daily-loss stop still resumes the next trading day: entries after it, stops on several days", () => {
    const stops = daily.stops.filter((s) => s.code === "daily_loss_limit");
    expect(stops.length).toBeGreaterThanOrEqual(2);
    const days = new Set(stops.map((s) => tradingDayStart(new Date(s.time)).toISOString()));
    expect(days.size).toBe(stops.length); // at most one stop a day: the bot is off for the rest of that day
    const first = stops[0]!;
    const nextDay = resumeAfterStop("daily_loss_limit", new Date(first.time))!.toISOString();
    expect(daily.trades.some((t) => t.entryTime >= nextDay)).toBe(true);
    expect(daily.trades.some((t) => t.entryTime > first.time && t.entryTime < nextDay)).toBe(false);
  });
});
