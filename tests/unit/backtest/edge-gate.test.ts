/**
 * The edge gate in the backtest (issue 21): the backtest runs the live executor, so a pair without a
 * proven edge in the chosen style opens nothing there either, and the result says why (`blocked.no_edge`);
 * the user's override (aiSettings.edgeOverrides) trades it, as live.
 */
import { describe, expect, it } from "vitest";
import { runBacktest, type BacktestOptions } from "../../../core/backtest/run";
import { defaultSettings } from "../../../core/settings";
import { loadCsvCandles } from "../../../app/services/backtest/candle-files";
import { edgeTable } from "../../support/edge-tables";

const candles = { EUR_USD: loadCsvCandles("data", "EUR_USD"), GBP_USD: loadCsvCandles("data", "GBP_USD") };
const settings = defaultSettings();
const opts: BacktestOptions = {
  instruments: ["EUR_USD", "GBP_USD"],
  candles,
  settings,
  from: "2026-01-12T00:00:00Z",
  to: "2026-01-31T00:00:00Z",
  initialBalance: "10000",
  accountCurrency: "USD",
  // Swing: GBP_USD has an edge, EUR_USD was tested without one.
  edgeGate: edgeTable("untested", { "GBP_USD:swing": "edge", "EUR_USD:swing": "no_edge" }),
};

describe("runBacktest: the edge gate", () => {
  it("a pair without an edge opens nothing and its refused entries are counted; an override trades it", { timeout: 120_000 }, async () => {
    const gated = await runBacktest(opts);
    expect(gated.trades.some((t) => t.instrument === "GBP_USD")).toBe(true);
    expect(gated.trades.filter((t) => t.instrument === "EUR_USD")).toEqual([]);
    expect(gated.blocked.no_edge).toBeGreaterThan(0);

    const overridden = await runBacktest({ ...opts, settings: { ...settings, aiSettings: { ...settings.aiSettings, edgeOverrides: ["EUR_USD"] } } });
    expect(overridden.trades.some((t) => t.instrument === "EUR_USD")).toBe(true);
    expect(overridden.blocked.no_edge).toBeUndefined();
  });
});
