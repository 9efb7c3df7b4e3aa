/**
 * `npm run research:short -- [--data data] [--pairs EUR_USD,GBP_USD,USD_JPY] [--styles scalper,day,swing,position]
 *  [--seeds 50] [--warmup 1] [--train 4] [--test 2] [--out docs/research]
 *  [--holdout ../shared/data/fx/histdata_2016] [--holdout-seeds 20]`
 * Walk-forward research of the strategy candidates (core/research/candidates.ts) on the shipped
 * candles, with the one executor (core/backtest/run.ts runBacktest). Per pair and style:
 * 1. one continuous backtest per candidate over the whole sample; each fold's train window
 *    (trades that entered and closed inside it) picks the candidate with the best expectancy in R
 *    (≥ 10 trades, else "default"); every candidate's test-window trades are also reported;
 * 2. the picked candidate is re-run alone on each test window (fresh account) and ranked against
 *    `--seeds` random-entry runs with the same exits, sizing and costs (core/backtest/baseline.ts),
 *    seed-wise summed over the folds; today's default gets the same treatment as the reference;
 * 3. flat (0) and buy-and-hold of the pair over the same test windows;
 * 4. today's default over the whole test span with the 5 % drawdown stop on (the live setting);
 * 5. hold-out (`--holdout <dir>`, default the 2016 USD_JPY set when that folder exists; "" skips it):
 *    per style, today's default and the candidate with the best pooled out-of-sample expectancy in R
 *    over the pairs (chosen before the hold-out is read) run once over the whole hold-out after a
 *    warm-up week, each ranked against `--holdout-seeds` random runs. Nothing is selected on it.
 * A candidate with a time condition (session, weekend) is ranked against random entries drawn only
 * in the hours it allows (core/research/baseline.ts).
 * Research settings: the style's defaults, except maxDrawdownPct 100 — the 5 % high-water-mark stop
 * otherwise halts a run for good after 2–4 weeks (docs/BENCHMARKS.md) and the later folds would be
 * empty. Writes `<out>/latest.md` and `<out>/latest.json` (rewritten after each pair and style, so
 * a run cut short leaves the part it finished). Exits 1 with a message on bad arguments.
 */
import { existsSync } from "node:fs";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { percentileRank } from "../../core/backtest/baseline";
import { runBacktest } from "../../core/backtest/run";
import type { BacktestOptions, BacktestTrade } from "../../core/backtest/run";
import type { CandlesByTimeframe } from "../../core/engine/decide";
import { researchBaseline } from "../../core/research/baseline";
import { CANDIDATES } from "../../core/research/candidates";
import type { Candidate } from "../../core/research/candidates";
import { maxDrawdownPct, tradeMetrics, walkForwardFolds } from "../../core/research/walkforward";
import { WEEK_MS } from "../../core/research/walkforward";
import type { Fold, OosMetrics, Window } from "../../core/research/walkforward";
import { defaultSettings, parseSettingsUpdate, TRADING_STYLES } from "../../core/settings";
import type { TradingSettings, TradingStyle } from "../../core/settings";
import { availableGranularities, loadCsvCandles } from "../../app/services/backtest/candle-files";

/** The 2016 USD_JPY HistData set (HistData.com terms; read in place, not copied into data/). */
const DEFAULT_HOLDOUT = "../shared/data/fx/histdata_2016";

const BALANCE = "10000";
const MIN_TRAIN_TRADES = 10;

function fail(msg: string): never {
  console.error(`Erro: ${msg}`);
  process.exit(1);
}

/** Trades that entered and closed inside a window (train: nothing from after it). */
export function tradesInside(trades: readonly BacktestTrade[], w: Window): BacktestTrade[] {
  return trades.filter((t) => Date.parse(t.entryTime) >= w.from && Date.parse(t.exitTime) < w.to);
}

/** Trades that entered inside a window (test: scored wherever they exit). */
function tradesEntered(trades: readonly BacktestTrade[], w: Window): BacktestTrade[] {
  return trades.filter((t) => Date.parse(t.entryTime) >= w.from && Date.parse(t.entryTime) < w.to);
}

