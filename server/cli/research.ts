/**
 * `npm run research -- [--data ../shared/data/fx-long] [--seeds 19] [--workers 2] [--families tsmom,…]
 *  [--blocks A,B] [--out docs/research/long] [--table core/research/edge-table.json] [--dev-trials 10]
 *  [--cache <folder>] [--cached-only]`
 *
 * The long-history study of docs/research/PREREGISTRATION.md, in one command:
 * 1. every parameter set of every family (core/research/families.ts) runs once, continuously, in
 *    block A (the 8 pairs as one portfolio, test years 2016–2022) and block B (EUR_USD alone, test
 *    years 2007–2022), through the live executor (core/research/trial.ts), in worker threads;
 * 2. per family and block: the walk-forward pick per test year (core/research/study.ts), the
 *    out-of-sample record, and, in block A, `--seeds` random-entry runs with the picked sets' exits,
 *    sizing and entry rate per year; today's default (F7's first set) gets its own random runs for
 *    the report card;
 * 3. statistics for every trial and family: profit factor, expectancy in R, Sharpe, max drawdown,
 *    years positive, random percentile, deflated Sharpe (Bailey & López de Prado 2014; N = every
 *    trial run, `--dev-trials` adds the runs made outside the study: 10 = the 7 development runs before
 *    the first full run and its 3 faulty F7 trials, PREREGISTRATION.md amendments) and the probability of
 *    backtest overfitting (CSCV, Bailey, Borwein, López de Prado & Zhu 2015) on block A's monthly
 *    returns; the decision rule;
 * 4. writes `<out>/trials.json` (every trial and random run), `<out>/REPORT.md` and the edge table the
 *    product ships (`--table`), rewritten only by a whole run (`--families`/`--blocks` subsets write
 *    to `<out>` only).
 * `--cached-only` writes `<out>/PROGRESS.md` from the trials already in `--cache` (each on its own, no
 * selection or random runs) and runs nothing: a progress report of an unfinished study, which decides nothing.
 * Exits 1 with a message (Portuguese) on bad arguments or a missing data folder.
 */
import { cpus } from "node:os";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { FAMILIES, family } from "../../core/research/families";
import type { Family } from "../../core/research/families";
import type { EdgeFigures, EdgeRow, EdgeTable, StyleSummary } from "../../core/research/edge-table";
import { LONG_PAIRS } from "../../core/research/long-history";
import { deflatedSharpe, pbo, percentileAmong, quantile, sharpe } from "../../core/research/statistics";
import { checkRule, compounded, entryRates, monthlyReturns, navAtDay, ownRecord, pairFigures, pickedRecord, recordFigures, returnsIn, totalReturn, walkForwardPicks } from "../../core/research/study";
import type { OosRecord, RuleCheck } from "../../core/research/study";
import type { TrialRun } from "../../core/research/trial";
import { TRADING_STYLES } from "../../core/settings";
import type { TrialJob } from "./research-worker";
import { DEFAULT_LONG_DIR } from "./research-data";

interface Block {
  id: "A" | "B";
  instruments: string[];
  testYears: number[];
  from: number;
  to: number;
}

const END = Date.UTC(2023, 0, 1);
const BLOCKS: Block[] = [
  { id: "A", instruments: [...LONG_PAIRS], testYears: [2016, 2017, 2018, 2019, 2020, 2021, 2022], from: Date.UTC(2012, 10, 1), to: END },
  { id: "B", instruments: ["EUR_USD"], testYears: Array.from({ length: 16 }, (_, k) => 2007 + k), from: Date.UTC(2003, 0, 1), to: END },
];
const PBO_BLOCKS = 12;

function fail(msg: string): never {
  console.error(`Erro: ${msg}`);
  process.exit(1);
}

/** The cache file of a job (`--cache`): its content's hash, so a changed job never reads an old run. */
function cacheFile(cache: string, job: TrialJob): string {
  return join(cache, `${createHash("sha256").update(JSON.stringify(job)).digest("hex").slice(0, 24)}.json`);
}

/**
 * Runs jobs on `n` worker threads, at most one job per worker at a time. With `cache` (a folder),
 * a job already run is read back instead, and every finished run is written there, so an interrupted
 * study resumes where it stopped (the cache is keyed by the job, not by the code: clear it after a change).
 * Returns how many jobs were read from the cache.
 */
