/**
 * Web push (issue 11; PRODUCT.md §3 Push subscription, §7 "Push", §8; DESIGN.md §3.6; ADR 0016):
 * the browsers' subscriptions, the user's topic switches, the delivery of a stored notification to
 * each of the user's devices, and the signing of the one-tap actions' tokens.
 *
 * - Subscriptions are always read and removed through their owner; an endpoint already stored for
 *   another user is refused (409): knowing a device's endpoint must not move its pushes to oneself
 *   (issue 24). The owner unsubscribes first, or the browser makes a fresh endpoint (app/lib/push-client.ts).
 * - Delivery (jobs/push-handlers.ts) is one job per notification, i.e. per user: the user's devices are
 *   sent in parallel (`PUSH_PARALLEL_PER_USER`, each request bounded by `PUSH_TIMEOUT_MS`), and a
 *   process runs one delivery per user at a time (`deliverNotification` answers "busy" otherwise), so
 *   one user's unanswering endpoints cannot hold the workers other users' pushes need (issue 24).
 *   201 → sent; 404/410 → the subscription is gone and deleted; 429 → later, after `Retry-After`;
 *   5xx or a network error → retried later for that device only; other 4xx → counted, dropped.
 * - Payload (app/lib/push.ts) in the user's language (users.preferences.language), with a deep link
 *   and, for trades and risk alerts, "Pausar IA"/"Fechar tudo" with signed single-use tokens (run by
 *   app/services/trading/push-action.server.ts).
 */
import webpush, { WebPushError } from "web-push";
import { z } from "zod";
import { msg, type Msg } from "../../../../core/i18n/message";
import { zMsg } from "../../../../core/i18n/zod-message";
import { notificationWithOwner, type NotificationDeliveryRow } from "../../../../db/queries/notifications";
import { mergePreferences, pushTopicsPreference } from "../../../../db/queries/users";
import {
  countSubscriptions,
  deleteSubscription,
  deleteSubscriptionByEndpoint,
  recordSubscriptionFailure,
  recordSubscriptionSuccess,
  subscriptionById,
  subscriptionIdsForTopic,
  trimSubscriptions,
  upsertSubscription,
} from "../../../../db/queries/push-subscriptions";
import { translateMsg } from "~/i18n";
import { buildPushPayload, enabledTopics, isAllowedPushEndpoint, offersActions, PUSH_ACTIONS, PUSH_TOPICS, topicOf, type PushAction, type PushSource, type PushTopic } from "~/lib/push";
import { config } from "../../platform/config.server";
import { db } from "../../platform/db.server";
import { ConflictError, ValidationError } from "../../platform/errors.server";
import { logger } from "../../platform/logger.server";
import { metrics } from "../../platform/metrics.server";
import { actionKey, signActionToken } from "./action-token";
import { vapidKeys } from "./vapid.server";

/** Most devices kept per user: subscribing one more drops the least recently updated. */
export const MAX_SUBSCRIPTIONS_PER_USER = 20;
/** How long a push service keeps an undelivered push (seconds). */
export const PUSH_TTL_SEC = 12 * 3600;
/**
 * Timeout of one request to a push service (ms; web-push's `timeout`, the socket's idle time, so it
 * bounds the connect and TLS handshake too). The browsers' push services answer in well under a
 * second; a host that accepts and never answers costs this much, once per device and attempt.
 */
export const PUSH_TIMEOUT_MS = 3_000;
/** Devices of one user sent at once: a notification to `MAX_SUBSCRIPTIONS_PER_USER` devices takes at most two timeouts. */
export const PUSH_PARALLEL_PER_USER = 10;

// ---- subscriptions ------------------------------------------------------------------------------

/** base64url bytes of a given length (the browser's p256dh: 65-byte uncompressed P-256 point; auth: 16 bytes). */
const b64urlBytes = (len: number, message: string) =>
  z
    .string({ error: message })
    .max(200, message)
    .refine((v) => /^[A-Za-z0-9_-]+={0,2}$/.test(v) && Buffer.from(v, "base64url").length === len, { message });