/** The style's default settings; the 5 % drawdown stop disabled (maxDrawdownPct 100) unless `ddStop`. */
function styleSettings(style: TradingStyle, ddStop = false): TradingSettings {
  const r = parseSettingsUpdate({ aiSettings: { tradingStyle: style } }, defaultSettings());
  if (!r.ok) throw new Error(r.message);
  return ddStop ? r.settings : { ...r.settings, maxDrawdownPct: 100 };
}

function candidateOpts(base: BacktestOptions, c: Candidate): BacktestOptions {
  const settings = c.patch ? c.patch(base.settings) : base.settings;
  return { ...base, settings, ...(c.filter ? { entryFilter: c.filter(settings) } : {}) };
}

/** Tick instants (bar closes, UTC ms) of the step series whose bars open inside a window. */
function tickTimes(candles: CandlesByTimeframe, w: Window): number[] {
  const [series, dur] = candles.M5?.length ? [candles.M5, 300_000] : [candles.M15 ?? [], 900_000];
  return series.filter((c) => c.time >= w.from && c.time < w.to).map((c) => c.time + dur);
}

/** Ranks a candidate's run over a window against its random baseline (time-filtered when the candidate has a time condition). */
async function scoreRun(base: BacktestOptions, candles: CandlesByTimeframe, c: Candidate, w: Window, seeds: number) {
  const opts = { ...candidateOpts(base, c), from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString() };
  const r = await runBacktest(opts);
  const b = await researchBaseline(opts, r, seeds, c.timeCondition, tickTimes(candles, w));
  return { r, b };
}

/** Price change of the step series' closes over a window, % (buy-and-hold of the base currency). */
function buyAndHoldPct(candles: CandlesByTimeframe, w: Window): number | null {
  const series = candles.M5?.length ? candles.M5 : candles.M15 ?? [];
  const inside = series.filter((c) => c.time >= w.from && c.time < w.to);
  if (inside.length < 2) return null;
  return (inside[inside.length - 1]!.close / inside[0]!.open - 1) * 100;
}

interface CandidateRow extends OosMetrics {
  candidate: string;
  maxDrawdownPct: string;
}

interface StyleResult {
  pair: string;
  style: TradingStyle;
  folds: { index: number; trainWindow: string; testWindow: string; picked: string; trainExpectancyR: string | null; test: OosMetrics; baselinePercentile: number; defaultTest: OosMetrics; defaultBaselinePercentile: number; buyAndHoldPct: number | null }[];
  walkForward: CandidateRow & { baselinePercentile: number; baselineMedianNetPnl: number };
  defaultOos: CandidateRow & { baselinePercentile: number; baselineMedianNetPnl: number };
  candidatesOos: CandidateRow[];
  buyAndHoldPct: number;
  /** Today's default over the whole test span with the live 5 % drawdown stop on. */
  defaultWithDdStop: OosMetrics & { maxDrawdownPct: string; stops: { time: string; code: string }[] };
}

interface HoldoutRow extends CandidateRow {
  style: TradingStyle;
  pair: string;
  window: string;
  baselinePercentile: number;
  baselineMedianNetPnl: number;
  buyAndHoldPct: number | null;
  /** The same run with the live 5 % drawdown stop on. */
  withDdStop: OosMetrics & { stops: number; firstStop: string | null };
}

const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length ? Math.round((s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2) * 100) / 100 : NaN;
};

