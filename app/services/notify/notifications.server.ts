/**
 * Notifications created by the product (PRODUCT.md §3 Notification): a row per event, read through
 * its owner. Every row queues its web push in the same transaction (app/services/platform/queue/send.ts `enqueuePushNotify`,
 * ADR 0016): the push commits with the row and never outlives a rolled-back one; delivery then fails
 * alone (DESIGN.md §3.6). SSE fan-out hooks in here too.
 *
 * Title and message are translatable messages (ADR 0007): a row keeps the Portuguese text in
 * title/message and the message in title_msg/message_msg; every read renders them in the reader's
 * language, falling back to the text for rows without a message (older rows, ready-made texts).
 */
import type postgres from "postgres";
import { isMsg, type Msg } from "../../../core/i18n/message";
import {
  deleteUserNotifications,
  insertNotification,
  insertNotificationRows,
  markAllRead,
  markRead,
  notificationCounts,
  notificationPage,
  unreadNotificationCount,
  type NewNotificationRow,
  type NotificationRow,
  type NotificationStats,
} from "../../../db/queries/notifications";
import { notices, type ListQuery, type NotificationView } from "../../lib/notifications";
import { i18nFor, translateMsg } from "~/i18n";
import { enqueuePushNotify } from "../platform/queue/send";
import { db } from "../platform/db.server";
import { logger } from "../platform/logger.server";

export type NotificationType = "success" | "warning" | "error" | "limit" | "trading" | "info";

/** A new notification: title and message as messages of the `notices` namespace (or ready texts). */
export interface NewNotification {
  type: NotificationType;
  title: Msg | string;
  message: Msg | string;
  metadata?: Record<string, unknown>;
}

/** The columns of a new row: the Portuguese texts and the messages (null for a ready text), the metadata. */
function columns(n: NewNotification): NewNotificationRow {
  return {
    type: n.type,
    title: translateMsg(n.title, "pt"),
    message: translateMsg(n.message, "pt"),
    titleMsg: isMsg(n.title) ? n.title : null,
    messageMsg: isMsg(n.message) ? n.message : null,
    metadata: n.metadata ?? {},
  };
}

/**
 * Stores notifications for a user with the given transaction, in one statement: reconcile writes
 * the 'Trade aberto'/'Trade fechado' notices in the transaction that records the trades, so a crash
 * never loses one (committed with the trade) nor repeats one (rolled back with it). Throws on failure.
 */
export async function insertNotifications(sql: postgres.TransactionSql, userId: string, ns: readonly NewNotification[]): Promise<void> {
  if (ns.length === 0) return;
  const ids = await insertNotificationRows(sql, userId, ns.map(columns));
  await enqueuePushNotify(sql, ids);
}

/** Stores a notification for a user. Never throws: a failed notification must not break a tick. */
export async function notify(userId: string, n: NewNotification): Promise<void> {
  try {
    await db().begin((tx) => insertNotifications(tx, userId, [n]));
  } catch (err) {
    logger().warn({ err, userId }, "falha ao criar notificação");
  }
}

// ---------------------------------------------------------------------------------------------
// Reading and managing a user's notifications (PRODUCT.md §7 Notifications). Every query is scoped
// by the owner's user_id (DESIGN.md §6): a notification is never read, updated or deleted by bare id.
// ---------------------------------------------------------------------------------------------

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when the text is a UUID (anything else can never be a notification id). */
export function isNotificationId(id: string): boolean {
  return UUID_RE.test(id);
}

/** A stored text in a language: its message when there is one, else the stored (Portuguese) text. */
function storedText(text: string, m: unknown, language: unknown): string {
  return isMsg(m) ? translateMsg(m, language) : text;
}

/**
 * A row as the API returns it (`_id` and `id` alike, ISO `createdAt`), title and message in the
 * reader's language (pt, en, es).
 */
export function notificationView(row: NotificationRow, language: unknown = "pt"): NotificationView {
  return {
    _id: row.id,
    id: row.id,
    type: row.type,
    title: storedText(row.title, row.title_msg, language),
    message: storedText(row.message, row.message_msg, language),
    read: row.read,
    createdAt: row.created_at.toISOString(),
    metadata: row.metadata ?? {},
  };
}

