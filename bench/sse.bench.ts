/**
 * SSE benchmark (issue 11): N concurrent subscribers of `GET /api/stream/prices` on the real server
 * process (production build in BUILD_DIR, embedded OANDA simulator at SIM_SPEED=60, one upstream
 * stream), the clients in separate worker processes (raw TCP sockets, a minimal HTTP/SSE reader that parses the event name and `pub`). Measures:
 * - price-to-client latency: the hub stamps `pub` (ms since the epoch) when it publishes a price;
 *   each client subtracts it from its own `Date.now()` on parsing the event (same machine, same clock);
 * - server memory per subscriber: (server RSS with N subscribers − RSS before) / N;
 * and rewrites the "SSE" section of docs/BENCHMARKS.md (between the sse markers).
 * Target (issue 11): p99 ≤ 100 ms with 5,000 subscribers on 2 cores.
 *
 * Run: BUILD_DIR=build TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:sse [-- N seconds]
 * (a throw-away database is created on that server and dropped at the end). The server holds one socket per
 * subscriber: the run stops early when `ulimit -n` is below N + 1000 (raise it in the shell first).
 * `BENCH_CLIENT_WORKERS` (default 2): how many client processes share the N subscribers.
 */
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { cpus, loadavg, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { startAppServer, type AppServer } from "../tests/setup/app-server";
import { registerVerifiedAndLogin } from "../tests/setup/verify";

const WORKERS = Number(process.env.BENCH_CLIENT_WORKERS ?? "2");
const HEAD_END = Buffer.from("\r\n\r\n");
const EVENT_END = Buffer.from("\n\n");
const EVENT_NAME = Buffer.from("event: ");
const PUB = Buffer.from('"pub":');
/** Latency histogram: 1 ms buckets up to 5 s. */
const BUCKETS = 5_000;

type FromWorker = { t: "hello"; n: number } | { t: "done"; hist: number[]; events: number; errors: number; dropped: number };
type ToWorker = { t: "start"; url: string; token: string; count: number } | { t: "measure" } | { t: "stop" };

// ---- client worker -----------------------------------------------------------------------------
/** A client worker process: opens its share of the subscribers and records latencies (IPC-driven). */
function runWorker(): void {
  const hist = new Array<number>(BUCKETS + 1).fill(0);
  let measuring = false;
  let events = 0;
  let errors = 0;
  let dropped = 0;
  let hellos = 0;
  const sockets: net.Socket[] = [];
  // Raw TCP sockets with a hand-written GET and a minimal reader, rather than `http` + an SSE
  // library: per event the client then costs one `data` callback and a scan for the blank line,
  // which keeps the 2 client processes from being what the latency measures (they share the 2
  // cores with the server). The reader checks the status line, skips the headers, and splits the
  // body on the blank line that ends each SSE event (the HTTP chunk-size lines sit between events
  // and are ignored); it reads the event name and `pub` only. A price's latency is taken when the
  // chunk holding it has been read (client cost included).
  const open = (url: string, token: string) =>
    new Promise<void>((resolve) => {
      const u = new URL(url);
      const socket = net.connect(Number(u.port), u.hostname);
      sockets.push(socket);
      let rest: Buffer | undefined;
      let body = false;
      let ended = false;
      const fail = () => {
        if (ended) return;
        ended = true;
        if (body) {
          if (measuring) dropped++;
        } else errors++;
        resolve();
      };
      socket.setNoDelay(true);
      socket.on("connect", () =>
        socket.write(`GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${token}\r\nConnection: keep-alive\r\n\r\n`),
      );
      socket.on("data", (chunk: Buffer) => {
        // Bytes, not strings: most chunks hold whole events and are scanned in place.
        const b = rest ? Buffer.concat([rest, chunk]) : chunk;
        rest = undefined;
        let start = 0;
        if (!body) {
          const h = b.indexOf(HEAD_END);
          if (h < 0) {
            rest = b;
            return;
          }
          if (b.toString("latin1", 0, 12) !== "HTTP/1.1 200") {
            fail();
            socket.destroy();
            return;
          }
          body = true;
          start = h + 4;
        }
        let end = b.indexOf(EVENT_END, start);
        let now = 0;
        while (end >= 0) {
          const e = b.indexOf(EVENT_NAME, start);
          if (e >= 0 && e < end) {
            const n = e + EVENT_NAME.length;
            if (b[n] === 0x70 && b[n + 1] === 0x72 && b[n + 5] === 0x0a) {
              // "price"
              if (measuring) {
                const at = b.indexOf(PUB, n);
                let pub = 0;
                if (at >= 0 && at < end) for (let i = at + PUB.length; b[i]! >= 0x30 && b[i]! <= 0x39; i++) pub = pub * 10 + b[i]! - 0x30;
                if (pub > 0) {
                  now ||= Date.now();
                  hist[Math.min(BUCKETS, Math.max(0, now - pub))]!++;
                  events++;
                } else errors++;
              }
            } else if (b[n] === 0x68 && b[n + 2] === 0x6c && b[n + 5] === 0x0a) {
              // "hello"
              hellos++;
              resolve();
            }
          }
          start = end + 2;
          end = b.indexOf(EVENT_END, start);
        }
        // What follows the last whole event: the chunk's closing CRLF (dropped) or the start of the next one.
        if (b.length - start > 2) rest = Buffer.from(b.subarray(start));
      });
      socket.on("error", fail);
      socket.on("close", fail);
    });
  process.on("message", (m: ToWorker) => {
    if (m.t === "start") {
      void (async () => {
        // Ramp in batches so the server is not asked for thousands of sessions in the same tick.
        for (let i = 0; i < m.count; i += 100) {
          await Promise.all(Array.from({ length: Math.min(100, m.count - i) }, () => open(m.url, m.token)));
        }
        process.send!({ t: "hello", n: hellos } satisfies FromWorker);
      })();
    } else if (m.t === "measure") {
      measuring = true;
    } else if (m.t === "stop") {
      measuring = false;
      process.send!({ t: "done", hist, events, errors, dropped } satisfies FromWorker, undefined, {}, () => {
        for (const sk of sockets) sk.destroy();
        process.exit(0);
      });
    }
  });
}

// ---- driver ------------------------------------------------------------------------------------
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function percentile(hist: number[], total: number, p: number): number {
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i]!;
    if (seen >= total * p) return i;
  }
  return hist.length - 1;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The soft open-files limit of this process (inherited by the server and the workers): the server holds one socket per subscriber. */