/** Runs the walk-forward of one pair and style. */
async function researchStyle(pair: string, candles: CandlesByTimeframe, style: TradingStyle, folds: Fold[], seeds: number, oosByCandidate: Map<string, BacktestTrade[]>): Promise<StyleResult> {
  const base: BacktestOptions = { instruments: [pair], candles: { [pair]: candles }, settings: styleSettings(style), initialBalance: BALANCE, accountCurrency: "USD" };
  const full = new Map<string, BacktestTrade[]>();
  for (const c of CANDIDATES) full.set(c.name, (await runBacktest(candidateOpts(base, c))).trades);
  const testWindows = folds.map((f) => f.test);
  const oosTrades = (name: string) => testWindows.flatMap((w) => tradesEntered(full.get(name)!, w));
  const row = (candidate: string, trades: BacktestTrade[]): CandidateRow => ({
    candidate,
    ...tradeMetrics(trades),
    maxDrawdownPct: maxDrawdownPct(trades.map((t) => t.pnl), BALANCE),
  });
  const candidatesOos = CANDIDATES.map((c) => row(c.name, oosTrades(c.name)));
  for (const c of CANDIDATES) oosByCandidate.set(c.name, [...(oosByCandidate.get(c.name) ?? []), ...oosTrades(c.name)]);

  const foldRows: StyleResult["folds"] = [];
  const wfTrades: BacktestTrade[] = [];
  const defTrades: BacktestTrade[] = [];
  const wfSeeds = new Array<number>(seeds).fill(0);
  const defSeeds = new Array<number>(seeds).fill(0);
  let wfNet = 0;
  let defNet = 0;
  let bh = 0;
  for (const f of folds) {
    let picked = CANDIDATES[0]!;
    let best: number | null = null;
    let bestR: string | null = null;
    for (const c of CANDIDATES) {
      const m = tradeMetrics(tradesInside(full.get(c.name)!, f.train));
      if (m.trades < MIN_TRAIN_TRADES || m.expectancyR === null) continue;
      if (best === null || Number(m.expectancyR) > best) [best, bestR, picked] = [Number(m.expectancyR), m.expectancyR, c];
    }
    const score = async (c: Candidate, acc: number[]) => {
      const out = await scoreRun(base, candles, c, f.test, seeds);
      out.b.netPnl.forEach((x, i) => (acc[i]! += x));
      return out;
    };
    const wf = await score(picked, wfSeeds);
    const def = picked.name === "default" ? wf : await score(CANDIDATES[0]!, defSeeds);
    if (picked.name === "default") wf.b.netPnl.forEach((x, i) => (defSeeds[i]! += x));
    wfTrades.push(...wf.r.trades);
    defTrades.push(...def.r.trades);
    wfNet += Number(wf.r.stats.netPnl);
    defNet += Number(def.r.stats.netPnl);
    const bhf = buyAndHoldPct(candles, f.test);
    bh += bhf ?? 0;
    foldRows.push({
      index: f.index,
      trainWindow: `${iso(f.train.from)}..${iso(f.train.to)}`,
      testWindow: `${iso(f.test.from)}..${iso(f.test.to)}`,
      picked: picked.name,
      trainExpectancyR: bestR,
      test: tradeMetrics(wf.r.trades),
      baselinePercentile: wf.b.netPnlPercentile,
      defaultTest: tradeMetrics(def.r.trades),
      defaultBaselinePercentile: def.b.netPnlPercentile,
      buyAndHoldPct: bhf === null ? null : Math.round(bhf * 100) / 100,
    });
  }
  const span = { from: new Date(folds[0]!.test.from).toISOString(), to: new Date(folds[folds.length - 1]!.test.to).toISOString() };
  const dd = await runBacktest({ ...base, settings: styleSettings(style, true), ...span });
  return {
    pair,
    style,
    defaultWithDdStop: { ...tradeMetrics(dd.trades), maxDrawdownPct: maxDrawdownPct(dd.trades.map((t) => t.pnl), BALANCE), stops: dd.stops.map((x) => ({ time: x.time, code: x.code })) },
    folds: foldRows,
    walkForward: { ...row("walk-forward pick", wfTrades), baselinePercentile: percentileRank(wfSeeds, wfNet), baselineMedianNetPnl: median(wfSeeds) },
    defaultOos: { ...row("default", defTrades), baselinePercentile: percentileRank(defSeeds, defNet), baselineMedianNetPnl: median(defSeeds) },
    candidatesOos,
    buyAndHoldPct: Math.round(bh * 100) / 100,
  };
}

/** Sunday 00:00 UTC of the week of the first candle, and the end of the data (+1 h), of a pair's candles. */
function dataSpan(candles: CandlesByTimeframe): { start: number; end: number } {
  const times = Object.values(candles).flatMap((cs) => (cs?.length ? [cs[0]!.time, cs[cs.length - 1]!.time] : []));
  const day = Math.floor(Math.min(...times) / 86_400_000);
  return { start: (day - ((day + 4) % 7)) * 86_400_000, end: Math.max(...times) + 3_600_000 }; // 1970-01-01 was a Thursday
}

