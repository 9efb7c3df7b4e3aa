/**
 * Web push handlers (issue 11, ADR 0016; fairness of issue 24): `push-notify` delivers a
 * notification to its owner's devices in parallel (app/services/notify/push/push.server.ts
 * `deliverNotification`); the devices that failed with a 5xx or a network error are tried again by
 * one later `push-notify` job with backoff (at most `MAX_RETRY_ATTEMPTS`), a 429 queues that device's
 * own `push-send` after its Retry-After (at most `MAX_RATE_LIMITED_ATTEMPTS`). A delivery for a user
 * whose previous one still runs in this process is queued again `BUSY_DELAY_SEC` later instead of
 * waiting on a worker: one user's unanswering endpoints hold one worker at most.
 */
import type { Job } from "pg-boss";
import { logger } from "../app/services/platform/logger.server";
import { deliverNotification, sendToSubscription } from "../app/services/notify/push/push.server";
import { pushNotifyQueue, pushSendQueue } from "../app/services/platform/queue/queues";
import { enqueuePushNotifyLater, enqueuePushSend } from "../app/services/platform/queue/send";

/** Attempts of one push that a push service may rate-limit (429) before it is given up. */
export const MAX_RATE_LIMITED_ATTEMPTS = 5;
/** Later tries of the devices that failed (5xx, network) before the push is given up. */
export const MAX_RETRY_ATTEMPTS = 5;
/** Seconds before a retry: 3, 6, 12, 24, 48 (backoff). */
export const retryDelaySec = (attempt: number) => 3 * 2 ** attempt;
/** Seconds before a delivery deferred because the user's previous one still runs here. */
export const BUSY_DELAY_SEC = 1;

/** One notification to its owner's devices; the failures are queued as later jobs (never thrown: the sent devices are not sent again). */
export async function handlePushNotify(jobs: Job<unknown>[]): Promise<void> {
  for (const job of jobs) {
    const { notificationId, subscriptionIds, attempt } = pushNotifyQueue.payload.parse(job.data);
    const result = await deliverNotification(notificationId, subscriptionIds);
    if (result.kind === "busy") {
      await enqueuePushNotifyLater(notificationId, BUSY_DELAY_SEC, subscriptionIds, attempt);
      continue;
    }
    for (const l of result.later) await enqueuePushSend(notificationId, l.subscriptionId, 1, l.retryAfterSec);
    if (result.retry.length === 0) continue;
    if (attempt < MAX_RETRY_ATTEMPTS) await enqueuePushNotifyLater(notificationId, retryDelaySec(attempt), result.retry, attempt + 1);
    else logger().warn({ notificationId, devices: result.retry.length }, "push abandonado após falhas repetidas do serviço de push");
  }
}

/** One push to one device (after a 429); throws on a retryable failure (pg-boss retries this job only). */
export async function handlePushSend(jobs: Job<unknown>[]): Promise<void> {
  for (const job of jobs) {
    const { notificationId, subscriptionId, attempt } = pushSendQueue.payload.parse(job.data);
    const outcome = await sendToSubscription(notificationId, subscriptionId);
    if (outcome.kind === "busy") await enqueuePushSend(notificationId, subscriptionId, attempt, BUSY_DELAY_SEC);
    else if (outcome.kind === "later") {
      if (attempt + 1 < MAX_RATE_LIMITED_ATTEMPTS) await enqueuePushSend(notificationId, subscriptionId, attempt + 1, outcome.retryAfterSec);
      else logger().warn({ notificationId, subscriptionId }, "push abandonado após limites de taxa repetidos");
    }
  }
}
