/**
 * The broker side of bench:bots: the OANDA simulator (server/simulator, unchanged) split into `shards`
 * Simulator instances behind one HTTP server that counts every request by kind (as
 * tests/setup/counting-proxy.ts: `requestKind`) and hands it to the shard owning the account.
 *
 * Why shards: the simulator evaluates stops on every request over all its accounts (`sim.sync()` →
 * `evaluateTriggers`) and finds tokens and accounts by a linear scan, so one simulator with 20,000
 * accounts costs O(accounts) per request — the test double, not the product, became the bottleneck.
 * Each shard holds 1/shards of the accounts (user i → shard i mod shards); a shard's user ids start at
 * 1,000,001 + shard × 100,000, so account ids (`101-004-<userID>-001`) are unique across shards and name
 * their shard. Requests with an account in the path go to its shard, others (candles) to the shard of
 * their bearer token. Every reply carries one host-wide `X-Sim-Clock` tag (the product's shared quote
 * cache drops its quotes when the tag changes; shards would otherwise each send their own). The shards'
 * clocks start within milliseconds of each other at `startAt`, speed 1.
 *
 * Two ways to run it:
 * - `startSimHost(opts)`: in this process (its CPU is then the caller's);
 * - `startSimHostChild(opts)`: this file in a child process (`node --import tsx bench/sim-host.ts --child`),
 *   driven over IPC, so the simulator's CPU is measured apart (`pid`) and the bench process stays light.
 * Both return a `SimHostHandle`. `save(dir)` writes each shard's state (`shard-<k>.json`) and `stateDir`
 * loads it back (bench:bots `--reuse-db`: the same tokens and account ids as the rows in the database).
 *
 * The shipped candles (data/) cover 3 of the product's 8 pairs, and the simulator offers only the pairs it
 * has candles for. `eightPairsDataDir` writes a candle folder with the other 5 derived from them (module
 * function's docstring), so bench:bots' bots trade all 8 pairs as users will.
 */
