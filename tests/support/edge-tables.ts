/**
 * Edge tables for tests (core/research/edge-table.ts shape). The product ships the study's table
 * (core/research/edge-table.json), where most pairs have no edge: a test whose subject needs the AI to
 * open trades opts in explicitly, with `edgeEverywhere()` (backtest option `edgeGate`, tick context
 * `edgeTable`) or with the user's per-pair override (`aiSettings.edgeOverrides`), never by turning the
 * gate off.
 */
import type { EdgeFigures, EdgeTable, EdgeVerdict } from "../../core/research/edge-table";
import { SUPPORTED_INSTRUMENTS } from "../../core/instruments";
import { TRADING_STYLES, type TradingStyle } from "../../core/settings";

/** Out-of-sample figures of a fixture row (made up, plausible). */
export const FIXTURE_FIGURES: EdgeFigures = {
  firstYear: 2016,
  lastYear: 2025,
  trades: 412,
  profitFactor: "0.87",
  expectancyR: "-0.08",
  annualReturnPct: "-3.40",
  worstYear: { year: 2022, returnPct: "-11.20" },
  maxDrawdownPct: "27.50",
  yearsPositive: 3,
  years: 10,
  randomPercentile: 38,
  sharpe: "-0.41",
  deflatedSharpe: null,
};

/**
 * A table with `verdict` for every supported pair and style, except the (instrument, style) pairs
 * listed in `except` ("EUR_USD:swing" → its verdict). Rows not "untested" carry FIXTURE_FIGURES.
 */
export function edgeTable(verdict: EdgeVerdict, except: Record<string, EdgeVerdict> = {}): EdgeTable {
  const rows = SUPPORTED_INSTRUMENTS.flatMap((instrument) =>
    TRADING_STYLES.map((style: TradingStyle) => {
      const v = except[`${instrument}:${style}`] ?? verdict;
      return { instrument, style, verdict: v, family: "engine", figures: v === "untested" ? null : FIXTURE_FIGURES };
    }),
  );
  return {
    version: 1,
    generatedAt: "2026-01-01T00:00:00.000Z",
    command: "fixture",
    defaultFamily: "engine",
    rulePassed: verdict === "edge",
    styles: TRADING_STYLES.map((style) => ({ style, verdict, family: "engine", figures: verdict === "untested" ? null : FIXTURE_FIGURES, source: verdict === "untested" ? "none" : "long-history" })),
    rows,
  };
}

/** Every pair and style with an edge: the gate lets every entry through (tests of the trading itself). */
export function edgeEverywhere(): EdgeTable {
  return edgeTable("edge");
}
