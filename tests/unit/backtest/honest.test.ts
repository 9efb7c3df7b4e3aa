/**
 * Issue 7 on the shipped 2026 data: the backtest's risk limits hold exactly (the drawdown mark is
 * never reset, the daily loss counts every close of the day), its profit factor is the field's, and
 * the random-entry baseline is deterministic per seed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { Decimal } from "../../../core/decimal";
import { mulberry32, percentileRank, randomBaseline } from "../../../core/backtest/baseline";
import { runBacktest } from "../../../core/backtest/run";
import type { BacktestOptions, BacktestResult } from "../../../core/backtest/run";
import { tradingDayStart } from "../../../core/risk/trading-day";
import { defaultSettings } from "../../../core/settings";
import { loadCsvCandles } from "../../../app/services/backtest/candle-files";
import { edgeEverywhere } from "../../support/edge-tables";

const DATA = "/work/shared/data/fx";

describe("exact risk limits in the backtest", () => {
  const opts: BacktestOptions = { instruments: ["GBP_USD"], candles: { GBP_USD: loadCsvCandles(DATA, "GBP_USD") }, settings: defaultSettings(), initialBalance: "10000", accountCurrency: "USD", edgeGate: edgeEverywhere() };
  let r: BacktestResult;
  beforeAll(async () => {
    r = await runBacktest(opts);
  }, 60_000);

  it("after a max-drawdown stop no trade opens again (the high-water mark is never reset)", () => {
    const dd = r.stops.find((s) => s.code === "max_drawdown");
    expect(dd).toBeDefined();
    expect(r.trades.every((t) => t.entryTime < dd!.time)).toBe(true);
    // and equity never fell much past the limit: the 5 % rule plus at most one open trade's loss
    expect(Number(r.stats.maxDrawdownPct)).toBeLessThan(9);
  });

  it("no entry once the day's realized loss (closes on the day's first bar included) reached the daily limit", () => {
    const limit = defaultSettings().dailyLossLimitPct;
    let balance = new Decimal(10000);
    const closes = r.trades.map((t) => ({ at: t.exitTime, pnl: new Decimal(t.pnl) }));
    for (const t of r.trades) {
      const dayStart = tradingDayStart(new Date(t.entryTime)).toISOString();
      const before = closes.filter((c) => c.at <= t.entryTime);
      const realizedToday = before.filter((c) => c.at >= dayStart).reduce((a, c) => a.add(c.pnl), new Decimal(0));
      balance = before.reduce((a, c) => a.add(c.pnl), new Decimal(10000));
      const dayStartBalance = balance.sub(realizedToday);
      expect(realizedToday.neg().div(dayStartBalance).mul(100).lt(limit)).toBe(true);
    }
  });

  it("uses the simulator's spread table and reports the field's profit factor", () => {
    expect(r.spreadPips).toEqual({ GBP_USD: "1.5" });
    const gp = r.trades.filter((t) => Number(t.pnl) > 0).reduce((a, t) => a.add(t.pnl), new Decimal(0));
    const gl = r.trades.filter((t) => Number(t.pnl) < 0).reduce((a, t) => a.add(new Decimal(t.pnl).abs()), new Decimal(0));
    expect(r.stats.profitFactor).toBe(gp.div(gl).toFixed(2));
  });
});

describe("random-entry baseline", () => {
  it("mulberry32 is deterministic and uniform-ish; percentile ranks count ties half", () => {
    const a = mulberry32(7), b = mulberry32(7);
    const xs = Array.from({ length: 1000 }, () => a());
    expect(xs).toEqual(Array.from({ length: 1000 }, () => b()));
    expect(xs.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(xs.reduce((s, x) => s + x, 0) / xs.length).toBeCloseTo(0.5, 1);
    expect(percentileRank([1, 2, 3, 4], 3)).toBe(62.5);
    expect(percentileRank([1, 2, 3, 4], 10)).toBe(100);
  });

  it("random runs use the same exits and sizing, about as many entries, and are reproducible", { timeout: 120_000 }, async () => {
    const opts: BacktestOptions = {
      instruments: ["EUR_USD"], candles: { EUR_USD: loadCsvCandles(DATA, "EUR_USD") }, settings: defaultSettings(),
      from: "2026-01-12T00:00:00Z", to: "2026-02-07T00:00:00Z", initialBalance: "10000", accountCurrency: "USD",
      edgeGate: edgeEverywhere(),
    };
    const strategy = await runBacktest(opts);
    const base = await randomBaseline(opts, strategy, 5);
    expect(base.netPnl).toHaveLength(5);
    expect((await randomBaseline(opts, strategy, 5)).netPnl).toEqual(base.netPnl);
    expect(new Set(base.netPnl).size).toBeGreaterThan(1);
    expect(base.netPnlPercentile).toBeGreaterThanOrEqual(0);
    expect(base.netPnlPercentile).toBeLessThanOrEqual(100);
    const one = await runBacktest({ ...opts, entry: { kind: "random", probability: base.probability, random: mulberry32(1) } });
    expect(one.trades.length).toBeGreaterThan(0);
    for (const t of one.trades) expect(["STOP_LOSS", "TAKE_PROFIT", "TRAILING_STOP", "MAX_HOLD", "WEEKEND_FLAT", "END"]).toContain(t.exitReason);
  });
});
