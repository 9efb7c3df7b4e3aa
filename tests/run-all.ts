/**
 * `npm test`: the whole suite, as CI runs it. Builds the app, runs the vitest projects (unit, then
 * integration on real PostgreSQL), then Playwright in Debian's Chromium, and ends with one line
 * `Tests: N passed, N failed` (with skipped when any). Exit code 1 on any failure.
 * Databases: TEST_DATABASE_URL when set, otherwise an embedded PostgreSQL (no server needed).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";

const results = { passed: 0, failed: 0, skipped: 0 };
let stepFailed = false;

function run(cmd: string, args: string[], env: Record<string, string> = {}): number {
  console.log(`\n$ ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return r.status ?? 1;
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
if (run("npm", ["run", "build"], { NODE_ENV: "production" }) !== 0) {
  console.error("O build falhou.");
  process.exit(1);
}

const vitestCode = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", "--outputFile.json=test-results/vitest.json"]);
if (existsSync("test-results/vitest.json")) {
  const v = JSON.parse(readFileSync("test-results/vitest.json", "utf8"));
  results.passed += v.numPassedTests ?? 0;
  results.failed += v.numFailedTests ?? 0;
  results.skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
}
if (vitestCode !== 0) stepFailed = true;

ensureChromium();
if (existsSync("/usr/bin/chromium")) {
  const pwCode = run("npx", ["playwright", "test", "--reporter=list,json"], { PLAYWRIGHT_JSON_OUTPUT_NAME: "test-results/playwright.json", E2E_BUILT: "1" });
  if (existsSync("test-results/playwright.json")) {
    const p = JSON.parse(readFileSync("test-results/playwright.json", "utf8"));
    results.passed += (p.stats?.expected ?? 0) + (p.stats?.flaky ?? 0);
    results.failed += p.stats?.unexpected ?? 0;
    results.skipped += p.stats?.skipped ?? 0;
  }
  if (pwCode !== 0) stepFailed = true;
}

const failed = results.failed + (stepFailed && results.failed === 0 ? 1 : 0);
console.log(`\nTests: ${results.passed} passed, ${failed} failed${results.skipped ? `, ${results.skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : 0);
