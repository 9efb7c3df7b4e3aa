/**
 * Web push (issue 11; PRODUCT.md §3 Push subscription, §7 "Push", §8; DESIGN.md §3.6; ADR 0016):
 * the browsers' subscriptions, the user's topic switches, the delivery of a stored notification to
 * each of the user's devices, and the signing of the one-tap actions' tokens.
 *
 * - Subscriptions are always read and removed through their owner; an endpoint subscribed again by
 *   another user moves to that user (the endpoint is unique: one browser profile, one user).
 * - Delivery is per subscription (jobs/push-handlers.ts): one device failing never blocks the others.
 *   201 → sent; 404/410 → the subscription is gone and deleted; 429 → later, after `Retry-After`;
 *   5xx or a network error → thrown, pg-boss retries with backoff; other 4xx → counted, dropped.
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
import { buildPushPayload, enabledTopics, offersActions, PUSH_ACTIONS, PUSH_TOPICS, topicOf, type PushAction, type PushSource, type PushTopic } from "~/lib/push";
import { config } from "../../platform/config.server";
import { db } from "../../platform/db.server";
import { ValidationError } from "../../platform/errors.server";
import { logger } from "../../platform/logger.server";
import { metrics } from "../../platform/metrics.server";
import { actionKey, signActionToken } from "./action-token";
import { vapidKeys } from "./vapid.server";

/** Most devices kept per user: subscribing one more drops the least recently updated. */
export const MAX_SUBSCRIPTIONS_PER_USER = 20;
/** How long a push service keeps an undelivered push (seconds). */
export const PUSH_TTL_SEC = 12 * 3600;
/** Timeout of one request to a push service (ms). */
const PUSH_TIMEOUT_MS = 10_000;

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
 * Stores (or refreshes) a device of the user. An endpoint already stored for another user moves to
 * this one. Keeps at most `MAX_SUBSCRIPTIONS_PER_USER` per user.
 * @returns the subscription id
 */
export async function saveSubscription(userId: string, input: SubscribeInput): Promise<string> {
  const s = input.subscription;
  const topics = input.topics ? [...new Set(input.topics)] : null;
  return db().begin(async (tx) => {
    const id = await upsertSubscription(tx, userId, { endpoint: s.endpoint, p256dh: s.keys.p256dh, auth: s.keys.auth }, topics, input.client ?? {});
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
 * goes to every device).
 * @returns subscription ids (empty when the notification or its owner is gone, or all switched off)
 */
export async function recipientsOf(notificationId: string): Promise<string[]> {
  const n = await deliverySource(notificationId);
  if (!n) return [];
  const topic = topicOf(n);
  if (topic && !enabledTopics(n.preferences?.pushTopics ?? null).includes(topic)) return [];
  return subscriptionIdsForTopic(db(), n.user_id, topic);
}

/** What became of one push. `retryAfterSec`: the push service asked to wait (429). */
export type SendOutcome = { kind: "sent" } | { kind: "gone" } | { kind: "dropped"; status: number } | { kind: "skipped" } | { kind: "later"; retryAfterSec: number };

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
 * Sends one notification to one device (read through the notification's owner). Tokens for the
 * one-tap actions are signed per push (15 min, single use).
 * @throws PushRetryableError on 5xx or a network failure (the job retries)
 */
export async function sendToSubscription(notificationId: string, subscriptionId: string): Promise<SendOutcome> {
  const n = await deliverySource(notificationId);
  if (!n) return { kind: "skipped" };
  const sub = await subscriptionById(db(), n.user_id, subscriptionId);
  if (!sub) return { kind: "skipped" };
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
