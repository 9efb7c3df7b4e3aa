/**
 * Bot-tick throughput benchmark (issue 13: "20,000 bots on one 2-core machine").
 *
 * Method:
 *   1. A fresh database `bench_bots_<hex>` on TEST_DATABASE_URL, migrated (db/migrate.ts), dropped at the end.
 *   2. The OANDA simulator in this process (server/simulator/server.ts `startSimulator`, speed 1, a weekday
 *      with history behind it, as tests/setup/trading-env.ts), behind a counting HTTP proxy: every broker
 *      request of the app goes through it and is counted by kind (summary, pricing, transactions…).
 *   3. N users with a connected simulator practice account and an active bot, made by the product's own
 *      services and tables, in batches (bench/bots-setup.ts, loaded through Vite's SSR loader since the
 *      services use `import.meta.glob`): users rows (one argon2 hash shared by all, `hashPassword`) + trial
 *      licence (`createTrialLicence`), a simulator user per bot (the Simulator object, no HTTP), then
 *      `connectBroker` (checks the account through the proxy, stores the token encrypted, reconciles) and
 *      `startBot(userId, interval)`. Setup requests are not counted.
 *   4. One (or, with `--processes 2`, two) real product processes (`server/index.ts`, production build in
 *      BUILD_DIR, as tests/setup/app-server.ts), WORKERS=on, LOG_LEVEL=debug, same database: each process's
 *      tick scheduler claims the due bots from `bots.next_tick_at` (app/services/tick-scheduler.server.ts,
 *      ADR 0024). The bots' first due slots are spread uniformly over one interval after the setup (users start
 *      their bots at different moments); `--no-spread` leaves every bot due at once (a restart after downtime).
 *   5. After `--warmup` seconds, a window of `--minutes` minutes. Figures of that window:
 *      - ticks completed: the product's own per-tick debug line (`runTick`: userId, sqlRoundTrips, ms), per
 *        process; due = N × 60 / interval per minute;
 *      - schedule lag = `lagMs` of the scheduler's per-claim debug line ("tick devido": userId, dueAt, lagMs =
 *        tick start − due slot) for ticks started in the window; the due slots are a fixed schedule
 *        (every interval from the previous slot, not from the tick's end); also the bots overdue at the
 *        window's end (active, due more than 2 s ago, not claimed: the scheduler polls every second);
 *      - tick duration = `ms` of the tick line (runTick, lock included);
 *      - broker requests per tick = proxied requests in the window / ticks completed in the window;
 *      - SQL statements per tick = `sqlRoundTrips` of the tick line (db.server.ts `debug` hook counter
 *        delta around the tick; with TICK_CONCURRENCY > 1 it also counts statements of ticks running at
 *        the same time in that process, so it is an upper bound) — pg_stat_statements is not preloaded on
 *        this server; pg-boss's own statements (its own pool) are not in it, so the database's transactions
 *        (pg_stat_database xact_commit + xact_rollback, every client) per tick are given too;
 *      - process CPU (utime+stime from /proc/<pid>/stat over the window, % of one core) and RSS (max of
 *        5-second samples of /proc/<pid>/status VmRSS);
 *      - double ticks: the same due slot (userId, dueAt) claimed twice, across all processes; and two ticks
 *        of the same bot starting less than interval/2 apart, with ticks following a failed tick (retried
 *        after TICK_RETRY_DELAY_SEC) counted apart. Overlapping ticks of the same bot are counted too. All
 *        must be 0.
 *   6. Writes the figures into the "Bots" section of docs/BENCHMARKS.md between `<!-- bots:start -->` and
 *      `<!-- bots:end -->` (appended when missing): one block per configuration (bots × interval × processes),
 *      replaced by the next run of that configuration, with the commit and the load average before and after.
 *
 * Run (from the repo root; builds BUILD_DIR first when it has no build):
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BUILD_DIR=build-x nice -n 10 \
 *     npm run bench:bots -- --bots 100 --interval 60 --minutes 2 [--processes 2] [--warmup 30] [--no-doc]
 *   TICK_CONCURRENCY in the environment is passed to the product processes (else the product's default).
 *   `--note TEXT` adds a remark to the run's line in BENCHMARKS.md (e.g. "baseline before issue 13").
 *   `--setup-only` creates the users and bots (timed) and stops: no build or product process needed.
 */
import { execSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { createServer } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { runMigrations } from "../db/migrate";
import { startSimulator } from "../server/simulator/server";
import { startCountingProxy } from "../tests/setup/counting-proxy";
import { startAppServer, type AppServer } from "../tests/setup/app-server";
import type * as BotsSetup from "./bots-setup";

const root = path.resolve(import.meta.dirname, "..");
const DOC = path.join(root, "docs/BENCHMARKS.md");
const START = "<!-- bots:start -->";
const END = "<!-- bots:end -->";

const { values: argv } = parseArgs({
  options: {
    bots: { type: "string", default: "100" },
    interval: { type: "string", default: "60" },
    minutes: { type: "string", default: "2" },
    processes: { type: "string", default: "1" },
    warmup: { type: "string", default: "30" },
    "setup-concurrency": { type: "string", default: "8" },
    "no-doc": { type: "boolean", default: false },
    "setup-only": { type: "boolean", default: false },
    "no-spread": { type: "boolean", default: false },
    note: { type: "string" },
  },
});
const BOTS = Number(argv.bots);
const INTERVAL = Number(argv.interval);
const MINUTES = Number(argv.minutes);
const PROCESSES = Number(argv.processes);
const WARMUP_S = Number(argv.warmup);
const SETUP_CONCURRENCY = Number(argv["setup-concurrency"]);
if (![BOTS, INTERVAL, MINUTES, PROCESSES, WARMUP_S, SETUP_CONCURRENCY].every((n) => Number.isFinite(n) && n >= 0) || BOTS < 1 || PROCESSES < 1)
  throw new Error("argumentos inválidos: --bots N --interval S --minutes M [--processes P] [--warmup S]");

const LOAD_BEFORE = os.loadavg();
const log = (s: string) => console.log(`[bench:bots ${new Date().toISOString().slice(11, 19)}] ${s}`);

/** p-th percentile (0–100, nearest rank) of numbers; NaN when empty. */
function pct(xs: number[], p: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
const fmt = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : "–");

/** One tick as the product logs it (runTick's debug line), with its process. */
interface TickLine {
  proc: number;
  userId: string;
  end: number;
  ms: number;
  sql: number;
}

/** One claimed due slot as the scheduler logs it ("tick devido"), with its process. */
interface DueLine {
  proc: number;
  userId: string;
  dueAt: string;
  at: number;
  lagMs: number;
}

/** Collects the tick lines, claimed slots and tick failures from a product process's stdout. */
function watchTicks(app: AppServer, proc: number, ticks: TickLine[], failures: { userId: string; at: number }[], dues: DueLine[]) {
  // The tests' helper keeps the whole output in memory (large at debug level): replace its listeners (it is ready now).
  app.proc.stdout!.removeAllListeners("data");
  let buf = "";
  app.proc.stdout!.on("data", (d: Buffer) => {
    buf += d.toString();
    let i;
    while ((i = buf.indexOf("\n")) >= 0) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const j = line.indexOf("{");
      if (j < 0 || !line.includes('"userId"')) continue;
      try {
        const o = JSON.parse(line.slice(j)) as { msg?: string; userId?: string; time?: number; ms?: number; sqlRoundTrips?: number; dueAt?: string; lagMs?: number };
        if (!o.userId) continue;
        if (o.msg === "tick devido" && o.dueAt) dues.push({ proc, userId: o.userId, dueAt: o.dueAt, at: o.time ?? Date.now(), lagMs: o.lagMs ?? NaN });
        else if (o.msg === "tick" && typeof o.sqlRoundTrips === "number") ticks.push({ proc, userId: o.userId, end: o.time ?? Date.now(), ms: o.ms ?? NaN, sql: o.sqlRoundTrips });
        else if (o.msg === "tick falhou" || (o.msg ?? "").startsWith("tick com falha")) failures.push({ userId: o.userId, at: o.time ?? Date.now() });
      } catch {
        /* not a JSON log line */
      }
    }
  });
  return app;
}