/** A PushSubscription as the browser serialises it (`subscription.toJSON()`). */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .string({ error: zMsg("push:invalidSubscription") })
    .max(2048, zMsg("push:invalidSubscription"))
    .refine((v) => {
      try {
        return new URL(v).protocol === "https:";
      } catch {
        return false;
      }
    }, { message: zMsg("push:invalidSubscription") }),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    { p256dh: b64urlBytes(65, zMsg("push:invalidSubscription")), auth: b64urlBytes(16, zMsg("push:invalidSubscription")) },
    { error: zMsg("push:invalidSubscription") },
  ),
});

/** What a device tells about itself (PRODUCT.md §3 Push subscription). */
const clientSchema = z
  .object({
    userAgent: z.string().max(500).optional(),
    language: z.string().max(35).optional(),
    timezone: z.string().max(64).optional(),
    platform: z.string().max(100).optional(),
    appVersion: z.string().max(100).optional(),
  })
  .partial();

/** Body of POST /api/push/subscribe: `{subscription, topics?, client?}`, or the bare subscription (§7: the client's retry). */
export const subscribeSchema = z.union([
  z.object({
    subscription: pushSubscriptionSchema,
    topics: z.array(z.enum(PUSH_TOPICS, { error: zMsg("push:invalidTopics") })).max(PUSH_TOPICS.length).optional(),
    client: clientSchema.optional().catch({}),
  }),
  pushSubscriptionSchema.transform((subscription) => ({ subscription, topics: undefined, client: {} })),
], { error: zMsg("push:invalidSubscription") });
export type SubscribeInput = z.infer<typeof subscribeSchema>;

/** Body of POST /api/push/unsubscribe. */
export const unsubscribeSchema = z.object({ endpoint: z.string({ error: zMsg("push:endpointRequired") }).min(1, zMsg("push:endpointRequired")).max(2048) });

/**
 * Stores (or refreshes) a device of the user. Keeps at most `MAX_SUBSCRIPTIONS_PER_USER` per user.
 * @returns the subscription id
 * @throws ConflictError (409) when the endpoint is another user's device (it stays with its owner:
 *   whoever learns an endpoint could otherwise take that device's pushes, issue 24)
 */
export async function saveSubscription(userId: string, input: SubscribeInput): Promise<string> {
  const s = input.subscription;
  const topics = input.topics ? [...new Set(input.topics)] : null;
  return db().begin(async (tx) => {
    const id = await upsertSubscription(tx, userId, { endpoint: s.endpoint, p256dh: s.keys.p256dh, auth: s.keys.auth }, topics, input.client ?? {});
    if (!id) throw new ConflictError(msg("push:endpointTaken"));
    await trimSubscriptions(tx, userId, MAX_SUBSCRIPTIONS_PER_USER);
    return id;
  });
}

/** Removes one of the user's devices by endpoint; false when it is not theirs (or unknown). */
export async function removeSubscription(userId: string, endpoint: string): Promise<boolean> {
  return deleteSubscriptionByEndpoint(db(), userId, endpoint);
}

/** How many devices the user has subscribed. */
export async function subscriptionCount(userId: string): Promise<number> {
  return countSubscriptions(db(), userId);
}

// ---- topic switches -----------------------------------------------------------------------------

/** The user's topic switches (users.preferences.pushTopics; every topic on by default). */
export async function getPushTopics(userId: string): Promise<PushTopic[]> {
  return enabledTopics((await pushTopicsPreference(db(), userId)) ?? null);
}

/** Body of the topic switches (settings form, or JSON): the topics that stay on. */
export const topicsSchema = z.array(z.enum(PUSH_TOPICS, { error: zMsg("push:invalidTopics") })).max(PUSH_TOPICS.length);

/**
 * Saves which topics the user receives on every device (the other preferences untouched).
 * @throws ValidationError for an unknown topic
 */
export async function savePushTopics(userId: string, topics: unknown): Promise<PushTopic[]> {
  const parsed = topicsSchema.safeParse(topics);
  if (!parsed.success) throw new ValidationError(msg("push:invalidTopics"));
  const list = PUSH_TOPICS.filter((t) => parsed.data.includes(t));
  await mergePreferences(db(), userId, { pushTopics: list });
  return list;
}

// ---- delivery -----------------------------------------------------------------------------------

/** A stored notification to push, with its owner's preferences (db/queries/notifications.ts). */
type DeliveryRow = NotificationDeliveryRow & PushSource;

/** A stored notification with its owner's preferences; null when gone or the owner is deleted. */
async function deliverySource(notificationId: string): Promise<DeliveryRow | null> {
  const row = await notificationWithOwner(db(), notificationId);
  return row && !row.deleted_at ? row : null;
}

