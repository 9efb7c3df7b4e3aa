/**
 * Backtest benchmark: the three 2026 pairs of /work/shared/data/fx with the default settings
 * (PRODUCT.md §9), 1-pip spread, 10 000 USD. Prints candles/s and memory, and rewrites the
 * "Backtest" section of docs/BENCHMARKS.md (between the backtest markers).
 * Run: node --import tsx bench/backtest.bench.ts [dataDir]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { performance } from "node:perf_hooks";
import { loadCsvCandles } from "../core/backtest/csv";
import { runBacktest } from "../core/backtest/run";
import { defaultSettings } from "../core/settings";

const DATA = process.argv[2] ?? "/work/shared/data/fx";
const PAIRS = ["EUR_USD", "GBP_USD", "USD_JPY"];
const RUNS = 5;
const DOC = new URL("../docs/BENCHMARKS.md", import.meta.url);
const START = "<!-- backtest:start -->";
const END = "<!-- backtest:end -->";

const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
const rows: string[] = [];
let totalCandles = 0;
let totalMs = 0;
for (const instrument of PAIRS) {
  const t0 = performance.now();
  const candlesByTf = loadCsvCandles(DATA, instrument);
  const loadMs = performance.now() - t0;
  const runs: { ms: number; cps: number }[] = [];
  let last: ReturnType<typeof runBacktest> | undefined;
  for (let i = 0; i < RUNS; i++) {
    last = runBacktest({ instrument, candlesByTf, settings: defaultSettings(), spreadPips: 1, initialBalance: "10000", accountCurrency: "USD", clock: () => performance.now() });
    runs.push({ ms: last.durationMs!, cps: last.candlesPerSecond! });
  }
  const sorted = [...runs].sort((a, b) => a.cps - b.cps);
  const med = sorted[sorted.length >> 1]!;
  const first = runs[0]!;
  totalCandles += last!.candles;
  totalMs += med.ms;
  const s = last!.stats;
  const row = `| ${instrument} | ${last!.stepTimeframe} | ${last!.candles} | ${loadMs.toFixed(0)} | ${first.cps} | ${med.cps} | ${med.ms.toFixed(0)} | ${s.trades} | ${s.winRatePct.toFixed(1)} | ${s.profitFactor ?? "—"} | ${s.netPips.toFixed(1)} | ${s.netPnl} | ${s.maxDrawdownPct.toFixed(2)} | ${last!.stops.length} |`;
  rows.push(row);
  console.log(`${instrument}: ${last!.candles} candles, load ${loadMs.toFixed(0)} ms, first run ${first.cps} c/s, median ${med.cps} c/s (${med.ms.toFixed(0)} ms), trades ${s.trades}, net ${s.netPnl} USD`);
}
const mem = process.memoryUsage();
console.log(`overall ${Math.round((totalCandles / totalMs) * 1000)} candles/s (median runs); heap used ${mb(mem.heapUsed)} MB, rss ${mb(mem.rss)} MB`);

const section = [
  START,
  "## Backtest (core/backtest, `node --import tsx bench/backtest.bench.ts`)",
  "",
  `Run ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model ?? "?"}), ${mb(totalmem())} MB RAM, Node ${process.version}.`,
  `Data: ${DATA} (2026-01-04 .. 2026-04-03, 13 weeks; USD_JPY M5 bucketed from M3). Settings: defaults (PRODUCT.md §9: swing, auto timeframe, RSI/MACD/EMA),`,
  "spread 1 pip, 10 000 USD, daily limits on America/Sao_Paulo days. Speed = finest bars (M5) stepped per second, decide() + evaluateRisk() + fills,",
  `CSV loading excluded (column "load ms"); ${RUNS} runs per pair, "first" includes JIT warm-up, "median" is the median run.`,
  "",
  "| pair | step | candles | load ms | first c/s | median c/s | median ms | trades | win rate % | profit factor (avg win / avg loss) | net pips | net P&L USD | max DD % | bot stops |",
  "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ...rows,
  "",
  `Overall: ${Math.round((totalCandles / totalMs) * 1000)} candles/s (median runs). Memory after the runs: heap used ${mb(mem.heapUsed)} MB, RSS ${mb(mem.rss)} MB.`,
  "The strategy figures are a regression baseline for the engine, not a performance claim: the defaults lose money on this sample.",
  END,
].join("\n");

const current = existsSync(DOC) ? readFileSync(DOC, "utf8") : "# Benchmarks\n\nFigures printed by `bench/`; machine: 2 cores.\n";
const next = current.includes(START) && current.includes(END)
  ? current.slice(0, current.indexOf(START)) + section + current.slice(current.indexOf(END) + END.length)
  : `${current.trimEnd()}\n\n${section}\n`;
writeFileSync(DOC, next);
console.log(`docs/BENCHMARKS.md updated`);
