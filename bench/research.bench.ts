/**
 * Research speed (issue 21, docs/BENCHMARKS.md "Research"): on the long history (../shared/data/fx-long,
 * read in place), one core, median of `runs`:
 *   1. the engine's indicator and decision path alone, EUR_USD 2003–2022 H1 (the aim:
 *      1,000,000 candles/s): the indicators (DecisionEngine.push), the research's path (push +
 *      entrySide, the whole decide only where entrySide names a side) and decide on every candle;
 *   2. the same candles through the whole executor (runBacktest: sync, risk gate, fills, books), today's
 *      engine on H1, EUR_USD 2016;
 *   3. one research trial (core/research/trial.ts): tsmom L=60 k=3 on the 8 pairs 2012-11–2022.
 * The whole study's wall time is printed by `npm run research` itself (REPORT.md header).
 * Run: nice npm run bench:research [-- runs]
 */
import { performance } from "node:perf_hooks";
import { loadavg } from "node:os";
import { runBacktest } from "../core/backtest/run";
import { DecisionEngine, featureConfig } from "../core/engine/decide";
import { family } from "../core/research/families";
import { LONG_PAIRS } from "../core/research/long-history";
import { runTrial, studySettings } from "../core/research/trial";
import { loadStudyCandles, DEFAULT_LONG_DIR } from "../server/cli/research-data";

const RUNS = Number(process.argv[2] ?? "3");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const data = loadStudyCandles(DEFAULT_LONG_DIR, [...LONG_PAIRS]);
const settings = studySettings(family("engine"), family("engine").sets[0]);
const eur = data.H1.EUR_USD!;

const input = (c: (typeof eur)[number]) => ({ now: new Date(c.time + 3_600_000), instrument: "EUR_USD", price: { bid: String(c.close), ask: String(c.close), tradeable: true }, settings, account: { balance: "10000", currency: "USD" } });
/** Candles per second of `step` over EUR_USD's H1 candles with a fresh engine, and how many opens it saw. */
function rate(step: (engine: DecisionEngine, c: (typeof eur)[number]) => boolean): { perSecond: number; opens: number } {
  const engine = new DecisionEngine(featureConfig(settings));
  const t0 = performance.now();
  let opens = 0;
  for (const c of eur) if (step(engine, c)) opens++;
  return { perSecond: (eur.length / (performance.now() - t0)) * 1000, opens };
}
const indicators: number[] = [];
const stage: number[] = [];
const path: number[] = [];
const whole: number[] = [];
for (let r = 0; r < RUNS; r++) {
  indicators.push(rate((e, c) => (e.push("H1", c), false)).perSecond);
  stage.push(rate((e, c) => (e.push("H1", c), e.entrySide(c.time + 3_600_000, settings) !== null)).perSecond);
  // The research's path (core/research/trial.ts): the signal stage on numbers at every candle, the whole decision where it names a side.
  const p = rate((e, c) => (e.push("H1", c), e.entrySide(c.time + 3_600_000, settings) !== null && e.decide(input(c)).action === "open"));
  const w = rate((e, c) => (e.push("H1", c), e.decide(input(c)).action === "open"));
  if (p.opens !== w.opens) throw new Error(`entrySide disagrees with decide: ${p.opens} vs ${w.opens} opens`);
  path.push(p.perSecond);
  whole.push(w.perSecond);
  if (r === 0) console.log(`decision path: ${eur.length} candles, ${p.opens} opens`);
}

const exec: number[] = [];
const y2016 = eur.filter((c) => c.time >= Date.UTC(2015, 8, 1) && c.time < Date.UTC(2017, 0, 1));
for (let r = 0; r < RUNS; r++) {
  const res = await runBacktest({ instruments: ["EUR_USD"], candles: { EUR_USD: { H1: y2016 } }, settings, from: "2016-01-01", initialBalance: "10000", accountCurrency: "USD", edgeGate: false, clock: () => performance.now() });
  exec.push(res.candlesPerSecond ?? 0);
}

const trial: number[] = [];
for (let r = 0; r < RUNS; r++) {
  const f = family("tsmom");
  const run = await runTrial({ family: f, instruments: [...LONG_PAIRS], sets: [f.sets[3]!], activeSet: () => 0, firstTestYear: 2016, from: Date.UTC(2012, 10, 1), to: Date.UTC(2023, 0, 1) }, data, () => performance.now());
  trial.push(run.durationMs / 1000);
}

const cps = (xs: number[]) => `${Math.round(median(xs)).toLocaleString("en")} candles/s`;
console.log(`load ${loadavg()[0]!.toFixed(1)} · indicators alone ${cps(indicators)} · indicators + signal stage (entrySide) ${cps(stage)} (${(median(stage) / 1e6 * 100).toFixed(1)} % of 1,000,000) · indicator+decision path (signal stage, whole decision on a side) ${cps(path)} (${(median(path) / 1e6 * 100).toFixed(1)} % of 1,000,000) · whole decision every candle ${cps(whole)} · executor ${Math.round(median(exec)).toLocaleString("en")} candles/s · one tsmom trial on 8 pairs ${median(trial).toFixed(1)} s`);
