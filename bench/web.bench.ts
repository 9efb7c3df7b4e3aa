/**
 * Web-under-load benchmark (issue 13 "Web under load"): latency and throughput of the pages a subscriber
 * keeps open — the hero `/` and `/dashboard` — their Remix data requests and the APIs those pages poll,
 * at 1, 10 and 50 concurrent connections, and the JavaScript each page loads first.
 *
 * Method:
 *   1. A fresh database `web_bench_<hex>` on TEST_DATABASE_URL, migrated, dropped at the end.
 *   2. The OANDA simulator in this process (server/simulator/server.ts, speed 1, a weekday with history
 *      behind it) behind a counting HTTP proxy: every broker request the product makes while a route is
 *      measured is counted, so "broker requests per page view" is a figure, not a guess.
 *   3. `--users` (default 50) subscribers made by the product's own services (bench/bots-setup.ts, loaded
 *      through Vite's SSR loader): a users row with a trial licence, a connected simulator practice account,
 *      a bot; then half the bots are paused (the hero then computes the pre-flight check, its heaviest
 *      path) and half stay on (WORKERS=off: they never tick). Each account gets `--open` market orders at
 *      the simulator (open trades, live P&L) and `--closed` closed trades of the last 20 days in our books
 *      (history, stats, balance curve).
 *   4. One real product process (server/index.ts, production build in BUILD_DIR, made here when missing,
 *      as tests/setup/app-server.ts), WORKERS=off, LOG_LEVEL=warn, and every user logs in through
 *      POST /api/auth/login (argon2 verify, the session cookie it sets).
 *   5. For each route and each connection count, autocannon for `--seconds` (after a 2 s warm-up at that
 *      concurrency); each request carries the next user's session cookie in turn, so 50 different
 *      sessions/accounts are read (not one user's cached answer). Latency is the client's (send → last
 *      byte, localhost: the server time plus the loopback), p50/p95/p99 from every response; req/s;
 *      responses other than 2xx; broker requests per response.
 *   6. JavaScript per page: the scripts a first load of the page fetches — the entry and route modules the
 *      HTML imports and its `<link rel="modulepreload">` list — sized on disk (raw) and gzipped (zlib level 6,
 *      what the compression middleware sends).
 *   7. Writes the "Web" section of docs/BENCHMARKS.md between `<!-- web:start -->` and `<!-- web:end -->`.
 *
 * Routes: `/` and its data request `/_root.data` (the hero's 15 s revalidation: root + index loaders), `/dashboard`
 * and `/dashboard.data`, GET /api/trades/ai/loop/status (hero, every 5 s), GET /api/trades/account/open (hero's
 * live figures), GET /api/notifications/unread-count (header bell, every 30 s).
 *
 * Run (from the repo root):
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BUILD_DIR=build-x nice -n 10 \
 *     npm run bench:web -- [--users 50] [--seconds 10] [--connections 1,10,50|none] [--paced 50] [--routes /,/dashboard] [--no-doc] [--note TEXT]
 *   `--paced R` (default 50, 0: none): per route also an open-loop run of R requests per second spread evenly over
 *   the second (50 users each sending one request per 50/R s) on up to 50 sockets — the "50 concurrent users" target.
 *   `--doc-from FILE` writes the section from the JSON line a previous run printed (no measurement).
 *   `--node-options=…` runs the product process with these NODE_OPTIONS (e.g. `--max-semi-space-size=64`).
 *   `--dump DIR` writes each measured route's answer for the first user to DIR (its size is logged in any case).
 *   `--cpu-prof DIR` profiles the product process (bench/cpu-profile-preload.mjs: DIR/web-<pid>.cpuprofile on exit).
 */
import { fork } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import postgres from "postgres";
import { runMigrations } from "../db/migrate";
import { startSimulator } from "../server/simulator/server";
import { startAppServer, type AppServer } from "../tests/setup/app-server";
import { startCountingProxy, type CountingProxy } from "../tests/setup/counting-proxy";
import type { BrokerUser } from "./bots-setup";
import { brokerEnv, commit, ensureBuild, fmt, freshDatabase, logger, newSecrets, pct, root, withBotsSetup } from "./support";

const DOC = path.join(root, "docs/BENCHMARKS.md");
const START = "<!-- web:start -->";
const END = "<!-- web:end -->";

