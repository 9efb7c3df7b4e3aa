/**
 * Cold-start benchmark (issue 13, ADR 0026): N boots of the built server on an already migrated database,
 * each timed from process start (spawn) to the first `GET /health` answered 200 — the point where a load
 * balancer or `docker compose` would send traffic (health means the database, the queue and the broker answer).
 * Target: ≤ 3 s after a build.
 *
 * Two configurations, each booted N times in turn (interleaved, so a change in the machine's load hits both):
 * - `sim`: the default (and the tests') setup, OANDA_MODE=sim: the OANDA simulator in the process, which parses
 *   its candle files at boot;
 * - `oanda`: as in production, OANDA_MODE=oanda, the broker reached over HTTP (here a standalone simulator
 *   started by this bench stands for api-fxpractice.oanda.com).
 * With `--tsx`, each is also booted the way `npm start` did before ADR 0026 (`node --import tsx server/index.ts`)
 * for comparison; and `sim-restart`: mode sim with one DATA_DIR kept across its boots (a restart: the simulator reads
 * its parsed candles from the cache there). Every boot has WORKERS=on (the default), a fresh DATA_DIR unless said and
 * NODE_ENV=test (local secrets).
 * Prints p50 / max per configuration and the median of each boot step from the server's "Pronto" line, and
 * rewrites the "Cold start" section of docs/BENCHMARKS.md (between the cold-start markers).
 *
 * Run: BUILD_DIR=build TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:cold-start [-- --boots 10 --tsx --no-doc]
 * (`--no-doc`: print only, leave docs/BENCHMARKS.md alone)
 * (`npm run build` first: the bench boots `<BUILD_DIR>/server-entry.js`; a throw-away database is created on that
 * server, migrated by a first boot that is not counted, and dropped at the end).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";
import { startSimulator } from "../server/simulator/server";
import { brokerEnv } from "../tests/setup/broker-env";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DOC = path.join(root, "docs/BENCHMARKS.md");
const START = "<!-- cold-start:start -->";
const END = "<!-- cold-start:end -->";
const TIMEOUT_MS = 120_000;

/**
 * One boot: wall ms from spawn to /health 200, the CPU ms the server process had used by then (user + system,
 * all its threads: what the boot costs whatever the machine's load; on an idle machine the wall time is close
 * to it), and the server's own step breakdown.
 */
interface Boot {
  ms: number;
  cpuMs: number;
  steps: Record<string, number>;
}

/** CPU ms (user + system) a live process has used, from /proc/<pid>/stat (Linux; NaN elsewhere). */
function cpuMsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in USER_HZ (100 on Linux)
  } catch {
    return NaN;
  }
}

/** A free TCP port on loopback (bound and released). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

/** The step figures of the server's "início: … ms (módulos 300 ms · migrações 40 ms · …)" line. */
function parseSteps(out: string): Record<string, number> {
  const m = /início: (\d+) ms \(([^)]*)\)/.exec(out);
  if (!m) return {};
  const steps: Record<string, number> = { total: Number(m[1]) };
  for (const part of m[2]!.split(" · ")) {
    const s = /^(.+) (\d+) ms$/.exec(part.trim());
    if (s) steps[s[1]!] = Number(s[2]);
  }
  return steps;
}

/**
 * Boots the server once with `args` (after `node`) and `env`; resolves with the time to the first /health 200,
 * after stopping it with SIGTERM. @throws Error when it exits or stays unhealthy for TIMEOUT_MS
 */
async function bootOnce(args: string[], env: Record<string, string>, keptDataDir?: string): Promise<Boot> {
  const port = await freePort();
  const dataDir = keptDataDir ?? mkdtempSync(path.join(tmpdir(), "cold-start-"));
  const started = performance.now();
  const proc = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "test", LOG_LEVEL: "warn", PORT: String(port), DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout.on("data", (d) => (out += d));
  proc.stderr.on("data", (d) => (out += d));
  let exited = false;
  const exit = new Promise<void>((resolve) => proc.on("exit", () => ((exited = true), resolve())));
  try {
    for (;;) {
      if (exited) throw new Error(`o servidor saiu ao iniciar:\n${out}`);
      if (performance.now() - started > TIMEOUT_MS) throw new Error(`sem /health 200 em ${TIMEOUT_MS} ms:\n${out}`);
      const status = await fetch(`http://127.0.0.1:${port}/health`)
        .then(async (r) => (await r.arrayBuffer(), r.status))
        .catch(() => 0);
      if (status === 200) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const ms = performance.now() - started;
    const cpuMs = cpuMsOf(proc.pid!);
    // The "Pronto" line is printed right after the last step; /health can answer a moment before it.
    for (let i = 0; i < 100 && !/início: /.test(out); i++) await new Promise((r) => setTimeout(r, 20));
    return { ms, cpuMs, steps: parseSteps(out) };
  } finally {
    proc.kill("SIGTERM");
    await exit;
    if (!keptDataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The value at quantile `q` (0..1) of `xs` (nearest rank). */
function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))]!;
}