async function runPool(jobs: TrialJob[], n: number, dir: string, onDone: (job: TrialJob, run: TrialRun) => void, cache = ""): Promise<number> {
  const queue: TrialJob[] = [];
  let cached = 0;
  for (const job of jobs) {
    const file = cache ? cacheFile(cache, job) : "";
    if (file && existsSync(file)) {
      onDone(job, JSON.parse(readFileSync(file, "utf8")) as TrialRun);
      cached++;
    } else queue.push(job);
  }
  if (cache) mkdirSync(cache, { recursive: true });
  const finish = (job: TrialJob, run: TrialRun) => {
    if (cache) writeFileSync(cacheFile(cache, job), JSON.stringify(run));
    onDone(job, run);
  };
  const workers = Array.from({ length: Math.min(n, queue.length) }, () => new Worker(new URL("./research-worker-boot.mjs", import.meta.url), { workerData: { dir } }));
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          const next = () => {
            const job = queue.shift();
            if (!job) return void w.terminate().then(() => resolve());
            const onMsg = (m: { id: string; run?: TrialRun; error?: string }) => {
              w.off("message", onMsg);
              if (m.error) return reject(new Error(`${job.id}: ${m.error}`));
              finish(job, m.run!);
              next();
            };
            w.on("message", onMsg);
            w.postMessage(job);
          };
          w.on("error", reject);
          next();
        }),
    ),
  );
  return cached;
}

interface TrialResult {
  id: string;
  family: string;
  set: string;
  block: string;
  figures: EdgeFigures;
  yearlyReturnPct: Record<number, string>;
  dailySharpe: number | null;
  ticks: number;
  durationMs: number;
  blocked: Record<string, number>;
}

interface FamilyResult {
  family: string;
  code: string;
  block: string;
  picks: Record<number, string>;
  figures: EdgeFigures;
  randomReturns: number[];
  random95: number | null;
  strategyReturn: number;
  deflated: ReturnType<typeof deflatedSharpe>;
  pbo: number | null;
  rule: RuleCheck | null;
}

