/**
 * Bot-tick throughput benchmark (issue 13: "20,000 bots on one 2-core machine"; issue 24: "20,000 bots as
 * they will really be").
 *
 * Two populations:
 *   - default (realistic): each user's trading settings drawn from a seeded distribution (`--seed N`, default 1;
 *     bench/bot-profiles.ts says what is drawn and in which shares: 30 % on the defaults, the others' style,
 *     pairs among the product's 8, manual timeframe, lot mode and leverage cap, risk limits, news, hours,
 *     weekend), and a seeded `--trade-share` (default 0.3) of users with "Operar mesmo assim" on for every pair
 *     they trade (the shipped edge table shows no edge anywhere, so only their AI enters trades). The settings
 *     go through the product's settings storage (step 3). The simulator offers the 8 pairs: the 3 shipped and 5
 *     derived from them (bench/sim-host.ts `eightPairsDataDir`). Every bot ticks at `--interval` (the UI always
 *     starts the loop at 60 s). Autovacuum as the production server has it (step 5).
 *   - `--uniform`: the population of the runs before issue 24 (every bot on the default settings, no override,
 *     the 3 shipped pairs, no vacuum by the bench), so old figures stay comparable; its blocks in
 *     BENCHMARKS.md keep their old keys, the realistic ones end in "-mix".
 *
 * Method:
 *   1. A fresh database `bench_bots_<hex>` on TEST_DATABASE_URL, migrated (db/migrate.ts), dropped at the end;
 *      or `--reuse-db bench_bots_NAME`: kept after the run, and a later run with the same NAME and `--bots`
 *      skips steps 1 and 3 (the simulator's state, saved after the setup and again after each run in
 *      <tmpdir>/bench-bots-reuse/NAME with the secrets the tokens were encrypted with, is loaded back: the same
 *      tokens and account ids as the database's rows). A reused run's bots keep their stored account state
 *      (account_states: a read younger than 30 min is reused), so its warm-up is short.
 *   2. The OANDA simulator (server/simulator, speed 1, a weekday with history behind it, as
 *      tests/setup/trading-env.ts) in `--sim-shards` instances (default one per 2,500 bots) behind one HTTP
 *      server that counts every broker request by kind (summary, pricing, transactions…): bench/sim-host.ts,
 *      whose docstring says why shards (the simulator's per-request cost grows with its accounts). With
 *      `--sim process` (default from 5,000 bots) it runs in its own child process and its CPU is reported apart;
 *      `--sim inline` keeps it in this process (then the bench process's CPU is the simulator's plus log parsing).
 *   3. N users with a connected simulator practice account and an active bot in the product's own tables
 *      (bench/bots-setup.ts, loaded through Vite's SSR loader since the services use `import.meta.glob`):
 *      users rows (one argon2 hash shared by all, `hashPassword`) + trial licences (`createTrialLicence`), a
 *      simulator user per bot (the Simulator object, no HTTP); then the first `--via-services` users (default
 *      200) through `connectBroker` (checks the account at the simulator, stores the token encrypted,
 *      reconciles) and `startBot(userId, interval)`, and the others by the setup's **shortcut**: the rows those
 *      two services write (`broker_connections` with the token encrypted by the product's `encryptSecret`, the
 *      account's alias/currency/last transaction id as the simulator reports them and the broker clock offset;
 *      `bots` active and due), one multi-row statement per table and batch of 500. The drawn settings: the
 *      service users save them with `saveSettings` and `setEdgeOverride(…, confirmed)` per overridden pair (the
 *      /settings save and switch), the shortcut users get the row those end in (`upsertSettings`,
 *      db/queries/trading-settings.ts) with the settings as the product's `parseSettingsUpdate` made them. Why: through the services
 *      the setup cost ~36 ms per user here (5,000 users 179 s; 20,000 would take 15–30 min) in broker calls and
 *      per-user transactions that change no stored state; the first tick of every bot reads instruments,
 *      summary and open trades either way. Setup requests are not counted.
 *   4. One (or, with `--processes 2`, two) real product processes (`server/index.ts`, production build in
 *      BUILD_DIR, as tests/setup/app-server.ts), WORKERS=on, LOG_LEVEL=debug, same database: each process's
 *      tick scheduler claims the due bots from `bots.next_tick_at` (app/services/trading/tick-scheduler.server.ts,
 *      ADR 0024). The bots' first due slots are spread uniformly over one interval after the setup (users start
 *      their bots at different moments); `--no-spread` leaves every bot due at once (a restart after downtime).
 *   5. Autovacuum: the bench never turns it off; it reports `show autovacuum` and where it is set. When the
 *      server has it off (this machine's CI configuration file does), the realistic mode does autovacuum's work
 *      itself from the product's start on (`startVacuumLikeAutovacuum`: PostgreSQL's default thresholds every
 *      60 s; `--no-vacuum` skips it) and reports the vacuums and analyzes run in the window and their time.
 *      After `--warmup` seconds, a window of `--minutes` minutes. Figures of that window:
 *      - ticks completed: the product's own per-tick debug line (`runTick`: userId, sqlRoundTrips, ms), per
 *        process; due = N × 60 / interval per minute;
 *      - schedule lag = `lagMs` of the scheduler's per-claim debug line ("tick devido": userId, dueAt, lagMs =
 *        tick start − due slot) for ticks started in the window; the due slots are a fixed schedule
 *        (every interval from the previous slot, not from the tick's end); also the bots overdue at the
 *        window's end (active, due more than 2 s ago, not claimed: the scheduler polls every second);
 *      - tick duration = `ms` of the tick line (runTick, lock included);
 *      - broker requests per tick = proxied requests in the window / ticks completed in the window;
 *      - SQL statements per tick = `sqlRoundTrips` of the tick line (db.server.ts `countStatementsIn`: the
 *        tick's own statements, and since ADR 0032 its equal share of each statement its batch of ticks sent
 *        together, so fractional) — pg_stat_statements is not preloaded on
 *        this server; pg-boss's own statements (its own pool) are not in it, so the database's transactions
 *        (pg_stat_database xact_commit + xact_rollback, every client) per tick are given too;
 *      - CPU over the window (utime+stime from /proc/<pid>/stat, % of one core) of each product process, of the
 *        simulator process (or this bench process when inline), of every PostgreSQL backend on the machine
 *        alive at both ends of the window (other sessions' databases included: the server is shared; a backend
 *        that exits in the window is left out, else the sum went negative) and the machine's busy share of all cores
 *        (/proc/stat, everyone's); product CPU ms per tick; the CPU of this database's own backends (pids of
 *        pg_stat_activity for it at both ends of the window: the product's pools and lock sessions, pg-boss, this bench),
 *        in total and per tick — the database's cost of the ticks without the other sessions' databases; RSS (max of 5-second samples of VmRSS);
 *      - per minute of the window: ticks completed and started, lag p50/p99/max of the ticks started in it,
 *        the overdue bots (max of 5-second samples from the warm-up on, and at the minute's end), the ticks
 *        that wanted to enter and the orders placed, and whether the minute met the issue-24 goal (0 overdue and
 *        lag p99 ≤ 1 s), with the count of minutes that missed it;
 *      - the order path: from the `decisions` rows of the window (one per pair and tick, a tick's rows share
 *        user and created_at), the ticks whose engine wanted to enter (an "open", or one the edge gate turned
 *        into "none" with `no_edge`), those the edge gate let through (an overridden pair; the risk gate may
 *        still refuse them: cooldown, open trade on the pair, hours…), those refused for no edge and the orders
 *        placed (`executed`); the trades closed in the window by `close_reason` (count of closed trades at
 *        both ends);
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
 *   `--doc FILE` writes the figures there instead of this checkout's docs/BENCHMARKS.md.
 *   `--sim process|inline`, `--sim-shards K`, `--via-services N`, `--reuse-db bench_bots_NAME`: steps 1–3 (a
 *   reused database keeps the population it was made with; another `--seed`/`--trade-share`/`--uniform` is refused).
 *   `--uniform`, `--seed N`, `--trade-share X` (0–1), `--no-vacuum`: the population and autovacuum, above.
 *   `--sim-start RFC3339`: where in the candle window (2026-01-04..2026-04-03) the simulator starts (default
 *   2026-01-14T10:00Z, a Wednesday London morning: moving markets, so the drawn bots' engines enter trades).
 *   Large runs: `--bots 20000 --warmup 600 --reuse-db bench_bots_20k` (every bot's first tick reads 3 broker
 *   resources: 60,000 requests at the product's 120 requests/s per process), then the same command with a
 *   short `--warmup` for another process count while the stored account states are younger than 30 min.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { runMigrations } from "../db/migrate";
import { startAppServer, type AppServer } from "../tests/setup/app-server";
import { DEFAULT_TRADE_SHARE, describeProfiles, drawProfiles, type BotProfile } from "./bot-profiles";
import { eightPairsDataDir, startSimHost, startSimHostChild, type SimHostHandle, type SimHostOptions } from "./sim-host";
import {
  brokerEnv,
  commit,
  cpuDeltaMs,
  databaseExists,
  databaseUrl,
  ensureBuild,
  fmt,
  freshDatabase,
  logger,
  machineBusyMs,
  newSecrets,
  pct,
  postgresCpuByPid,
  procStats,
  root,
  withBotsSetup,
} from "./support";

const START = "<!-- bots:start -->";
const END = "<!-- bots:end -->";
/** The sim start: a weekday with history behind it (as tests/setup/trading-env.ts). */
const SIM_START_AT = "2026-01-14T10:00:00Z";