/**
 * The devices a notification goes to: the owner's subscriptions whose topics include the
 * notification's and whose owner has that topic on (a null topic — test, action confirmation —
 * goes to every device). Empty when all are switched off.
 */
async function recipientsOfRow(n: DeliveryRow): Promise<string[]> {
  const topic = topicOf(n);
  if (topic && !enabledTopics(n.preferences?.pushTopics ?? null).includes(topic)) return [];
  return subscriptionIdsForTopic(db(), n.user_id, topic);
}

/** What became of one push. `retryAfterSec`: the push service asked to wait (429); busy: the user's delivery already runs here. */
export type SendOutcome =
  | { kind: "sent" }
  | { kind: "gone" }
  | { kind: "dropped"; status: number }
  | { kind: "skipped" }
  | { kind: "later"; retryAfterSec: number }
  | { kind: "busy" };

/** Users whose pushes this process is sending now (one delivery per user at a time: the fairness rule). */
const usersSending = new Set<string>();

/** Runs `fn` holding the user's delivery slot of this process; "busy" when another delivery of theirs runs. */
async function withUserSlot<T>(userId: string, fn: () => Promise<T>): Promise<T | "busy"> {
  if (usersSending.has(userId)) return "busy";
  usersSending.add(userId);
  try {
    return await fn();
  } finally {
    usersSending.delete(userId);
  }
}

/** Runs `fn` over `items`, at most `limit` at once. */
async function inParallel<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** What one delivery of a notification left to do: devices to try again (5xx, network) and rate-limited ones (429). */
export type DeliveryResult =
  | { kind: "busy" }
  | { kind: "done"; sent: number; retry: string[]; later: { subscriptionId: string; retryAfterSec: number }[] };

/**
 * Delivers a notification to its owner's devices (`only`: a retry's subset of them), in parallel
 * (`PUSH_PARALLEL_PER_USER` at once, each bounded by `PUSH_TIMEOUT_MS`). One delivery per user runs
 * in this process at a time: a second one answers "busy" at once without sending (the job is queued
 * again a moment later), so a user with many unanswering devices holds one worker at most (issue 24).
 * Failures of one device never touch the others; they are returned for the caller to queue.
 */
export async function deliverNotification(notificationId: string, only?: readonly string[]): Promise<DeliveryResult> {
  const n = await deliverySource(notificationId);
  if (!n) return { kind: "done", sent: 0, retry: [], later: [] };
  const outcome = await withUserSlot(n.user_id, async () => {
    let ids = await recipientsOfRow(n);
    if (only) ids = ids.filter((id) => only.includes(id));
    const result = { kind: "done" as const, sent: 0, retry: [] as string[], later: [] as { subscriptionId: string; retryAfterSec: number }[] };
    await inParallel(ids, PUSH_PARALLEL_PER_USER, async (subscriptionId) => {
      try {
        const o = await sendOne(n, subscriptionId);
        if (o.kind === "sent") result.sent++;
        else if (o.kind === "later") result.later.push({ subscriptionId, retryAfterSec: o.retryAfterSec });
      } catch (err) {
        if (!(err instanceof PushRetryableError)) logger().warn({ notificationId, subscriptionId, err: (err as Error).message }, "falha ao enviar push");
        result.retry.push(subscriptionId);
      }
    });
    return result;
  });
  return outcome === "busy" ? { kind: "busy" } : outcome;
}

/** An error the job retries (5xx, network): pg-boss backs off. */
export class PushRetryableError extends Error {}

/** Seconds of a Retry-After header (seconds or an HTTP date), clamped to 1 s – 1 h; 60 when absent. */
export function retryAfterSeconds(value: string | undefined, nowMs: number): number {
  if (!value) return 60;
  const secs = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Math.ceil((Date.parse(value) - nowMs) / 1000);
  return Number.isFinite(secs) ? Math.min(3600, Math.max(1, secs)) : 60;
}

/** The labels of the action buttons and the service worker's result texts in a language. */
function actionTexts(language: unknown) {
  return {
    labels: {
      stop_entries: translateMsg(msg("kill-switch:push.stopEntries"), language),
      pause: translateMsg(msg("push:action.pause"), language),
      close_all: translateMsg(msg("push:action.closeAll"), language),
    } as Record<PushAction, string>,
    texts: { done: translateMsg(msg("push:action.done"), language), failed: translateMsg(msg("push:action.failed"), language) },
  };
}

