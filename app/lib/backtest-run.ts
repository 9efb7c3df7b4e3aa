/**
 * Shapes of the user's backtest runs (issue 12), shared by the service (runs.server.ts), the API and
 * the pages (no server code here, so the browser bundle may import it).
 */
import type { BaselineResult } from "../../core/backtest/baseline";
import type { BacktestTrade } from "../../core/backtest/run";
import type { Msg } from "../../core/i18n/message";
import type { TradingSettings } from "../../core/settings";
import type { TradeStats } from "../../core/stats";

/** Random-entry seeds of the baseline band (ADR 0019: keeps a 3-month M5 one-pair run well under 10 s). */
export const BASELINE_SEEDS = 8;
/** Most points of the equity curve (and of the band) stored per run. */
export const CURVE_POINTS = 1500;

export type RunStatus = "queued" | "running" | "done" | "failed";

/** What the long-history source offers (issue 21): its pairs, the union of their days, each pair's own days, the period limit. */
export interface LongRange {
  instruments: string[];
  /** Inclusive UTC days (YYYY-MM-DD): the earliest first day and the latest last day of the pairs. */
  minDate: string;
  maxDate: string;
  /** Inclusive UTC days of each pair's H1 file. */
  ranges: Record<string, { minDate: string; maxDate: string }>;
  /** Longest period of a run on this source with one pair, days (with n pairs: longMaxDays). */
  maxDays: number;
}

/** Longest period of a long-history run with `pairs` pairs, days: ⌊maxDays / pairs⌋ (cost grows with pairs × days). */
export function longMaxDays(maxDays: number, pairs: number): number {
  return Math.floor(maxDays / Math.max(1, pairs));
}
/** shipped: data/ (the simulator's 2026 files); broker: the user's broker; long: the long H1 history (FX_LONG_DIR, issue 21). */
export type CandleSource = "shipped" | "broker" | "long";

/** What a run was asked, with the settings snapshot it used. */
export interface RunParams {
  instruments: string[];
  source: CandleSource;
  /** First day traded, UTC (YYYY-MM-DD). */
  from: string;
  /** Last day traded, UTC, inclusive (YYYY-MM-DD). */
  to: string;
  settings: TradingSettings;
  initialBalance: string;
  accountCurrency: string;
  seeds: number;
}

/** A point of a chart: UTC seconds and a number (plotting only; the figures are in `stats`). */
export interface CurvePoint {
  time: number;
  value: number;
}

/** A trade of the result, as the page lists it (reason as a translatable message). */
export type RunTrade = Omit<BacktestTrade, "reason" | "costs">;

/** The economic calendar a run used (issue 22 item 12; app/services/trading/calendar.server.ts calendarUsedFor). */
export interface CalendarUsed {
  /** The user's news blackout (settings.aiSettings.news.enabled). */
  newsFilter: boolean;
  /** Events the calendar held, and those in the run's period. */
  events: number;
  inPeriod: number;
  /** Its first and last event (ISO, UTC), null when empty. */
  first: string | null;
  last: string | null;
}

/** What a finished run stores. */
export interface RunResult {
  stats: TradeStats;
  trades: RunTrade[];
  /** NAV along the run. */
  equity: CurvePoint[];
  /** Fall from the running NAV peak, % (≤ 0). */
  drawdown: CurvePoint[];
  /** The random entries' NAV band (p5, p50, p95) on the same times. */
  band: { time: number[]; p5: number[]; p50: number[]; p95: number[] };
  baseline: Omit<BaselineResult, "band" | "netPnl"> & { netPnl: number[] };
  stops: { time: string; code: string; reasonMsg: Msg }[];
  blocked: Record<string, number>;
  newsBlocked: number;
  ticks: number;
  candles: number;
  stepTimeframe: string;
  spreadPips: Record<string, string>;
  /** Wall time of the strategy's run alone, ms. */
  coreMs: number;
  /** Median and largest risk per trade, % of NAV at entry (issue 21); absent in runs stored before. */
  riskPct?: { median: string; max: string } | null;
  /** The economic calendar the run used (issue 22 item 12); absent in runs stored before. */
  calendar?: CalendarUsed;
}

/** A run as the API returns it. */
export interface RunView {
  id: string;
  status: RunStatus;
  progress: number;
  params: RunParams;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  result?: RunResult | null;
}