const { values: argv } = parseArgs({
  options: {
    users: { type: "string", default: "50" },
    seconds: { type: "string", default: "10" },
    connections: { type: "string", default: "1,10,50" },
    paced: { type: "string", default: "50" },
    routes: { type: "string" },
    open: { type: "string", default: "2" },
    closed: { type: "string", default: "40" },
    "no-doc": { type: "boolean", default: false },
    "cpu-prof": { type: "string" },
    note: { type: "string" },
    "load-worker": { type: "boolean", default: false },
    "doc-from": { type: "string" },
    dump: { type: "string" },
    "node-options": { type: "string" },
  },
});
const USERS = Number(argv.users);
const SECONDS = Number(argv.seconds);
const CONNECTIONS = argv.connections === "none" ? [] : argv.connections.split(",").map(Number);
const OPEN = Number(argv.open);
/** The "50 users" run: 50 connections sending PACED requests per second in all (0: no such run). */
const PACED = Number(argv.paced);
const CLOSED = Number(argv.closed);
if (![USERS, SECONDS, OPEN, CLOSED, ...CONNECTIONS].every((n) => Number.isFinite(n) && n >= 0) || USERS < 1 || SECONDS <= 0)
  throw new Error("argumentos inválidos: [--users N] [--seconds S] [--connections 1,10,50]");

/** The routes measured, what polls them and why. */
const ROUTES: { path: string; what: string }[] = [
  { path: "/", what: "hero page (document)" },
  { path: "/_root.data", what: "hero data request (15 s revalidation)" },
  { path: "/dashboard", what: "dashboard page (document)" },
  { path: "/dashboard.data", what: "dashboard data request (15 s revalidation)" },
  { path: "/history", what: "trade history page (document; issue 24)" },
  { path: "/history.data", what: "history data request (issue 24)" },
  { path: "/api/trades/ai/loop/status", what: "hero, every 5 s" },
  { path: "/api/trades/account/open", what: "hero live figures" },
  { path: "/api/notifications/unread-count", what: "header bell, every 30 s" },
];
const routes = argv.routes ? ROUTES.filter((r) => argv.routes!.split(",").includes(r.path)) : ROUTES;

const LOAD_BEFORE = os.loadavg();
const log = logger("bench:web");

interface Run {
  route: string;
  connections: number;
  /** Requests per second in all when paced (the "50 users" run); undefined: as fast as answered. */
  rate?: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
  brokerPerRequest: number;
  /** CPU time (user + system, all threads) the product process spent per response during the run; NaN when unknown. */
  cpuMsPerRequest?: number;
}

type LoadResult = { times: number[]; non2xx: number; errors: number };
type LoadJob = { url: string; connections: number; cookies: string[]; seconds: number; rate?: number };

/**
 * autocannon against `url` for SECONDS with `connections`, each request with the next session cookie, in
 * a child process (the load generator must not share the event loop of the simulator it makes the product call).
 */
async function measure(
  url: string,
  connections: number,
  cookies: string[],
  seconds: number,
  proxy?: CountingProxy,
  rate?: number,
): Promise<Omit<Run, "route">> {
  if (proxy) {
    proxy.counts.clear();
    proxy.state.counting = true;
  }
  const child = fork(fileURLToPath(import.meta.url), ["--load-worker"], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const { times, non2xx, errors } = await new Promise<LoadResult>((resolve, reject) => {
    child.once("message", (m: LoadResult) => resolve(m));
    child.once("exit", (code) => reject(new Error(`gerador de carga saiu com código ${code}`)));
    child.send({ url, connections, cookies, seconds, rate } satisfies LoadJob);
  });
  child.kill();
  if (proxy) proxy.state.counting = false;
  return {
    connections,
    rate,
    requests: times.length,
    rps: times.length / seconds,
    p50: pct(times, 50, true),
    p95: pct(times, 95, true),
    p99: pct(times, 99, true),
    non2xx,
    errors,
    brokerPerRequest: proxy && times.length ? proxy.total() / times.length : NaN,
  };
}

/** The load-generator child: one autocannon run per job received, its latencies sent back sorted. */
function loadWorker(): void {
  process.once("message", (job: LoadJob) => {
    void runLoad(job).then((r) => process.send!(r, undefined, {}, () => process.exit(0)));
  });
}

/**
 * Open-loop load: `rate` requests per second spread evenly (one every 1000/rate ms, not autocannon's burst of
 * every connection at the start of each second), each with the next session, over up to `connections`
 * keep-alive sockets; latency from send to the last byte.
 */
async function pacedLoad({ url, connections, cookies, seconds, rate }: LoadJob & { rate: number }): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const target = new URL(url);
  const times: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const pending: Promise<void>[] = [];
  const one = (cookie: string) =>
    new Promise<void>((resolve) => {
      const t0 = performance.now();
      const req = http.get(
        { agent, hostname: target.hostname, port: target.port, path: target.pathname + target.search, headers: { cookie, accept: url.includes(".data") || url.includes("/api/") ? "*/*" : "text/html", "accept-encoding": "gzip" } },
        (res) => {
          res.resume();
          res.on("end", () => {
            times.push(performance.now() - t0);
            if (res.statusCode! < 200 || res.statusCode! >= 300) non2xx++;
            resolve();
          });
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error("timeout")));
      req.on("error", () => {
        errors++;
        resolve();
      });
    });
  const start = performance.now();
  for (let i = 0; i < rate * seconds; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    pending.push(one(cookies[i % cookies.length]!));
  }
  await Promise.all(pending);
  agent.destroy();
  times.sort((a, b) => a - b);
  return { times, non2xx, errors };
}

