/**
 * `npm test`: the whole suite, as CI runs it. Builds the app, runs the vitest projects (unit, then
 * integration on real PostgreSQL), then Playwright in Debian's Chromium, and ends with one line
 * `Tests: N passed, N failed` (with skipped when any), after a line with each step's wall time
 * (the suite's budget is 30 minutes on CI's 2 cores, ADR 0023). Exit code 1 on any failure.
 * Databases: TEST_DATABASE_URL when set, otherwise an embedded PostgreSQL (no server needed).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";

const results = { passed: 0, failed: 0, skipped: 0 };
let stepFailed = false;
/** Wall time of each named step, in seconds. */
const timings: [string, number][] = [];

function run(cmd: string, args: string[], env: Record<string, string> = {}, step?: string): number {
  console.log(`\n$ ${cmd} ${args.join(" ")}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  if (step) timings.push([step, Math.round((Date.now() - started) / 1000)]);
  return r.status ?? 1;
}

/** Prints the `n` slowest of `items` ([label, milliseconds]), so a budget overrun shows where to look. */
function printSlowest(title: string, items: [string, number][], n = 5) {
  const top = items.sort((a, b) => b[1] - a[1]).slice(0, n);
  if (top.length) console.log(`${title}: ${top.map(([label, ms]) => `${label} ${Math.round(ms / 1000)}s`).join(" · ")}`);
}

/** [file:line title (project), ms] for every test result in a Playwright JSON report. */
function playwrightDurations(suite: { suites?: unknown[]; specs?: { title: string; file: string; line: number; tests: { projectName: string; results: { duration: number }[] }[] }[] }): [string, number][] {
  const out: [string, number][] = [];
  for (const spec of suite.specs ?? [])
    for (const t of spec.tests) for (const r of t.results) out.push([`${spec.file}:${spec.line} (${t.projectName})`, r.duration]);
  for (const child of suite.suites ?? []) out.push(...playwrightDurations(child as typeof suite));
  return out;
}

function ensureChromium() {
  if (existsSync("/usr/bin/chromium")) return;
  if (process.getuid?.() === 0) {
    console.log("Chromium ausente: instalando o pacote Debian (chromium)...");
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "chromium", "fonts-liberation"]);
  }
  if (!existsSync("/usr/bin/chromium")) {
    console.error("Chromium não encontrado em /usr/bin/chromium: instale com `apt-get install -y chromium fonts-liberation`.");
    stepFailed = true;
  }
}

mkdirSync("test-results", { recursive: true });
if (run("npm", ["run", "build"], { NODE_ENV: "production" }, "build") !== 0) {
  console.error("O build falhou.");
  process.exit(1);
}

const vitestCode = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/vitest.json"], {}, "vitest");
if (existsSync("test-results/vitest.json")) {
  const v = JSON.parse(readFileSync("test-results/vitest.json", "utf8"));
  results.passed += v.numPassedTests ?? 0;
  results.failed += v.numFailedTests ?? 0;
  results.skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  const files = (v.testResults ?? []) as { name: string; startTime: number; endTime: number }[];
  printSlowest("Arquivos vitest mais lentos", files.map((f) => [f.name.replace(`${process.cwd()}/`, ""), f.endTime - f.startTime]));
}
if (vitestCode !== 0) stepFailed = true;

ensureChromium();
if (existsSync("/usr/bin/chromium")) {
  const pwCode = run("npx", ["playwright", "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: "test-results/playwright.json", E2E_BUILT: "1" }, "playwright");
  if (existsSync("test-results/playwright.json")) {
    const p = JSON.parse(readFileSync("test-results/playwright.json", "utf8"));
    results.passed += (p.stats?.expected ?? 0) + (p.stats?.flaky ?? 0);
    results.failed += p.stats?.unexpected ?? 0;
    results.skipped += p.stats?.skipped ?? 0;
    printSlowest("Testes Playwright mais lentos", playwrightDurations(p));
  }
  if (pwCode !== 0) stepFailed = true;
}

console.log(`\nTempos: ${timings.map(([step, s]) => `${step} ${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`).join(", ")}`);
const failed = results.failed + (stepFailed && results.failed === 0 ? 1 : 0);
console.log(`\nTests: ${results.passed} passed, ${failed} failed${results.skipped ? `, ${results.skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
