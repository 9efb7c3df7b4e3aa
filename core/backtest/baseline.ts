/**
 * Random-entry baseline (issue 7): the same backtest with the strategy's entries replaced by random
 * ones — same exits (ATR stops, take profit, trailing, max hold), sizing, risk gate and costs, the
 * same number of entries on average — over many seeds, and where the strategy's result falls in
 * that distribution. A strategy with an edge should beat most random entries; one that does not
 * is indistinguishable from luck.
 */
import { mulberry32 } from "../random";
import { runBacktest } from "./run";
import type { BacktestOptions, BacktestResult } from "./run";

/** Deterministic PRNG (mulberry32, core/random.ts): uniform numbers in [0, 1) from a 32-bit seed. */
export { mulberry32 };

/** Percentile rank (0–100, 1 decimal) of `value` in `sample`: share of the sample strictly below it, ties counted half. */
export function percentileRank(sample: readonly number[], value: number): number {
  if (sample.length === 0) return NaN;
  let below = 0;
  let equal = 0;
  for (const x of sample) {
    if (x < value) below++;
    else if (x === value) equal++;
  }
  return Math.round(((below + equal / 2) / sample.length) * 1000) / 10;
}

export interface BaselineResult {
  seeds: number;
  /** Entry probability per eligible bar, matched to the strategy's entries. */
  probability: number;
  /** Net P&L (account currency) of each seed, as numbers for ranking. */
  netPnl: number[];
  /** Percentile of the strategy's net P&L among the random runs. */
  netPnlPercentile: number;
  /** Median of the random runs' net P&L. */
  medianNetPnl: number;
  /** Per-time band of the random runs' NAV (only when the options ask for an equity curve). */
  band?: EquityBand;
}

/**
 * The random runs' NAV across seeds on the common step grid (runBacktest `equityCurve`): at each
 * time (UTC seconds) the 5th, 50th and 95th percentiles (linear interpolation between order
 * statistics), account currency as numbers (plotting only).
 */
export interface EquityBand {
  time: number[];
  p5: number[];
  p50: number[];
  p95: number[];
}

/** The q-quantile (0–1) of an ascending sample, linear between order statistics (type 7); NaN when empty. */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

/**
 * Per-time percentile band of several equity curves sampled on one grid.
 * @throws Error when the curves do not share their times (different options or markets).
 */
export function equityBand(curves: readonly (readonly { time: number; nav: number }[])[]): EquityBand {
  const band: EquityBand = { time: [], p5: [], p50: [], p95: [] };
  if (curves.length === 0) return band;
  const n = curves[0]!.length;
  for (const c of curves) if (c.length !== n) throw new Error("Curvas de capital em grades diferentes");
  const round = (x: number) => Math.round(x * 100) / 100;
  for (let i = 0; i < n; i++) {
    const time = curves[0]![i]!.time;
    const values: number[] = [];
    for (const c of curves) {
      if (c[i]!.time !== time) throw new Error("Curvas de capital em grades diferentes");
      values.push(c[i]!.nav);
    }
    values.sort((a, b) => a - b);
    band.time.push(time);
    band.p5.push(round(quantileSorted(values, 0.05)));
    band.p50.push(round(quantileSorted(values, 0.5)));
    band.p95.push(round(quantileSorted(values, 0.95)));
  }
  return band;
}

/**
 * Runs `seeds` random-entry backtests (seeds 1..N) with the options of `strategy`'s run and ranks
 * the strategy's net P&L. With `opts.equityCurve` the seeds keep their curves and the result has
 * their per-time `band`. `onProgress(fraction)` follows the seeds' runs (fraction of all seeds,
 * ending at 1 with the last; awaited when it returns a promise); opts.onProgress is not passed to
 * the seeds. @throws what runBacktest throws.
 */
export async function randomBaseline(
  opts: BacktestOptions,
  strategy: BacktestResult,
  seeds: number,
  onProgress?: (fraction: number) => void | Promise<void>,
): Promise<BaselineResult> {
  // entries per instrument decision: a tick decides once per instrument
  const decisions = strategy.ticks * strategy.instruments.length;
  const probability = decisions > 0 ? Math.min(1, strategy.trades.length / decisions) : 0;
  const netPnl: number[] = [];
  const curves: NonNullable<BacktestResult["equity"]>[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const progress = onProgress ? (f: number) => onProgress((seed - 1 + f) / seeds) : undefined;
    const r = await runBacktest({ ...opts, clock: undefined, onProgress: progress, entry: { kind: "random", probability, random: mulberry32(seed) } });
    netPnl.push(Number(r.stats.netPnl));
    if (r.equity) curves.push(r.equity);
  }
  const sorted = [...netPnl].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return {
    seeds,
    probability,
    netPnl,
    netPnlPercentile: percentileRank(netPnl, Number(strategy.stats.netPnl)),
    medianNetPnl: Math.round(median * 100) / 100,
    ...(opts.equityCurve && curves.length === seeds ? { band: equityBand(curves) } : {}),
  };
}
