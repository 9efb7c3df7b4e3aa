/**
 * The workers of this process (`WORKERS=on`): one `work()` per queue with its handler, the
 * per-minute scheduler, and a first scheduler pass at boot so active bots resume at once.
 */
import type PgBoss from "pg-boss";
import { handleEmailSend } from "./email-handler";
import { handleBotTick, handleScheduler } from "./handlers";
import { botSchedulerQueue, botTickQueue, emailSendQueue } from "./queues";

/** Registers the handlers on a started pg-boss and schedules the scheduler. */
export async function startWorkers(boss: PgBoss): Promise<void> {
  await boss.work(botTickQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handleBotTick);
  await boss.work(botSchedulerQueue.name, { pollingIntervalSeconds: 5 }, handleScheduler);
  await boss.work(emailSendQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handleEmailSend);
  await boss.schedule(botSchedulerQueue.name, botSchedulerQueue.cron, {}, { singletonKey: "scheduler" });
  await handleScheduler([]);
}