async function runLoad({ url, connections, cookies, seconds, rate }: LoadJob): Promise<LoadResult> {
  if (rate) return pacedLoad({ url, connections, cookies, seconds, rate });
  let next = 0;
  const times: number[] = [];
  let non2xx = 0;
  const instance = autocannon({
    url,
    connections,
    duration: seconds,
    // Documents: a browser's Accept; data and API requests: whatever the app's fetch sends.
    headers: { accept: url.includes(".data") || url.includes("/api/") ? "*/*" : "text/html", "accept-encoding": "gzip" },
    requests: [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, cookie: cookies[next++ % cookies.length]! } }) }],
  });
  instance.on("response", (_client, status: number, _bytes: number, ms: number) => {
    times.push(ms);
    if (status < 200 || status >= 300) non2xx++;
  });
  const result = await instance;
  times.sort((a, b) => a - b);
  return { times, non2xx, errors: result.errors + result.timeouts };
}

/**
 * CPU time in ms (user + system, all threads) a process has used: /proc/<pid>/stat fields 14 and 15, in
 * clock ticks of 10 ms (USER_HZ 100 on Linux). NaN where /proc is missing.
 */
function processCpuMs(pid: number | undefined): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

/** Waits until the previous run's queued work is done: 2 s in a row without a broker request (at most 30 s). */
async function settle(proxy: CountingProxy): Promise<void> {
  proxy.state.counting = true;
  const until = Date.now() + 30_000;
  let last = -1;
  while (Date.now() < until && proxy.total() !== last) {
    last = proxy.total();
    await new Promise((r) => setTimeout(r, 2000));
  }
  proxy.state.counting = false;
}

interface JsFirstLoad {
  route: string;
  scripts: number;
  raw: number;
  gzip: number;
  biggest: { file: string; gzip: number }[];
  /** How the scripts were listed: the browser's requests, or the HTML's imports and modulepreload links. */
  source: "browser" | "html";
}

