/**
 * Background work of the process (DESIGN.md §1): pg-boss workers for bot ticks, the per-minute
 * scheduler and outgoing e-mail (`email-send`), plus first-boot accounts. `WORKERS=off` makes a web-only process (it still sends jobs).
 */
import { botSchedulerQueue, botTickQueue, emailSendQueue } from "../../jobs/queues";
import { handleEmailSend } from "../../jobs/email-handler";
import { handleBotTick, handleScheduler } from "../../jobs/handlers";
import { bootstrapAccounts } from "./bootstrap.server";
import { config } from "./config.server";
import { closeDb } from "./db.server";
import { logger } from "./logger.server";
import { startQueue, stopQueue } from "./queue.server";

/** Starts the queue (and workers when WORKERS=on) and creates first-boot accounts; returns login lines to print. */
export async function startBackground(opts: { printLogins: boolean }): Promise<{ logins: string[] }> {
  const boss = await startQueue();
  if (config().WORKERS === "on") {
    await boss.work(botTickQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handleBotTick);
    await boss.work(botSchedulerQueue.name, { pollingIntervalSeconds: 5 }, handleScheduler);
    await boss.work(emailSendQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handleEmailSend);
    await boss.schedule(botSchedulerQueue.name, botSchedulerQueue.cron, {}, { singletonKey: "scheduler" });
    await handleScheduler([]);
    logger().info("workers iniciados");
  }
  const logins = await bootstrapAccounts(opts);
  return { logins };
}

/** Graceful stop: running ticks finish, then the pool closes. */
export async function stopBackground(): Promise<void> {
  await stopQueue();
  await closeDb();
}
