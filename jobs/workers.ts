/**
 * The workers of this process (`WORKERS=on`): `TICK_CONCURRENCY` workers for bot ticks, one for each other queue, the
 * per-minute scheduler, and a first scheduler pass at boot so active bots resume at once.
 */
import type PgBoss from "pg-boss";
import { handleBacktestRun } from "./backtest-handler";
import { handleCalendarRefresh } from "./calendar-handler";
import { handleEmailSend } from "./email-handler";
import { handleBotTick, handleScheduler } from "./handlers";
import { handlePushNotify, handlePushSend } from "./push-handlers";
import { backtestRunQueue, botSchedulerQueue, botTickQueue, calendarRefreshQueue, emailSendQueue, pushNotifyQueue, pushSendQueue, stripeEventQueue, stripePendingQueue, stripeSweepQueue } from "./queues";
import { handleStripeEvent, handleStripePending, handleStripeSweep } from "./stripe-handlers";

/** What the workers of this process may do at once. */
export interface WorkerOptions {
  /** Bot ticks run at once (config `TICK_CONCURRENCY`): that many independent one-job workers. */
  tickConcurrency: number;
}

/**
 * Registers the handlers on a started pg-boss and schedules the scheduler. Bot ticks get
 * `tickConcurrency` workers of one job each (pg-boss 10 runs a worker's batches one after the other):
 * a tick waiting on a slow broker holds its own worker only, never the other bots' ticks.
 */
export async function startWorkers(boss: PgBoss, opts: WorkerOptions): Promise<void> {
  for (let i = 0; i < opts.tickConcurrency; i++) await boss.work(botTickQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handleBotTick);
  await boss.work(botSchedulerQueue.name, { pollingIntervalSeconds: 5 }, handleScheduler);
  await boss.work(emailSendQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handleEmailSend);
  await boss.work(stripeEventQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handleStripeEvent);
  await boss.work(stripePendingQueue.name, { pollingIntervalSeconds: 30 }, handleStripePending);
  await boss.work(stripeSweepQueue.name, { pollingIntervalSeconds: 60 }, handleStripeSweep);
  await boss.work(pushNotifyQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handlePushNotify);
  // Two push-send workers: a device whose push service hangs (10 s timeout) does not hold the others'.
  for (let i = 0; i < 2; i++) await boss.work(pushSendQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handlePushSend);
  await boss.schedule(botSchedulerQueue.name, botSchedulerQueue.cron, {}, { singletonKey: "scheduler" });
  await boss.schedule(stripePendingQueue.name, stripePendingQueue.cron, {}, { singletonKey: "stripe-pending" });
  await boss.schedule(stripeSweepQueue.name, stripeSweepQueue.cron, {}, { singletonKey: "stripe-sweep" });
  await boss.work(calendarRefreshQueue.name, { pollingIntervalSeconds: 5 }, handleCalendarRefresh);
  await boss.schedule(calendarRefreshQueue.name, calendarRefreshQueue.cron, {}, { singletonKey: "calendar-refresh" });
  // One backtest at a time per process: a run is CPU-bound and shares the process with the web and the ticks.
  await boss.work(backtestRunQueue.name, { batchSize: 1, pollingIntervalSeconds: 1 }, handleBacktestRun);
  await boss.send(calendarRefreshQueue.name, {}); // once at boot: the bot has its calendar before the first cron
  await handleScheduler([]);
}