/** utime+stime (ms) and VmRSS (MB) of a process. */
function procStats(pid: number): { cpuMs: number; rssMb: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticksPerSec = 100; // CLK_TCK on Linux
    const cpuMs = ((Number(f[11]) + Number(f[12])) * 1000) / ticksPerSec;
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return { cpuMs, rssMb: rss ? Number(rss[1]) / 1024 : NaN };
  } catch {
    return { cpuMs: NaN, rssMb: NaN };
  }
}

async function main() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL não definido (o bench precisa de um PostgreSQL)");

  // 1. Fresh database.
  const name = `bench_bots_${randomBytes(5).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const dbUrl = u.toString();
  const stats = postgres(dbUrl, { max: 2, onnotice: () => {} });
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    await runMigrations(stats);

    // 2. Simulator + counting proxy.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "forex-ia-bench-bots-"));
    // No statePath: the simulator saves its whole state on every new user (quadratic for 20,000 users).
    const sim = await startSimulator({ port: 0, dataDir: path.join(root, "data"), speed: 1, startAt: "2026-01-14T10:00:00Z" });
    cleanups.push(() => sim.close());
    const proxy = await startCountingProxy(sim.url);
    cleanups.push(() => proxy.close());
    const secrets = { ENCRYPTION_KEY: randomBytes(32).toString("hex"), SESSION_SECRET: randomBytes(24).toString("hex") };
    const brokerEnv = {
      OANDA_MODE: "oanda",
      OANDA_PRACTICE_API_URL: `${proxy.url}/practice`,
      OANDA_PRACTICE_STREAM_URL: `${proxy.url}/practice`,
      OANDA_LIVE_API_URL: `${proxy.url}/live`,
      OANDA_LIVE_STREAM_URL: `${proxy.url}/live`,
    };

    // 3. Users and bots through the product's services (bench/bots-setup.ts, loaded by Vite's SSR loader: the
    //    services use `import.meta.glob`), pointed at the bench database and the proxy.
    const t0Setup = Date.now();
    const vite = await createServer({
      configFile: false,
      root,
      logLevel: "error",
      appType: "custom",
      plugins: [tsconfigPaths()],
      server: { middlewareMode: true, hmr: false, watch: null },
      optimizeDeps: { noDiscovery: true, include: [] },
    });
    try {
      const setup = (await vite.ssrLoadModule("/bench/bots-setup.ts")) as typeof BotsSetup;
      await setup.createBots({
        env: { DATABASE_URL: dbUrl, DATA_DIR: dataDir, ...secrets, ...brokerEnv },
        bots: BOTS,
        intervalSec: INTERVAL,
        concurrency: SETUP_CONCURRENCY,
        newBrokerUser: () => {
          const u = sim.sim.createUser("practice");
          return { token: u.token, accountId: u.accountIDs[0]! };
        },
        onProgress: (made) => log(`${made}/${BOTS} usuários com conta conectada e robô ativo (${((Date.now() - t0Setup) / 1000).toFixed(0)} s)`),
      });
    } finally {
      await vite.close();
    }
    const setupS = (Date.now() - t0Setup) / 1000;
    // Users start their bots at different moments: the first due slots are spread over one interval (as after
    // a day of use), not all at the setup's end (that boot burst is measured apart: --no-spread).
    if (!argv["no-spread"]) await stats`update bots set next_tick_at = now() + make_interval(secs => random() * interval_sec) where is_active`;
    if (argv["setup-only"]) {
      log(`--setup-only: ${BOTS} robôs criados em ${setupS.toFixed(1)} s; fim`);
      return;
    }

    // 4. Product processes (production build in BUILD_DIR, made here when missing).
    const buildDir = path.resolve(root, process.env.BUILD_DIR || "build");
    if (!existsSync(path.join(buildDir, "server/index.js"))) {
      log(`sem build em ${buildDir}: compilando (remix vite:build)…`);
      execSync("npx remix vite:build", { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
    }
    const ticks: TickLine[] = [];
    const failures: { userId: string; at: number }[] = [];
    const dues: DueLine[] = [];
    const apps: AppServer[] = [];
    cleanups.push(async () => {
      for (const a of apps) if (a.proc.exitCode === null) await a.stop();
    });
    for (let p = 0; p < PROCESSES; p++) {
      const tickConcurrency: Record<string, string> = process.env.TICK_CONCURRENCY ? { TICK_CONCURRENCY: process.env.TICK_CONCURRENCY } : {};
      const app = await startAppServer({ DATABASE_URL: dbUrl, DATA_DIR: dataDir, WORKERS: "on", LOG_LEVEL: "debug", ...tickConcurrency, ...secrets, ...brokerEnv }, 600_000);
      apps.push(watchTicks(app, p + 1, ticks, failures, dues));
      log(`processo ${p + 1} pronto (pid ${app.proc.pid})`);
    }

    // 5. Warm-up, then the window.
    await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
const xacts = async () =>
      Number((await stats<{ n: string }[]>`select xact_commit + xact_rollback as n from pg_stat_database where datname = ${name}`)[0]?.n ?? NaN);
    const xact0 = await xacts();
    const winStart = Date.now();
    proxy.counts.clear();
    proxy.state.counting = true;
    const cpu0 = apps.map((a) => procStats(a.proc.pid!));
    const benchCpu0 = process.cpuUsage();
    const rssMax = apps.map(() => 0);
    const sampler = setInterval(() => apps.forEach((a, i) => (rssMax[i] = Math.max(rssMax[i]!, procStats(a.proc.pid!).rssMb))), 5000);
    const perMinute: number[] = [];
    for (let m = 1; m * 60_000 <= MINUTES * 60_000 + 59_999; m++) {
      const from = winStart + (m - 1) * 60_000;
      const to = Math.min(winStart + m * 60_000, winStart + MINUTES * 60_000);
      if (to <= from) break;
      await new Promise((r) => setTimeout(r, to - Date.now()));
      const done = ticks.filter((t) => t.end >= from && t.end < to).length;
      perMinute.push(done);
      log(`minuto ${m}: ${done} ticks concluídos em ${((to - from) / 1000).toFixed(0)} s (devidos ${fmt((BOTS * 60) / INTERVAL, 0)} por minuto)`);
    }
    const winEnd = Date.now();
    proxy.state.counting = false;
    clearInterval(sampler);
    apps.forEach((a, i) => (rssMax[i] = Math.max(rssMax[i]!, procStats(a.proc.pid!).rssMb)));
    const cpu1 = apps.map((a) => procStats(a.proc.pid!));
    const benchCpu = process.cpuUsage(benchCpu0);
    const dbEnd = (await stats<{ now: Date }[]>`select now()`)[0]!.now;
    await new Promise((r) => setTimeout(r, 1000)); // pg_stat_database is flushed about once a second
    const xact1 = await xacts();

    const overdueRows = await stats<{ overdue: number }[]>`
      select count(*)::int as overdue from bots where is_active and next_tick_at < ${dbEnd}::timestamptz - interval '2 seconds'`;
    const overdue = overdueRows[0]!.overdue;
    const lags = dues.filter((d) => d.at >= winStart && d.at < winEnd).map((d) => d.lagMs);
    // The window's last minute: the steady state once the boot's backlog (every bot's first, costlier tick) is gone.
    const lastFrom = Math.max(winStart, winEnd - 60_000);
    const lagsLast = dues.filter((d) => d.at >= lastFrom && d.at < winEnd).map((d) => d.lagMs);
    const slots = new Map<string, number>();
    for (const d of dues) slots.set(`${d.userId} ${d.dueAt}`, (slots.get(`${d.userId} ${d.dueAt}`) ?? 0) + 1);
    const doubleSlots = [...slots.values()].filter((n) => n > 1).length;

    const inWin = ticks.filter((t) => t.end >= winStart && t.end < winEnd);
    const minutes = (winEnd - winStart) / 60_000;
    const brokerTotal = proxy.total();
    const perProc = apps.map((_, i) => inWin.filter((t) => t.proc === i + 1).length);

    // Double ticks across all processes (every tick line, warm-up included).
    const byUser = new Map<string, TickLine[]>();
    for (const t of ticks) byUser.set(t.userId, [...(byUser.get(t.userId) ?? []), t]);
    const failedAt = new Map<string, number[]>();
    for (const f of failures) failedAt.set(f.userId, [...(failedAt.get(f.userId) ?? []), f.at]);
    let doubles = 0;
    let afterFailure = 0;
    let overlaps = 0;
    for (const [userId, list] of byUser) {
      const s = list.map((t) => ({ start: t.end - t.ms, end: t.end })).sort((a, b) => a.start - b.start);
      for (let i = 1; i < s.length; i++) {
        if (s[i]!.start < s[i - 1]!.end) overlaps++;
        if (s[i]!.start - s[i - 1]!.start < (INTERVAL * 1000) / 2) {
          const prevFailed = (failedAt.get(userId) ?? []).some((at) => at >= s[i - 1]!.start && at <= s[i - 1]!.end + 1000);
          if (prevFailed) afterFailure++;
          else doubles++;
        }
      }
    }

    const cpuPct = apps.map((_, i) => ((cpu1[i]!.cpuMs - cpu0[i]!.cpuMs) / (winEnd - winStart)) * 100);
    const kinds = [...proxy.counts.entries()].sort((a, b) => b[1] - a[1]);
    const LOAD_AFTER = os.loadavg();
    const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(" / ");
    const perTick = (x: number) => (inWin.length ? x / inWin.length : NaN);

    const rows: [string, string][] = [
      ["bots × interval", `${BOTS} × ${INTERVAL} s (${PROCESSES} process${PROCESSES > 1 ? "es" : ""}, TICK_CONCURRENCY ${process.env.TICK_CONCURRENCY ?? "default"})`],
      ["ticks completed per minute (due)", `${fmt(inWin.length / minutes, 1)} (${fmt((BOTS * 60) / INTERVAL, 0)})`],
      ...(PROCESSES > 1 ? [["ticks per process (window)", perProc.join(" / ")] as [string, string]] : []),
      ["ticks completed in each minute of the window", perMinute.join(" / ")],
      ["schedule lag p50 / p99 (s)", `${fmt(pct(lags, 50) / 1000)} / ${fmt(pct(lags, 99) / 1000)} (${lags.length} ticks started)`],
      ["schedule lag p50 / p99 in the window's last minute (s)", `${fmt(pct(lagsLast, 50) / 1000)} / ${fmt(pct(lagsLast, 99) / 1000)} (${lagsLast.length} ticks started)`],
      ["ticks overdue at the window's end", String(overdue)],
      ["tick duration p50 / p99 (ms)", `${fmt(pct(inWin.map((t) => t.ms), 50), 0)} / ${fmt(pct(inWin.map((t) => t.ms), 99), 0)}`],
      ["broker requests per tick", `${fmt(perTick(brokerTotal), 2)} (${brokerTotal} in the window)`],
      ["SQL statements per tick p50 / mean (app pool)", `${fmt(pct(inWin.map((t) => t.sql), 50), 0)} / ${fmt(perTick(inWin.reduce((a, t) => a + t.sql, 0)), 1)}`],
      ["database transactions per tick (all clients: app pool, pg-boss, this bench)", fmt(perTick(xact1 - xact0), 1)],
      ["process CPU (% of one core)", cpuPct.map((c) => fmt(c)).join(" / ")],
      ["bench process CPU: simulator + proxy (% of one core)", fmt(((benchCpu.user + benchCpu.system) / 1000 / (winEnd - winStart)) * 100)],
      ["process RSS max (MB)", rssMax.map((r) => fmt(r, 0)).join(" / ")],
      ["double ticks: same due slot claimed twice / same bot < interval/2 apart / overlapping", `${doubleSlots} / ${doubles} / ${overlaps}`],
      ["early ticks after a failed tick (retry)", `${afterFailure} (failed ticks: ${failures.length})`],
    ];
    const table = ["| measure | value |", "|---|---|", ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join("\n");
    const breakdown = kinds.map(([k, n]) => `${k} ${fmt(perTick(n), 2)}`).join(", ");
    console.log(`\n${table}\n\nbroker requests per tick by kind: ${breakdown || "–"}\n`);

    if (!argv["no-doc"]) {
      // One block per configuration (bots × interval × processes) inside the section: a run replaces its own block.
      const key = `${BOTS}x${INTERVAL}s-p${PROCESSES}${argv["no-spread"] ? "-burst" : ""}`;
      const bStart = `<!-- bots:run ${key}:start -->`;
      const bEnd = `<!-- bots:run ${key}:end -->`;
      let commit = "?";
      try {
        commit = execSync("git rev-parse --short HEAD", { cwd: root, encoding: "utf8" }).trim();
      } catch {
        /* not a git checkout */
      }
      const block = [
        bStart,
        `### ${BOTS} bots, ${INTERVAL} s interval, ${PROCESSES} process${PROCESSES > 1 ? "es" : ""}`,
        "",
        `\`npm run bench:bots -- --bots ${BOTS} --interval ${INTERVAL} --minutes ${MINUTES}${PROCESSES > 1 ? ` --processes ${PROCESSES}` : ""}${argv["no-spread"] ? " --no-spread" : ""}\`, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, commit ${commit}${argv.note ? ` — ${argv.note}` : ""}.`,
        `Setup ${setupS.toFixed(0)} s, ${WARMUP_S} s warm-up, then a ${MINUTES}-minute window; ${os.cpus().length} CPUs, run under \`nice\`.`,
        `Load average (1/5/15 min) before: ${load(LOAD_BEFORE)}; after: ${load(LOAD_AFTER)} (other sessions share the machine).`,
        "",
        table,
        "",
        `Broker requests per tick by kind: ${breakdown || "–"}.`,
        bEnd,
      ].join("\n");
      const intro = [
        START,
        "## Bots (the tick pipeline, issue 13)",
        "",
        "`npm run bench:bots` (bench/bots.bench.ts; the method is in its docstring): a fresh database, the simulator in the bench process behind a",
        "counting proxy, N users with a connected simulator account and an active bot made through the product's own services, then one or two",
        "real product processes (WORKERS=on, same database) measured over a window after a warm-up. Due ticks per minute = bots × 60 / interval.",
        "",
      ].join("\n");
      const doc = readFileSync(DOC, "utf8");
      const a = doc.indexOf(START);
      const b = doc.indexOf(END);
      let out: string;
      if (a >= 0 && b > a) {
        const inner = doc.slice(a, b);
        const x = inner.indexOf(bStart);
        const y = inner.indexOf(bEnd);
        const updated = x >= 0 && y > x ? inner.slice(0, x) + block + inner.slice(y + bEnd.length) : `${inner.trimEnd()}\n\n${block}\n`;
        out = doc.slice(0, a) + updated + doc.slice(b);
      } else out = `${doc.trimEnd()}\n\n${intro}\n${block}\n${END}\n`;
      writeFileSync(DOC, out);
      log(`docs/BENCHMARKS.md atualizado (seção Bots, bloco ${key})`);
    }
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    await stats.end();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

await main();
process.exit(0);