import { fork, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import express from "express";
import { accountSummaryJSON } from "../core/simulator/accounts";
import type { SimState } from "../core/simulator/state";
import { loadMarketData } from "../server/simulator/load-market-data";
import { createSimulatorApp, SIM_CLOCK_HEADER, Simulator, type SimulatorApp } from "../server/simulator/server";
import { requestKind } from "../tests/setup/counting-proxy";
import type { BrokerUser } from "./bots-setup";

/**
 * The other 5 of the 8 pairs derived from the shipped 3 (bench only: prices of plausible level whose moves are
 * real market moves, not real quotes of those pairs), each from its source's finest file, bar by bar:
 * AUD_USD = GBP_USD × k, USD_CAD = k / EUR_USD, USD_CHF = k / GBP_USD (inverted: high = k / low), EUR_GBP =
 * EUR_USD / GBP_USD on the bars both have (high/low = max/min of open, close and high/high, low/low) and
 * EUR_JPY = USD_JPY × k (its M3 path); k puts the first close at the pair's level (0.665, 1.37, 0.80, 183.5).
 * The coarser granularities are aggregated by the simulator from these (core/simulator/market-data.ts).
 */
const DERIVED_PAIRS: { pair: string; gran: string; level: number; digits: number; from: string; inverse?: boolean; over?: string }[] = [
  { pair: "AUD_USD", gran: "M5", level: 0.665, digits: 5, from: "GBP_USD" },
  { pair: "USD_CAD", gran: "M5", level: 1.37, digits: 5, from: "EUR_USD", inverse: true },
  { pair: "USD_CHF", gran: "M5", level: 0.8, digits: 5, from: "GBP_USD", inverse: true },
  { pair: "EUR_GBP", gran: "M5", level: 0, digits: 5, from: "EUR_USD", over: "GBP_USD" },
  { pair: "EUR_JPY", gran: "M3", level: 183.5, digits: 3, from: "USD_JPY" },
];

/**
 * Writes into `outDir` (made when missing) the shipped candle files of `srcDir` (symlinks) and the derived
 * pairs of `DERIVED_PAIRS` that `srcDir` lacks; returns `outDir`.
 * @throws Error when a source file of a derived pair is missing
 */
export function eightPairsDataDir(srcDir: string, outDir: string): string {
  mkdirSync(outDir, { recursive: true });
  const files = readdirSync(srcDir).filter((f) => f.endsWith(".csv"));
  for (const f of files) if (!existsSync(path.join(outDir, f))) symlinkSync(path.resolve(srcDir, f), path.join(outDir, f));
  type Row = [string, number, number, number, number, string];
  const read = (pair: string, gran: string): Row[] => {
    const file = path.join(srcDir, `${pair}_${gran}.csv`);
    if (!existsSync(file)) throw new Error(`velas ausentes: ${file}`);
    return readFileSync(file, "utf8").trim().split("\n").slice(1).map((l) => {
      const [t, o, h, lo, c, v] = l.split(",");
      return [t!, Number(o), Number(h), Number(lo), Number(c), v ?? "0"];
    });
  };
  for (const d of DERIVED_PAIRS) {
    if (files.some((f) => f.startsWith(`${d.pair}_`))) continue;
    const src = read(d.from, d.gran);
    let rows: Row[];
    if (d.over) {
      const den = new Map(read(d.over, d.gran).map((r) => [r[0], r]));
      rows = src.flatMap(([t, o, h, l, c, v]) => {
        const b = den.get(t);
        if (!b) return [];
        const [oo, cc] = [o / b[1], c / b[4]];
        return [[t, oo, Math.max(oo, cc, h / b[2]), Math.min(oo, cc, l / b[3]), cc, v] as Row];
      });
    } else {
      const k = d.inverse ? d.level * src[0]![4] : d.level / src[0]![4];
      rows = src.map(([t, o, h, l, c, v]) => (d.inverse ? [t, k / o, k / l, k / h, k / c, v] : [t, o * k, h * k, l * k, c * k, v]));
    }
    const x = (n: number) => n.toFixed(d.digits);
    const text = ["time,open,high,low,close,volume", ...rows.map(([t, o, h, l, c, v]) => [t, x(o), x(h), x(l), x(c), v].join(","))].join("\n");
    writeFileSync(path.join(outDir, `${d.pair}_${d.gran}.csv`), `${text}\n`);
  }
  return outDir;
}

/** First simulator user id (core/simulator/state.ts emptyState) and the id range of one shard. */
const FIRST_USER_ID = 1_000_001;
const SHARD_SPAN = 100_000;

export interface SimHostOptions {
  /** Simulator instances (≥ 1). */
  shards: number;
  /** Candle folder (`data/`). */
  dataDir: string;
  /** RFC3339 sim start (a fresh shard; a loaded one resumes at its saved time when later). */
  startAt: string;
  /** Folder of a previous `save(dir)`: the shards are loaded from it (their count must match). */
  stateDir?: string;
}

/** The simulator host as the bench drives it, in this process or a child. */
export interface SimHostHandle {
  /** Base URL (append `/practice` or `/live`). */
  url: string;
  /** The child's pid (CPU measured apart); undefined in this process. */
  pid?: number;
  /** Accounts held, per shard. */
  accounts: number[];
  setCounting(on: boolean): Promise<void>;
  /** Requests counted by kind since the last `resetCounts`. */
  counts(): Promise<[string, number][]>;
  resetCounts(): Promise<void>;
  /** `n` new users with one USD practice account each, spread over the shards. */
  createUsers(n: number): Promise<BrokerUser[]>;
  /** Writes every shard's state to `dir` (`shard-<k>.json`). */
  save(dir: string): Promise<void>;
  close(): Promise<void>;
}

/** The shard of a request: its account id's user id, else its bearer token's shard, else 0. */
function shardOf(req: http.IncomingMessage, shards: number, tokenShard: Map<string, number>): number {
  const m = /\/v3\/accounts\/\d+-\d+-(\d+)-\d+/.exec(req.url ?? "");
  if (m) return Math.min(shards - 1, Math.max(0, Math.floor((Number(m[1]) - FIRST_USER_ID) / SHARD_SPAN)));
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  return (token && tokenShard.get(token)) || 0;
}

/** Starts the host in this process. @throws Error when `stateDir` lacks a shard file */
export async function startSimHost(opts: SimHostOptions): Promise<SimHostHandle> {
  const market = loadMarketData(opts.dataDir);
  const apps: { sim: Simulator; router: SimulatorApp; handle: express.Express }[] = [];
  const tokenShard = new Map<string, number>();
  for (let k = 0; k < opts.shards; k++) {
    let sim: Simulator;
    const file = opts.stateDir && path.join(opts.stateDir, `shard-${k}.json`);
    if (file) {
      if (!existsSync(file)) throw new Error(`estado do simulador ausente: ${file}`);
      const saved = JSON.parse(readFileSync(file, "utf8")) as SimState;
      sim = new Simulator({ market, now: Date.now, speed: 1, startAt: opts.startAt, store: { load: () => saved, save: () => {} } });
      for (const u of sim.state.users) tokenShard.set(u.token, k);
    } else {
      sim = new Simulator({ market, now: Date.now, speed: 1, startAt: opts.startAt });
      sim.state.nextUserID = FIRST_USER_ID + k * SHARD_SPAN;
    }
    const router = createSimulatorApp({ sim, market });
    const handle = express();
    handle.disable("x-powered-by");
    handle.use(router);
    apps.push({ sim, router, handle });
  }
  const counts = new Map<string, number>();
  let counting = false;
  const clockTag = Math.random().toString(16).slice(2, 10);
  const server = http.createServer((req, res) => {
    if (counting) {
      const kind = requestKind(req.method, req.url ?? "/");
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    // One clock tag for all shards (the generation part stays the shard's: the bench never moves the clock).
    const setHeader = res.setHeader.bind(res);
    res.setHeader = (name: string, value: number | string | readonly string[]) =>
      setHeader(name, name.toLowerCase() === SIM_CLOCK_HEADER.toLowerCase() ? `${clockTag}.${String(value).split(".")[1] ?? "0"}` : value);
    apps[shardOf(req, apps.length, tokenShard)]!.handle(req, res);
  });
  server.keepAliveTimeout = 65_000; // as the product's own server: the app's keep-alive sockets are reused
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  let made = 0;
  const host: SimHostHandle = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accounts: apps.map((a) => a.sim.state.accounts.length),
    async setCounting(on) {
      counting = on;
    },
    async counts() {
      return [...counts.entries()];
    },
    async resetCounts() {
      counts.clear();
    },
    async createUsers(n) {
      const out: BrokerUser[] = [];
      for (let i = 0; i < n; i++) {
        const k = made++ % apps.length;
        const sim = apps[k]!.sim;
        const u = sim.createUser("practice");
        tokenShard.set(u.token, k);
        const acct = sim.account(u.accountIDs[0]!)!;
        const alias = accountSummaryJSON(sim.pricing, acct, sim.now()).alias;
        out.push({ token: u.token, accountId: acct.id, alias: typeof alias === "string" ? alias : null, currency: acct.currency, lastTransactionID: String(acct.lastTransactionID), clockOffsetMs: sim.now() - Date.now() });
      }
      host.accounts = apps.map((a) => a.sim.state.accounts.length);
      return out;
    },
    async save(dir) {
      mkdirSync(dir, { recursive: true });
      apps.forEach(({ sim }, k) => writeFileSync(path.join(dir, `shard-${k}.json`), JSON.stringify({ ...sim.state, simNow: sim.now() })));
    },
    async close() {
      for (const a of apps) a.router.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return host;
}

type Call = { id: number; op: "setCounting" | "counts" | "resetCounts" | "createUsers" | "save" | "close"; arg?: unknown };
type Reply = { id: number; ok: boolean; value?: unknown; error?: string } | { ready: true; url: string; accounts: number[] } | { failed: string };

/** Starts the host in a child process (this file with `--child`), driven over IPC. */
export async function startSimHostChild(opts: SimHostOptions): Promise<SimHostHandle> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--child", JSON.stringify(opts)], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const ready = await new Promise<{ url: string; accounts: number[] }>((resolve, reject) => {
    child.on("message", (m: Reply) => {
      if ("ready" in m) resolve(m);
      else if ("failed" in m) reject(new Error(`simulador (processo filho): ${m.failed}`));
      else {
        const p = pending.get(m.id);
        pending.delete(m.id);
        if (m.ok) p?.resolve(m.value);
        else p?.reject(new Error(m.error));
      }
    });
    child.once("exit", (code) => {
      reject(new Error(`simulador (processo filho) saiu com código ${code}`));
      for (const p of pending.values()) p.reject(new Error(`simulador (processo filho) saiu com código ${code}`));
    });
  });
  const call = <T>(op: Call["op"], arg?: unknown) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, op, arg } satisfies Call);
    });
  const handle: SimHostHandle = {
    url: ready.url,
    pid: child.pid,
    accounts: ready.accounts,
    setCounting: (on) => call("setCounting", on),
    counts: () => call("counts"),
    resetCounts: () => call("resetCounts"),
    async createUsers(n) {
      const r = await call<{ users: BrokerUser[]; accounts: number[] }>("createUsers", n);
      handle.accounts = r.accounts;
      return r.users;
    },
    save: (dir) => call("save", dir),
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      await call("close").catch(() => {});
      await exited;
    },
  };
  return handle;
}