/** The /assets/*.js paths a Chromium page loading `route` (logged in with `cookie`) requests until the network is idle. */
async function browserScripts(baseUrl: string, route: string, cookie: string): Promise<string[]> {
  const { chromium } = await import("@playwright/test");
  const browser = await chromium.launch({ executablePath: existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : undefined, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const [name, value] = cookie.split("=") as [string, string];
    await context.addCookies([{ name, value, url: baseUrl }]);
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on("request", (req) => {
      const u = new URL(req.url());
      if (u.pathname.startsWith("/assets/") && u.pathname.endsWith(".js")) scripts.push(u.pathname);
    });
    await page.goto(baseUrl + route, { waitUntil: "networkidle" });
    return [...new Set(scripts)];
  } finally {
    await browser.close();
  }
}

/**
 * The scripts of a first load — `fetched` (the browser's requests) when given, else those `html` names (module
 * imports of the inline scripts + modulepreload links; misses what the entry imports itself) — sized from the build.
 */
function firstLoadJs(route: string, html: string, clientDir: string, fetched?: string[]): JsFirstLoad {
  const files = new Set<string>(fetched ?? []);
  if (!fetched) {
    for (const m of html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)) files.add(m[1]!);
    for (const m of html.matchAll(/import\s*(?:[^"']*from\s*)?["'](\/assets\/[^"']+\.js)["']/g)) files.add(m[1]!);
    for (const m of html.matchAll(/import\(["'](\/assets\/[^"']+\.js)["']\)/g)) files.add(m[1]!);
  }
  let raw = 0;
  let gzip = 0;
  const sized: { file: string; gzip: number }[] = [];
  for (const f of files) {
    const p = path.join(clientDir, f);
    if (!existsSync(p)) continue;
    const body = readFileSync(p);
    const g = gzipSync(body, { level: 6 }).length;
    raw += statSync(p).size;
    gzip += g;
    sized.push({ file: path.basename(f), gzip: g });
  }
  sized.sort((a, b) => b.gzip - a.gzip);
  return { route, scripts: files.size, raw, gzip, biggest: sized.slice(0, 4), source: fetched ? "browser" : "html" };
}

async function main() {
  const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.BENCH_DATABASE_URL;
  if (!adminUrl) throw new Error("defina TEST_DATABASE_URL (um servidor PostgreSQL onde criar um banco descartável)");
  const db = await freshDatabase(adminUrl, "web_bench_");
  const dbUrl = db.url;
  const sql = postgres(dbUrl, { max: 2, onnotice: () => {} });
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    await runMigrations(sql);

    // 2. Simulator + counting proxy.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "forex-ia-bench-web-"));
    const sim = await startSimulator({ port: 0, dataDir: path.join(root, "data"), speed: 1, startAt: "2026-01-14T10:00:00Z" });
    cleanups.push(() => sim.close());
    const proxy = await startCountingProxy(sim.url);
    cleanups.push(() => proxy.close());
    const secrets = newSecrets();
    const env = brokerEnv(proxy.url);

    // 3. Subscribers through the product's services.
    const t0 = Date.now();
    const accounts: BrokerUser[] = [];
    const userIds = await withBotsSetup((setup) =>
      setup.createBots({
        env: { DATABASE_URL: dbUrl, DATA_DIR: dataDir, ...secrets, ...env },
        bots: USERS,
        intervalSec: 60,
        concurrency: 8,
        // Every user through connectBroker + startBot (the pages read what those store).
        viaServices: USERS,
        newBrokerUsers: async (n) =>
          Array.from({ length: n }, () => {
            const su = sim.sim.createUser("practice");
            const acct = sim.sim.account(su.accountIDs[0]!)!;
            const a: BrokerUser = { token: su.token, accountId: acct.id, alias: "Primary", currency: acct.currency, lastTransactionID: String(acct.lastTransactionID), clockOffsetMs: sim.sim.now() - Date.now() };
            accounts.push(a);
            return a;
          }),
      }),
    );
    // Half the bots paused (the hero then shows the pre-flight check); WORKERS=off: the others never tick.
    const paused = userIds.filter((_, i) => i % 2 === 1);
    if (paused.length) await sql`update bots set is_active = false, last_stopped_at = now(), last_stop_reason = 'manual' where user_id in ${sql(paused)}`;
    // Open trades at the simulator (market orders straight to it, not counted).
    const instruments = ["EUR_USD", "GBP_USD", "USD_JPY"];
    for (const a of accounts)
      for (let i = 0; i < OPEN; i++) {
        const res = await fetch(`${sim.url}/practice/v3/accounts/${a.accountId}/orders`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${a.token}` },
          body: JSON.stringify({ order: { type: "MARKET", instrument: instruments[i % instruments.length], units: String(i % 2 ? -1000 : 1000), timeInForce: "FOK" } }),
        });
        if (res.status !== 201) throw new Error(`ordem no simulador: ${res.status} ${await res.text()}`);
      }
    // Closed trades in our books over the last 20 days (broker clock).
    const conns = await sql<{ user_id: string; account_id: string; offset: string }[]>`
      select user_id, account_id, market_clock_offset_ms::text as offset from broker_connections`;
    const rows = conns.flatMap((c) => {
      const now = Date.now() + Number(c.offset);
      return Array.from({ length: CLOSED }, (_, i) => {
        const close = new Date(now - ((i + 1) * 20 * 86_400_000) / (CLOSED + 1));
        const win = i % 3 !== 0;
        return {
          user_id: c.user_id,
          account_id: c.account_id,
          environment: "practice",
          broker_trade_id: String(900_000 + i),
          instrument: instruments[i % instruments.length]!,
          side: i % 2 ? "sell" : "buy",
          units: "1000",
          open_price: "1.10000",
          close_price: win ? "1.10200" : "1.09900",
          realized_pl: win ? "2.0000" : "-1.0000",
          status: "closed",
          result: win ? "WIN" : "LOSS",
          close_reason: win ? "TAKE_PROFIT_ORDER" : "STOP_LOSS_ORDER",
          open_time: new Date(close.getTime() - 3_600_000),
          close_time: close,
          ai_timeframe: "M15",
          ai_confidence: "0.7",
          ai_reason: "bench",
        };
      });
    });
    if (rows.length) await sql`insert into trades ${sql(rows)}`;
    log(`${userIds.length} assinantes com conta conectada, ${OPEN} trades abertos e ${CLOSED} fechados cada (${((Date.now() - t0) / 1000).toFixed(0)} s)`);

    // 4. The product process. Production refuses to start without the operator's identity (Terms and Privacy pages).
    const OPERATOR_IDENTITY = {
      OPERATOR_COMPANY: "Bench Ltda.",
      OPERATOR_CNPJ: "12.345.678/0001-90",
      OPERATOR_ADDRESS: "Av. Paulista, 1000, São Paulo - SP",
      OPERATOR_DPO_NAME: "Bench DPO",
      OPERATOR_DPO_EMAIL: "dpo@bench.local",
      SUPPORT_EMAIL: "suporte@bench.local",
    };
    const buildDir = ensureBuild(log);
    const nodeOptions = [argv["node-options"], argv["cpu-prof"] ? `--import ${path.join(root, "bench/cpu-profile-preload.mjs")}` : undefined].filter(Boolean).join(" ");
    const extraEnv: Record<string, string> = {
      ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}),
      ...(argv["cpu-prof"] ? { BENCH_CPU_PROF_DIR: path.resolve(argv["cpu-prof"]) } : {}),
    };
    const app: AppServer = await startAppServer(
      // NODE_ENV=production: what a deployment runs (React's production build; "test" measured React's development build).
      { DATABASE_URL: dbUrl, DATA_DIR: dataDir, NODE_ENV: "production", WORKERS: "off", LOG_LEVEL: "warn", AUTH_RATE_LIMIT: "100000", ...OPERATOR_IDENTITY, ...secrets, ...env, ...extraEnv },
      300_000,
    );
    cleanups.push(() => app.stop());
    const cookies: string[] = [];
    for (let i = 0; i < USERS; i++) {
      const res = await fetch(`${app.url}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: `bench-bot-${i}@teste.com`, password: "Senha123" }),
      });
      const set = res.headers.get("set-cookie");
      if (res.status !== 200 || !set) throw new Error(`login ${i}: ${res.status} ${await res.text()}`);
      cookies.push(set.split(";")[0]!);
    }
    log(`${cookies.length} sessões abertas; servidor pid ${app.proc.pid}`);

    // 6. First-load JavaScript of the two pages (before the load): every script a browser fetches until the
    //    page is idle (Chromium through Playwright, as the e2e tests), else the scripts named by the HTML.
    const js: JsFirstLoad[] = [];
    for (const r of ["/", "/dashboard"]) {
      const html = await (await fetch(app.url + r, { headers: { cookie: cookies[0]! } })).text();
      const fetched = await browserScripts(app.url, r, cookies[0]!).catch((err: unknown) => {
        log(`navegador indisponível (${String(err).split("\n")[0]}): JS contado pelo HTML`);
        return undefined;
      });
      js.push(firstLoadJs(r, html, path.join(buildDir, "client"), fetched));
    }
    for (const j of js) log(`JS ${j.route}: ${j.scripts} scripts, ${fmt(j.raw / 1024)} kB, ${fmt(j.gzip / 1024)} kB gzip (${j.source})`);
    // Bytes of each measured route's answer for the first user (issue 24: the HTML and its hydration data are rendered,
    // serialised and gzipped on every request); `--dump DIR` keeps them for a look.
    for (const r of routes) {
      const body = Buffer.from(await (await fetch(app.url + r.path, { headers: { cookie: cookies[0]! } })).arrayBuffer());
      log(`${r.path}: ${fmt(body.length / 1024)} kB (${fmt(gzipSync(body, { level: 1 }).length / 1024)} kB gzip nível 1)`);
      if (argv.dump) writeFileSync(path.join(argv.dump, `${r.path.replace(/[^\w.]+/g, "_") || "_"}.txt`), body);
    }

    // 5. Load.
    const runs: Run[] = [];
    for (const r of routes) {
      for (const c of CONNECTIONS) {
        await settle(proxy);
        await measure(app.url + r.path, c, cookies, 2); // warm-up at this concurrency
        const cpu0 = processCpuMs(app.proc.pid);
        const m = await measure(app.url + r.path, c, cookies, SECONDS, proxy);
        const cpuMsPerRequest = (processCpuMs(app.proc.pid) - cpu0) / m.requests;
        runs.push({ route: r.path, ...m, cpuMsPerRequest });
        log(
          `${r.path} × ${c}: ${fmt(m.rps)} req/s, p50 ${fmt(m.p50)} p95 ${fmt(m.p95)} p99 ${fmt(m.p99)} ms, não-2xx ${m.non2xx}, erros ${m.errors}, corretora/req ${fmt(m.brokerPerRequest, 2)}, CPU do servidor ${fmt(cpuMsPerRequest, 1)} ms/req`,
        );
      }
      if (PACED > 0) {
        await settle(proxy);
        const cpu0 = processCpuMs(app.proc.pid);
        const m = await measure(app.url + r.path, 50, cookies, SECONDS, proxy, PACED);
        const cpuMsPerRequest = (processCpuMs(app.proc.pid) - cpu0) / m.requests;
        runs.push({ route: r.path, ...m, cpuMsPerRequest });
        log(`${r.path} 50 usuários a ${PACED} req/s: p50 ${fmt(m.p50)} p95 ${fmt(m.p95)} p99 ${fmt(m.p99)} ms, não-2xx ${m.non2xx}, erros ${m.errors}, corretora/req ${fmt(m.brokerPerRequest, 2)}, CPU do servidor ${fmt(cpuMsPerRequest, 1)} ms/req`);
      }
    }
    const result = { users: USERS, seconds: SECONDS, runs, js, loadBefore: LOAD_BEFORE, loadAfter: os.loadavg() };
    console.log(JSON.stringify(result));
    if (!argv["no-doc"]) writeDoc(result);
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    await sql.end();
    await db.drop();
  }
}

