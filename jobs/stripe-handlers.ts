/** Thin pg-boss handlers of the Stripe queues (app/services/platform/queue/queues.ts): parse the payload, call the service. */
import type { Job } from "pg-boss";
import { logger } from "../app/services/platform/logger.server";
import { processPendingEvents, processStripeEvent, sweepSubscriptions } from "../app/services/billing/stripe-events.server";
import { stripeEventQueue } from "../app/services/platform/queue/queues";

/** Applies each job's stored event; a thrown Stripe/database error makes pg-boss retry with backoff. */
export async function handleStripeEvent(jobs: Job<unknown>[]): Promise<void> {
  for (const job of jobs) {
    const { eventId } = stripeEventQueue.payload.parse(job.data);
    await processStripeEvent(eventId);
  }
}

/** Events stored but never processed (a lost job). */
export async function handleStripePending(_jobs: Job<unknown>[]): Promise<void> {
  const n = await processPendingEvents();
  if (n > 0) logger().info({ processed: n }, "eventos Stripe pendentes processados");
}

/** The daily reconciliation of every customer with Stripe. */
export async function handleStripeSweep(_jobs: Job<unknown>[]): Promise<void> {
  const r = await sweepSubscriptions();
  logger().info(r, "sincronização diária das assinaturas");
}