const { values: argv } = parseArgs({
  options: {
    bots: { type: "string", default: "100" },
    interval: { type: "string", default: "60" },
    minutes: { type: "string", default: "2" },
    processes: { type: "string", default: "1" },
    warmup: { type: "string", default: "30" },
    "setup-concurrency": { type: "string", default: "16" },
    "via-services": { type: "string" },
    sim: { type: "string" },
    "sim-shards": { type: "string" },
    "reuse-db": { type: "string" },
    "no-doc": { type: "boolean", default: false },
    "setup-only": { type: "boolean", default: false },
    "no-spread": { type: "boolean", default: false },
    uniform: { type: "boolean", default: false },
    seed: { type: "string", default: "1" },
    "trade-share": { type: "string" },
    "no-vacuum": { type: "boolean", default: false },
    "sim-start": { type: "string" },
    note: { type: "string" },
    doc: { type: "string" },
  },
});
/** The file the figures are written to (`--doc FILE`, e.g. the main checkout's when the bench runs in a clean worktree of a commit). */
const DOC = path.resolve(argv.doc ?? path.join(root, "docs/BENCHMARKS.md"));
const BOTS = Number(argv.bots);
const INTERVAL = Number(argv.interval);
const MINUTES = Number(argv.minutes);
const PROCESSES = Number(argv.processes);
const WARMUP_S = Number(argv.warmup);
const SETUP_CONCURRENCY = Number(argv["setup-concurrency"]);
/** Users connected through connectBroker + startBot; the rest by the setup's documented shortcut. */
const VIA_SERVICES = argv["via-services"] === undefined ? Math.min(BOTS, 200) : Number(argv["via-services"]);
const SIM_MODE = argv.sim ?? (BOTS >= 5000 ? "process" : "inline");
const SHARDS = argv["sim-shards"] === undefined ? Math.max(1, Math.ceil(BOTS / 2500)) : Number(argv["sim-shards"]);
const REUSE = argv["reuse-db"];
/** `--uniform`: the old single-setting population (every bot on the defaults, the 3 shipped pairs, no override): figures comparable with older runs. */
const UNIFORM = argv.uniform;
const SEED = Number(argv.seed);
const TRADE_SHARE = argv["trade-share"] === undefined ? DEFAULT_TRADE_SHARE : Number(argv["trade-share"]);
/** Autovacuum's work done by the bench when the server has autovacuum off (realistic mode; `--no-vacuum` leaves it off). */
const VACUUM_LIKE_AUTOVACUUM = !UNIFORM && !argv["no-vacuum"];
if (!Number.isInteger(SEED) || !(TRADE_SHARE >= 0 && TRADE_SHARE <= 1)) throw new Error("argumentos inválidos: --seed N (inteiro) --trade-share 0–1");
if (![BOTS, INTERVAL, MINUTES, PROCESSES, WARMUP_S, SETUP_CONCURRENCY, VIA_SERVICES, SHARDS].every((n) => Number.isFinite(n) && n >= 0) || BOTS < 1 || PROCESSES < 1 || SHARDS < 1)
  throw new Error("argumentos inválidos: --bots N --interval S --minutes M [--processes P] [--warmup S] [--sim-shards K]");
