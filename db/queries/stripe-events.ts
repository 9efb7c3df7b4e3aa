/**
 * The `stripe_events` table: each Stripe webhook event stored once (Stripe's event id), its processing
 * state (processed_at, attempts, last_error). Its statements live here (issue 23 item 2).
 */
import type { Sql } from "./sql";

/** A received event's columns. */
export interface NewStripeEvent {
  id: string;
  type: string;
  createdAt: Date;
  livemode: boolean;
  customerId: string | null;
  subscriptionId: string | null;
  payload: unknown;
}

/** Stores an event once; false when its id is already stored (`on conflict (id) do nothing`). */
export async function insertStripeEvent(sql: Sql, e: NewStripeEvent): Promise<boolean> {
  const inserted = await sql`
    insert into stripe_events (id, type, stripe_created_at, livemode, customer_id, subscription_id, payload)
    values (${e.id}, ${e.type}, ${e.createdAt}, ${e.livemode}, ${e.customerId}, ${e.subscriptionId},
            ${sql.json(e.payload as never)})
    on conflict (id) do nothing returning id`;
  return inserted.length > 0;
}

/** A stored event's payload and when it was processed (null: not yet); undefined when not stored. */
export async function storedStripeEvent<P>(sql: Sql, eventId: string): Promise<{ payload: P; processed_at: Date | null } | undefined> {
  const [row] = await sql<{ payload: P; processed_at: Date | null }[]>`select payload, processed_at from stripe_events where id = ${eventId}`;
  return row;
}

/** Marks an event processed with one more attempt (an event about no subscription). */
export async function markStripeEventProcessedAttempt(sql: Sql, eventId: string): Promise<void> {
  await sql`update stripe_events set processed_at = now(), attempts = attempts + 1 where id = ${eventId}`;
}

/** Counts one more processing attempt. */
export async function countStripeEventAttempt(sql: Sql, eventId: string): Promise<void> {
  await sql`update stripe_events set attempts = attempts + 1 where id = ${eventId}`;
}

/** Marks an event processed because Stripe no longer knows its subscription. */
export async function markStripeEventSubscriptionGone(sql: Sql, eventId: string): Promise<void> {
  await sql`update stripe_events set processed_at = now(), last_error = 'subscription not found at Stripe' where id = ${eventId}`;
}

/** Marks an event processed without effect, keeping why (`reason`, e.g. its livemode differs from the key in use). */
export async function markStripeEventIgnored(sql: Sql, eventId: string, reason: string): Promise<void> {
  await sql`update stripe_events set processed_at = now(), last_error = ${reason} where id = ${eventId}`;
}

/** Keeps a processing error on the event (the caller cuts it to 500 characters). */
export async function setStripeEventError(sql: Sql, eventId: string, error: string): Promise<void> {
  await sql`update stripe_events set last_error = ${error} where id = ${eventId}`;
}

/** Marks an event processed, clearing its error (in the transaction of its effect). */
export async function markStripeEventProcessed(sql: Sql, eventId: string): Promise<void> {
  await sql`update stripe_events set processed_at = now(), last_error = null where id = ${eventId}`;
}

/** The ids of the events stored over a minute ago and still unprocessed, oldest first. */
export async function pendingStripeEventIds(sql: Sql, limit: number): Promise<{ id: string }[]> {
  return sql<{ id: string }[]>`
    select id from stripe_events where processed_at is null and received_at < now() - interval '1 minute'
    order by received_at limit ${limit}`;
}