/** Pooled expectancy in R of each candidate's out-of-sample trades over the pairs; the best one (ties: the earlier candidate). */
export function bestPooled(oos: ReadonlyMap<string, readonly { pnl: string; risk: string }[]>, candidates: readonly Candidate[] = CANDIDATES): Candidate {
  let best = candidates[0]!;
  let bestR = -Infinity;
  for (const c of candidates) {
    const m = tradeMetrics(oos.get(c.name) ?? []);
    if (m.expectancyR !== null && Number(m.expectancyR) > bestR) [best, bestR] = [c, Number(m.expectancyR)];
  }
  return best;
}

/** Hold-out: today's default and `chosen` once over the whole hold-out of `pair` (after a warm-up week), ranked against random entries. */
async function holdoutStyle(pair: string, candles: CandlesByTimeframe, style: TradingStyle, chosen: Candidate, seeds: number, withDefault = true): Promise<HoldoutRow[]> {
  const { start, end } = dataSpan(candles);
  const w = { from: start + WEEK_MS, to: end };
  const base: BacktestOptions = { instruments: [pair], candles: { [pair]: candles }, settings: styleSettings(style), initialBalance: BALANCE, accountCurrency: "USD" };
  const out: HoldoutRow[] = [];
  for (const c of chosen.name === CANDIDATES[0]!.name || !withDefault ? [chosen] : [CANDIDATES[0]!, chosen]) {
    const { r, b } = await scoreRun(base, candles, c, w, seeds);
    const span = { from: new Date(w.from).toISOString(), to: new Date(w.to).toISOString() };
    const dd = await runBacktest({ ...candidateOpts({ ...base, settings: styleSettings(style, true) }, c), ...span });
    const bh = buyAndHoldPct(candles, w);
    out.push({
      style,
      pair,
      window: `${iso(w.from)}..${iso(w.to)}`,
      candidate: c.name,
      ...tradeMetrics(r.trades),
      maxDrawdownPct: maxDrawdownPct(r.trades.map((t) => t.pnl), BALANCE),
      baselinePercentile: b.netPnlPercentile,
      baselineMedianNetPnl: b.medianNetPnl,
      buyAndHoldPct: bh === null ? null : Math.round(bh * 100) / 100,
      withDdStop: { ...tradeMetrics(dd.trades), stops: dd.stops.length, firstStop: dd.stops[0]?.time ?? null },
    });
  }
  return out;
}

const d = (v: string | number | null) => (v === null || (typeof v === "number" && Number.isNaN(v)) ? "—" : String(v));

