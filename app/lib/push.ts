/**
 * Web push, the pure parts (issue 11; PRODUCT.md §2 settings push card, §7 "Push"): the topics a user
 * switches in /settings, the topic of a stored notification, the one-tap actions, and the payload the
 * service worker (app/pwa/service-worker.js) shows. No I/O: safe on server and client, unit-tested.
 */
import { isMsg } from "../../core/i18n/message";

/** The topics of the settings push card (PRODUCT.md §2): trades, AI decisions/timeframe, risk alerts, system status. */
export const PUSH_TOPICS = ["trades", "ai", "risk", "system"] as const;
export type PushTopic = (typeof PUSH_TOPICS)[number];

/**
 * The one-tap actions of a trade or risk push, the kill switch's levels mildest first (issue 22):
 * "Parar entradas", "Pausar IA", "Fechar tudo". A browser with fewer buttons (Notification.maxActions)
 * shows the strongest ones (app/pwa/service-worker.js).
 */
export const PUSH_ACTIONS = ["stop_entries", "pause", "close_all"] as const;
export type PushAction = (typeof PUSH_ACTIONS)[number];

/**
 * The browsers' push services (host, or parent domain of the host): Chrome/Edge/Opera (FCM), Firefox
 * (Mozilla autopush), Edge on Windows (WNS), Safari (Apple). A subscription endpoint elsewhere would
 * let a user aim the server's signed POSTs at any host, so it is refused (ADR 0016).
 */
export const KNOWN_PUSH_SERVICES = ["fcm.googleapis.com", "android.googleapis.com", "push.services.mozilla.com", "notify.windows.com", "push.apple.com"] as const;

/**
 * True when a subscription endpoint is a push service's own address: https, no credentials in the
 * URL, and either a known push service (or a bare entry of `extraHosts`: exact name or parent domain)
 * on the default port 443, or exactly a `host:port` entry of `extraHosts` (a self-hosted push service,
 * the tests' local one). Any other port is refused: the server would otherwise POST to whatever
 * port of a public host a user names (issue 24, "only the push service's own port").
 */
export function isAllowedPushEndpoint(endpoint: string, extraHosts: readonly string[] = []): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== "https:" || url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  const withPort = (h: string) => /:\d+$/.test(h) && !h.endsWith("]");
  if (url.port) return extraHosts.some((h) => withPort(h) && h.toLowerCase() === `${host}:${url.port}`);
  return [...KNOWN_PUSH_SERVICES, ...extraHosts.filter((h) => !withPort(h))].some((h) => host === h || host.endsWith(`.${h}`));
}

/** The largest payload we send, in bytes of JSON: push services refuse about 4 KB once encrypted (STACK.md). */
export const MAX_PAYLOAD_BYTES = 3600;

/** The topics a user has on: every topic unless the stored list says otherwise (unknown names dropped). */
export function enabledTopics(stored: unknown): PushTopic[] {
  if (!Array.isArray(stored)) return [...PUSH_TOPICS];
  return PUSH_TOPICS.filter((t) => stored.includes(t));
}

/** A stored notification as the push side reads it. */
export interface PushSource {
  id: string;
  type: string;
  title: string;
  message: string;
  title_msg: unknown;
  message_msg: unknown;
  metadata: Record<string, unknown> | null;
}

/**
 * The topic of a notification, or null for one every device gets whatever the switches say (the test
 * push, the confirmation of a one-tap action). From the message key of its title (the product's own
 * notices), else its type: trades opened/closed → trades; timeframe changes → ai; stops, manage-only
 * and limits → risk; everything else (broker connection, payments…) → system.
 */
export function topicOf(n: Pick<PushSource, "type" | "title_msg" | "metadata">): PushTopic | null {
  const meta = n.metadata ?? {};
  if (meta.test === true || typeof meta.pushAction === "string") return null;
  const key = isMsg(n.title_msg) ? n.title_msg.key : "";
  if (key.startsWith("notices:tradeOpened") || key.startsWith("notices:tradeClosed")) return "trades";
  if (key.startsWith("notices:timeframeChanged")) return "ai";
  if (key.startsWith("notices:botStopped") || key.startsWith("notices:manageOnly") || n.type === "limit") return "risk";
  if (n.type === "trading") return "trades";
  return "system";
}

/** Whether a push of this topic carries the one-tap actions (trades and risk alerts). */
export function offersActions(topic: PushTopic | null): boolean {
  return topic === "trades" || topic === "risk";
}

/** The page a push opens: the trading screen for trades and AI decisions, the notification centre otherwise. */
export function deepLinkOf(topic: PushTopic | null): string {
  return topic === "trades" || topic === "ai" ? "/" : "/notifications";
}

/** What the service worker receives (JSON). */
export interface PushPayload {
  title: string;
  body: string;
  icon: string;
  badge: string;
  /** Same tag replaces the previous notification of the same row on the device. */
  tag: string;
  /** Relative deep link, opened (or focused) on click. */
  url: string;
  notificationId: string | null;
  topic: PushTopic | null;
  type: string;
  /** Buttons of the notification: action name and its label in the reader's language. */
  actions: { action: PushAction; title: string }[];
  /** Signed single-use token per offered action, posted to /api/push/action. */
  tokens: Partial<Record<PushAction, string>>;
  /** Texts the service worker shows after an action (in the reader's language). */
  texts: { done: string; failed: string };
  timestamp: number;
}

/** Input of `buildPushPayload`: texts already in the reader's language. */
export interface PayloadInput {
  notificationId: string | null;
  type: string;
  topic: PushTopic | null;
  title: string;
  body: string;
  /** Labels of the actions in the reader's language. */
  actionLabels: Record<PushAction, string>;
  /** Tokens of the offered actions (none: no buttons). */
  tokens: Partial<Record<PushAction, string>>;
  texts: { done: string; failed: string };
  /** Milliseconds since the epoch (the notification's creation). */
  timestamp: number;
}

/** Cuts a text to `max` characters (an ellipsis marks the cut). */
function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/**
 * The payload of one push: title (≤ 120 chars) and body (shortened until the JSON fits
 * `MAX_PAYLOAD_BYTES`), icons, tag, deep link, and the action buttons with their tokens.
 */
export function buildPushPayload(input: PayloadInput): PushPayload {
  const actions = PUSH_ACTIONS.filter((a) => input.tokens[a]).map((a) => ({ action: a, title: input.actionLabels[a] }));
  const payload: PushPayload = {
    title: cut(input.title, 120),
    body: cut(input.body, 1000),
    icon: "/icons/icon-192.png",
    badge: "/icons/badge-72.png",
    tag: input.notificationId ? `n-${input.notificationId}` : `t-${input.timestamp}`,
    url: deepLinkOf(input.topic),
    notificationId: input.notificationId,
    topic: input.topic,
    type: input.type,
    actions,
    tokens: Object.fromEntries(actions.map((a) => [a.action, input.tokens[a.action]])),
    texts: input.texts,
    timestamp: input.timestamp,
  };
  let max = payload.body.length;
  while (payloadBytes(payload) > MAX_PAYLOAD_BYTES && max > 0) {
    max = Math.max(0, max - 100);
    payload.body = cut(input.body, Math.max(1, max));
  }
  return payload;
}

/** Size of a payload as sent (UTF-8 JSON). */
export function payloadBytes(p: PushPayload): number {
  return new TextEncoder().encode(JSON.stringify(p)).length;
}
