/**
 * Background work of the process (DESIGN.md §1): the bot-tick scheduler (ADR 0024), pg-boss workers
 * (the per-minute cron, outgoing e-mail `email-send`, …), plus first-boot accounts. `WORKERS=off` makes a web-only process (it still sends jobs).
 */
import { startQueue, stopQueue } from "../app/services/platform/queue/boss";
import { startWorkers } from "../jobs/workers";
import { bootstrapAccounts } from "./bootstrap";
import { config } from "../app/services/platform/config.server";
import { closeDb } from "../app/services/platform/db.server";
import { logger } from "../app/services/platform/logger.server";
import { priceHub } from "../app/services/streams/price-hub.server";
import { startTickScheduler, stopTickScheduler } from "../app/services/trading/tick-scheduler.server";
import { closeLockSession } from "../app/services/platform/user-lock.server";
import { markWorkersStarted } from "../app/services/platform/readiness-state";

/** Starts the queue (and workers when WORKERS=on) and creates first-boot accounts; returns login lines to print. */
export async function startBackground(opts: { printLogins: boolean }): Promise<{ logins: string[] }> {
  const cfg = config();
  if (!cfg.DATABASE_URL) throw new Error("DATABASE_URL não definido: o servidor deve iniciar o banco antes do app.");
  const boss = await startQueue({ connectionString: cfg.DATABASE_URL, workers: cfg.WORKERS === "on", onError: (err) => logger().error({ err }, "pg-boss error") });
  if (cfg.WORKERS === "on") {
    await startWorkers(boss);
    startTickScheduler({ concurrency: cfg.TICK_CONCURRENCY });
    // The bots' prices from the environment's one pricing stream (ADR 0030): steady ticks read no pricing.
    priceHub().feedBots();
    markWorkersStarted(); // /ready waits for this in a WORKERS=on process
    logger().info("workers iniciados");
  }
  const logins = await bootstrapAccounts(opts);
  return { logins };
}

/**
 * Graceful stop within `graceMs` (server/index.ts SHUTDOWN_GRACE_MS, 25 s): running ticks get up to
 * `graceMs` − 5 s (they may queue pushes through pg-boss), then pg-boss's running jobs what is left (at
 * least 2 s), then the lock session and the pool close. Returns how many ticks were still running when
 * their share ran out (abandoned: their bots are due again within one interval, ADR 0024).
 */
export async function stopBackground(graceMs = 25_000): Promise<{ ticksLeft: number }> {
  const t0 = Date.now();
  const ticksLeft = await stopTickScheduler(Math.max(1_000, graceMs - 5_000));
  await stopQueue(Math.max(2_000, graceMs - (Date.now() - t0)));
  await closeLockSession();
  await closeDb();
  return { ticksLeft };
}