function yearlyPct(rec: OosRecord): Record<number, string> {
  return Object.fromEntries(Object.entries(rec.byYear).map(([y, r]) => [y, (compounded(r) * 100).toFixed(2)]));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      data: { type: "string", default: DEFAULT_LONG_DIR },
      seeds: { type: "string", default: "19" },
      workers: { type: "string", default: String(Math.max(1, Math.min(2, cpus().length))) },
      families: { type: "string", default: FAMILIES.map((f) => f.id).join(",") },
      blocks: { type: "string", default: "A,B" },
      out: { type: "string", default: "docs/research/long" },
      table: { type: "string", default: "core/research/edge-table.json" },
      "dev-trials": { type: "string", default: "10" },
      cache: { type: "string", default: "" },
      "cached-only": { type: "boolean", default: false },
    },
  });
  const seeds = Number(values.seeds);
  const workers = Number(values.workers);
  const devTrials = Number(values["dev-trials"]);
  if (!Number.isInteger(seeds) || seeds < 1) fail("--seeds deve ser um inteiro ≥ 1");
  if (!Number.isInteger(workers) || workers < 1) fail("--workers deve ser um inteiro ≥ 1");
  if (!existsSync(values.data)) fail(`pasta do histórico longo não encontrada: ${values.data}`);
  let families: Family[];
  try {
    families = values.families.split(",").map((id) => family(id.trim()));
  } catch (e) {
    fail((e as Error).message);
  }
  const blocks = BLOCKS.filter((b) => values.blocks.split(",").includes(b.id));
  const whole = families.length === FAMILIES.length && blocks.length === BLOCKS.length;
  const started = performance.now();
  // The command that reproduces the figures: `--cache <dir>` changes where runs come from, not what they are.
  const args = process.argv.slice(2).filter((a, i, all) => a !== "--cache" && all[i - 1] !== "--cache" && !a.startsWith("--cache="));
  const command = (args.length ? `npm run research -- ${args.join(" ")}` : "npm run research").trim();

  // 1. Every set of every family in every block.
  const runs = new Map<string, TrialRun>();
  const jobs: TrialJob[] = [];
  for (const b of blocks)
    for (const f of families)
      f.sets.forEach((_, k) => jobs.push({ id: `${b.id}:${f.id}:${k}`, familyId: f.id, setIndices: [k], activeByYear: {}, defaultActive: 0, instruments: b.instruments, firstTestYear: b.testYears[0]!, from: b.from, to: b.to }));
  // Heaviest first (H1 families over 8 pairs) so the pool ends together.
  const weight = (j: TrialJob) => (family(j.familyId).step === "H1" ? 4 : 1) * j.instruments.length + (j.instruments.length > 1 ? 100 : 0);
  jobs.sort((a, b) => weight(b) - weight(a));
  if (values["cached-only"]) {
    // A progress report of an unfinished study: the trials already in the cache, each on its own
    // (no walk-forward pick, no random runs, no deflated Sharpe): governs nothing (PREREGISTRATION).
    if (!values.cache) fail("--cached-only precisa de --cache");
    const found = jobs.filter((j) => existsSync(cacheFile(values.cache, j)));
    const rows = found.map((j) => {
      const run = JSON.parse(readFileSync(cacheFile(values.cache, j), "utf8")) as TrialRun;
      const b = BLOCKS.find((x) => x.id === j.id[0])!;
      const f = family(j.familyId);
      return { id: j.id, set: f.sets[j.setIndices[0]!]!.name, figures: recordFigures(ownRecord(run, b.testYears)), yearly: yearlyPct(ownRecord(run, b.testYears)), seconds: Math.round(run.durationMs / 1000) };
    });
    mkdirSync(values.out, { recursive: true });
    const L = [
      "# Long-history study: progress report (NOT the study's result)", "",
      `Command: \`${command}\` — ${new Date().toISOString()}. ${found.length} of ${jobs.length} trials finished; no random-entry run, walk-forward pick, deflated Sharpe or PBO yet.`,
      "Each trial's own out-of-sample record (test years only, costs included, drawdown stop off). These figures choose nothing: the decision rule of [PREREGISTRATION.md](../PREREGISTRATION.md) applies only to the full run (`npm run research`), which also counts these trials.", "",
      "| id | set | trades | PF | exp. R | annual % | worst year | max DD % | years + | Sharpe | yearly returns % | run s |",
      "|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|---:|",
      ...rows.map((r) => `| ${r.id} | ${r.set} | ${r.figures.trades} | ${pct(r.figures.profitFactor)} | ${pct(r.figures.expectancyR)} | ${r.figures.annualReturnPct} | ${r.figures.worstYear ? `${r.figures.worstYear.year}: ${r.figures.worstYear.returnPct}` : "—"} | ${r.figures.maxDrawdownPct} | ${r.figures.yearsPositive}/${r.figures.years} | ${pct(r.figures.sharpe)} | ${Object.entries(r.yearly).map(([y, v]) => `${y}: ${v}`).join(", ")} | ${r.seconds} |`),
      "",
    ];
    writeFileSync(join(values.out, "PROGRESS.md"), L.join("\n"));
    console.log(`${found.length}/${jobs.length} trials: ${join(values.out, "PROGRESS.md")}`);
    return;
  }
  let done = 0;
  let cachedRuns = await runPool(jobs, workers, values.data, (job, run) => {
    runs.set(job.id, run);
    console.log(`[${++done}/${jobs.length}] ${job.id} ${Math.round(run.durationMs / 1000)} s, ${run.trades.length} trades`);
  }, values.cache);

  const trials: TrialResult[] = [];
  for (const b of blocks)
    for (const f of families)
      f.sets.forEach((s, k) => {
        const run = runs.get(`${b.id}:${f.id}:${k}`)!;
        const rec = ownRecord(run, b.testYears);
        trials.push({
          id: `${b.id}:${f.id}:${k}`, family: f.id, set: s.name, block: b.id, figures: recordFigures(rec), yearlyReturnPct: yearlyPct(rec),
          dailySharpe: sharpe(returnsIn(run, b.testYears)), ticks: run.ticks, durationMs: Math.round(run.durationMs), blocked: run.blocked,
        });
      });
  const nTrials = trials.length + devTrials;

  // 2. Walk-forward records and random runs (block A; today's default too).
  const picksOf = (b: Block, f: Family): Record<number, number> => {
    const famRuns = f.sets.map((_, k) => runs.get(`${b.id}:${f.id}:${k}`)!);
    if (f.fixedCandidate) {
      const k = f.sets.findIndex((s) => s.name === f.fixedCandidate);
      return Object.fromEntries(b.testYears.map((y) => [y, k]));
    }
    return walkForwardPicks(famRuns, b.testYears);
  };
  const randomJobs: TrialJob[] = [];
  const blockA = blocks.find((b) => b.id === "A");
  const randomGroups: { key: string; f: Family; picks: Record<number, number> }[] = [];
  if (blockA) {
    for (const f of families) randomGroups.push({ key: `${f.id}`, f, picks: picksOf(blockA, f) });
    const engine = families.find((f) => f.id === "engine");
    if (engine) randomGroups.push({ key: "engine-default", f: engine, picks: Object.fromEntries(blockA.testYears.map((y) => [y, 0])) });
    for (const g of randomGroups) {
      const famRuns = g.f.sets.map((_, k) => runs.get(`A:${g.f.id}:${k}`)!);
      const rates = entryRates(famRuns, g.picks);
      const used = [...new Set(Object.values(g.picks))];
      const activeByYear = Object.fromEntries(Object.entries(g.picks).map(([y, k]) => [y, used.indexOf(k)]));
      for (let s = 0; s < seeds; s++) {
        randomJobs.push({
          id: `R:${g.key}:${s}`, familyId: g.f.id, setIndices: used, activeByYear, defaultActive: activeByYear[blockA.testYears[0]!] ?? 0,
          instruments: blockA.instruments, firstTestYear: blockA.testYears[0]!, from: Date.UTC(blockA.testYears[0]! - 1, 0, 1), to: blockA.to,
          random: { probabilityByYear: rates, seed: 1_000 + s },
        });
      }
    }
  }
  randomJobs.sort((a, b) => weight(b) - weight(a));
  const randomReturns = new Map<string, number[]>();
  done = 0;
  cachedRuns += await runPool(randomJobs, workers, values.data, (job, run) => {
    const key = job.id.split(":")[1]!;
    const ret = compounded(returnsIn(run, blockA!.testYears));
    randomReturns.set(key, [...(randomReturns.get(key) ?? []), ret]);
    console.log(`[random ${++done}/${randomJobs.length}] ${job.id} ${Math.round(run.durationMs / 1000)} s`);
  }, values.cache);

  // 3. Statistics.
  const sharpesA = trials.filter((t) => t.block === "A" && t.dailySharpe !== null).map((t) => t.dailySharpe!);
  const monthlyA = blockA ? families.flatMap((f) => f.sets.map((_, k) => monthlyReturns(runs.get(`A:${f.id}:${k}`)!, blockA.testYears))) : [];
  const pboOf = (cols: number[][]): number | null => {
    if (cols.length < 2) return null;
    const rows = cols[0]!.map((_, i) => cols.map((c) => c[i]!));
    return pbo(rows, { blocks: PBO_BLOCKS }).pbo;
  };
  const pboAll = pboOf(monthlyA);
  const familyResults: FamilyResult[] = [];
  for (const b of blocks)
    for (const f of families) {
      const famRuns = f.sets.map((_, k) => runs.get(`${b.id}:${f.id}:${k}`)!);
      const picks = picksOf(b, f);
      const rec = pickedRecord(famRuns, picks);
      const daily = Object.values(rec.byYear).flat();
      const deflated = sharpesA.length >= 2 ? deflatedSharpe({ returns: daily, nTrials, trialSharpes: sharpesA }) : null;
      const rnd = b.id === "A" ? (randomReturns.get(f.id) ?? []) : [];
      const strategyReturn = totalReturn(rec);
      const figures = recordFigures(rec, { randomPercentile: rnd.length ? Math.round(percentileAmong(strategyReturn, rnd)!) : null, deflatedSharpe: deflated?.dsr ?? null });
      const random95 = rnd.length ? quantile(rnd, 0.95) : null;
      const famMonthly = b.id === "A" && blockA ? f.sets.map((_, k) => monthlyReturns(famRuns[k]!, blockA.testYears)) : [];
      familyResults.push({
        family: f.id, code: f.code, block: b.id, picks: Object.fromEntries(Object.entries(picks).map(([y, k]) => [y, f.sets[k]!.name])), figures,
        randomReturns: rnd, random95, strategyReturn, deflated, pbo: famMonthly.length >= 3 ? pboOf(famMonthly) : null,
        rule: b.id === "A" ? checkRule(figures, deflated?.dsr ?? null, strategyReturn, random95) : null,
      });
    }
  const passed = familyResults.filter((r) => r.rule?.passed).sort((a, b) => (b.deflated?.dsr ?? 0) - (a.deflated?.dsr ?? 0));
  const winner = passed[0];

  // Today's default (F7 set 0) in block A: the report card's figures.
  let defaultFigures: EdgeFigures | null = null;
  let defaultRecord: OosRecord | null = null;
  if (blockA && families.some((f) => f.id === "engine")) {
    const run = runs.get("A:engine:0")!;
    defaultRecord = ownRecord(run, blockA.testYears);
    const rnd = randomReturns.get("engine-default") ?? [];
    const daily = Object.values(defaultRecord.byYear).flat();
    const deflated = sharpesA.length >= 2 ? deflatedSharpe({ returns: daily, nTrials, trialSharpes: sharpesA }) : null;
    defaultFigures = recordFigures(defaultRecord, { randomPercentile: rnd.length ? Math.round(percentileAmong(totalReturn(defaultRecord), rnd)!) : null, deflatedSharpe: deflated?.dsr ?? null });
  }

  // 4. Outputs.
  const seconds = Math.round((performance.now() - started) / 1000);
  mkdirSync(values.out, { recursive: true });
  const meta = { command, generatedAt: new Date().toISOString(), seconds, cachedRuns, totalRuns: jobs.length + randomJobs.length, workers, seeds, nTrials, devTrials, pboOverall: pboAll, winner: winner?.family ?? null, data: values.data };
  writeFileSync(join(values.out, "trials.json"), `${JSON.stringify({ meta, trials, families: familyResults, randomReturns: Object.fromEntries(randomReturns), defaultFigures }, null, 1)}\n`);
  writeFileSync(join(values.out, "REPORT.md"), report(meta, trials, familyResults, defaultFigures));
  if (whole && defaultRecord && defaultFigures) {
    writeFileSync(values.table, `${JSON.stringify(edgeTable(meta, winner, defaultRecord, navAtDay(runs.get("A:engine:0")!), defaultFigures), null, 2)}\n`);
    console.log(`Tabela de vantagem escrita em ${values.table}`);
  }
  console.log(`Pronto em ${seconds} s: ${join(values.out, "REPORT.md")}`);
}

