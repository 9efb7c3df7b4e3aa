/**
 * Issue 12 (the backtest page): runBacktest's progress callback and equity curve, and the random
 * baseline's per-time band, on the shipped data. Without the new options a run is unchanged.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { equityBand, quantileSorted, randomBaseline } from "../../../core/backtest/baseline";
import { PROGRESS_CALLS, runBacktest } from "../../../core/backtest/run";
import type { BacktestOptions, BacktestResult } from "../../../core/backtest/run";
import { Decimal } from "../../../core/decimal";
import { defaultSettings } from "../../../core/settings";
import { loadCsvCandles } from "../../../app/services/backtest/candle-files";
import { edgeEverywhere } from "../../support/edge-tables";

const opts: BacktestOptions = {
  instruments: ["EUR_USD"],
  candles: { EUR_USD: loadCsvCandles("data", "EUR_USD") },
  settings: defaultSettings(),
  from: "2026-01-12T00:00:00Z",
  to: "2026-02-07T00:00:00Z",
  initialBalance: "10000",
  accountCurrency: "USD",
  edgeGate: edgeEverywhere(),
};

describe("runBacktest: progress and equity curve", () => {
  let plain: BacktestResult;
  let withCurve: BacktestResult;
  const fractions: number[] = [];
  beforeAll(async () => {
    plain = await runBacktest(opts);
    withCurve = await runBacktest({
      ...opts,
      equityCurve: { maxPoints: 300 },
      onProgress: (f) => {
        fractions.push(f);
        return fractions.length % 2 ? new Promise((resolve) => setImmediate(resolve)) : undefined;
      },
    });
  }, 180_000);

  it("leaves the result unchanged but for the curve (trades, stats, stops)", () => {
    expect(plain.equity).toBeUndefined();
    const { equity: _e, ...rest } = withCurve;
    expect(rest).toEqual(plain);
  });

  it("reports progress at most PROGRESS_CALLS times, ascending, ending at 1", () => {
    expect(fractions.length).toBeGreaterThan(10);
    expect(fractions.length).toBeLessThanOrEqual(PROGRESS_CALLS);
    expect([...fractions].sort((a, b) => a - b)).toEqual(fractions);
    expect(fractions.at(-1)).toBe(1);
  });

  it("samples at most maxPoints + 1 points, ascending in time, starting at the initial balance and ending at the final one", () => {
    const eq = withCurve.equity!;
    expect(eq.length).toBeGreaterThan(100);
    expect(eq.length).toBeLessThanOrEqual(301);
    for (let i = 1; i < eq.length; i++) expect(eq[i]!.time).toBeGreaterThan(eq[i - 1]!.time);
    expect(eq[0]!.balance).toBe(10000);
    expect(eq[0]!.time * 1000).toBeGreaterThanOrEqual(Date.parse(opts.from as string));
    const final = new Decimal(10000).add(plain.stats.netPnl).toNumber();
    expect(eq.at(-1)!.balance).toBeCloseTo(final, 2);
    expect(eq.at(-1)!.nav).toBeCloseTo(final, 2); // everything closed at the end
    // NAV differs from the balance while a trade is open
    expect(eq.some((p) => p.nav !== p.balance)).toBe(true);
  });
});

describe("random baseline band", () => {
  it("quantiles interpolate between order statistics", () => {
    expect(quantileSorted([1, 2, 3, 4, 5], 0.5)).toBe(3);
    expect(quantileSorted([0, 10], 0.05)).toBeCloseTo(0.5);
    expect(quantileSorted([7], 0.95)).toBe(7);
    expect(Number.isNaN(quantileSorted([], 0.5))).toBe(true);
  });

  it("equityBand: per-time p5 ≤ p50 ≤ p95 on a shared grid; refuses different grids", () => {
    const curve = (navs: number[]) => navs.map((nav, i) => ({ time: 100 + i, nav }));
    const band = equityBand([curve([1, 5, 9]), curve([2, 4, 8]), curve([3, 6, 7])]);
    expect(band.time).toEqual([100, 101, 102]);
    expect(band.p50).toEqual([2, 5, 8]);
    expect(band.p5).toEqual([1.1, 4.1, 7.1]);
    expect(band.p95).toEqual([2.9, 5.9, 8.9]);
    expect(() => equityBand([curve([1, 2]), curve([1])])).toThrow(/grades diferentes/);
  });

  it("randomBaseline keeps the seeds' curves as a band on the strategy's grid, reporting progress per seed", { timeout: 300_000 }, async () => {
    const o = { ...opts, equityCurve: { maxPoints: 200 } };
    const strategy = await runBacktest(o);
    const seen: number[] = [];
    const base = await randomBaseline(o, strategy, 4, (f) => {
      seen.push(f);
    });
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    for (const f of [0.25, 0.5, 0.75, 1]) expect(seen).toContain(f);
    expect(seen.length).toBeLessThanOrEqual(4 * PROGRESS_CALLS);
    const band = base.band!;
    expect(band.time).toEqual(strategy.equity!.map((p) => p.time));
    for (let i = 0; i < band.time.length; i++) {
      expect(band.p5[i]!).toBeLessThanOrEqual(band.p50[i]!);
      expect(band.p50[i]!).toBeLessThanOrEqual(band.p95[i]!);
    }
    expect(band.p5[0]).toBe(10000);
    // the band opens up as random trades win and lose
    expect(band.p95.at(-1)! - band.p5.at(-1)!).toBeGreaterThan(0);
    // and without the curve option no band (the research and CLI callers)
    expect((await randomBaseline(opts, await runBacktest(opts), 1)).band).toBeUndefined();
  });
});