function writeDoc(r: { users: number; seconds: number; runs: Run[]; js: JsFirstLoad[]; loadBefore: number[]; loadAfter: number[] }) {
  const cpu = os.cpus()[0]?.model ?? "?";
  const conns = [...new Set(r.runs.filter((x) => !x.rate).map((x) => x.connections))];
  const paced = r.runs.find((x) => x.rate)?.rate;
  const head = `| route | polled by | ${conns.map((c) => `${c} conn: req/s · p50 / p95 / p99 ms`).join(" | ")}${paced ? ` | 50 users at ${paced} req/s: p50 / p95 / p99 ms` : ""} | broker req per response (at ${conns.at(-1)} conn) | server CPU ms per response (at ${conns[0]} conn${paced ? " · paced" : ""}) |`;
  const sep = `|---|---|${conns.map(() => "---:").join("|")}${paced ? "|---:" : ""}|---:|---:|`;
  const lines = [...new Set(r.runs.map((x) => x.route))].map((route) => {
    const what = ROUTES.find((x) => x.path === route)?.what ?? "";
    const cells = conns.map((c) => {
      const m = r.runs.find((x) => x.route === route && x.connections === c && !x.rate);
      if (!m) return "–";
      const bad = m.non2xx + m.errors ? ` (**${m.non2xx} non-2xx, ${m.errors} errors**)` : "";
      return `${fmt(m.rps, 0)} · ${fmt(m.p50, 0)} / ${fmt(m.p95, 0)} / ${fmt(m.p99, 0)}${bad}`;
    });
    const p = r.runs.find((x) => x.route === route && x.rate);
    const pacedCell = paced ? ` | ${p ? `${fmt(p.p50, 0)} / ${fmt(p.p95, 0)} / ${fmt(p.p99, 0)}${p.non2xx + p.errors ? ` (**${p.non2xx} non-2xx, ${p.errors} errors**)` : ""}` : "–"}` : "";
    const last = r.runs.filter((x) => x.route === route && !x.rate).at(-1);
    const first = r.runs.find((x) => x.route === route && !x.rate);
    const cpu = [first, ...(paced ? [p] : [])].map((x) => fmt(x?.cpuMsPerRequest ?? NaN, 1)).join(" · ");
    return `| \`${route}\` | ${what} | ${cells.join(" | ")}${pacedCell} | ${fmt(last?.brokerPerRequest ?? NaN, 2)} | ${cpu} |`;
  });
  const worst = Math.max(...r.runs.filter((x) => x.connections === 50 && !x.rate).map((x) => x.p95));
  const worstPaced = Math.max(...r.runs.filter((x) => x.rate).map((x) => x.p95));
  const hero = r.js.find((j) => j.route === "/");
  const section = `${START}
## Web under load (\`npm run bench:web\`, bench/web.bench.ts)

Run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC at commit ${commit()} on ${os.cpus().length} cores (${cpu}), Node ${process.version}.
**The machine is shared** (other agents' builds and tests run on the same 2 cores): 1-minute load average ${fmt(r.loadBefore[0]!, 2)} before, ${fmt(r.loadAfter[0]!, 2)} at the end;
autocannon, the simulator and PostgreSQL run on the same cores as the server.${argv.note ? `\nNote: ${argv.note}` : ""}

Setup (method in the bench's docstring): one product process (production build, \`WORKERS=off\`), the OANDA simulator behind a counting proxy,
${r.users} subscribers (trial licence, connected simulator account with ${OPEN} open trades, ${CLOSED} closed trades in the books, half the bots on and
half paused), each logged in through \`POST /api/auth/login\`; **every request carries the next of the ${r.users} session cookies in turn** (many users,
not one user's cached answer). ${r.seconds} s per route and concurrency after a 2 s warm-up. Latency is the client's (send → last byte on localhost).

JavaScript of a first load (logged in, desktop viewport): every \`/assets/*.js\` a Chromium page requests until the network is idle
("browser"; "html": the scripts the HTML names, when no browser was available), sized from the build, gzip at level 6 (the compression middleware's).

| page | scripts on first load | JS raw | JS gzip | biggest (gzip) | counted by |
|---|---:|---:|---:|---|---|
${r.js.map((j) => `| \`${j.route}\` | ${j.scripts} | ${fmt(j.raw / 1024)} kB | ${fmt(j.gzip / 1024)} kB | ${j.biggest.map((b) => `${b.file} ${fmt(b.gzip / 1024)} kB`).join(", ")} | ${j.source} |`).join("\n")}

