/**
 * Pieces the benches share (bench/bots.bench.ts, bench/web.bench.ts): percentiles and number
 * formatting, a throw-away database, the product's broker/secret environment, the product services
 * loaded through Vite's SSR loader (bench/bots-setup.ts), the production build, the commit, and
 * per-process CPU/RSS from /proc (Linux).
 */
import { execSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { createServer } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import type * as BotsSetup from "./bots-setup";

/** The repository root. */
export const root = path.resolve(import.meta.dirname, "..");

/** p-th percentile (0–100, nearest rank) of numbers (sorted here; pass `sorted` when they already are); NaN when empty. */
export function pct(xs: number[], p: number, sorted = false): number {
  if (!xs.length) return NaN;
  const s = sorted ? xs : [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** `x` with `d` decimals, "–" when not finite. */
export const fmt = (x: number, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : "–");

/** A log function prefixed with the bench's name and the UTC time. */
export const logger = (bench: string) => (s: string) => console.log(`[${bench} ${new Date().toISOString().slice(11, 19)}] ${s}`);

/** The connection URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Whether database `name` exists on the server of `admin`. */
export async function databaseExists(admin: postgres.Sql, name: string): Promise<boolean> {
  return (await admin`select 1 from pg_database where datname = ${name}`).length > 0;
}

/**
 * Creates database `<prefix><10 hex>` (or `name` when given) on the server of `adminUrl`.
 * `drop()` drops it (forcing out connections) and closes the admin connection.
 */
export async function freshDatabase(adminUrl: string, prefix: string, name = `${prefix}${randomBytes(5).toString("hex")}`) {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`nome de banco inválido: ${name}`);
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  return {
    name,
    url: databaseUrl(adminUrl, name),
    admin,
    async drop(keep = false) {
      if (!keep) await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
      await admin.end();
    },
  };
}

/** Fresh ENCRYPTION_KEY (32 bytes hex) and SESSION_SECRET for a product run. */
export function newSecrets(): { ENCRYPTION_KEY: string; SESSION_SECRET: string } {
  return { ENCRYPTION_KEY: randomBytes(32).toString("hex"), SESSION_SECRET: randomBytes(24).toString("hex") };
}

export { brokerEnv } from "../tests/setup/broker-env";

/**
 * Runs `fn` with bench/bots-setup.ts loaded through Vite's SSR loader (the product services it calls use
 * `import.meta.glob`, which plain Node does not resolve); the loader is closed afterwards.
 */
export async function withBotsSetup<T>(fn: (setup: typeof BotsSetup) => Promise<T>): Promise<T> {
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
    return await fn((await vite.ssrLoadModule("/bench/bots-setup.ts")) as typeof BotsSetup);
  } finally {
    await vite.close();
  }
}

/** The production build folder (BUILD_DIR, default `build`), made (`remix vite:build`) when it has no server build. */
export function ensureBuild(log: (s: string) => void): string {
  const buildDir = path.resolve(root, process.env.BUILD_DIR || "build");
  if (!existsSync(path.join(buildDir, "server/index.js"))) {
    log(`sem build em ${buildDir}: compilando (remix vite:build)…`);
    execSync("npx remix vite:build", { cwd: root, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
  }
  return buildDir;
}

/** The checkout's short commit hash, "?" outside git. */
export function commit(): string {
  try {
    return execSync("git rev-parse --short HEAD", { cwd: root, encoding: "utf8" }).trim();
  } catch {
    return "?";
  }
}

/** CPU time (utime+stime, ms) and resident memory (VmRSS, MB) of process `pid` (Linux /proc; NaN when gone). */
export function procStats(pid: number): { cpuMs: number; rssMb: number } {
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

/** CPU time (ms) of every PostgreSQL server process (`postgres` in /proc/<pid>/comm) visible here; NaN when none. */
export function postgresCpuMs(): number {
  const byPid = postgresCpuByPid();
  return byPid.size ? [...byPid.values()].reduce((a, c) => a + c, 0) : NaN;
}

/**
 * CPU time (ms) per PostgreSQL server process visible here. Diff two samples over the pids in both
 * (`cpuDeltaMs`): a sum over all pids goes negative when backends of other sessions exit in between.
 */
export function postgresCpuByPid(): Map<number, number> {
  const out = new Map<number, number>();
  for (const d of safeReaddir("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, "utf8").trim() !== "postgres") continue;
    } catch {
      continue;
    }
    const c = procStats(Number(d)).cpuMs;
    if (Number.isFinite(c)) out.set(Number(d), c);
  }
  return out;
}

/** CPU ms spent between two `postgresCpuByPid` samples by the processes present in both; NaN when none. */
export function cpuDeltaMs(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  let seen = 0;
  for (const [pid, c1] of after) {
    const c0 = before.get(pid);
    if (c0 === undefined) continue;
    total += c1 - c0;
    seen++;
  }
  return seen ? total : NaN;
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Machine-wide CPU busy time (all cores, ms) from /proc/stat: user+nice+system+irq+softirq+steal. */
export function machineBusyMs(): number {
  try {
    const f = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = f;
    return ((user! + nice! + system! + irq! + softirq! + (steal ?? 0)) * 1000) / 100;
  } catch {
    return NaN;
  }
}
