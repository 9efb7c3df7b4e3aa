/**
 * Web push handlers (issue 11, ADR 0016): `push-notify` picks a notification's devices and queues one
 * `push-send` per device; `push-send` delivers to one device (app/services/notify/push/push.server.ts).
 * A 5xx or network failure throws, so pg-boss retries that device alone with backoff; a 429 queues a
 * fresh attempt after its Retry-After (at most `MAX_RATE_LIMITED_ATTEMPTS`).
 */
import type { Job } from "pg-boss";
import { logger } from "../app/services/platform/logger.server";
import { recipientsOf, sendToSubscription } from "../app/services/notify/push/push.server";
import { pushNotifyQueue, pushSendQueue } from "../app/services/platform/queue/queues";
import { enqueuePushSend } from "../app/services/platform/queue/send";

/** Attempts of one push that a push service may rate-limit (429) before it is given up. */
export const MAX_RATE_LIMITED_ATTEMPTS = 5;

/** Fan-out: one `push-send` job per device of the notification's owner that wants its topic. */
export async function handlePushNotify(jobs: Job<unknown>[]): Promise<void> {
  for (const job of jobs) {
    const { notificationId } = pushNotifyQueue.payload.parse(job.data);
    for (const subscriptionId of await recipientsOf(notificationId)) await enqueuePushSend(notificationId, subscriptionId);
  }
}

/** One push to one device; throws on a retryable failure (pg-boss retries this job only). */
export async function handlePushSend(jobs: Job<unknown>[]): Promise<void> {
  for (const job of jobs) {
    const { notificationId, subscriptionId, attempt } = pushSendQueue.payload.parse(job.data);
    const outcome = await sendToSubscription(notificationId, subscriptionId);
    if (outcome.kind === "later") {
      if (attempt + 1 < MAX_RATE_LIMITED_ATTEMPTS) await enqueuePushSend(notificationId, subscriptionId, attempt + 1, outcome.retryAfterSec);
      else logger().warn({ notificationId, subscriptionId }, "push abandonado após limites de taxa repetidos");
    }
  }
}