/** The markdown report. */
export function markdownReport(
  results: StyleResult[],
  meta: { folds: Fold[]; seeds: number; candidatesTried: number; seconds: number; data: string; holdout: string; holdoutSeeds: number; command: string },
  holdout: HoldoutRow[] = [],
): string {
  const L: string[] = [];
  L.push(`# Research: walk-forward results (generated by \`npm run research:short\`)`, "", `Command: \`${meta.command}\``, "");
  L.push(`Data: ${meta.data} (shipped candles, 2026-01-04..2026-04-03). Account 10 000 USD, the simulator's spread, no commission/financing.`);
  L.push(`Folds (train → test, UTC dates, test windows consecutive and disjoint; the first week only warms the indicators up):`, "");
  for (const f of meta.folds) L.push(`- fold ${f.index}: train ${iso(f.train.from)}..${iso(f.train.to)} → test ${iso(f.test.from)}..${iso(f.test.to)}`);
  L.push("");
  L.push(
    `Selection: on each train window the candidate with the best expectancy in R (≥ ${MIN_TRAIN_TRADES} trades that opened and closed inside it; else "default") is picked, then scored on the next test window only.`,
    `Candidates: ${CANDIDATES.map((c) => `\`${c.name}\` (${c.description})`).join("; ")}.`,
    `Candidates tried in total (selection bias): ${meta.candidatesTried} = ${CANDIDATES.length} candidates × ${results.length} pair/style combinations × ${meta.folds.length} folds.`,
    `Random baseline: ${meta.seeds} seeds per test window (fewer than the bench's 200, to keep the run short), random entries at the picked strategy's rate with the same exits, sizing, risk gate and costs, P&L summed seed by seed over the folds; percentile = share of random totals below the strategy's (ties half). 50 ≈ luck; ≥ 95 would be evidence at the 5 % level. For a candidate with a time condition (\`session\`, \`weekend\`) the random entries are drawn only in the hours it allows, at the same rate per allowed decision; the other filters (regime, trend, fresh signal) condition on the market, which is the claimed edge, so their baseline is random entries at the same overall rate. \`voltarget\` changes only the size: its baseline uses the engine's size (random entries are not re-sized), so compare its expectancy in R and profit factor, not its P&L percentile.`,
    `Expectancy R = average P&L per trade / average initial risk per trade (risk = |entry − stop loss| × units × quote→account rate, from each trade). Profit factor = gross profit / gross loss (ADR 0008). Max DD = on the out-of-sample trades chained from 10 000 USD.`,
    `Flat benchmark = 0 USD. Buy & hold = sum over the test windows of the pair's % price change.`,
    `Risk settings: the style's defaults except the 5 % max-drawdown stop, disabled (maxDrawdownPct 100) so that a stop in week 3 does not empty the later folds; the table "with the 5 % drawdown stop on" gives today's default over the same test span with the live setting.`,
    `News blackout (issue 8): not run — the shipped calendar (data/calendar) ends 2026-01-30 and the first test window starts ${meta.folds[0] ? iso(meta.folds[0].test.from) : "—"}, so no test window has a calendar (and the 2016 hold-out has none either).`,
    `Runtime: ${meta.seconds} s.`,
    "",
  );
  L.push("## Out of sample, per pair and style", "");
  L.push("| pair | style | strategy | trades | profit factor | expectancy R | net P&L USD | max DD % | baseline percentile | baseline median USD | buy & hold % |");
  L.push("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    for (const x of [r.defaultOos, r.walkForward]) {
      L.push(`| ${r.pair} | ${r.style} | ${x.candidate} | ${x.trades} | ${d(x.profitFactor)} | ${d(x.expectancyR)} | ${x.netPnl} | ${x.maxDrawdownPct} | ${d(x.baselinePercentile)} | ${d(x.baselineMedianNetPnl)} | ${r.buyAndHoldPct} |`);
    }
  }
  L.push("", "## Every candidate on the same test windows (trades sliced from one continuous run; no baseline)", "");
  L.push("| pair | style | candidate | trades | profit factor | expectancy R | net P&L USD | max DD % |");
  L.push("|---|---|---|---:|---:|---:|---:|---:|");
  for (const r of results) for (const x of r.candidatesOos) L.push(`| ${r.pair} | ${r.style} | ${x.candidate} | ${x.trades} | ${d(x.profitFactor)} | ${d(x.expectancyR)} | ${x.netPnl} | ${x.maxDrawdownPct} |`);
  L.push("", "## Picks per fold", "");
  L.push("| pair | style | fold | picked | train expectancy R | test trades | test PF | test R | test net USD | percentile | default test net USD | default percentile | buy & hold % |");
  L.push("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    for (const f of r.folds) {
      L.push(`| ${r.pair} | ${r.style} | ${f.index} | ${f.picked} | ${d(f.trainExpectancyR)} | ${f.test.trades} | ${d(f.test.profitFactor)} | ${d(f.test.expectancyR)} | ${f.test.netPnl} | ${f.baselinePercentile} | ${f.defaultTest.netPnl} | ${f.defaultBaselinePercentile} | ${d(f.buyAndHoldPct)} |`);
    }
  }
  L.push("", "## Today's default over the whole test span with the 5 % drawdown stop on (live setting)", "");
  L.push("| pair | style | trades | profit factor | expectancy R | net P&L USD | max DD % | bot stops (first) |");
  L.push("|---|---|---:|---:|---:|---:|---:|---|");
  for (const r of results) {
    const x = r.defaultWithDdStop;
    L.push(`| ${r.pair} | ${r.style} | ${x.trades} | ${d(x.profitFactor)} | ${d(x.expectancyR)} | ${x.netPnl} | ${x.maxDrawdownPct} | ${x.stops.length}${x.stops[0] ? ` (${x.stops[0].time.slice(0, 16)} ${x.stops[0].code})` : ""} |`);
  }
  if (holdout.length) {
    L.push("", `## Hold-out: ${meta.holdout} (never used to choose anything)`, "");
    L.push(
      `Per style, today's default and the candidate with the best pooled out-of-sample expectancy in R over the pairs above (chosen before this data is read) run once over the whole hold-out after a warm-up week; random baseline ${meta.holdoutSeeds} seeds. The 5 % drawdown stop is off as above; the last columns give the same run with it on.`,
      "",
      "| pair | style | strategy | window | trades | profit factor | expectancy R | net P&L USD | max DD % | baseline percentile | baseline median USD | buy & hold % | with 5 % DD stop: trades / net USD / stops |",
      "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    );
    for (const h of holdout) {
      L.push(`| ${h.pair} | ${h.style} | ${h.candidate} | ${h.window} | ${h.trades} | ${d(h.profitFactor)} | ${d(h.expectancyR)} | ${h.netPnl} | ${h.maxDrawdownPct} | ${d(h.baselinePercentile)} | ${d(h.baselineMedianNetPnl)} | ${d(h.buyAndHoldPct)} | ${h.withDdStop.trades} / ${h.withDdStop.netPnl} / ${h.withDdStop.stops}${h.withDdStop.firstStop ? ` (first ${h.withDdStop.firstStop.slice(0, 10)})` : ""} |`);
    }
  }
  const beats = results.filter((r) => r.walkForward.baselinePercentile >= 95 && Number(r.walkForward.netPnl) > 0);
  L.push("", "## Verdict", "");
  L.push(
    beats.length
      ? `Walk-forward picks at or above the 95th baseline percentile with a positive net P&L: ${beats.map((r) => `${r.pair} ${r.style} (${r.walkForward.baselinePercentile})`).join(", ")} — out of ${results.length} combinations and ${meta.candidatesTried} candidates tried, so some such results are expected by chance.`
      : `No walk-forward pick beats the random baseline out of sample (none at the 95th percentile with a positive net P&L), across ${results.length} pair/style combinations and ${meta.candidatesTried} candidates tried.`,
  );
  return L.join("\n") + "\n";
}

