/**
 * Egress benchmark (issue 24, ADR 0041): how fast a burst of broker requests from many users leaves the
 * product when OANDA allows 120 REST requests a second per client IP (PROTOCOL.md §5), with 1, 2 and 4
 * egress addresses (OANDA_EGRESS_ADDRESSES, loopback aliases 127.0.0.x here).
 *
 * Method: the OANDA simulator in this process with its per-IP limit on (`ipRequestsPerSecond: 120`,
 * server/simulator/ip-limit.ts: 429 beyond, per source address); `--users` simulator accounts; the product's
 * own clients (app/services/broker/broker.server.ts `clientFor`, loaded through Vite's SSR loader as the other
 * benches do), configured for each address count in turn; every user sends `--per-user` GET summary requests
 * at once (a common signal: each bot's order and its follow-up read). Figures: wall time, requests a second,
 * 429s seen by the simulator, per-request latency p50/p99, and the time 20,000 orders × `--per-user` requests
 * would take at the measured rate.
 *
 * Run: `node --import tsx bench/egress.bench.ts [--users 500] [--per-user 2] [--addresses 1,2,4] [--no-doc]`
 * Writes the "Egress" section of docs/BENCHMARKS.md between `<!-- egress:start -->` and `<!-- egress:end -->`.
 */
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createServer } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { startSimulator } from "../server/simulator/server";
import { brokerEnv, commit, fmt, logger, pct, root } from "./support";
import type * as Broker from "../app/services/broker/broker.server";
import type * as Config from "../app/services/platform/config.server";

const { values: argv } = parseArgs({
  options: { users: { type: "string", default: "500" }, "per-user": { type: "string", default: "2" }, addresses: { type: "string", default: "1,2,4" }, "no-doc": { type: "boolean", default: false } },
});
const USERS = Number(argv.users);
const PER_USER = Number(argv["per-user"]);
const COUNTS = argv.addresses.split(",").map(Number);
const OANDA_PER_IP = 120;
const log = logger("bench:egress");

const vite = await createServer({
  configFile: false, root, logLevel: "error", appType: "custom", plugins: [tsconfigPaths()],
  server: { middlewareMode: true, hmr: false, watch: null }, optimizeDeps: { noDiscovery: true, include: [] },
});
const broker = (await vite.ssrLoadModule("/app/services/broker/broker.server.ts")) as typeof Broker;
const config = (await vite.ssrLoadModule("/app/services/platform/config.server.ts")) as typeof Config;

const sim = await startSimulator({ port: 0, dataDir: path.join(root, "data"), startAt: "2026-01-14T10:00:00Z", ipRequestsPerSecond: OANDA_PER_IP });
const accounts = Array.from({ length: USERS }, () => {
  const u = sim.sim.createUser("practice");
  return { token: u.token, accountId: u.accountIDs[0]! };
});
const limitedNow = () => Object.values(sim.ipCounts()).reduce((s, c) => s + c.limited, 0);

const rows: string[] = [];
let base = 10;
for (const k of COUNTS) {
  const addresses = Array.from({ length: k }, (_, i) => `127.0.0.${base + i}`);
  base += k;
  config.setConfig(config.parseConfig({ NODE_ENV: "test", LOG_LEVEL: "silent", OANDA_RETRIES: "3", ...brokerEnv(sim.url), OANDA_EGRESS_ADDRESSES: addresses.join(",") }));
  await new Promise((r) => setTimeout(r, 1100));
  const limitedBefore = limitedNow();
  const latencies: number[] = [];
  const started = Date.now();
  await Promise.all(
    accounts.flatMap((a) =>
      Array.from({ length: PER_USER }, async () => {
        const t = Date.now();
        await broker.clientFor(a.token, "practice").getAccountSummary(a.accountId);
        latencies.push(Date.now() - t);
      }),
    ),
  );
  const ms = Date.now() - started;
  const n = USERS * PER_USER;
  const rate = (n * 1000) / ms;
  const limited = limitedNow() - limitedBefore;
  const for20k = (20_000 * PER_USER) / rate;
  log(`${k} endereço(s): ${n} requisições em ${fmt(ms / 1000, 2)} s = ${fmt(rate, 0)}/s, 429: ${limited}, latência p50 ${fmt(pct(latencies, 50), 0)} p99 ${fmt(pct(latencies, 99), 0)} ms; 20.000 ordens × ${PER_USER}: ${fmt(for20k, 0)} s`);
  rows.push(`| ${k} | ${n} | ${fmt(ms / 1000, 2)} | ${fmt(rate, 0)} | ${limited} | ${fmt(pct(latencies, 50), 0)} / ${fmt(pct(latencies, 99), 0)} | ${fmt(for20k, 0)} |`);
}
await sim.close();
await vite.close();

if (!argv["no-doc"]) {
  const file = path.join(root, "docs/BENCHMARKS.md");
  const section = [
    "<!-- egress:start -->",
    "## Egress addresses against OANDA's per-IP limit (`node --import tsx bench/egress.bench.ts`, issue 24, ADR 0041)",
    "",
    `Commit ${commit()}, ${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, load ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}. The simulator refuses more than ${OANDA_PER_IP} REST requests a second per source address (as OANDA); ${USERS} users each send ${PER_USER} requests at once (a common signal) through the product's clients, from 1, 2 and 4 egress addresses (budget 120 a second each, attempts spaced).`,
    "",
    "| addresses | requests | wall s | requests/s | 429 | latency p50 / p99 ms | 20,000 orders × requests, s |",
    "|---:|---:|---:|---:|---:|---|---:|",
    ...rows,
    "",
    "<!-- egress:end -->",
  ].join("\n");
  const doc = readFileSync(file, "utf8");
  const re = /<!-- egress:start -->[\s\S]*<!-- egress:end -->/;
  writeFileSync(file, re.test(doc) ? doc.replace(re, section) : `${doc.trimEnd()}\n\n${section}\n`);
  log("docs/BENCHMARKS.md atualizado");
}
process.exit(0);
