/**
 * The edge table (issue 21, docs/research/PREREGISTRATION.md "The edge table the product ships"):
 * what the long-history walk-forward study knows, per pair × trading style, as a verdict with the
 * out-of-sample figures behind it. `npm run research` writes `core/research/edge-table.json`; the
 * product ships it and reads it through `edgeRow` / `styleSummary`:
 * - the live AI and the backtest enter only (pair, style) whose verdict is "edge" unless the user
 *   overrides that pair (core/trading edge gate);
 * - the report card (hero, /settings, /backtest) shows the style's figures in plain words.
 *
 * Verdicts: "edge" = its family passed the pre-registered decision rule and the pair's own record
 * cleared PF ≥ 1.10 with ≥ 60 % of test years positive; "no_edge" = tested out of sample and not
 * shown; "untested" = the study's data cannot judge it (scalper and day trade M5/M15; fx-long has H1+).
 *
 * Figures are out of sample (test years only), costs included; percentages and ratios are decimal
 * strings (2 decimals), null where undefined (no trade, no loss).
 */
import type { TradingStyle } from "../settings";

export type EdgeVerdict = "edge" | "no_edge" | "untested";

export interface EdgeFigures {
  /** First and last test year (UTC calendar years). */
  firstYear: number;
  lastYear: number;
  /** Trades entered in the test years. */
  trades: number;
  /** Gross profit / gross loss (ADR 0008). */
  profitFactor: string | null;
  /** Mean R multiple per trade. */
  expectancyR: string | null;
  /** Mean yearly return of the NAV, % (sum of daily returns / years). */
  annualReturnPct: string;
  /** The worst test year and its return, %. */
  worstYear: { year: number; returnPct: string } | null;
  /** Largest peak-to-trough fall of the daily NAV over the test years, % (drawdown stop off). */
  maxDrawdownPct: string;
  /** Test years with a positive return, out of `years`. */
  yearsPositive: number;
  years: number;
  /** Where the out-of-sample return falls among random entries with the same exits (0–100), null when not run. */
  randomPercentile: number | null;
  /** Annualised Sharpe of daily returns, null when undefined. */
  sharpe: string | null;
  /** Deflated Sharpe ratio (probability, 0–1) of the family's record; null for a single pair's slice. */
  deflatedSharpe: string | null;
}

export interface EdgeRow {
  instrument: string;
  style: TradingStyle;
  verdict: EdgeVerdict;
  /** The research family whose record this is (e.g. "engine" = today's engine, H1). */
  family: string;
  /** Null when untested. */
  figures: EdgeFigures | null;
}

export interface StyleSummary {
  style: TradingStyle;
  /** "edge" when at least one pair of the style has an edge. */
  verdict: EdgeVerdict;
  family: string;
  /** The style's whole portfolio record (every pair in one account); null when untested. */
  figures: EdgeFigures | null;
  /** Where the figures come from: the long-history study, or none (untested). */
  source: "long-history" | "none";
}

export interface EdgeTable {
  version: 1;
  /** UTC ISO instant the study finished. */
  generatedAt: string;
  /** The command that reproduces it. */
  command: string;
  /** The family that is the product's default (decision rule, ADR). */
  defaultFamily: string;
  /** Whether any family passed the pre-registered decision rule. */
  rulePassed: boolean;
  styles: StyleSummary[];
  rows: EdgeRow[];
}

/** The row of a pair and style, or undefined when the table has none (read as "untested"). */
export function edgeRow(table: EdgeTable, instrument: string, style: TradingStyle): EdgeRow | undefined {
  return table.rows.find((r) => r.instrument === instrument && r.style === style);
}

/** The style's portfolio summary, or undefined when the table has none. */
export function styleSummary(table: EdgeTable, style: TradingStyle): StyleSummary | undefined {
  return table.styles.find((s) => s.style === style);
}

/** True when the table shows an out-of-sample edge for the pair in the style. */
export function hasEdge(table: EdgeTable, instrument: string, style: TradingStyle): boolean {
  return edgeRow(table, instrument, style)?.verdict === "edge";
}