if (SIM_MODE !== "process" && SIM_MODE !== "inline") throw new Error("--sim deve ser process ou inline");
if (REUSE !== undefined && !/^bench_bots_[a-z0-9_]+$/.test(REUSE)) throw new Error("--reuse-db: o nome deve começar por bench_bots_ (a–z, 0–9, _)");

/** `--sim-start`: another point of the candle window to replay from (e.g. a quieter or busier session); default SIM_START_AT. */
const SIM_START = argv["sim-start"] ?? SIM_START_AT;
if (!Number.isFinite(Date.parse(SIM_START))) throw new Error("--sim-start: uma data RFC3339 (ex.: 2026-01-14T10:00:00Z)");
const POPULATION = UNIFORM ? "uniform" : `mix:${SEED}:${TRADE_SHARE}`;
/** The tick scheduler's idle poll period, s (app/services/trading/tick-scheduler.server.ts POLL_MS): a due bot waits up to this for its claim. */
const POLL_S = 0.5;
const LOAD_BEFORE = os.loadavg();
const log = logger("bench:bots");

/** What a `--reuse-db` database was made with (kept next to the simulator's saved state). */
interface ReuseMeta {
  bots: number;
  /** The population: "uniform" or "mix:<seed>:<trade share>" (a reused database keeps the one it was made with). */
  population?: string;
  shards: number;
  secrets: { ENCRYPTION_KEY: string; SESSION_SECRET: string };
}

/** One tick as the product logs it (runTick's debug line), with its process. */
interface TickLine {
  proc: number;
  userId: string;
  end: number;
  ms: number;
  sql: number;
}

/** One failed tick as the product logs it ("tick falhou", "tick com falha transitória…"), with what failed. */
interface TickFailure {
  userId: string;
  at: number;
  why: string;
}

/** A short label of a failed tick's logged `err`: the broker error's kind and status, else its message (60 characters). */
function failureKind(err: unknown): string {
  if (typeof err === "string") return err.slice(0, 60);
  if (err && typeof err === "object") {
    const e = err as { kind?: unknown; status?: unknown; message?: unknown; type?: unknown };
    if (e.kind !== undefined) return `broker ${String(e.kind)}${e.status !== undefined ? ` ${String(e.status)}` : ""}`;
    if (typeof e.message === "string") return e.message.slice(0, 60);
    if (typeof e.type === "string") return e.type;
  }
  return "?";
}

/** A warning or error the product logged (pino level ≥ 40): its message and what failed. */
interface Problem {
  at: number;
  what: string;
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
function watchTicks(app: AppServer, proc: number, ticks: TickLine[], failures: TickFailure[], dues: DueLine[], problems: Problem[]) {
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
      if (j >= 0 && /"level":(4|5|6)0/.test(line)) {
        try {
          const p = JSON.parse(line.slice(j)) as { msg?: string; time?: number; err?: unknown };
          problems.push({ at: p.time ?? Date.now(), what: `${p.msg ?? "?"}${p.err !== undefined ? ` (${failureKind(p.err)})` : ""}` });
        } catch {
          /* not a JSON log line */
        }
      }
      if (j < 0 || !line.includes('"userId"')) continue;
      try {
        const o = JSON.parse(line.slice(j)) as { msg?: string; userId?: string; time?: number; ms?: number; sqlRoundTrips?: number; dueAt?: string; lagMs?: number; err?: unknown };
        if (!o.userId) continue;
        if (o.msg === "tick devido" && o.dueAt) dues.push({ proc, userId: o.userId, dueAt: o.dueAt, at: o.time ?? Date.now(), lagMs: o.lagMs ?? NaN });
        else if (o.msg === "tick" && typeof o.sqlRoundTrips === "number") ticks.push({ proc, userId: o.userId, end: o.time ?? Date.now(), ms: o.ms ?? NaN, sql: o.sqlRoundTrips });
        else if (o.msg === "tick falhou" || (o.msg ?? "").startsWith("tick com falha")) failures.push({ userId: o.userId, at: o.time ?? Date.now(), why: failureKind(o.err) });
      } catch {
        /* not a JSON log line */
      }
    }
  });
  return app;
}

