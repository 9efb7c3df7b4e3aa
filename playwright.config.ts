/**
 * End-to-end tests in Debian's Chromium (STACK.md): the production build served by its bundled
 * `server/index.ts` (`<BUILD_DIR>/server-entry.js`, ADR 0026) with the in-process OANDA simulator (OANDA_MODE=sim). DATABASE_URL: a fresh
 * database on TEST_DATABASE_URL's server when that is set (created before the server starts, see
 * tests/e2e/db.ts), else unset so the app runs its embedded PostgreSQL under DATA_DIR.
 * Desktop 1440×900 and mobile 390×844 projects, plus `nojs` (desktop, JavaScript off) running only
 * tests tagged @nojs (which the other two skip); screenshots land in test-results/screenshots/.
 * A local mailbox (SMTP + HTTP inbox on loopback, ports derived from E2E_PORT) runs as a second web
 * server; the app's SMTP_URL points at it and APP_URL at the test server, so e-mail links are usable.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { E2E_ADMIN } from "./tests/e2e/support/admin";
import { serverCommand } from "./tests/setup/app-server";
import { mailboxPorts } from "./tests/e2e/support/mailbox";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// Pinned in the environment so worker processes (which re-read this file) agree with the runner.
process.env.E2E_RUN_ID ||= randomBytes(4).toString("hex");
const runId = process.env.E2E_RUN_ID;
const dataDir = path.resolve("test-results", `e2e-data-${runId}`);

// Local mailbox (tests/e2e/support/mailbox.ts): the app sends through it, tests read it over HTTP.
const MAIL = mailboxPorts(PORT);

const env: Record<string, string> = {
  PORT: String(PORT),
  APP_URL: BASE_URL,
  SMTP_URL: `smtp://127.0.0.1:${MAIL.smtp}`,
  MAIL_FROM: "Forex IA <no-reply@forex-ia.test>",
  AUTH_RATE_LIMIT: "1000", // every test browser shares 127.0.0.1
  USER_ACTION_RATE_LIMIT: "100000", // helpers drive run-once far faster than a person
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  OANDA_MODE: "sim",
  SIM_SPEED: "60",
  LOG_LEVEL: "warn",
  // The admin the admin panel spec logs in with (created at boot; tests/e2e/support/admin.ts).
  ADMIN_EMAIL: E2E_ADMIN.email,
  ADMIN_PASSWORD: E2E_ADMIN.password,
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

/** The viewports every spec runs at (desktop 1440×900, mobile 390×844, and JavaScript off for @nojs tests). */
const VIEWPORTS = [
  { name: "desktop", grepInvert: /@nojs/, use: { viewport: { width: 1440, height: 900 } } },
  {
    name: "mobile",
    grepInvert: /@nojs/,
    use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
  },
  { name: "nojs", grep: /@nojs/, use: { viewport: { width: 1440, height: 900 }, javaScriptEnabled: false } },
];
const ADMIN_SPEC = /admin\.spec\.ts$/;
const SCREENSHOTS_SPEC = /screenshots\.spec\.ts$/;

export default defineConfig({
  testDir: "tests/e2e",
  // Per-port output folder: parallel runs on other E2E_PORTs do not wipe each other's artifacts.
  outputDir: `test-results/playwright-${PORT}`,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  // Two spec files at a time by default (E2E_WORKERS; CI has 2 cores): each worker has its own
  // browser, and every spec makes its own users. Timing rules are tested on Playwright's clock or by
  // waiting on the events themselves, never on a scheduling slack (ADR 0023). The admin spec reads
  // deployment-wide figures and creates a plan the subscription modal lists, so it runs after the
  // others (its projects depend on theirs) whatever the worker count; its three projects side by side.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
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
    // The screenshots spec runs in the desktop project only and takes the mobile pages itself (one user and
    // AI trade for both viewports).
    ...VIEWPORTS.map((v) => ({ ...v, testIgnore: v.name === "desktop" ? ADMIN_SPEC : [ADMIN_SPEC, SCREENSHOTS_SPEC] })),
    // After every other spec (they change the deployment-wide figures the admin reads, and the admin's
    // plan would show in their subscription modals), side by side: each journey has its own user and plan,
    // and the dashboard check reads again when another's new user lands in between (ADR 0023).
    ...VIEWPORTS.map((v) => ({
      ...v,
      name: `admin-${v.name}`,
      testMatch: ADMIN_SPEC,
      dependencies: VIEWPORTS.map((d) => d.name),
    })),
  ],
  webServer: [
    {
      command: "node --import tsx tests/e2e/support/mailbox.ts",
      url: `http://127.0.0.1:${MAIL.http}/health`,
      env: { MAILBOX_SMTP_PORT: String(MAIL.smtp), MAILBOX_HTTP_PORT: String(MAIL.http) },
      timeout: 30_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
    },
    {
      // E2E_BUILT=1: the caller (tests/run-all.ts) has just built; skip the second build (and run the
      // sources through tsx if that build has no up-to-date server bundle: tests/setup/app-server.ts).
      command: `${createDb}${process.env.E2E_BUILT === "1" ? `node ${serverCommand().join(" ")}` : `npm run build && node ${path.join(process.env.BUILD_DIR || "build", "server-entry.js")}`}`,
      url: `${BASE_URL}/api/health`,
      env,
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: "pipe",
      stderr: "pipe",
      gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
    },
  ],
});
