/**
 * The send side of the queues (DESIGN.md §2: services import this, never pg-boss itself). Each helper
 * validates its payload with the queue's zod schema and returns null when no queue runs in this
 * process (the caller decides what to do then).
 */
import type postgres from "postgres";
import { queue } from "./boss";
import { backtestRunQueue, emailSendQueue, pushNotifyQueue, pushSendQueue, stripeEventQueue } from "./queues";

/** Queues the delivery of an `email_outbox` row; null when no queue runs in this process. */
export async function enqueueEmail(outboxId: string): Promise<string | null> {
  const boss = queue();
  if (!boss) return null;
  return boss.send(emailSendQueue.name, emailSendQueue.payload.parse({ outboxId }));
}

/** Queues the processing of a stored Stripe event (one job per event id); null when no queue runs in this process. */
export async function enqueueStripeEvent(eventId: string): Promise<string | null> {
  const boss = queue();
  if (!boss) return null;
  return boss.send(stripeEventQueue.name, stripeEventQueue.payload.parse({ eventId }), { singletonKey: eventId });
}

/**
 * Queues the web push of stored notifications inside the caller's transaction (pg-boss `db` option):
 * the jobs commit or roll back with the rows (ADR 0016). Returns how many were queued (0 when no
 * queue runs in this process: no push then).
 */
export async function enqueuePushNotify(tx: postgres.TransactionSql, notificationIds: readonly string[]): Promise<number> {
  const boss = queue();
  if (!boss || notificationIds.length === 0) return 0;
  const executeSql = async (text: string, values: unknown[] = []) => {
    // postgres.js refuses undefined (node-postgres, pg-boss's own driver, binds it as null); it
    // serialises the job's data itself from the statement's jsonb parameter type.
    const params = values.map((v) => (v === undefined ? null : v));
    return { rows: await tx.unsafe(text, params as never[]) };
  };
  for (const notificationId of notificationIds)
    await boss.send(pushNotifyQueue.name, pushNotifyQueue.payload.parse({ notificationId }), { singletonKey: notificationId, db: { executeSql } });
  return notificationIds.length;
}

/**
 * Queues a notification's delivery again `delaySeconds` from now: to the devices in
 * `subscriptionIds` (a retry, `attempt` counting them) or to every device (a delivery deferred
 * because the user's previous one still runs). Null when no queue runs here.
 */
export async function enqueuePushNotifyLater(notificationId: string, delaySeconds: number, subscriptionIds?: readonly string[], attempt = 0): Promise<string | null> {
  const boss = queue();
  if (!boss) return null;
  const data = pushNotifyQueue.payload.parse({ notificationId, attempt, ...(subscriptionIds ? { subscriptionIds: [...subscriptionIds] } : {}) });
  return boss.send(pushNotifyQueue.name, data, { startAfter: delaySeconds });
}

/** Queues one push to one device, `delaySeconds` from now (a 429's Retry-After); null when no queue runs here. */
export async function enqueuePushSend(notificationId: string, subscriptionId: string, attempt = 0, delaySeconds = 0): Promise<string | null> {
  const boss = queue();
  if (!boss) return null;
  const data = pushSendQueue.payload.parse({ notificationId, subscriptionId, attempt });
  return boss.send(pushSendQueue.name, data, { singletonKey: `${notificationId}:${subscriptionId}:${attempt}`, startAfter: delaySeconds });
}

/** Queues a user's backtest run (a `backtest_runs` row); null when no queue runs in this process. */
export async function enqueueBacktestRun(runId: string): Promise<string | null> {
  const boss = queue();
  if (!boss) return null;
  return boss.send(backtestRunQueue.name, backtestRunQueue.payload.parse({ runId }), { singletonKey: runId });
}
