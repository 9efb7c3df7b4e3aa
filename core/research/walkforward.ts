/**
 * Walk-forward windows and out-of-sample metrics for the research loop (issue 12, `npm run research`).
 *
 * Folds: after `warmupWeeks` (indicators only), each fold trains on `trainWeeks` whole weeks and
 * tests on the `testWeeks` that follow; the next fold moves forward by `testWeeks`, so the test
 * windows are consecutive and never overlap, and each train window ends where its test starts
 * (a candidate is chosen on train, scored on test; nothing of the test is read to choose).
 * Times are UTC epoch ms; windows are half-open [from, to).
 */
import { Decimal } from "../decimal";

export interface Window {
  from: number;
  to: number;
}

export interface Fold {
  index: number;
  train: Window;
  test: Window;
}

export interface FoldPlan {
  /** First instant of week 0 (UTC ms). */
  start: number;
  /** End of the data (UTC ms, exclusive): the last test window is cut there. */
  end: number;
  warmupWeeks: number;
  trainWeeks: number;
  testWeeks: number;
}

export const WEEK_MS = 7 * 24 * 3600 * 1000;

/**
 * Rolling folds of `plan`. A final test window shorter than a week is dropped; one of ≥ 1 week is kept
 * cut at `end`. @throws Error when the numbers of weeks are not positive integers.
 */
export function walkForwardFolds(plan: FoldPlan): Fold[] {
  const { start, end, warmupWeeks, trainWeeks, testWeeks } = plan;
  for (const n of [trainWeeks, testWeeks]) if (!Number.isInteger(n) || n < 1) throw new Error("Semanas de treino/teste devem ser inteiros ≥ 1");
  if (!Number.isInteger(warmupWeeks) || warmupWeeks < 0) throw new Error("Semanas de aquecimento devem ser inteiro ≥ 0");
  const folds: Fold[] = [];
  for (let k = 0; ; k++) {
    const trainFrom = start + (warmupWeeks + k * testWeeks) * WEEK_MS;
    const testFrom = trainFrom + trainWeeks * WEEK_MS;
    const testTo = Math.min(end, testFrom + testWeeks * WEEK_MS);
    if (testTo - testFrom < WEEK_MS) break;
    folds.push({ index: k, train: { from: trainFrom, to: testFrom }, test: { from: testFrom, to: testTo } });
  }
  return folds;
}

/** The trade fields the metrics read (core/backtest/run.ts BacktestTrade). */
export interface MetricTrade {
  /** Account currency, decimal string. */
  pnl: string;
  /** Account currency at risk at entry: |entry − stop| × |units| × quote→account rate. */
  risk: string;
}

export interface OosMetrics {
  trades: number;
  /** Gross profit / gross loss (ADR 0008), 2 decimals; null without losses. */
  profitFactor: string | null;
  /** Average P&L per trade / average initial risk per trade (R), 3 decimals; null without trades or risk. */
  expectancyR: string | null;
  netPnl: string;
}

/** Profit factor, expectancy in R and net P&L of a list of trades (decimal arithmetic). */
export function tradeMetrics(trades: readonly MetricTrade[]): OosMetrics {
  let gp = new Decimal(0);
  let gl = new Decimal(0);
  let risk = new Decimal(0);
  for (const t of trades) {
    const p = new Decimal(t.pnl);
    if (p.gt(0)) gp = gp.add(p);
    else gl = gl.add(p.neg());
    risk = risk.add(new Decimal(t.risk).abs());
  }
  const net = gp.sub(gl);
  const n = trades.length;
  return {
    trades: n,
    profitFactor: gl.gt(0) ? gp.div(gl).toFixed(2) : null,
    // (Σpnl / n) / (Σrisk / n) = Σpnl / Σrisk
    expectancyR: n && risk.gt(0) ? net.div(risk).toFixed(3) : null,
    netPnl: net.toFixed(2),
  };
}

/** Max peak-to-trough fall of a running sum of P&L (account currency, ≥ 0), from a starting balance, in % of the peak. */
export function maxDrawdownPct(pnls: readonly string[], initialBalance: string): string {
  let eq = new Decimal(initialBalance);
  let peak = eq;
  let dd = new Decimal(0);
  for (const p of pnls) {
    eq = eq.add(p);
    if (eq.gt(peak)) peak = eq;
    const d = peak.sub(eq).div(peak);
    if (d.gt(dd)) dd = d;
  }
  return dd.mul(100).toFixed(2);
}
