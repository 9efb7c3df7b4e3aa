/**
 * Backtest page on the long history (issue 21): the job's compute (core run + the 8-seed random
 * baseline, as app/services/backtest/runs.server.ts executeRun does it) over the H1 history read in
 * place from FX_LONG_DIR (default ../shared/data/fx-long), bid → mid, the AI on H1; plus the parse
 * time and the cache's size per pair. Prints the figures; docs/BENCHMARKS.md "Backtest on the long
 * history" records them by hand.
 *
 * Worst case by default: the pairs overridden past the edge gate and the drawdown stop at 100 %, so
 * the bot trades through the whole period (with the defaults it stops at the first 5 % drawdown and
 * the run is much shorter). `--defaults` keeps the user's default settings.
 *
 * Run: nice node --import tsx bench/backtest-long.bench.ts [PAIRS] [FROM] [TO] [SEEDS] [--defaults]
 *   e.g. EUR_USD,GBP_USD,USD_JPY 2022-01-01 2022-12-30 8
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { randomBaseline } from "../core/backtest/baseline";
import { onH1 } from "../core/backtest/long-history";
import { runBacktest, type BacktestOptions } from "../core/backtest/run";
import { defaultSettings } from "../core/settings";
import { parseConfig, setConfig } from "../app/services/platform/config.server";
import { longCandles, longColumns, longRange } from "../app/services/backtest/long-history.server";
import { BASELINE_SEEDS, CURVE_POINTS } from "../app/lib/backtest-run";

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const keepDefaults = process.argv.includes("--defaults");
const pairs = (args[0] ?? "EUR_USD,GBP_USD,USD_JPY").split(",");
const from = args[1] ?? "2022-01-01";
const to = args[2] ?? "2022-12-30";
const seeds = Number(args[3] ?? BASELINE_SEEDS);
const s = (ms: number) => (ms / 1000).toFixed(1);

setConfig(parseConfig({ FX_LONG_DIR: process.env.FX_LONG_DIR }));
const range = longRange();
if (!range) throw new Error("FX_LONG_DIR ausente");
console.log(`load before: ${loadavg().map((x) => x.toFixed(1)).join(" / ")}`);
for (const p of pairs) {
  const t = performance.now();
  const cols = longColumns(p);
  console.log(`parse ${p}: ${s(performance.now() - t)} s, ${cols.t.length} bars, ${((cols.t.length * 48) / 1e6).toFixed(1)} MB cached`);
}
const fromMs = Date.parse(from);
const toMs = Date.parse(to) + 86_400_000;
const base = onH1(defaultSettings());
const settings = keepDefaults ? base : { ...base, maxDrawdownPct: 100, aiSettings: { ...base.aiSettings, edgeOverrides: pairs as never } };
const opts: BacktestOptions = {
  instruments: pairs,
  candles: Object.fromEntries(pairs.map((p) => [p, longCandles(p, fromMs, toMs)])),
  settings,
  from: `${from}T00:00:00Z`,
  to: new Date(toMs).toISOString(),
  initialBalance: "10000",
  accountCurrency: "USD",
  equityCurve: { maxPoints: CURVE_POINTS },
};
const t0 = performance.now();
const r = await runBacktest(opts);
const core = performance.now() - t0;
const t1 = performance.now();
await randomBaseline(opts, r, seeds);
const baseline = performance.now() - t1;
console.log(`${pairs.join("+")} ${from} → ${to} (${keepDefaults ? "defaults" : "worst case"}): ${r.ticks} ticks on ${r.stepTimeframe}, ${r.trades.length} trades, stops ${r.stops.length}`);
console.log(`core ${s(core)} s · baseline ${seeds} seeds ${s(baseline)} s · job compute ${s(core + baseline)} s · trades JSON ${(JSON.stringify(r.trades).length / 1024).toFixed(0)} KB`);
console.log(`load after: ${loadavg().map((x) => x.toFixed(1)).join(" / ")}`);