function openFilesLimit(): number {
  const line = readFileSync("/proc/self/limits", "utf8").split("\n").find((l) => l.startsWith("Max open files"));
  return Number(line?.split(/\s{2,}/)[1] ?? Infinity);
}

async function main() {
  const N = Number(process.argv[2] ?? "5000");
  const SECONDS = Number(process.argv[3] ?? "30");
  if (openFilesLimit() < N + 1_000) throw new Error(`ulimit -n ${openFilesLimit()} é pouco para ${N} assinantes: rode \`ulimit -n ${N + 5_000}\` antes`);
  const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.BENCH_DATABASE_URL;
  if (!adminUrl) throw new Error("defina TEST_DATABASE_URL (um servidor PostgreSQL onde criar um banco descartável)");
  const name = `bench_sse_${randomBytes(4).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${name}`;
  const loadBefore = loadavg()[0]!;
  let app: AppServer | undefined;
  const workers: ChildProcess[] = [];
  try {
    app = await startAppServer({
      DATABASE_URL: dbUrl.toString(),
      WORKERS: "off",
      SIM_SPEED: "60",
      SSE_MAX_CONNECTIONS: String(N + 100),
      SSE_MAX_PER_USER: String(N + 100),
      // Every subscriber comes from this machine's one address, and the ramp-up itself delays the loop:
      // the per-IP bound and the load shedding (issue 24) are lifted for the measurement.
      SSE_MAX_PER_IP: String(N + 100),
      SSE_SHED_LOOP_DELAY_MS: "0",
      LOG_LEVEL: "error",
    });
    const login = await registerVerifiedAndLogin(app.url, dbUrl.toString(), { firstName: "Bench", lastName: "SSE", email: `bench-${Date.now()}@teste.com`, password: "Senha123" });
    const simUser = (await (await fetch(`${app.url}/oanda-sim/sim/users`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"environment":"practice"}' })).json()) as {
      token: string;
      accounts: { id: string }[];
    };
    const connect = await fetch(`${app.url}/api/oanda-auth/connect`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${login.token}` },
      body: JSON.stringify({ token: simUser.token, environment: "practice", accountId: simUser.accounts[0]!.id }),
    });
    if (connect.status !== 200) throw new Error(`connect: ${connect.status} ${await connect.text()}`);
    // One warm subscriber so the upstream is open and the hub's code is hot before the baseline.
    const warm = http.get(`${app.url}/api/stream/prices?instruments=EUR_USD`, { headers: { accept: "text/event-stream", authorization: `Bearer ${login.token}` } }, (r) => r.resume());
    await sleep(3_000);
    const pid = app.proc.pid!;
    const rssBefore = rssMb(pid);

    const self = fileURLToPath(import.meta.url);
    const hellos: number[] = [];
    const done: Extract<FromWorker, { t: "done" }>[] = [];
    const connectStart = Date.now();
    await new Promise<void>((resolve) => {
      for (let w = 0; w < WORKERS; w++) {
        const child = fork(self, ["--worker"], { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
        workers.push(child);
        child.on("message", (m: FromWorker) => {
          if (m.t === "hello") {
            hellos.push(m.n);
            if (hellos.length === WORKERS) resolve();
          } else done.push(m);
        });
        const count = Math.floor(N / WORKERS) + (w < N % WORKERS ? 1 : 0);
        child.send({ t: "start", url: `${app!.url}/api/stream/prices?instruments=EUR_USD`, token: login.token, count } satisfies ToWorker);
      }
    });
    const connectMs = Date.now() - connectStart;
    const connected = hellos.reduce((a, b) => a + b, 0);
    await sleep(3_000);
    for (const w of workers) w.send({ t: "measure" } satisfies ToWorker);
    const rssSamples: number[] = [];
    for (let s = 0; s < SECONDS; s++) {
      await sleep(1_000);
      rssSamples.push(rssMb(pid));
    }
    const rssAfter = rssSamples.reduce((a, b) => a + b, 0) / rssSamples.length;
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (done.length === WORKERS) {
          clearInterval(check);
          resolve();
        }
      }, 50);
      for (const w of workers) w.send({ t: "stop" } satisfies ToWorker);
    });
    warm.destroy();
    const hist = new Array<number>(BUCKETS + 1).fill(0);
    for (const d of done) d.hist.forEach((v, i) => (hist[i]! += v));
    const events = done.reduce((a, d) => a + d.events, 0);
    const errors = done.reduce((a, d) => a + d.errors, 0);
    const dropped = done.reduce((a, d) => a + d.dropped, 0);
    const p = (q: number) => percentile(hist, events, q);
    const max = hist.findLastIndex((v) => v > 0);
    const perSubKb = ((rssAfter - rssBefore) * 1024) / Math.max(1, connected);
    const result = {
      N,
      connected,
      errors,
      dropped,
      connectMs,
      seconds: SECONDS,
      events,
      eventsPerSec: Math.round(events / SECONDS),
      p50: p(0.5),
      p90: p(0.9),
      p99: p(0.99),
      max,
      rssBefore: rssBefore.toFixed(1),
      rssAfter: rssAfter.toFixed(1),
      perSubKb: perSubKb.toFixed(1),
      loadBefore: loadBefore.toFixed(2),
      loadAfter: loadavg()[0]!.toFixed(2),
    };
    console.log(JSON.stringify(result, null, 2));
    writeDoc(result);
  } finally {
    for (const w of workers) if (w.exitCode === null) w.kill();
    await app?.stop().catch(() => {});
    await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  }
}

function writeDoc(r: Record<string, string | number>) {
  const doc = new URL("../docs/BENCHMARKS.md", import.meta.url);
  const START = "<!-- sse:start -->";
  const END = "<!-- sse:end -->";
  const cpu = cpus()[0]?.model ?? "?";
  const section = `${START}
## SSE live prices (\`npm run bench:sse\`, bench/sse.bench.ts)

Run ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpu}), ${(totalmem() / 2 ** 20).toFixed(0)} MB RAM, Node ${process.version}.
**The machine is shared** (other agents' builds and tests run on the same 2 cores): 1-minute load average ${r.loadBefore} before, ${r.loadAfter} at the end;
the server, both client worker processes and PostgreSQL all run on it, so the figures are an upper bound for a dedicated host.

Setup: one server process (production build, \`WORKERS=off\`, embedded OANDA simulator at \`SIM_SPEED=60\`, one upstream pricing stream for EUR_USD),
${r.N} subscribers of \`GET /api/stream/prices?instruments=EUR_USD\` opened by 2 worker processes (raw TCP sockets and a minimal HTTP/SSE reader: status, event name and \`pub\` only), ${r.seconds} s measured
after all had their \`hello\`. Latency = client \`Date.now()\` on parsing a \`price\` event − the hub's \`pub\` stamp when it published the price (same clock).
Memory per subscriber = (server RSS with the subscribers, averaged over the window − RSS before them) / subscribers.

| subscribers connected | errors | ramp-up | price events received | events/s | p50 ms | p90 ms | p99 ms | max ms | RSS before → with subscribers MB | memory per subscriber |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
| ${r.connected} / ${r.N} | ${r.errors} | ${(Number(r.connectMs) / 1000).toFixed(1)} s | ${r.events} | ${r.eventsPerSec} | ${r.p50} | ${r.p90} | ${r.p99} | ${r.max} | ${r.rssBefore} → ${r.rssAfter} | ${r.perSubKb} KB |

Target (issue 11): p99 ≤ 100 ms — ${Number(r.p99) <= 100 ? "met" : "**not met**"} in this run. Streams ended by the server during the window (back-pressure drops): ${r.dropped}.
${END}`;
  let text = existsSync(doc) ? readFileSync(doc, "utf8") : "# Benchmarks\n";
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  text = a >= 0 && b > a ? text.slice(0, a) + section + text.slice(b + END.length) : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(doc, text);
}

if (process.argv.includes("--worker")) runWorker();
else await main();
