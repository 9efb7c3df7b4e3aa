/**
 * The `push_subscriptions` table (migration 0014): one row per browser subscribed to web push (the
 * endpoint is unique: one browser profile, one user), with its keys, topics (null: all), what the
 * device told about itself (`client`, jsonb) and the delivery's success/failure marks. Its statements
 * live here (issue 23 item 2); every read and delete goes through the owner (`user_id`).
 */
import type { Sql } from "./sql";

/** A device's subscription as the browser serialises it (endpoint and keys). */
export interface SubscriptionKeys {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * Stores (or refreshes) a device of the user. Answers the subscription id, or null when the endpoint
 * is another user's (left untouched: an endpoint never moves between users, issue 24).
 */
export async function upsertSubscription(sql: Sql, userId: string, s: SubscriptionKeys, topics: string[] | null, client: Record<string, unknown>): Promise<string | null> {
  const [row] = await sql<{ id: string }[]>`insert into push_subscriptions (user_id, endpoint, p256dh, auth, topics, client)
      values (${userId}, ${s.endpoint}, ${s.p256dh}, ${s.auth}, ${topics}, ${sql.json(client as never)})
      on conflict (endpoint) do update set p256dh = excluded.p256dh, auth = excluded.auth,
        topics = excluded.topics, client = excluded.client, updated_at = now(), failure_count = 0
      where push_subscriptions.user_id = excluded.user_id
      returning id`;
  return row?.id ?? null;
}

/** Deletes the user's subscriptions beyond the `keep` most recently updated. */
export async function trimSubscriptions(sql: Sql, userId: string, keep: number): Promise<void> {
  await sql`delete from push_subscriptions where user_id = ${userId} and id in (
      select id from push_subscriptions where user_id = ${userId} order by updated_at desc, created_at desc offset ${keep})`;
}

/** Deletes one of the user's devices by endpoint; false when it is not theirs (or unknown). */
export async function deleteSubscriptionByEndpoint(sql: Sql, userId: string, endpoint: string): Promise<boolean> {
  const rows = await sql`delete from push_subscriptions where user_id = ${userId} and endpoint = ${endpoint} returning id`;
  return rows.length > 0;
}

/** How many devices the user has subscribed. */
export async function countSubscriptions(sql: Sql, userId: string): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from push_subscriptions where user_id = ${userId}`;
  return row?.n ?? 0;
}

/** The ids of the user's subscriptions that take `topic` (null topic: all of them), oldest first. */
export async function subscriptionIdsForTopic(sql: Sql, userId: string, topic: string | null): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`select id from push_subscriptions where user_id = ${userId}
    and (${topic}::text is null or topics is null or ${topic}::text = any(topics)) order by created_at`;
  return rows.map((r) => r.id);
}

/** One of the user's subscriptions with its keys (undefined when not theirs, or gone). */
export async function subscriptionById(sql: Sql, userId: string, subscriptionId: string) {
  const [sub] = await sql<({ id: string } & SubscriptionKeys)[]>`select id, endpoint, p256dh, auth
    from push_subscriptions where id = ${subscriptionId} and user_id = ${userId}`;
  return sub;
}

/** Deletes one of the user's subscriptions (the push service answered it is gone). */
export async function deleteSubscription(sql: Sql, userId: string, subscriptionId: string): Promise<void> {
  await sql`delete from push_subscriptions where id = ${subscriptionId} and user_id = ${userId}`;
}

/** Counts a failed push on one of the user's subscriptions (`status` 0/absent: none, a network error). */
export async function recordSubscriptionFailure(sql: Sql, userId: string, subscriptionId: string, status: number): Promise<void> {
  await sql`update push_subscriptions set failure_count = failure_count + 1, last_failure_at = now(), last_failure_status = ${status || null}
      where id = ${subscriptionId} and user_id = ${userId}`;
}

/** Marks a push delivered on one of the user's subscriptions (failures reset). */
export async function recordSubscriptionSuccess(sql: Sql, userId: string, subscriptionId: string): Promise<void> {
  await sql`update push_subscriptions set last_success_at = now(), failure_count = 0 where id = ${subscriptionId} and user_id = ${userId}`;
}