/** The edge table (PREREGISTRATION "The edge table the product ships"). */
function edgeTable(meta: { command: string; generatedAt: string }, winner: FamilyResult | undefined, rec: OosRecord, navAt: (ms: number) => number, figures: EdgeFigures): EdgeTable {
  // The live AI is today's engine unless a family passed (then an ADR changes the default and this mapping).
  const engineFamilyPassed = winner?.family === "engine";
  const judged = new Set(["swing", "position"]);
  const rows: EdgeRow[] = [];
  for (const instrument of LONG_PAIRS)
    for (const style of TRADING_STYLES) {
      if (!judged.has(style)) {
        rows.push({ instrument, style, verdict: "untested", family: "engine", figures: null });
        continue;
      }
      const f = pairFigures(rec, instrument, navAt);
      const pairOk = f.profitFactor !== null && Number(f.profitFactor) >= 1.1 && f.years > 0 && f.yearsPositive / f.years >= 0.6;
      rows.push({ instrument, style, verdict: engineFamilyPassed && pairOk ? "edge" : "no_edge", family: "engine", figures: f });
    }
  const styles: StyleSummary[] = TRADING_STYLES.map((style) =>
    judged.has(style)
      ? { style, verdict: rows.some((r) => r.style === style && r.verdict === "edge") ? "edge" : "no_edge", family: "engine", figures, source: "long-history" }
      : { style, verdict: "untested", family: "engine", figures: null, source: "none" },
  );
  return { version: 1, generatedAt: meta.generatedAt, command: meta.command, defaultFamily: "engine", rulePassed: winner !== undefined, styles, rows };
}