${head}
${sep}
${lines.join("\n")}

Targets (issue 13): p95 ≤ 50 ms for 50 concurrent users — with 50 users each sending a request every ${paced ? fmt(50 / paced, 1) : "–"} s on one route
(open loop, ${paced ?? "–"} req/s in all spread evenly over each second: far more than the pages poll, 0.2 req/s per user for the status, 0.07 for the data requests):
${Number.isFinite(worstPaced) ? (worstPaced <= 50 ? `met (worst p95 ${fmt(worstPaced, 0)} ms)` : `**not met** (worst p95 ${fmt(worstPaced, 0)} ms)`) : "not measured"}; with 50 connections
each sending its next request as soon as the last is answered (closed loop: latency = 50 / throughput) the worst p95 is ${fmt(worst, 0)} ms;
hero JavaScript ≤ 150 kB gzip — ${hero ? (hero.gzip <= 150 * 1024 ? `met (${fmt(hero.gzip / 1024)} kB)` : `**not met** (${fmt(hero.gzip / 1024)} kB)`) : "–"}.
${END}`;
  let text = existsSync(DOC) ? readFileSync(DOC, "utf8") : "# Benchmarks\n";
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  text = a >= 0 && b > a ? text.slice(0, a) + section + text.slice(b + END.length) : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(DOC, text);
  log(`docs/BENCHMARKS.md: seção Web escrita`);
}

if (argv["load-worker"]) loadWorker();
else if (argv["doc-from"]) {
  // The JSON line a run printed (e.g. of a --no-doc run): the section written from it, no new measurement.
  const line = readFileSync(argv["doc-from"], "utf8").split("\n").find((l) => l.startsWith('{"users"'));
  if (!line) throw new Error(`nenhum resultado JSON em ${argv["doc-from"]}`);
  writeDoc(JSON.parse(line) as Parameters<typeof writeDoc>[0]);
} else await main();
