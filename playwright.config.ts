/**
 * End-to-end tests in Debian's Chromium (STACK.md): the production build served by
 * `server/index.ts` with the in-process OANDA simulator (OANDA_MODE=sim). DATABASE_URL: a fresh
 * database on TEST_DATABASE_URL's server when that is set (created before the server starts, see
 * tests/e2e/db.ts), else unset so the app runs its embedded PostgreSQL under DATA_DIR.
 * Desktop 1440×900 and mobile 390×844 projects; screenshots land in test-results/screenshots/.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// Pinned in the environment so worker processes (which re-read this file) agree with the runner.
process.env.E2E_RUN_ID ||= randomBytes(4).toString("hex");
const runId = process.env.E2E_RUN_ID;
const dataDir = path.resolve("test-results", `e2e-data-${runId}`);

const env: Record<string, string> = {
  PORT: String(PORT),
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  OANDA_MODE: "sim",
  SIM_SPEED: "60",
  LOG_LEVEL: "warn",
};
let createDb = "";
if (process.env.TEST_DATABASE_URL) {
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/e2e_${runId}`;
  env.DATABASE_URL = url.toString();
  process.env.E2E_DATABASE_URL = env.DATABASE_URL;
  createDb = "node --import tsx tests/e2e/db.ts create && ";
}

const chromium = {
  browserName: "chromium" as const,
  launchOptions: {
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  },
};

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results/playwright",
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  globalSetup: "./tests/e2e/global-setup.ts",
  use: {
    baseURL: BASE_URL,
    locale: "pt-BR",
    timezoneId: "America/Sao_Paulo",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    ...chromium,
  },
  projects: [
    { name: "desktop", use: { viewport: { width: 1440, height: 900 } } },
    { name: "mobile", use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
  ],
  webServer: {
    command: `${createDb}npm run build && node --import tsx server/index.ts`,
    url: `${BASE_URL}/api/health`,
    env,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
  },
});
