/**
 * The send side of the queues (DESIGN.md §2: services import this, never pg-boss itself). Each helper
 * validates its payload with the queue's zod schema and returns null when no queue runs in this
 * process (the caller decides what to do then).
 */
import { queue } from "./boss";
import { botTickQueue, emailSendQueue, stripeEventQueue } from "./queues";

/**
 * Queues a tick for a bot, `delaySeconds` from now. The queue keeps at most one waiting tick per bot
 * (policy `short`, singletonKey = user id): a second one is dropped by pg-boss (null).
 */
export async function enqueueTick(userId: string, delaySeconds = 0): Promise<string | null> {
  const boss = queue();
  if (!boss) return null;
  return boss.send(botTickQueue.name, botTickQueue.payload.parse({ userId }), { singletonKey: userId, startAfter: delaySeconds });
}

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