async function main(): Promise<void> {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        data: { type: "string", default: "data" },
        pairs: { type: "string", default: "EUR_USD,GBP_USD,USD_JPY" },
        styles: { type: "string", default: TRADING_STYLES.join(",") },
        seeds: { type: "string", default: "50" },
        warmup: { type: "string", default: "1" },
        train: { type: "string", default: "4" },
        test: { type: "string", default: "2" },
        out: { type: "string", default: "docs/research" },
        holdout: { type: "string", default: DEFAULT_HOLDOUT },
        "holdout-seeds": { type: "string", default: "20" },
        "holdout-only": { type: "string" },
      },
      strict: true,
    }) as { values: Record<string, string | undefined> });
  } catch (e) {
    fail((e as Error).message);
  }
  const pairs = values.pairs!.split(",").map((s) => s.trim().toUpperCase()).filter(Boolean);
  const styles = values.styles!.split(",").map((s) => s.trim()) as TradingStyle[];
  for (const s of styles) if (!TRADING_STYLES.includes(s)) fail(`estilo inválido: ${s}`);
  const seeds = Number(values.seeds);
  if (!Number.isInteger(seeds) || seeds < 1 || seeds > 1000) fail(`--seeds inválido: ${values.seeds}`);
  const holdoutSeeds = Number(values["holdout-seeds"]);
  if (!Number.isInteger(holdoutSeeds) || holdoutSeeds < 1 || holdoutSeeds > 1000) fail(`--holdout-seeds inválido: ${values["holdout-seeds"]}`);
  const holdoutDir = values.holdout && existsSync(values.holdout) ? values.holdout : "";
  if (values.holdout && !holdoutDir && values.holdout !== DEFAULT_HOLDOUT) fail(`Pasta de hold-out não encontrada: ${values.holdout}`);
  const command = `npm run research:short -- ${process.argv.slice(2).join(" ")}`.trim();
  const started = performance.now();
  const candles = new Map<string, CandlesByTimeframe>();
  for (const pair of pairs) {
    try {
      candles.set(pair, loadCsvCandles(values.data!, pair));
    } catch (e) {
      fail((e as Error).message);
    }
  }
  const holdoutCandles = new Map<string, CandlesByTimeframe>();
  if (holdoutDir) {
    for (const pair of pairs) if (availableGranularities(holdoutDir, pair).length) holdoutCandles.set(pair, loadCsvCandles(holdoutDir, pair));
  }
  const results: StyleResult[] = [];
  const holdout: HoldoutRow[] = [];
  // --holdout-only <candidate>: only that candidate on the hold-out (for runs split across processes;
  // the candidate must be the one the pooled rule chose from the walk-forward results).
  if (values["holdout-only"] !== undefined) {
    const only = CANDIDATES.find((c) => c.name === values["holdout-only"]);
    if (!only) fail(`candidato desconhecido: ${values["holdout-only"]}`);
    if (!holdoutCandles.size) fail("sem dados de hold-out (--holdout)");
    for (const style of styles) for (const [pair, c] of holdoutCandles) holdout.push(...(await holdoutStyle(pair, c, style, only, holdoutSeeds, false)));
    mkdirSync(values.out!, { recursive: true });
    writeFileSync(join(values.out!, "holdout.json"), JSON.stringify({ command, holdoutSeeds, holdout }, null, 2));
    console.log(holdout.map((h) => `${h.pair} ${h.style} ${h.candidate}: R ${d(h.expectancyR)} pct ${h.baselinePercentile}`).join("\n"));
    return;
  }
  const chosen: Record<string, string> = {};
  let folds: Fold[] = [];
  const write = () => {
    const seconds = Math.round((performance.now() - started) / 1000);
    const candidatesTried = CANDIDATES.length * results.length * folds.length;
    const meta = { folds, seeds, candidatesTried, seconds, data: values.data!, holdout: holdoutDir || "none", holdoutSeeds, command };
    mkdirSync(values.out!, { recursive: true });
    writeFileSync(join(values.out!, "latest.md"), markdownReport(results, meta, holdout));
    writeFileSync(
      join(values.out!, "latest.json"),
      JSON.stringify(
        { generatedBy: "npm run research:short", ...meta, folds: folds.map((f) => ({ index: f.index, train: f.train, test: f.test })), candidates: CANDIDATES.map(({ name, description }) => ({ name, description })), results, holdoutChosen: chosen, holdout },
        null,
        2,
      ),
    );
    return seconds;
  };
  for (const style of styles) {
    const oos = new Map<string, BacktestTrade[]>();
    for (const pair of pairs) {
      const c = candles.get(pair)!;
      const { start, end } = dataSpan(c);
      folds = walkForwardFolds({ start, end, warmupWeeks: Number(values.warmup), trainWeeks: Number(values.train), testWeeks: Number(values.test) });
      const t0 = performance.now();
      results.push(await researchStyle(pair, c, style, folds, seeds, oos));
      const r = results[results.length - 1]!;
      console.log(`${pair} ${style}: default OOS R ${d(r.defaultOos.expectancyR)} pct ${r.defaultOos.baselinePercentile}; walk-forward R ${d(r.walkForward.expectancyR)} pct ${r.walkForward.baselinePercentile} (${Math.round((performance.now() - t0) / 1000)} s)`);
      write();
    }
    if (holdoutCandles.size) {
      const pick = bestPooled(oos);
      chosen[style] = pick.name;
      for (const [pair, c] of holdoutCandles) {
        const t0 = performance.now();
        holdout.push(...(await holdoutStyle(pair, c, style, pick, holdoutSeeds)));
        console.log(`hold-out ${pair} ${style} (${pick.name}): ${holdout.slice(-2).map((h) => `${h.candidate} R ${d(h.expectancyR)} pct ${h.baselinePercentile}`).join("; ")} (${Math.round((performance.now() - t0) / 1000)} s)`);
        write();
      }
    }
  }
  const seconds = write();
  console.log(`Relatório: ${join(values.out!, "latest.md")} e latest.json (${seconds} s)`);
}

if (process.argv[1]?.endsWith("research-short.ts")) void main();