/** One minute of the window: ticks, schedule lag (ms), overdue bots, the order path. */
interface MinuteRow {
  minute: number;
  ticks: number;
  started: number;
  lagP50: number;
  lagP99: number;
  lagMax: number;
  overdueMax: number;
  overdueEnd: number;
  wanted?: number;
  placed?: number;
}

/** The issue-24 goal for one minute: no bot overdue (samples and the minute's end) and lag p99 ≤ 1 s. */
const missesGoal = (r: MinuteRow) => !(r.lagP99 <= 1000) || r.overdueEnd > 0 || (Number.isFinite(r.overdueMax) && r.overdueMax > 0);

/** `n` as a percentage of `of` ("12.5 %"), "–" when `of` is 0. */
const pctOf = (n: number, of: number) => (of ? `${fmt((n / of) * 100, 1)} %` : "–");

/**
 * What autovacuum does, run from the bench when the server has it off (a CI configuration; the production
 * server's default is on): every `autovacuum_naptime` (60 s), on this database's tables, `vacuum` those whose
 * dead tuples exceed 50 + 0.2 × live rows and `analyze` those with more changes since their last analyze than
 * 50 + 0.1 × live rows (PostgreSQL's default thresholds and scale factors, "The Autovacuum Daemon"), one at a
 * time on its own connection. Each run is recorded in `out` (real time, table, kind, ms).
 */
function startVacuumLikeAutovacuum(dbUrl: string, out: { at: number; table: string; kind: "vacuum" | "analyze"; ms: number }[]) {
  const sql = postgres(dbUrl, { max: 1, onnotice: () => {} });
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const round = async () => {
    const due = await sql<{ table: string; vacuum: boolean; analyze: boolean }[]>`
      select quote_ident(schemaname) || '.' || quote_ident(relname) as table,
        n_dead_tup > 50 + 0.2 * n_live_tup as vacuum, n_mod_since_analyze > 50 + 0.1 * n_live_tup as analyze
      from pg_stat_user_tables where n_dead_tup > 50 + 0.2 * n_live_tup or n_mod_since_analyze > 50 + 0.1 * n_live_tup`;
    for (const t of due) {
      if (stopped) return;
      const kind = t.vacuum ? "vacuum" : "analyze";
      const t0 = Date.now();
      await sql.unsafe(`${t.vacuum && t.analyze ? "vacuum (analyze)" : kind} ${t.table}`);
      out.push({ at: t0, table: t.table, kind, ms: Date.now() - t0 });
    }
  };
  const timer = setInterval(() => {
    running = running.then(round).catch(() => {});
  }, 60_000);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await sql.end();
    },
  };
}

