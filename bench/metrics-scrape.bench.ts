/**
 * `/metrics` scrape cost (issue 24: "`/metrics` scrape cost at 20,000 bots"). The labels are bounded
 * (route templates, endpoint templates, statuses, queue names: never a user, account or trade id), so the
 * registry's size does not grow with the number of bots: this bench fills every family with a worst-case
 * label set — every route template of app/routes × 2 methods × 8 statuses, 30 broker endpoint templates ×
 * 10 statuses, every decision verdict, every queue — and with 20,000 bots' worth of observations (a
 * minute of ticks, their decisions and broker requests), then times the registry's serialisation (what a
 * scrape costs the process, the queue gauges' one statement aside) and reports the body's size.
 * Run: `node --import tsx bench/metrics-scrape.bench.ts [--scrapes 200]`. Prints one line; no doc write.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createServer } from "vite";
import tsconfigPaths from "vite-tsconfig-paths";
import { fmt, logger, pct, root } from "./support";
import type * as MetricsModule from "../app/services/platform/metrics.server";

const { values: argv } = parseArgs({ options: { scrapes: { type: "string", default: "200" } } });
const log = logger("bench:metrics");
const vite = await createServer({
  configFile: false, root, logLevel: "error", appType: "custom", plugins: [tsconfigPaths()],
  server: { middlewareMode: true, hmr: false, watch: null }, optimizeDeps: { noDiscovery: true, include: [] },
});
const mod = (await vite.ssrLoadModule("/app/services/platform/metrics.server.ts")) as typeof MetricsModule;
const m = mod.metrics();

const routes = readdirSync(path.join(root, "app/routes")).map((f) => "/" + f.replace(/\.(tsx?|ts)$/, "").replace(/\./g, "/"));
const statuses = ["200", "201", "204", "302", "400", "401", "404", "500"];
for (const route of routes)
  for (const method of ["GET", "POST"])
    for (const status of statuses) {
      m.httpRequests.inc({ method, route, status });
      m.httpDuration.observe({ method, route }, 0.02);
    }
const endpoints = Array.from({ length: 30 }, (_, i) => `/v3/accounts/{id}/endpoint${i}`);
for (const endpoint of endpoints)
  for (const status of ["200", "201", "400", "401", "404", "429", "500", "503", "timeout", "network"]) {
    m.brokerRequests.inc({ method: "GET", endpoint, status });
    m.brokerDuration.observe({ method: "GET", endpoint }, 0.05);
  }
// A minute of 20,000 bots: their ticks, three decisions each, 0.3 broker requests per tick.
for (let i = 0; i < 20_000; i++) {
  m.tickLag.observe(Math.random());
  m.tickDuration.observe({ outcome: "done" }, 0.05 + Math.random() / 10);
  m.ticks.inc({ outcome: "done" });
  for (const verdict of ["executed", "no_edge", "max_positions"]) m.decisions.inc({ action: "none", verdict });
}
const scrapes = Number(argv.scrapes);
const times: number[] = [];
let bytes = 0;
let series = 0;
for (let i = 0; i < scrapes; i++) {
  const t = performance.now();
  const body = await m.registry.metrics();
  times.push(performance.now() - t);
  bytes = Buffer.byteLength(body);
  series = body.split("\n").filter((l) => l && !l.startsWith("#")).length;
}
log(`${routes.length} rotas, ${series} séries, ${fmt(bytes / 1024, 0)} kB por scrape; serialização p50 ${fmt(pct(times, 50), 2)} ms, p99 ${fmt(pct(times, 99), 2)} ms (${scrapes} scrapes)`);
await vite.close();
process.exit(0);
