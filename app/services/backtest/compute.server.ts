/**
 * The CPU-bound part of one user's backtest (issue 12's job, issue 24: run off the main thread): load
 * the candles of a file source, run the user's settings through the live executor
 * (core/backtest/run.ts `runBacktest`) and the random-entry baseline (core/backtest/baseline.ts),
 * and shape the stored result. The same function runs inside a worker thread
 * (compute.worker.ts, driven by worker-pool.server.ts) and, for tests and benchmarks, in process: its
 * input is plain data (structured-clonable: no config, no database, no functions), so both give the
 * same result.
 */
import { equityBand, randomBaseline } from "../../../core/backtest/baseline";
import type { BaselineResult } from "../../../core/backtest/baseline";
import { onH1 } from "../../../core/backtest/long-history";
import { runBacktest } from "../../../core/backtest/run";
import type { BacktestOptions, BacktestResult, EquityPoint } from "../../../core/backtest/run";
import { CalendarIndex, newsCalendar } from "../../../core/calendar";
import type { CalendarEvent } from "../../../core/calendar";
import type { CandlesByTimeframe } from "../../../core/engine/decide";
import { CURVE_POINTS, type CurvePoint, type RunParams, type RunResult } from "../../lib/backtest-run";
import { shippedCandles } from "./data.server";
import { longCandles } from "./long-history.server";

const DAY_MS = 86_400_000;
/** Share of the progress bar taken by the strategy's own run (the baseline seeds take the rest). */
const STRATEGY_SHARE = 0.3;

/** What one run needs, as plain data (sent to a worker thread by structured clone). */
export interface ComputeRequest {
  params: RunParams;
  /**
   * Where the candles come from: the shipped files' folder (source "shipped"), the long history's
   * folder and the pairs to read there (the traded ones plus the pairs that convert a cross's quote
   * currency, source "long"), or the candles already fetched from the user's broker.
   */
  candles: { kind: "shipped"; dir: string } | { kind: "long"; dir: string; pairs: string[] } | { kind: "given"; byInstrument: Record<string, CandlesByTimeframe> };
  /** The economic calendar's events the run is blacked out by (calendar.server.ts calendarIndex). */
  calendarEvents: readonly CalendarEvent[];
}

/** A run's result without the calendar note (added by the caller), and the core run's own time (ms). */
export interface ComputeOutput {
  result: Omit<RunResult, "calendar">;
  coreMs: number;
}

/** Fall from the running peak of each point, % (≤ 0, 2 decimals). */
export function drawdownCurve(points: readonly CurvePoint[]): CurvePoint[] {
  let peak = -Infinity;
  return points.map((p) => {
    peak = Math.max(peak, p.value);
    return { time: p.time, value: peak > 0 ? Math.round(((p.value - peak) / peak) * 10_000) / 100 : 0 };
  });
}

/** The stored result of a finished run. */
export function toRunResult(r: BacktestResult, base: BaselineResult, coreMs: number): Omit<RunResult, "calendar"> {
  const equity = (r.equity ?? []).map((p: EquityPoint) => ({ time: p.time, value: p.nav }));
  const band = base.band ?? equityBand([]);
  return {
    stats: r.stats,
    trades: r.trades.map(({ reason: _r, costs: _c, ...t }) => t),
    equity,
    drawdown: drawdownCurve(equity),
    band,
    baseline: { seeds: base.seeds, probability: Math.round(base.probability * 1e6) / 1e6, netPnl: base.netPnl, netPnlPercentile: base.netPnlPercentile, medianNetPnl: base.medianNetPnl },
    stops: r.stops.map((s) => ({ time: s.time, code: s.code, reasonMsg: s.reasonMsg })),
    blocked: r.blocked,
    newsBlocked: r.newsBlocked.length,
    ticks: r.ticks,
    candles: r.candles,
    stepTimeframe: r.stepTimeframe,
    spreadPips: r.spreadPips,
    coreMs: Math.round(coreMs),
    riskPct: r.riskPct,
  };
}

/** The candles of the request, per instrument. @throws Error (Portuguese) when a file is missing. */
function loadCandles(req: ComputeRequest): Record<string, CandlesByTimeframe> {
  const src = req.candles;
  if (src.kind === "given") return src.byInstrument;
  const out: Record<string, CandlesByTimeframe> = {};
  if (src.kind === "shipped") {
    for (const i of req.params.instruments) out[i] = shippedCandles(i, src.dir);
  } else {
    // Read in place, bid → mid; the period plus its warm-up.
    const fromMs = Date.parse(req.params.from);
    const toMs = Date.parse(req.params.to) + DAY_MS;
    for (const i of src.pairs) out[i] = longCandles(i, fromMs, toMs, src.dir);
  }
  return out;
}

/**
 * Runs one backtest: the strategy then `params.seeds` random-entry seeds, reporting progress as a
 * percentage (0–100; the strategy takes the first 30 %) to `onProgress`, awaited when it returns a
 * promise. Milliseconds measured with `performance.now()`.
 * @throws Error (Portuguese) when the candles cannot be read; whatever the core run throws.
 */
export async function computeRun(req: ComputeRequest, onProgress?: (pct: number) => void | Promise<void>): Promise<ComputeOutput> {
  const p = req.params;
  const opts: BacktestOptions = {
    instruments: p.instruments,
    candles: loadCandles(req),
    // The long history has H1 bars only: the AI decides on H1 there (core/backtest/long-history.ts onH1).
    settings: p.source === "long" ? onH1(p.settings) : p.settings,
    from: `${p.from}T00:00:00Z`,
    to: new Date(Date.parse(p.to) + DAY_MS).toISOString(),
    initialBalance: p.initialBalance,
    accountCurrency: p.accountCurrency,
    calendar: newsCalendar(new CalendarIndex(req.calendarEvents), p.settings.aiSettings.news),
    equityCurve: { maxPoints: CURVE_POINTS },
  };
  const coreStart = performance.now();
  const strategy = await runBacktest({ ...opts, ...(onProgress ? { onProgress: (f: number) => onProgress(f * STRATEGY_SHARE * 100) } : {}) });
  const coreMs = performance.now() - coreStart;
  const base = await randomBaseline(opts, strategy, p.seeds, onProgress ? (f) => onProgress((STRATEGY_SHARE + f * (1 - STRATEGY_SHARE)) * 100) : undefined);
  return { result: toRunResult(strategy, base, coreMs), coreMs };
}