function pct(v: string | null | undefined): string {
  return v === null || v === undefined ? "—" : v;
}

function report(meta: Record<string, unknown>, trials: TrialResult[], fams: FamilyResult[], def: EdgeFigures | null): string {
  const L: string[] = [];
  L.push("# Long-history study: every trial (generated by `npm run research`)", "");
  const fromCache = Number(meta.cachedRuns) > 0 ? `; ${String(meta.cachedRuns)} of ${String(meta.totalRuns)} runs read from \`--cache\` (each run's own time is in the tables)` : "";
  L.push(`Command: \`${String(meta.command)}\` — ${String(meta.generatedAt)}, ${String(meta.seconds)} s on ${String(meta.workers)} worker threads${fromCache}.`, "");
  L.push("Plan, costs, sizing, statistics and the decision rule: [PREREGISTRATION.md](../PREREGISTRATION.md). Raw figures: [trials.json](trials.json).", "");
  L.push(`Trials counted for the deflated Sharpe ratio: N = ${String(meta.nTrials)} (${String(meta.devTrials)} development runs included). Random-entry runs per family: ${String(meta.seeds)}.`, "");
  L.push(`Probability of backtest overfitting, all block-A sets (CSCV, S = ${PBO_BLOCKS}, monthly returns 2016–2022): **${meta.pboOverall === null ? "—" : (meta.pboOverall as number).toFixed(2)}**.`, "");
  L.push("## Families: walk-forward records and the decision rule", "");
  L.push("| block | family | trades | PF | exp. R | annual % | worst year | max DD % | years + | Sharpe | DSR | random pct | random p95 % | strategy % | PBO | rule |");
  L.push("|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const r of fams) {
    const f = r.figures;
    const rule = r.rule ? (r.rule.passed ? "**PASS**" : `fail (${Object.entries(r.rule).filter(([k, v]) => k !== "passed" && !v).map(([k]) => k).join(", ")})`) : "—";
    L.push(`| ${r.block} | ${r.code} ${r.family} | ${f.trades} | ${pct(f.profitFactor)} | ${pct(f.expectancyR)} | ${f.annualReturnPct} | ${f.worstYear ? `${f.worstYear.year}: ${f.worstYear.returnPct}` : "—"} | ${f.maxDrawdownPct} | ${f.yearsPositive}/${f.years} | ${pct(f.sharpe)} | ${pct(f.deflatedSharpe)} | ${f.randomPercentile ?? "—"} | ${r.random95 === null ? "—" : (r.random95 * 100).toFixed(2)} | ${(r.strategyReturn * 100).toFixed(2)} | ${r.pbo === null ? "—" : r.pbo.toFixed(2)} | ${rule} |`);
  }
  L.push("", "Walk-forward picks per test year (block A):", "");
  for (const r of fams.filter((x) => x.block === "A")) L.push(`- ${r.code} ${r.family}: ${Object.entries(r.picks).map(([y, s]) => `${y} ${s}`).join("; ")}`);
  if (def) {
    L.push("", "## Today's default (F7, engine fresh=no sl=1), block A: the report card's figures", "");
    L.push(`Trades ${def.trades}, profit factor ${pct(def.profitFactor)}, expectancy ${pct(def.expectancyR)} R, annual return ${def.annualReturnPct} %, worst year ${def.worstYear ? `${def.worstYear.year} (${def.worstYear.returnPct} %)` : "—"}, max drawdown ${def.maxDrawdownPct} %, ${def.yearsPositive} of ${def.years} years positive, random percentile ${def.randomPercentile ?? "—"}, DSR ${pct(def.deflatedSharpe)}.`);
  }
  L.push("", "## Every trial (each set's own out-of-sample record, no selection)", "");
  L.push("| id | set | trades | PF | exp. R | annual % | max DD % | years + | Sharpe | yearly returns % | run s |");
  L.push("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---:|");
  for (const t of trials) {
    const f = t.figures;
    L.push(`| ${t.id} | ${t.set} | ${f.trades} | ${pct(f.profitFactor)} | ${pct(f.expectancyR)} | ${f.annualReturnPct} | ${f.maxDrawdownPct} | ${f.yearsPositive}/${f.years} | ${pct(f.sharpe)} | ${Object.entries(t.yearlyReturnPct).map(([y, v]) => `${y}: ${v}`).join(", ")} | ${Math.round(t.durationMs / 1000)} |`);
  }
  L.push("");
  return L.join("\n");
}

if (process.argv[1]?.endsWith("research.ts")) {
  main().catch((e: unknown) => fail(e instanceof Error ? e.message : String(e)));
}
