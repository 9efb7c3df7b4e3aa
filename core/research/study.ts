/**
 * The long-history study's arithmetic (docs/research/PREREGISTRATION.md): daily returns of a trial
 * run, the walk-forward pick per test year (highest Sharpe of daily returns over the three train
 * years among sets with ≥ 30 train trades), the out-of-sample figures of a record, the per-pair
 * slices, the random-entry rates and the decision rule. Numbers here are statistics of returns
 * (plain numbers), not money: the money stayed decimal inside the executor.
 */
import type { EdgeFigures } from "./edge-table";
import { annualisedSharpe, sharpe } from "./statistics";
import type { TrialRun, TrialTrade } from "./trial";

export const TRAIN_YEARS = 3;
export const MIN_TRAIN_TRADES = 30;
export const TRADING_DAYS_PER_YEAR = 252;

/** Decision rule thresholds (PREREGISTRATION "Decision rule"). */
export const RULE = { profitFactor: 1.1, deflatedSharpe: 0.95, randomQuantile: 0.95, yearsPositiveShare: 0.6, maxDrawdownPct: 5 } as const;

/** Daily returns of a run, aligned with its days (the first day's return is 0). */
export function dailyReturns(run: Pick<TrialRun, "nav">): number[] {
  return run.nav.map((v, i) => (i === 0 ? 0 : v / run.nav[i - 1]! - 1));
}

/** UTC calendar year of a day cut. */
export function yearOfDay(dayMs: number): number {
  return new Date(dayMs).getUTCFullYear();
}

/** Daily returns of the run in the given years, in time order. */
export function returnsIn(run: TrialRun, years: readonly number[]): number[] {
  const r = dailyReturns(run);
  const set = new Set(years);
  return r.filter((_, i) => set.has(yearOfDay(run.days[i]!)));
}

/** Trades entered in the given years. */
export function tradesIn(trades: readonly TrialTrade[], years: readonly number[]): TrialTrade[] {
  const set = new Set(years);
  return trades.filter((t) => set.has(new Date(t.entry).getUTCFullYear()));
}

function trainYears(testYear: number): number[] {
  return Array.from({ length: TRAIN_YEARS }, (_, k) => testYear - TRAIN_YEARS + k);
}

/**
 * The walk-forward pick for each test year: index of the set with the best train Sharpe among those
 * with ≥ MIN_TRAIN_TRADES trades entered in the train years, else 0 (the family's first set).
 */
export function walkForwardPicks(runs: readonly TrialRun[], testYears: readonly number[]): Record<number, number> {
  const picks: Record<number, number> = {};
  for (const y of testYears) {
    const train = trainYears(y);
    let best = 0;
    let bestScore = -Infinity;
    runs.forEach((run, k) => {
      if (tradesIn(run.trades, train).length < MIN_TRAIN_TRADES) return;
      const s = sharpe(returnsIn(run, train));
      if (s !== null && s > bestScore) {
        bestScore = s;
        best = k;
      }
    });
    picks[y] = best;
  }
  return picks;
}

/** A record: daily returns by year and the trades entered, out of sample. */
export interface OosRecord {
  byYear: Record<number, number[]>;
  trades: TrialTrade[];
}

/** The record of the picked set per test year, concatenated. */
export function pickedRecord(runs: readonly TrialRun[], picks: Record<number, number>): OosRecord {
  const byYear: Record<number, number[]> = {};
  const trades: TrialTrade[] = [];
  for (const [y, k] of Object.entries(picks)) {
    byYear[Number(y)] = returnsIn(runs[k]!, [Number(y)]);
    trades.push(...tradesIn(runs[k]!.trades, [Number(y)]));
  }
  return { byYear, trades };
}

/** One set's own record over the test years (no selection). */
export function ownRecord(run: TrialRun, testYears: readonly number[]): OosRecord {
  return { byYear: Object.fromEntries(testYears.map((y) => [y, returnsIn(run, [y])])), trades: tradesIn(run.trades, testYears) };
}

/** Compounded return of a list of period returns (fractions): ∏(1 + r) − 1, the change of a NAV they chain. */
export function compounded(returns: readonly number[]): number {
  let nav = 1;
  for (const r of returns) nav *= 1 + r;
  return nav - 1;
}

/** The record's compounded out-of-sample return, fraction (compared with the random runs' own). */
export function totalReturn(rec: OosRecord): number {
  return compounded(Object.values(rec.byYear).flat());
}

function fixed(v: number | null, d = 2): string | null {
  return v === null || !Number.isFinite(v) ? null : v.toFixed(d);
}

/** Gross profit / gross loss of trades (ADR 0008); null without a loss. */
export function profitFactor(trades: readonly TrialTrade[]): number | null {
  let won = 0;
  let lost = 0;
  for (const t of trades) {
    if (t.pnl > 0) won += t.pnl;
    else lost -= t.pnl;
  }
  return lost > 0 ? won / lost : null;
}

/** Mean P&L / mean risk (R), over trades with a risk. */
export function expectancyR(trades: readonly TrialTrade[]): number | null {
  const withRisk = trades.filter((t) => t.risk > 0);
  if (withRisk.length === 0) return null;
  const pnl = withRisk.reduce((a, t) => a + t.pnl, 0) / withRisk.length;
  const risk = withRisk.reduce((a, t) => a + t.risk, 0) / withRisk.length;
  return pnl / risk;
}

/** Largest peak-to-trough fall, %, of NAV chained from daily returns. */
export function maxDrawdownPct(returns: readonly number[]): number {
  let nav = 1;
  let peak = 1;
  let worst = 0;
  for (const r of returns) {
    nav *= 1 + r;
    peak = Math.max(peak, nav);
    worst = Math.max(worst, (peak - nav) / peak);
  }
  return worst * 100;
}