function argValue(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

async function main() {
  const boots = Number(argValue("--boots", "10"));
  const withTsx = process.argv.includes("--tsx");
  const buildDir = process.env.BUILD_DIR || "build";
  const entry = path.resolve(root, buildDir, "server-entry.js");
  if (!existsSync(entry)) throw new Error(`${entry} não existe: rode \`BUILD_DIR=${buildDir} npm run build\` antes.`);
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error("Defina TEST_DATABASE_URL (servidor PostgreSQL onde criar o banco descartável).");

  const dbName = `cold_start_${randomBytes(4).toString("hex")}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${dbName}`);
  const url = new URL(base);
  url.pathname = `/${dbName}`;
  const broker = await startSimulator({ dataDir: path.join(root, "data"), speed: 1 });
  const common = { BUILD_DIR: buildDir, DATABASE_URL: url.toString() };
  const modes: Record<string, Record<string, string>> = {
    sim: { ...common, OANDA_MODE: "sim" },
    oanda: { ...common, ...brokerEnv(broker.url) },
  };
  // A restart in mode sim keeps its DATA_DIR (as `npm start` on one machine does): the simulator reads its parsed
  // candles from the cache there instead of the CSV files (server/simulator/load-market-data.ts).
  const keptDataDir = mkdtempSync(path.join(tmpdir(), "cold-start-kept-"));
  const variants: { key: string; label: string; args: string[]; env: Record<string, string>; dataDir?: string }[] = [];
  for (const [mode, env] of Object.entries(modes)) {
    variants.push({ key: `${mode}-bundle`, label: `OANDA_MODE=${mode}, \`node ${buildDir}/server-entry.js\`${mode === "sim" ? ", fresh DATA_DIR (CSV parsed)" : ""}`, args: [entry], env });
    if (mode === "sim")
      variants.push({ key: "sim-restart", label: `OANDA_MODE=sim, \`node ${buildDir}/server-entry.js\`, DATA_DIR kept (a restart: candles from its cache)`, args: [entry], env, dataDir: keptDataDir });
    if (withTsx) variants.push({ key: `${mode}-tsx`, label: `OANDA_MODE=${mode}, \`node --import tsx server/index.ts\` (before ADR 0026)`, args: ["--import", "tsx", "server/index.ts"], env });
  }
  const results = new Map<string, Boot[]>(variants.map((v) => [v.key, []]));
  const loadBefore = loadavg()[0]!.toFixed(1);
  try {
    console.log(`banco ${dbName}: primeira inicialização (migrações, filas; não contada)…`);
    await bootOnce([entry], modes.sim!, keptDataDir);
    for (let i = 0; i < boots; i++) {
      for (const v of variants) {
        const b = await bootOnce(v.args, v.env, v.dataDir);
        results.get(v.key)!.push(b);
        console.log(`${v.key} #${i + 1}: ${Math.round(b.ms)} ms, CPU ${Math.round(b.cpuMs)} ms  (servidor: ${Object.entries(b.steps).map(([k, ms]) => `${k} ${ms}`).join(", ")})`);
      }
    }
  } finally {
    rmSync(keptDataDir, { recursive: true, force: true });
    await broker.close();
    await admin.unsafe(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
  const loadAfter = loadavg()[0]!.toFixed(1);

  const rows = variants.map((v) => {
    const bs = results.get(v.key)!;
    const ms = bs.map((b) => b.ms);
    const stepNames = [...new Set(bs.flatMap((b) => Object.keys(b.steps)))].filter((k) => k !== "total");
    const steps = stepNames.map((k) => `${k} ${Math.round(quantile(bs.map((b) => b.steps[k] ?? 0), 0.5))}`).join(" · ");
    const cpu50 = Math.round(quantile(bs.map((b) => b.cpuMs), 0.5));
    return { ...v, p50: Math.round(quantile(ms, 0.5)), max: Math.round(Math.max(...ms)), cpu50, steps };
  });
  for (const r of rows) console.log(`${r.key}: p50 ${r.p50} ms, max ${r.max} ms, CPU p50 ${r.cpu50} ms  [${r.steps}]`);

  const cpu = cpus()[0]?.model.trim() ?? "?";
  const section = `${START}
## Cold start (\`npm run bench:cold-start\`, bench/cold-start.bench.ts)

Run ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpu}), ${(totalmem() / 2 ** 20).toFixed(0)} MB RAM, Node ${process.version}.
**The machine is shared** (other agents' builds and tests run on the same 2 cores): 1-minute load average ${loadBefore} before, ${loadAfter} at the end.
Each boot: process start (spawn) → first \`GET /health\` answered 200 (database, queue and broker reachable), on an
already migrated database, WORKERS=on, a fresh DATA_DIR unless said; ${boots} boots per configuration, interleaved. Target (issue 13): ≤ 3 s after a build.
CPU: the server process's user + system CPU time when /health first answered 200 (all its threads; what a boot costs
whatever the load; on an idle machine the wall time is close to it). Steps: medians of the server's own "Pronto" line (ms; \`módulos\` = process start → \`main()\`; the Remix build loads during \`migrações\`, ADR 0026).

| Configuration | p50 (ms) | max (ms) | CPU p50 (ms) | Steps (median ms) |
|---|---:|---:|---:|---|
${rows.map((r) => `| ${r.label} | ${r.p50} | ${r.max} | ${r.cpu50} | ${r.steps} |`).join("\n")}
${END}`;
  if (process.argv.includes("--no-doc")) return;
  let text = readFileSync(DOC, "utf8");
  const a = text.indexOf(START);
  const b = text.indexOf(END);
  text = a >= 0 && b > a ? text.slice(0, a) + section + text.slice(b + END.length) : `${text.trimEnd()}\n\n${section}\n`;
  writeFileSync(DOC, text);
  console.log("docs/BENCHMARKS.md atualizado (seção Cold start)");
}

await main();