/** Escapes LIKE wildcards so the search text matches literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Lower case without accents, for matching search words against catalog texts. */
function fold(text: string): string {
  return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/**
 * Keys of the `notices` catalog (and nested keys such as the side) whose text in `language` contains
 * the search words, placeholders left out: lets a reader find stored notifications by the words they
 * see, whatever language the row's text column was written in.
 */
function noticeKeysMatching(q: string, language: unknown): string[] {
  const inst = i18nFor(language);
  const bundle = inst.getResourceBundle(inst.language, "notices") as Record<string, unknown> | undefined;
  const needle = fold(q.trim());
  const keys: string[] = [];
  const walk = (node: unknown, path: string) => {
    if (typeof node === "string") {
      if (fold(node.replace(/\{\{[^}]*\}\}/g, " ")).includes(needle)) keys.push(`notices:${path}`);
    } else if (node && typeof node === "object")
      for (const [k, v] of Object.entries(node)) walk(v, path ? `${path}.${k}` : k);
  };
  if (needle) walk(bundle ?? {}, "");
  return keys;
}

/** Counts shown on the page's tiles: total, unread, and per type (warnings include limits). */
export type { NotificationStats };

/**
 * One page of the user's notifications, newest first, with the filters of the page (type, unread
 * only, search in title, message or instrument), the total matching and the user's unread count;
 * texts in `language`. The search looks at the stored (Portuguese) texts and at the messages whose
 * catalog text in `language` contains the words.
 */
export async function listNotifications(userId: string, query: ListQuery, language: unknown = "pt") {
  const search = query.q
    ? { pattern: likePattern(query.q), slashPattern: likePattern(query.q.replace(/\//g, "_")), keys: noticeKeysMatching(query.q, language) }
    : undefined;
  const offset = (query.page - 1) * query.limit;
  const page = await notificationPage(db(), userId, { type: query.type, unread: query.unread, search }, query.limit, offset);
  return {
    notifications: page.rows.map((row) => notificationView(row, language)),
    unreadCount: page.unread,
    page: query.page,
    limit: query.limit,
    total: page.total,
  };
}

/** The user's unread notification count. */
export async function unreadCount(userId: string): Promise<number> {
  return unreadNotificationCount(db(), userId);
}

/** Tile counts over all of the user's notifications (PRODUCT.md §2: 'Avisos' counts warning and limit). */
export async function notificationStats(userId: string): Promise<NotificationStats> {
  const row = await notificationCounts(db(), userId);
  return row ?? { total: 0, unread: 0, success: 0, warning: 0, error: 0, trading: 0 };
}

/** Marks one of the user's notifications read (returned in `language`); null when the id is not one of theirs. */
export async function markNotificationRead(userId: string, id: string, language: unknown = "pt"): Promise<NotificationView | null> {
  if (!isNotificationId(id)) return null;
  const row = await markRead(db(), userId, id);
  return row ? notificationView(row, language) : null;
}

/** Marks all of the user's notifications read; returns how many changed. */
export async function markAllNotificationsRead(userId: string): Promise<number> {
  return markAllRead(db(), userId);
}

/** Deletes all of the user's notifications; returns how many were removed. */
export async function clearNotifications(userId: string): Promise<number> {
  return deleteUserNotifications(db(), userId);
}

/**
 * Stores a notification (and queues its push in the same transaction) and returns it in `language`
 * (unlike `notify`, failures propagate to the caller).
 */
export async function createNotification(userId: string, n: NewNotification, language: unknown = "pt"): Promise<NotificationView> {
  const row = await db().begin(async (sql) => {
    const inserted = await insertNotification(sql, userId, columns(n));
    await enqueuePushNotify(sql, [inserted.id]);
    return inserted;
  });
  return notificationView(row, language);
}

/** The test notification (POST /api/notifications/test), returned in `language`. */
export function sendTestNotification(userId: string, language: unknown = "pt"): Promise<NotificationView> {
  return createNotification(userId, { type: "info", ...notices.test(), metadata: { test: true } }, language);
}