/**
 * The out-of-sample figures of a record (EdgeFigures; deflated Sharpe and random percentile filled by
 * the caller). Yearly returns compound the year's daily returns (a NAV cannot fall more than 100 %);
 * the annual return is the compound annual growth rate over the test years.
 */
export function recordFigures(rec: OosRecord, extra: { randomPercentile?: number | null; deflatedSharpe?: number | null } = {}): EdgeFigures {
  const years = Object.keys(rec.byYear).map(Number).sort((a, b) => a - b);
  const yearly = years.map((y) => ({ year: y, r: compounded(rec.byYear[y]!) * 100 }));
  const all = years.flatMap((y) => rec.byYear[y]!);
  const worst = yearly.reduce<{ year: number; r: number } | null>((w, x) => (w === null || x.r < w.r ? x : w), null);
  return {
    firstYear: years[0] ?? 0,
    lastYear: years.at(-1) ?? 0,
    trades: rec.trades.length,
    profitFactor: fixed(profitFactor(rec.trades)),
    expectancyR: fixed(expectancyR(rec.trades), 3),
    annualReturnPct: ((Math.pow(1 + compounded(all), 1 / Math.max(1, years.length)) - 1) * 100).toFixed(2),
    worstYear: worst ? { year: worst.year, returnPct: worst.r.toFixed(2) } : null,
    maxDrawdownPct: maxDrawdownPct(all).toFixed(2),
    yearsPositive: yearly.filter((x) => x.r > 0).length,
    years: years.length,
    randomPercentile: extra.randomPercentile ?? null,
    sharpe: fixed(annualisedSharpe(all, TRADING_DAYS_PER_YEAR)),
    deflatedSharpe: fixed(extra.deflatedSharpe ?? null, 3),
  };
}

/**
 * One pair's slice of a portfolio record: its trades, each as a return on the account's NAV at the
 * trading day of its entry (`navAt`, USD; its own NAV is not separable from the shared account's),
 * compounded per year and chained for the drawdown in entry order. Over the NAV, not the start
 * balance: an account that lost most of its money trades small, and its pairs' losses are still
 * losses of what was left.
 */
export function pairFigures(rec: OosRecord, instrument: string, navAt: (ms: number) => number): EdgeFigures {
  const trades = rec.trades.filter((t) => t.instrument === instrument);
  const years = Object.keys(rec.byYear).map(Number).sort((a, b) => a - b);
  const byYear: Record<number, number[]> = Object.fromEntries(years.map((y) => [y, []]));
  const perTrade: number[] = [];
  for (const t of trades) {
    const nav = navAt(t.entry);
    const r = nav > 0 ? t.pnl / nav : 0;
    perTrade.push(r);
    byYear[new Date(t.entry).getUTCFullYear()]?.push(r);
  }
  const f = recordFigures({ byYear, trades });
  return { ...f, maxDrawdownPct: maxDrawdownPct(perTrade).toFixed(2), sharpe: null, deflatedSharpe: null };
}

/** The run's NAV (USD) at the last trading-day cut at or before `ms` (the first day's before it). */
export function navAtDay(run: Pick<TrialRun, "days" | "nav">): (ms: number) => number {
  return (ms) => {
    let lo = 0;
    let hi = run.days.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (run.days[mid]! <= ms) lo = mid;
      else hi = mid - 1;
    }
    return run.nav[lo] ?? 0;
  };
}

/** Entry probability per flat slot, per year, of a record's picked runs (the random baseline's rate). */
export function entryRates(runs: readonly TrialRun[], picks: Record<number, number>): Record<number, number> {
  const out: Record<number, number> = {};
  for (const [ys, k] of Object.entries(picks)) {
    const y = Number(ys);
    const run = runs[k]!;
    const slots = run.flatSlots[y] ?? 0;
    out[y] = slots > 0 ? tradesIn(run.trades, [y]).length / slots : 0;
  }
  return out;
}

/** Monthly returns (daily returns compounded per calendar month) of a run over the test years, oldest first. */
export function monthlyReturns(run: TrialRun, testYears: readonly number[]): number[] {
  const r = dailyReturns(run);
  const growth = new Map<string, number>();
  for (const y of testYears) for (let m = 0; m < 12; m++) growth.set(`${y}-${m}`, 1);
  run.days.forEach((d, i) => {
    const t = new Date(d);
    const key = `${t.getUTCFullYear()}-${t.getUTCMonth()}`;
    if (growth.has(key)) growth.set(key, growth.get(key)! * (1 + r[i]!));
  });
  return [...growth.values()].map((g) => g - 1);
}

export interface RuleCheck {
  profitFactor: boolean;
  deflatedSharpe: boolean;
  random: boolean;
  yearsPositive: boolean;
  maxDrawdown: boolean;
  passed: boolean;
}

/** The pre-registered decision rule on a family's record. */
export function checkRule(f: EdgeFigures, deflated: number | null, strategyReturn: number, random95: number | null): RuleCheck {
  const c = {
    profitFactor: f.profitFactor !== null && Number(f.profitFactor) >= RULE.profitFactor,
    deflatedSharpe: deflated !== null && deflated >= RULE.deflatedSharpe,
    random: random95 !== null && strategyReturn > random95,
    yearsPositive: f.years > 0 && f.yearsPositive / f.years >= RULE.yearsPositiveShare,
    maxDrawdown: Number(f.maxDrawdownPct) <= RULE.maxDrawdownPct,
  };
  return { ...c, passed: Object.values(c).every(Boolean) };
}
