/** The research loop's pure parts (core/research): walk-forward windows, R/expectancy, and one candidate through the real backtest. */
import { describe, expect, it } from "vitest";
import { runBacktest } from "../../../core/backtest/run";
import type { Decision } from "../../../core/engine/decide";
import { freshSignalFilter, inOverlapSession, sessionFilter } from "../../../core/research/candidates";
import { maxDrawdownPct, tradeMetrics, walkForwardFolds, WEEK_MS } from "../../../core/research/walkforward";
import { defaultSettings } from "../../../core/settings";
import { loadCsvCandles } from "../../../app/services/backtest/candle-files";
import { tradesInside } from "../../../server/cli/research-short";

const START = Date.parse("2026-01-04T00:00:00Z");
const END = Date.parse("2026-04-03T21:00:00Z");

describe("walkForwardFolds", () => {
  const folds = walkForwardFolds({ start: START, end: END, warmupWeeks: 1, trainWeeks: 4, testWeeks: 2 });

  it("splits the 13 weeks into 4 folds: 4 weeks of train, then 2 of test, after a warm-up week; tests cover 2026-02-08..04-03", () => {
    expect(folds).toHaveLength(4);
    expect(folds[0]!.train).toEqual({ from: START + WEEK_MS, to: START + 5 * WEEK_MS });
    expect(folds[0]!.test).toEqual({ from: START + 5 * WEEK_MS, to: START + 7 * WEEK_MS });
    expect(folds[3]!.test).toEqual({ from: Date.parse("2026-03-22T00:00:00Z"), to: END }); // the last test window is cut at the data end
  });

  it("never overlaps a fold's train and test, keeps test windows in order and disjoint, and trains only on the past", () => {
    for (const [i, f] of folds.entries()) {
      expect(f.train.to).toBe(f.test.from); // train ends where test starts: no test bar in train
      expect(f.train.from).toBeLessThan(f.train.to);
      if (i > 0) expect(f.test.from).toBe(folds[i - 1]!.test.to);
    }
  });

  it("cuts the last test window at the end of the data and drops one shorter than a week", () => {
    const cut = walkForwardFolds({ start: START, end: START + 8.5 * WEEK_MS, warmupWeeks: 1, trainWeeks: 4, testWeeks: 2 });
    expect(cut.map((f) => f.test.to - f.test.from)).toEqual([2 * WEEK_MS, 1.5 * WEEK_MS]);
    expect(walkForwardFolds({ start: START, end: START + 5.5 * WEEK_MS, warmupWeeks: 1, trainWeeks: 4, testWeeks: 2 })).toEqual([]);
  });

  it("rejects non-integer weeks", () => {
    expect(() => walkForwardFolds({ start: START, end: END, warmupWeeks: 1, trainWeeks: 0, testWeeks: 2 })).toThrow(/inteiros/);
  });

  it("train trades are those that opened and closed inside the window (a trade closing in the test window is left out)", () => {
    const t = (entry: string, exit: string) => ({ entryTime: entry, exitTime: exit }) as Parameters<typeof tradesInside>[0][number];
    const w = { from: Date.parse("2026-01-11T00:00:00Z"), to: Date.parse("2026-02-08T00:00:00Z") };
    const kept = tradesInside([t("2026-01-12T10:00:00Z", "2026-01-12T12:00:00Z"), t("2026-02-06T20:00:00Z", "2026-02-09T01:00:00Z"), t("2026-01-10T10:00:00Z", "2026-01-12T01:00:00Z")], w);
    expect(kept.map((x) => x.entryTime)).toEqual(["2026-01-12T10:00:00Z"]);
  });
});

describe("tradeMetrics", () => {
  it("expectancy R = average P&L / average initial risk; profit factor = gross profit / gross loss", () => {
    // +30 on 10 risk, −10 on 10 risk, −5 on 20 risk: net 15, risk 40 → 0.375 R; PF 30 / 15 = 2
    const m = tradeMetrics([
      { pnl: "30", risk: "10" },
      { pnl: "-10", risk: "10" },
      { pnl: "-5", risk: "20" },
    ]);
    expect(m).toEqual({ trades: 3, profitFactor: "2.00", expectancyR: "0.375", netPnl: "15.00" });
  });

  it("has no profit factor without losses and no R without trades", () => {
    expect(tradeMetrics([{ pnl: "5", risk: "10" }]).profitFactor).toBeNull();
    expect(tradeMetrics([])).toEqual({ trades: 0, profitFactor: null, expectancyR: null, netPnl: "0.00" });
  });

  it("max drawdown is the worst fall from a peak of the chained balance, in % of that peak", () => {
    expect(maxDrawdownPct(["100", "-44", "10", "-76"], "1000")).toBe("10.00"); // peak 1100 → 990
  });
});

describe("candidates", () => {
  it("fresh signal: a persisting 'open' on the same side does not re-enter", () => {
    const f = freshSignalFilter();
    const d = (action: "open" | "none", side?: "buy" | "sell") => ({ instrument: "EUR_USD", action, side }) as Decision;
    const ctx = { now: new Date(), engine: undefined as never };
    expect([d("open", "buy"), d("open", "buy"), d("none"), d("open", "buy"), d("open", "sell")].map((x) => f(x, ctx))).toEqual([true, false, true, true, true]);
  });

  it("session filter: the backtest opens trades only between 12:00 and 16:00 UTC, which the default does not", async () => {
    const candles = { EUR_USD: loadCsvCandles("data", "EUR_USD") };
    const opts = { instruments: ["EUR_USD"], candles, settings: { ...defaultSettings(), maxDrawdownPct: 100 }, initialBalance: "10000", accountCurrency: "USD", from: "2026-02-16T00:00:00Z", to: "2026-02-28T00:00:00Z", edgeGate: false as const };
    const plain = await runBacktest(opts);
    const session = await runBacktest({ ...opts, entryFilter: sessionFilter() });
    expect(plain.trades.some((t) => !inOverlapSession(new Date(t.entryTime)))).toBe(true);
    expect(session.trades.length).toBeGreaterThan(0);
    for (const t of session.trades) expect(inOverlapSession(new Date(t.entryTime))).toBe(true);
  }, 60_000);
});
