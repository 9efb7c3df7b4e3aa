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
}

/**
 * Runs `seeds` random-entry backtests (seeds 1..N) with the options of `strategy`'s run and ranks
 * the strategy's net P&L. @throws what runBacktest throws.
 */
export async function randomBaseline(opts: BacktestOptions, strategy: BacktestResult, seeds: number): Promise<BaselineResult> {
  // entries per instrument decision: a tick decides once per instrument
  const decisions = strategy.ticks * strategy.instruments.length;
  const probability = decisions > 0 ? Math.min(1, strategy.trades.length / decisions) : 0;
  const netPnl: number[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const r = await runBacktest({ ...opts, clock: undefined, entry: { kind: "random", probability, random: mulberry32(seed) } });
    netPnl.push(Number(r.stats.netPnl));
  }
  const sorted = [...netPnl].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  return { seeds, probability, netPnl, netPnlPercentile: percentileRank(netPnl, Number(strategy.stats.netPnl)), medianNetPnl: Math.round(median * 100) / 100 };
}
