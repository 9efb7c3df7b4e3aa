/**
 * Backtest page benchmark (issue 12: "a run of three months of M5 data for one pair finishes in
 * under 10 s on this machine"): EUR_USD, the shipped data (data/, 2026-01-04 → 2026-04-03, M5
 * steps), default settings, 10 000 USD, the random baseline with BASELINE_SEEDS seeds and the
 * equity curve, timed
 *   1. in process: the core run alone (runBacktest) and the job's compute (run + baseline);
 *   2. through the job path: POST /api/backtest on the real server (production build in
 *      BUILD_DIR, a fresh database on TEST_DATABASE_URL, real pg-boss worker) → poll GET
 *      /api/backtest/:id until done (wall time seen by the user, and the row's duration_ms).
 * Rewrites the "Backtest runs" section of docs/BENCHMARKS.md (between the backtest-run markers).
 * Run: TEST_DATABASE_URL=postgres://… BUILD_DIR=build nice npm run bench:backtest-run [-- runs]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { randomBaseline } from "../core/backtest/baseline";
import { runBacktest, type BacktestOptions } from "../core/backtest/run";
import { defaultSettings } from "../core/settings";
import { runMigrations } from "../db/migrate";
import { loadCsvCandles } from "../app/services/backtest/candle-files";
import { apiClient, startAppServer } from "../tests/setup/app-server";
import { registerVerifiedAndLogin } from "../tests/setup/verify";
import { BASELINE_SEEDS, CURVE_POINTS } from "../app/lib/backtest-run";

const RUNS = Number(process.argv[2] ?? "3");
const FROM = "2026-01-04";
const TO = "2026-04-03";
const TARGET_MS = 10_000;
const DOC = new URL("../docs/BENCHMARKS.md", import.meta.url);
const START = "<!-- backtest-run:start -->";
const END = "<!-- backtest-run:end -->";
const LOAD_BEFORE = loadavg();

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const sec = (ms: number) => (ms / 1000).toFixed(2);

async function inProcess() {
  const opts: BacktestOptions = {
    instruments: ["EUR_USD"],
    candles: { EUR_USD: loadCsvCandles("data", "EUR_USD") },
    settings: defaultSettings(),
    from: `${FROM}T00:00:00Z`,
    to: new Date(Date.parse(TO) + 86_400_000).toISOString(),
    initialBalance: "10000",
    accountCurrency: "USD",
    equityCurve: { maxPoints: CURVE_POINTS },
  };
  const core: number[] = [];
  const full: number[] = [];
  let trades = 0;
  let candles = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = await runBacktest(opts);
    const t1 = performance.now();
    await randomBaseline(opts, r, BASELINE_SEEDS);
    const t2 = performance.now();
    core.push(t1 - t0);
    full.push(t2 - t0);
    trades = r.trades.length;
    candles = r.candles;
  }
  return { core, full, trades, candles };
}

async function jobPath() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL não definido (o caminho do job precisa de um PostgreSQL)");
  const name = `bench_${randomBytes(5).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const dbUrl = u.toString();
  const sql = postgres(dbUrl, { max: 2, onnotice: () => {} });
  await runMigrations(sql);
  const app = await startAppServer({ DATABASE_URL: dbUrl, OANDA_MODE: "sim" }, 120_000);
  try {
    const login = await registerVerifiedAndLogin(app.url, dbUrl, { firstName: "Bench", lastName: "Backtest", email: `bench-${Date.now()}@teste.com`, password: "Senha123" });
    const call = apiClient(app.url, login.token);
    const wall: number[] = [];
    const job: number[] = [];
    const coreInJob: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const created = await call<{ run: { id: string } }>("POST", "/api/backtest", { source: "shipped", instruments: ["EUR_USD"], from: FROM, to: TO });
      if (created.status !== 202) throw new Error(`POST /api/backtest: ${created.status} ${JSON.stringify(created.body)}`);
      for (;;) {
        const r = await call<{ run: { status: string; durationMs: number; error: string | null; result: { coreMs: number } } }>("GET", `/api/backtest/${created.body.run.id}`);
        if (r.body.run.status === "failed") throw new Error(`backtest falhou: ${r.body.run.error}`);
        if (r.body.run.status === "done") {
          wall.push(performance.now() - t0);
          job.push(r.body.run.durationMs);
          coreInJob.push(r.body.run.result.coreMs);
          break;
        }
        await new Promise((res) => setTimeout(res, 100));
      }
    }
    return { wall, job, coreInJob };
  } finally {
    await app.stop();
    await sql.end();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const local = await inProcess();
const viaJob = await jobPath();
const LOAD_AFTER = loadavg();
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" / ");
const rows = [
  ["core run alone (runBacktest, in process)", local.core],
  [`job compute (run + ${BASELINE_SEEDS}-seed baseline, in process)`, local.full],
  ["core run inside the job (result.coreMs)", viaJob.coreInJob],
  ["job: claimed → done (row duration_ms)", viaJob.job],
  ["user's wall time: POST /api/backtest → GET says done", viaJob.wall],
] as const;
const table = [
  "| what | median s | min s | max s |",
  "|---|---:|---:|---:|",
  ...rows.map(([label, xs]) => `| ${label} | ${sec(median([...xs]))} | ${sec(Math.min(...xs))} | ${sec(Math.max(...xs))} |`),
];
const wallMedian = median(viaJob.wall);
const section = [
  START,
  "## Backtest runs (the /backtest page, issue 12)",
  "",
  `\`npm run bench:backtest-run\` (bench/backtest-run.bench.ts), ${new Date().toISOString().slice(0, 10)}: EUR_USD ${FROM} → ${TO} (shipped data, ${local.candles.toLocaleString("en-US")} M5 bars, ${local.trades} trades), default settings, 10 000 USD, equity curve ≤ ${CURVE_POINTS} points, random baseline ${BASELINE_SEEDS} seeds; ${RUNS} runs each; ${cpus().length} CPUs (${cpus()[0]?.model ?? "?"}), run under \`nice\`.`,
  `Load average (1/5/15 min) before: ${load(LOAD_BEFORE)}; after: ${load(LOAD_AFTER)} — other sessions share the machine, so these are upper bounds.`,
  "",
  ...table,
  "",
  `Target (issue 12): a 3-month M5 one-pair run done in under ${TARGET_MS / 1000} s — ${wallMedian < TARGET_MS ? "met" : "NOT met"} here (median ${sec(wallMedian)} s from the click to the result).`,
  END,
].join("\n");
const doc = readFileSync(DOC, "utf8");
const next = doc.includes(START) ? doc.replace(new RegExp(`${START}[\\s\\S]*?${END}`), section) : `${doc.trimEnd()}\n\n${section}\n`;
writeFileSync(DOC, next);
console.log(section);
process.exit(0);