/** The key action tokens are signed and checked with, derived from the server secret (SESSION_SECRET). @throws Error when the secret is missing. */
export function pushActionKey(): Buffer {
  const secret = config().SESSION_SECRET;
  if (!secret) throw new Error("SESSION_SECRET ausente: tokens de ação indisponíveis");
  return actionKey(secret);
}

/**
 * Sends one notification to one device (read through the notification's owner), holding the user's
 * delivery slot like `deliverNotification` ("busy" when it is taken). Tokens for the one-tap actions
 * are signed per push (15 min, single use).
 * @throws PushRetryableError on 5xx or a network failure (the job retries)
 */
export async function sendToSubscription(notificationId: string, subscriptionId: string): Promise<SendOutcome> {
  const n = await deliverySource(notificationId);
  if (!n) return { kind: "skipped" };
  const outcome = await withUserSlot(n.user_id, () => sendOne(n, subscriptionId));
  return outcome === "busy" ? { kind: "busy" } : outcome;
}

/** One push of a notification to one of its owner's devices. @throws PushRetryableError on 5xx or a network failure */
async function sendOne(n: DeliveryRow, subscriptionId: string): Promise<SendOutcome> {
  const sub = await subscriptionById(db(), n.user_id, subscriptionId);
  if (!sub) return { kind: "skipped" };
  // Stored before the port rule (issue 24), or PUSH_SERVICE_HOSTS changed since: never sent, kept for the operator to see.
  if (!isAllowedPushEndpoint(sub.endpoint, config().PUSH_SERVICE_HOSTS)) {
    logger().warn({ subscriptionId: sub.id }, "inscrição push fora dos serviços permitidos: não enviada");
    return { kind: "dropped", status: 0 };
  }
  const language = n.preferences?.language ?? "pt";
  const topic = topicOf(n);
  const now = Date.now();
  const tokens: Partial<Record<PushAction, string>> = {};
  if (offersActions(topic)) for (const a of PUSH_ACTIONS) tokens[a] = signActionToken(pushActionKey(), n.user_id, a, now);
  const { labels, texts } = actionTexts(language);
  const payload = buildPushPayload({
    notificationId: n.id,
    type: n.type,
    topic,
    title: n.title_msg ? translateMsg(n.title_msg as Msg, language) : n.title,
    body: n.message_msg ? translateMsg(n.message_msg as Msg, language) : n.message,
    actionLabels: labels,
    tokens,
    texts,
    timestamp: n.created_at.getTime(),
  });
  const keys = await vapidKeys();
  try {
    await webpush.sendNotification({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, JSON.stringify(payload), {
      vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: PUSH_TTL_SEC,
      urgency: topic === "trades" || topic === "risk" ? "high" : "normal",
      timeout: PUSH_TIMEOUT_MS,
    });
  } catch (err) {
    const status = err instanceof WebPushError ? err.statusCode : 0;
    if (status === 404 || status === 410) {
      await deleteSubscription(db(), n.user_id, sub.id);
      logger().info({ subscriptionId: sub.id, status }, "inscrição push expirada: removida");
      metrics().pushesExpired.inc();
      return { kind: "gone" };
    }
    await recordSubscriptionFailure(db(), n.user_id, sub.id, status);
    if (status === 429) {
      metrics().pushesFailed.inc({ reason: "rate_limited" });
      const headers = err instanceof WebPushError ? (err.headers as Record<string, string | undefined>) : {};
      return { kind: "later", retryAfterSec: retryAfterSeconds(headers["retry-after"], Date.now()) };
    }
    if (status === 0 || status >= 500) metrics().pushesFailed.inc({ reason: "retryable" });
    if (status === 0 || status >= 500) throw new PushRetryableError(`serviço push respondeu ${status || (err as Error).message}`);
    logger().warn({ subscriptionId: sub.id, status, body: err instanceof WebPushError ? err.body?.slice(0, 200) : undefined }, "push recusado");
    metrics().pushesFailed.inc({ reason: "rejected" });
    return { kind: "dropped", status };
  }
  await recordSubscriptionSuccess(db(), n.user_id, sub.id);
  metrics().pushesSent.inc();
  return { kind: "sent" };
}