/** The child's side: start the host from argv, answer the parent's calls. */
async function childMain(): Promise<void> {
  const opts = JSON.parse(process.argv[process.argv.indexOf("--child") + 1]!) as SimHostOptions;
  let host: SimHostHandle;
  try {
    host = await startSimHost(opts);
  } catch (err) {
    process.send!({ failed: String(err) } satisfies Reply);
    process.exit(1);
  }
  process.on("message", (m: Call) => {
    void (async () => {
      try {
        let value: unknown;
        if (m.op === "setCounting") value = await host.setCounting(Boolean(m.arg));
        else if (m.op === "counts") value = await host.counts();
        else if (m.op === "resetCounts") value = await host.resetCounts();
        else if (m.op === "createUsers") value = { users: await host.createUsers(Number(m.arg)), accounts: host.accounts };
        else if (m.op === "save") value = await host.save(String(m.arg));
        else if (m.op === "close") {
          await host.close();
          process.send!({ id: m.id, ok: true } satisfies Reply, undefined, {}, () => process.exit(0));
          return;
        }
        process.send!({ id: m.id, ok: true, value } satisfies Reply);
      } catch (err) {
        process.send!({ id: m.id, ok: false, error: String(err) } satisfies Reply);
      }
    })();
  });
  // The parent gone (killed bench): end too.
  process.on("disconnect", () => process.exit(0));
  process.send!({ ready: true, url: host.url, accounts: host.accounts } satisfies Reply);
}

if (process.argv.includes("--child") && process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await childMain();