async function main() {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DATABASE_URL não definido (o bench precisa de um PostgreSQL)");

  // 1. The database: fresh (dropped at the end), or `--reuse-db NAME` (kept; set up only when missing).
  const reuseDir = REUSE ? path.join(os.tmpdir(), "bench-bots-reuse", REUSE) : undefined;
  let reused = false;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  if (REUSE) {
    const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
    reused = (await databaseExists(admin, REUSE)) && existsSync(path.join(reuseDir!, "meta.json"));
    if (!reused) await admin.unsafe(`drop database if exists ${REUSE} with (force)`);
    await admin.end();
    db = reused
      ? { name: REUSE, url: databaseUrl(adminUrl, REUSE), admin: postgres(adminUrl, { max: 1, onnotice: () => {} }), drop: async () => {} }
      : await freshDatabase(adminUrl, "bench_bots_", REUSE);
  } else db = await freshDatabase(adminUrl, "bench_bots_");
  const { name, url: dbUrl } = db;
  const stats = postgres(dbUrl, { max: 2, onnotice: () => {} });
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    let meta: ReuseMeta | undefined;
    if (reused) {
      meta = JSON.parse(readFileSync(path.join(reuseDir!, "meta.json"), "utf8")) as ReuseMeta;
      if (meta.bots !== BOTS) throw new Error(`--reuse-db ${REUSE} tem ${meta.bots} robôs, não ${BOTS}`);
      if ((meta.population ?? "uniform") !== POPULATION) throw new Error(`--reuse-db ${REUSE} foi criado com a população ${meta.population ?? "uniform"}, não ${POPULATION}`);
      log(`--reuse-db ${REUSE}: banco e estado do simulador (${meta.shards} partes) de uma execução anterior; sem setup`);
    } else await runMigrations(stats);

    // 2. Simulator (in shards) with its request counter: in a child process (CPU measured apart) or in this one.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "forex-ia-bench-bots-"));
    // The realistic mode's simulator offers the product's 8 pairs (5 derived from the 3 shipped: bench/sim-host.ts).
    const candles = UNIFORM ? path.join(root, "data") : eightPairsDataDir(path.join(root, "data"), path.join(dataDir, "candles"));
    const simOpts: SimHostOptions = { shards: meta?.shards ?? SHARDS, dataDir: candles, startAt: SIM_START, ...(reused && { stateDir: reuseDir }) };
    const sim: SimHostHandle = SIM_MODE === "process" ? await startSimHostChild(simOpts) : await startSimHost(simOpts);
    cleanups.push(() => sim.close());
    const secrets = meta?.secrets ?? newSecrets();
    const env = brokerEnv(sim.url);

    // 3. Users and bots in the product's tables (bench/bots-setup.ts: the first VIA_SERVICES through its services).
    const t0Setup = Date.now();
    const profiles: BotProfile[] | undefined = UNIFORM ? undefined : drawProfiles(BOTS, SEED, TRADE_SHARE);
    const population = profiles ? describeProfiles(profiles) : "every bot on the default settings (swing, every pair the simulator offers: EUR_USD, GBP_USD, USD_JPY), no override";
    log(`população: ${population}`);
    if (!reused) {
      await withBotsSetup((setup) =>
        setup.createBots({
          env: { DATABASE_URL: dbUrl, DATA_DIR: dataDir, ...secrets, ...env },
          bots: BOTS,
          intervalSec: INTERVAL,
          concurrency: SETUP_CONCURRENCY,
          viaServices: VIA_SERVICES,
          newBrokerUsers: (n) => sim.createUsers(n),
          ...(profiles && { profiles }),
          onProgress: (made) => log(`${made}/${BOTS} usuários com conta conectada e robô ativo (${((Date.now() - t0Setup) / 1000).toFixed(0)} s)`),
        }),
      );
      if (REUSE) {
        await sim.save(reuseDir!);
        writeFileSync(path.join(reuseDir!, "meta.json"), JSON.stringify({ bots: BOTS, population: POPULATION, shards: simOpts.shards, secrets } satisfies ReuseMeta), { mode: 0o600 });
      }
    } else {
      // The bots as the previous run left them, made active again at this interval (a stop by the product is undone).
      await stats`update bots set is_active = true, interval_sec = ${INTERVAL}, last_tick_error = null, last_tick_error_msg = null`;
    }
    const setupS = (Date.now() - t0Setup) / 1000;
    // Users start their bots at different moments: the first due slots are spread over one interval (as after
    // a day of use), not all at the setup's end (that boot burst is measured apart: --no-spread).
    if (!argv["no-spread"]) await stats`update bots set next_tick_at = now() + make_interval(secs => random() * interval_sec) where is_active`;
    else await stats`update bots set next_tick_at = now() where is_active`;
    if (argv["setup-only"]) {
      log(`--setup-only: ${BOTS} robôs ${reused ? "reaproveitados" : "criados"} em ${setupS.toFixed(1)} s; fim`);
      return;
    }

    // 4. Product processes (production build in BUILD_DIR, made here when missing).
    ensureBuild(log);
    // A reused database: the simulator's state is saved again once the product processes stopped (trades they made).
    if (REUSE) cleanups.push(() => sim.save(reuseDir!));
    const ticks: TickLine[] = [];
    const failures: TickFailure[] = [];
    const problems: Problem[] = [];
    const dues: DueLine[] = [];
    const apps: AppServer[] = [];
    cleanups.push(async () => {
      for (const a of apps) if (a.proc.exitCode === null) await a.stop();
    });
    for (let p = 0; p < PROCESSES; p++) {
      const tickConcurrency: Record<string, string> = process.env.TICK_CONCURRENCY ? { TICK_CONCURRENCY: process.env.TICK_CONCURRENCY } : {};
      const app = await startAppServer({ DATABASE_URL: dbUrl, DATA_DIR: dataDir, WORKERS: "on", LOG_LEVEL: "debug", ...tickConcurrency, ...secrets, ...env }, 600_000);
      apps.push(watchTicks(app, p + 1, ticks, failures, dues, problems));
      log(`processo ${p + 1} pronto (pid ${app.proc.pid})`);
    }

    // 5. Warm-up, then the window. Autovacuum as this server has it (reported); when it is off (a CI server's
    // configuration), the realistic mode does its work from here on: the production server's default is on.
    const [av] = await stats<{ setting: string; source: string; sourcefile: string | null }[]>`select setting, source, sourcefile from pg_settings where name = 'autovacuum'`;
    const autovacuumOn = av?.setting === "on";
    log(`show autovacuum: ${av?.setting ?? "?"} (${av?.source ?? "?"}${av?.sourcefile ? ` ${av.sourcefile}` : ""})`);
    const vacuums: { at: number; table: string; kind: "vacuum" | "analyze"; ms: number }[] = [];
    const vacuumer = !autovacuumOn && VACUUM_LIKE_AUTOVACUUM ? startVacuumLikeAutovacuum(dbUrl, vacuums) : undefined;
    if (vacuumer) {
      cleanups.push(() => vacuumer.stop());
      log("autovacuum desligado neste servidor: o bench faz o trabalho dele (regra e intervalo padrão do PostgreSQL; --no-vacuum desliga)");
    }
    // Overdue bots (active, due more than 2 s ago: the scheduler polls every second), sampled every 5 s.
    const overdueNow = async () => (await stats<{ n: number }[]>`select count(*)::int as n from bots where is_active and next_tick_at < now() - interval '2 seconds'`)[0]!.n;
    const overdueSamples: { at: number; n: number }[] = [];
    let sampling = false;
    const overdueSampler = setInterval(() => {
      if (sampling) return;
      sampling = true;
      const at = Date.now();
      void overdueNow()
        .then((n) => overdueSamples.push({ at, n }))
        .catch(() => {})
        .finally(() => (sampling = false));
    }, 5000);
    cleanups.push(async () => clearInterval(overdueSampler));
    await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
    const closedByReason = async () =>
      new Map((await stats<{ reason: string; n: number }[]>`select coalesce(close_reason, '?') as reason, count(*)::int as n from trades where status = 'closed' group by 1`).map((r) => [r.reason, r.n]));
    const closed0 = await closedByReason();
    const xacts = async () =>
      Number((await stats<{ n: string }[]>`select xact_commit + xact_rollback as n from pg_stat_database where datname = ${name}`)[0]?.n ?? NaN);
    const xact0 = await xacts();
    await sim.resetCounts();
    await sim.setCounting(true);
    const winStart = Date.now();
    const cpu0 = apps.map((a) => procStats(a.proc.pid!));
    const simCpu0 = sim.pid ? procStats(sim.pid).cpuMs : NaN;
    const pgCpu0 = postgresCpuByPid();
    // This database's own backends (the product's pools, its lock sessions, pg-boss, this bench): CPU of the pids seen at both ends.
    const dbBackends = async () => (await stats<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${name}`).map((r) => r.pid);
    const dbCpu0 = new Map((await dbBackends()).map((pid) => [pid, procStats(pid).cpuMs]));
    const busy0 = machineBusyMs();
    const benchCpu0 = process.cpuUsage();
    const rssMax = apps.map(() => 0);
    let simRssMax = 0;
    const sampleRss = () => {
      apps.forEach((a, i) => (rssMax[i] = Math.max(rssMax[i]!, procStats(a.proc.pid!).rssMb)));
      if (sim.pid) simRssMax = Math.max(simRssMax, procStats(sim.pid).rssMb);
    };
    const sampler = setInterval(sampleRss, 5000);
    const perMinute: number[] = [];
    const minuteRows: MinuteRow[] = [];
    for (let m = 1; m * 60_000 <= MINUTES * 60_000 + 59_999; m++) {
      const from = winStart + (m - 1) * 60_000;
      const to = Math.min(winStart + m * 60_000, winStart + MINUTES * 60_000);
      if (to <= from) break;
      await new Promise((r) => setTimeout(r, to - Date.now()));
      const done = ticks.filter((t) => t.end >= from && t.end < to).length;
      perMinute.push(done);
      const lagsM = dues.filter((d) => d.at >= from && d.at < to).map((d) => d.lagMs);
      const samples = overdueSamples.filter((o) => o.at >= from && o.at < to).map((o) => o.n);
      const row: MinuteRow = { minute: m, ticks: done, started: lagsM.length, lagP50: pct(lagsM, 50), lagP99: pct(lagsM, 99), lagMax: lagsM.length ? Math.max(...lagsM) : NaN, overdueMax: samples.length ? Math.max(...samples) : NaN, overdueEnd: await overdueNow() };
      minuteRows.push(row);
      log(`minuto ${m}: ${done} ticks concluídos em ${((to - from) / 1000).toFixed(0)} s (devidos ${fmt((BOTS * 60) / INTERVAL, 0)} por minuto); atraso p99 ${fmt(row.lagP99 / 1000, 2)} s; atrasados máx ${row.overdueMax}, no fim ${row.overdueEnd}`);
    }
    const winEnd = Date.now();
    await sim.setCounting(false);
    clearInterval(sampler);
    sampleRss();
    const cpu1 = apps.map((a) => procStats(a.proc.pid!));
    const simCpu1 = sim.pid ? procStats(sim.pid).cpuMs : NaN;
    const pgCpu1 = postgresCpuByPid();
    let dbCpuMs = 0;
    for (const pid of await dbBackends()) {
      const c1 = procStats(pid).cpuMs;
      const c0 = dbCpu0.get(pid);
      if (Number.isFinite(c1) && c0 !== undefined && Number.isFinite(c0)) dbCpuMs += c1 - c0;
    }
    const busy1 = machineBusyMs();
    const benchCpu = process.cpuUsage(benchCpu0);
    const counts = await sim.counts();
    const dbEnd = (await stats<{ now: Date }[]>`select now()`)[0]!.now;
    await new Promise((r) => setTimeout(r, 1000)); // pg_stat_database is flushed about once a second
    const xact1 = await xacts();

    const overdueRows = await stats<{ overdue: number }[]>`
      select count(*)::int as overdue from bots where is_active and next_tick_at < ${dbEnd}::timestamptz - interval '2 seconds'`;
    const overdue = overdueRows[0]!.overdue;
    // The order path: what the ticks of the window decided (decisions: one row per pair and tick, one statement
    // per batch of ticks, so a tick's rows share user_id and created_at) and the trades closed meanwhile.
    const decided = await stats<{ m: number; ticks: number; wanted: number; passed: number; placed: number; no_edge: number }[]>`
      select floor(extract(epoch from created_at - ${new Date(winStart)}::timestamptz) / 60)::int as m,
        count(distinct (user_id, created_at))::int as ticks,
        count(distinct (user_id, created_at)) filter (where action = 'open' or risk_code = 'no_edge')::int as wanted,
        count(distinct (user_id, created_at)) filter (where action = 'open')::int as passed,
        count(*) filter (where executed)::int as placed,
        count(distinct (user_id, created_at)) filter (where risk_code = 'no_edge')::int as no_edge
      from decisions where created_at >= ${new Date(winStart)}::timestamptz and created_at < ${new Date(winEnd)}::timestamptz group by 1 order by 1`;
    for (const d of decided) {
      const row = minuteRows[Math.min(minuteRows.length - 1, d.m)];
      if (row) {
        row.wanted = (row.wanted ?? 0) + d.wanted;
        row.placed = (row.placed ?? 0) + d.placed;
      }
    }
    const sumDecided = (k: "ticks" | "wanted" | "passed" | "placed" | "no_edge") => decided.reduce((a, d) => a + d[k], 0);
    const closed1 = await closedByReason();
    const closes = [...closed1].map(([k, n]) => [k, n - (closed0.get(k) ?? 0)] as const).filter(([, n]) => n > 0);
    const closedTotal = closes.reduce((a, [, n]) => a + n, 0);
    const vacInWin = vacuums.filter((v) => v.at >= winStart && v.at < winEnd);
    const failedWhyMap = new Map<string, number>();
    for (const f of failures) if (f.at >= winStart && f.at < winEnd) failedWhyMap.set(f.why, (failedWhyMap.get(f.why) ?? 0) + 1);
    const failedWhy = [...failedWhyMap].sort((a, b) => b[1] - a[1]);
    const problemsMap = new Map<string, number>();
    for (const p of problems) if (p.at < winEnd) problemsMap.set(p.what, (problemsMap.get(p.what) ?? 0) + 1);
    const problemsBy = [...problemsMap].sort((a, b) => b[1] - a[1]);
    const lags = dues.filter((d) => d.at >= winStart && d.at < winEnd).map((d) => d.lagMs);
    // The window's last minute: the steady state once the boot's backlog (every bot's first, costlier tick) is gone.
    const lastFrom = Math.max(winStart, winEnd - 60_000);
    const lagsLast = dues.filter((d) => d.at >= lastFrom && d.at < winEnd).map((d) => d.lagMs);
    const slots = new Map<string, number>();
    for (const d of dues) slots.set(`${d.userId} ${d.dueAt}`, (slots.get(`${d.userId} ${d.dueAt}`) ?? 0) + 1);
    const doubleSlots = [...slots.values()].filter((n) => n > 1).length;

    const inWin = ticks.filter((t) => t.end >= winStart && t.end < winEnd);
    const minutes = (winEnd - winStart) / 60_000;
    const brokerTotal = counts.reduce((a, [, n]) => a + n, 0);
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
    const kinds = [...counts].sort((a, b) => b[1] - a[1]);
    const winMs = winEnd - winStart;
    const benchPct = ((benchCpu.user + benchCpu.system) / 1000 / winMs) * 100;
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
      ["minutes missing the goal (any bot overdue, or lag p99 > 1 s)", `${minuteRows.filter(missesGoal).length} of ${minuteRows.length}`],
      ["population", `${UNIFORM ? "--uniform: " : `seed ${SEED}, trade share ${TRADE_SHARE}: `}${population}`],
      [
        "ticks that wanted to enter (buy/sell) / let through by the edge gate (the risk gate may still refuse) / refused for no edge (of ticks completed)",
        `${sumDecided("wanted")} (${pctOf(sumDecided("wanted"), inWin.length)}) / ${sumDecided("passed")} (${pctOf(sumDecided("passed"), inWin.length)}) / ${sumDecided("no_edge")} (${pctOf(sumDecided("no_edge"), inWin.length)})`,
      ],
      ["orders placed (decisions executed) / trades closed in the window (by reason)", `${sumDecided("placed")} / ${closedTotal}${closes.length ? ` (${closes.map(([k, n]) => `${k} ${n}`).join(", ")})` : ""}`],
      [
        "show autovacuum (source)",
        `${av?.setting ?? "?"} (${av?.source ?? "?"})${vacuumer ? `; the bench ran autovacuum's work: ${vacInWin.filter((v) => v.kind === "vacuum").length} vacuum / ${vacInWin.filter((v) => v.kind === "analyze").length} analyze in the window, ${fmt(vacInWin.reduce((a, v) => a + v.ms, 0) / 1000, 1)} s` : !autovacuumOn ? " — no vacuum during the run" : ""}`,
      ],
      ["tick duration p50 / p99 (ms)", `${fmt(pct(inWin.map((t) => t.ms), 50), 0)} / ${fmt(pct(inWin.map((t) => t.ms), 99), 0)}`],
      ["broker requests per tick", `${fmt(perTick(brokerTotal), 2)} (${brokerTotal} in the window)`],
      ["SQL statements per tick p50 / mean (app pool)", `${fmt(pct(inWin.map((t) => t.sql), 50), 1)} / ${fmt(perTick(inWin.reduce((a, t) => a + t.sql, 0)), 1)}`],
      ["database transactions per tick (all clients: app pool, pg-boss, this bench)", fmt(perTick(xact1 - xact0), 1)],
      ["product process CPU (% of one core)", cpuPct.map((c) => fmt(c)).join(" / ")],
      ["product CPU per tick (ms)", fmt((cpuPct.reduce((a, c) => a + c, 0) / 100) * winMs / Math.max(1, inWin.length), 2)],
      sim.pid
        ? ["simulator process CPU (% of one core; " + `${simOpts.shards} shard${simOpts.shards > 1 ? "s" : ""}) / bench process (log parsing)`, `${fmt(((simCpu1 - simCpu0) / winMs) * 100)} / ${fmt(benchPct)}`]
        : ["bench process CPU: simulator in it (" + `${simOpts.shards} shard${simOpts.shards > 1 ? "s" : ""}) + log parsing (% of one core)`, fmt(benchPct)],
      ["PostgreSQL CPU, every backend of the server alive at both ends of the window (% of one core; other sessions' databases too)", fmt((cpuDeltaMs(pgCpu0, pgCpu1) / winMs) * 100)],
      ["PostgreSQL CPU of this database's backends (% of one core) / per tick (ms)", `${fmt((dbCpuMs / winMs) * 100)} / ${fmt(dbCpuMs / Math.max(1, inWin.length), 2)}`],
      [`machine CPU busy (% of all ${os.cpus().length} cores, everyone's)`, fmt(((busy1 - busy0) / winMs / os.cpus().length) * 100)],
      ["product process RSS max (MB)" + (sim.pid ? " / simulator process" : ""), rssMax.map((r) => fmt(r, 0)).join(" / ") + (sim.pid ? ` / ${fmt(simRssMax, 0)}` : "")],
      ["double ticks: same due slot claimed twice / same bot < interval/2 apart / overlapping", `${doubleSlots} / ${doubles} / ${overlaps}`],
      ["early ticks after a failed tick (retry)", `${afterFailure} (failed ticks: ${failures.length})`],
      ["failed ticks in the window, by what failed", failedWhy.map(([k, n]) => `${k}: ${n}`).join("; ") || "none"],
      ["product warnings and errors (warm-up and window), by message (10 most frequent)", problemsBy.slice(0, 10).map(([k, n]) => `${k}: ${n}`).join("; ") || "none"],
    ];
    const table = ["| measure | value |", "|---|---|", ...rows.map(([k, v]) => `| ${k} | ${v} |`)].join("\n");
    const minuteTable = [
      "| minute | ticks completed | ticks started | lag p50 / p99 / max (s) | overdue bots: max of 5-s samples / at the minute's end | ticks wanting an entry | orders placed | goal |",
      "|---|---|---|---|---|---|---|---|",
      ...minuteRows.map(
        (r) =>
          `| ${r.minute} | ${r.ticks} | ${r.started} | ${fmt(r.lagP50 / 1000, 2)} / ${fmt(r.lagP99 / 1000, 2)} / ${fmt(r.lagMax / 1000, 2)} | ${Number.isFinite(r.overdueMax) ? r.overdueMax : "–"} / ${r.overdueEnd} | ${r.wanted ?? 0} | ${r.placed ?? 0} | ${missesGoal(r) ? "missed" : "met"} |`,
      ),
    ].join("\n");
    const breakdown = kinds.map(([k, n]) => `${k} ${fmt(perTick(n), 2)}`).join(", ");
    console.log(`\n${table}\n\nPer minute of the window (goal: 0 overdue and lag p99 ≤ 1 s in every minute; the idle scheduler polls every ${POLL_S} s, so that alone puts lags up to ${POLL_S} s):\n\n${minuteTable}\n\nbroker requests per tick by kind: ${breakdown || "–"}\n`);

    if (!argv["no-doc"]) {
      // One block per configuration (bots × interval × processes) inside the section: a run replaces its own block.
      // The realistic population has its own blocks ("-mix"); `--uniform` keeps the old keys, so old figures stay comparable.
      const key = `${BOTS}x${INTERVAL}s-p${PROCESSES}${argv["no-spread"] ? "-burst" : ""}${UNIFORM ? "" : "-mix"}`;
      const bStart = `<!-- bots:run ${key}:start -->`;
      const bEnd = `<!-- bots:run ${key}:end -->`;
      const block = [
        bStart,
        `### ${BOTS} bots, ${INTERVAL} s interval, ${PROCESSES} process${PROCESSES > 1 ? "es" : ""}${UNIFORM ? "" : ", drawn settings"}`,
        "",
        `\`npm run bench:bots -- --bots ${BOTS} --interval ${INTERVAL} --minutes ${MINUTES}${PROCESSES > 1 ? ` --processes ${PROCESSES}` : ""}${argv["no-spread"] ? " --no-spread" : ""}${UNIFORM ? " --uniform" : ` --seed ${SEED} --trade-share ${TRADE_SHARE}`}${argv["sim-start"] ? ` --sim-start ${SIM_START}` : ""} --warmup ${WARMUP_S}${REUSE ? ` --reuse-db ${REUSE}` : ""}\`, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, commit ${commit()}${argv.note ? ` — ${argv.note}` : ""}.`,
        `${reused ? `Database and simulator state reused from a previous run (no setup; bots re-spread over one interval)` : `Setup ${setupS.toFixed(0)} s (${Math.min(VIA_SERVICES, BOTS)} users through connectBroker + startBot, the rest by the setup's row shortcut)`}, ${WARMUP_S} s warm-up, then a ${MINUTES}-minute window; simulator ${SIM_MODE === "process" ? "in its own process" : "in the bench process"} (${simOpts.shards} shard${simOpts.shards > 1 ? "s" : ""}); ${os.cpus().length} CPUs, run under \`nice\`.`,
        `Load average (1/5/15 min) before: ${load(LOAD_BEFORE)}; after: ${load(LOAD_AFTER)} (other sessions share the machine).`,
        "",
        table,
        "",
        minuteTable,
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
        // A new configuration goes before the summary block (kept last), else at the section's end.
        const sum = inner.indexOf("<!-- bots:summary:start -->");
        const updated =
          x >= 0 && y > x
            ? inner.slice(0, x) + block + inner.slice(y + bEnd.length)
            : sum >= 0
              ? `${inner.slice(0, sum).trimEnd()}\n\n${block}\n${inner.slice(sum)}`
              : `${inner.trimEnd()}\n\n${block}\n`;
        out = doc.slice(0, a) + updated + doc.slice(b);
      } else out = `${doc.trimEnd()}\n\n${intro}\n${block}\n${END}\n`;
      writeFileSync(DOC, out);
      log(`docs/BENCHMARKS.md atualizado (seção Bots, bloco ${key})`);
    }
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    await stats.end();
    await db.drop(Boolean(REUSE));
    if (REUSE) log(`banco ${name} mantido (--reuse-db); estado do simulador em ${reuseDir}`);
  }
}

await main();
process.exit(0);
