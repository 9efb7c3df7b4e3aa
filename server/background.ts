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
    logger().info("workers iniciados");
  }
  const logins = await bootstrapAccounts(opts);
  return { logins };
}

/** Graceful stop: running ticks finish, then the lock session and the pool close. */
export async function stopBackground(): Promise<void> {
  // Ticks first (they may queue pushes through pg-boss), then pg-boss's running jobs with what is left of
  // 25 s: under server/index.ts's 30 s watchdog.
  const t0 = Date.now();
  await stopTickScheduler(20_000);
  await stopQueue(Math.max(2_000, 25_000 - (Date.now() - t0)));
  await closeLockSession();
  await closeDb();
}
