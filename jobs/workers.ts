/**
 * The pg-boss workers of this process (`WORKERS=on`): one for each queue and the crons. Bot ticks are
 * not a queue: the tick scheduler (app/services/trading/tick-scheduler.server.ts, ADR 0024) runs them.
 */
import type PgBoss from "pg-boss";
import { backtestJobWorkers, handleBacktestRun } from "./backtest-handler";
import { handleCalendarRefresh } from "./calendar-handler";
import { handleEmailSend } from "./email-handler";
import { handleScheduler } from "./handlers";
import { handlePushNotify, handlePushSend } from "./push-handlers";
import { backtestRunQueue, botSchedulerQueue, calendarRefreshQueue, emailSendQueue, pushNotifyQueue, pushSendQueue, stripeEventQueue, stripePendingQueue, stripeSweepQueue } from "../app/services/platform/queue/queues";
import { handleStripeEvent, handleStripePending, handleStripeSweep } from "./stripe-handlers";

/** Registers the handlers on a started pg-boss and schedules the crons. */
export async function startWorkers(boss: PgBoss): Promise<void> {
  await boss.work(botSchedulerQueue.name, { pollingIntervalSeconds: 5 }, handleScheduler);
  await boss.work(emailSendQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handleEmailSend);
  await boss.work(stripeEventQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handleStripeEvent);
  await boss.work(stripePendingQueue.name, { pollingIntervalSeconds: 30 }, handleStripePending);
  await boss.work(stripeSweepQueue.name, { pollingIntervalSeconds: 60 }, handleStripeSweep);
  // Four delivery workers, one delivery per user at a time in a process (issue 24): a user whose
  // endpoints never answer (3 s timeout each, sent in parallel) holds one of them at most.
  for (let i = 0; i < 4; i++) await boss.work(pushNotifyQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handlePushNotify);
  for (let i = 0; i < 2; i++) await boss.work(pushSendQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handlePushSend);
  await boss.schedule(botSchedulerQueue.name, botSchedulerQueue.cron, {}, { singletonKey: "scheduler" });
  await boss.schedule(stripePendingQueue.name, stripePendingQueue.cron, {}, { singletonKey: "stripe-pending" });
  await boss.schedule(stripeSweepQueue.name, stripeSweepQueue.cron, {}, { singletonKey: "stripe-sweep" });
  await boss.work(calendarRefreshQueue.name, { pollingIntervalSeconds: 5 }, handleCalendarRefresh);
  await boss.schedule(calendarRefreshQueue.name, calendarRefreshQueue.cron, {}, { singletonKey: "calendar-refresh" });
  // BACKTEST_CONCURRENCY runs at a time per process, each computed in a worker thread (issue 24, ADR 0039); the rest wait queued.
  for (let i = 0; i < backtestJobWorkers(); i++) await boss.work(backtestRunQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handleBacktestRun);
  await boss.send(calendarRefreshQueue.name, {}); // once at boot: the bot has its calendar before the first cron
  await handleScheduler([]); // once at boot: intents left unknown by a crash are settled before the first cron
}
