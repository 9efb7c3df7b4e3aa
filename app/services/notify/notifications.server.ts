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
import { notices, type ListQuery, type NotificationTypeName, type NotificationView } from "../../lib/notifications";
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

/** The columns of a new row: the Portuguese texts and the messages (null for a ready text). */
function columns(n: NewNotification) {
  return {
    title: translateMsg(n.title, "pt"),
    message: translateMsg(n.message, "pt"),
    titleMsg: isMsg(n.title) ? n.title : null,
    messageMsg: isMsg(n.message) ? n.message : null,
  };
}

/**
 * Stores notifications for a user with the given transaction, in one statement: reconcile writes
 * the 'Trade aberto'/'Trade fechado' notices in the transaction that records the trades, so a crash
 * never loses one (committed with the trade) nor repeats one (rolled back with it). Throws on failure.
 */
export async function insertNotifications(sql: postgres.TransactionSql, userId: string, ns: readonly NewNotification[]): Promise<void> {
  if (ns.length === 0) return;
  const rows = ns.map((n) => {
    const c = columns(n);
    return {
      user_id: userId,
      type: n.type,
      title: c.title,
      message: c.message,
      title_msg: c.titleMsg === null ? null : sql.json(c.titleMsg as never),
      message_msg: c.messageMsg === null ? null : sql.json(c.messageMsg as never),
      metadata: sql.json((n.metadata ?? {}) as never),
    };
  });
  const inserted = await sql<{ id: string }[]>`insert into notifications ${sql(rows)} returning id`;
  await enqueuePushNotify(sql, inserted.map((r) => r.id));
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

interface NotificationRow {
  id: string;
  type: NotificationTypeName;
  title: string;
  message: string;
  title_msg: unknown;
  message_msg: unknown;
  read: boolean;
  metadata: Record<string, unknown> | null;
  created_at: Date;
}

/** Columns read back for a notification. */
const COLUMNS = "id, type, title, message, title_msg, message_msg, read, metadata, created_at";

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
export interface NotificationStats {
  total: number;
  unread: number;
  success: number;
  warning: number;
  error: number;
  trading: number;
}

/**
 * One page of the user's notifications, newest first, with the filters of the page (type, unread
 * only, search in title, message or instrument), the total matching and the user's unread count;
 * texts in `language`. The search looks at the stored (Portuguese) texts and at the messages whose
 * catalog text in `language` contains the words.
 */
export async function listNotifications(userId: string, query: ListQuery, language: unknown = "pt") {
  const sql = db();
  const conditions = [sql`user_id = ${userId}`];
  if (query.type) conditions.push(sql`type = ${query.type}`);
  if (query.unread) conditions.push(sql`not read`);
  if (query.q) {
    const p = likePattern(query.q);
    const pSlash = likePattern(query.q.replace(/\//g, "_"));
    const keys = noticeKeysMatching(query.q, language);
    const byKey = keys.length
      ? sql`or jsonb_path_query_array(coalesce(title_msg, '{}'), 'strict $.**.key') ?| ${keys}::text[]
          or jsonb_path_query_array(coalesce(message_msg, '{}'), 'strict $.**.key') ?| ${keys}::text[]`
      : sql``;
    conditions.push(sql`(title ilike ${p} or message ilike ${p} or coalesce(metadata->>'instrument', '') ilike ${p}
      or coalesce(metadata->>'instrument', '') ilike ${pSlash} ${byKey})`);
  }
  const where = conditions.reduce((acc, c) => sql`${acc} and ${c}`);
  const offset = (query.page - 1) * query.limit;
  const [rows, [counts]] = await Promise.all([
    sql<NotificationRow[]>`select ${sql.unsafe(COLUMNS)} from notifications
      where ${where} order by created_at desc, id desc limit ${query.limit} offset ${offset}`,
    sql<{ total: number; unread: number }[]>`select
        (select count(*)::int from notifications where ${where}) as total,
        (select count(*)::int from notifications where user_id = ${userId} and not read) as unread`,
  ]);
  return {
    notifications: rows.map((row) => notificationView(row, language)),
    unreadCount: counts?.unread ?? 0,
    page: query.page,
    limit: query.limit,
    total: counts?.total ?? 0,
  };
}

/** The user's unread notification count. */
export async function unreadCount(userId: string): Promise<number> {
  const [row] = await db()<{ count: number }[]>`select count(*)::int as count from notifications where user_id = ${userId} and not read`;
  return row?.count ?? 0;
}

/** Tile counts over all of the user's notifications (PRODUCT.md §2: 'Avisos' counts warning and limit). */
export async function notificationStats(userId: string): Promise<NotificationStats> {
  const [row] = await db()<NotificationStats[]>`select
      count(*)::int as total,
      count(*) filter (where not read)::int as unread,
      count(*) filter (where type = 'success')::int as success,
      count(*) filter (where type in ('warning', 'limit'))::int as warning,
      count(*) filter (where type = 'error')::int as error,
      count(*) filter (where type = 'trading')::int as trading
    from notifications where user_id = ${userId}`;
  return row ?? { total: 0, unread: 0, success: 0, warning: 0, error: 0, trading: 0 };
}

/** Marks one of the user's notifications read (returned in `language`); null when the id is not one of theirs. */
export async function markNotificationRead(userId: string, id: string, language: unknown = "pt"): Promise<NotificationView | null> {
  if (!isNotificationId(id)) return null;
  const sql = db();
  const [row] = await sql<NotificationRow[]>`update notifications set read = true
    where user_id = ${userId} and id = ${id}
    returning ${sql.unsafe(COLUMNS)}`;
  return row ? notificationView(row, language) : null;
}

/** Marks all of the user's notifications read; returns how many changed. */
export async function markAllNotificationsRead(userId: string): Promise<number> {
  const rows = await db()`update notifications set read = true where user_id = ${userId} and not read returning 1`;
  return rows.length;
}

/** Deletes all of the user's notifications; returns how many were removed. */
export async function clearNotifications(userId: string): Promise<number> {
  const rows = await db()`delete from notifications where user_id = ${userId} returning 1`;
  return rows.length;
}

/**
 * Stores a notification (and queues its push in the same transaction) and returns it in `language`
 * (unlike `notify`, failures propagate to the caller).
 */
export async function createNotification(userId: string, n: NewNotification, language: unknown = "pt"): Promise<NotificationView> {
  const row = await db().begin(async (sql) => {
    const c = columns(n);
    const [inserted] = await sql<NotificationRow[]>`insert into notifications (user_id, type, title, message, title_msg, message_msg, metadata)
      values (${userId}, ${n.type}, ${c.title}, ${c.message}, ${c.titleMsg === null ? null : sql.json(c.titleMsg as never)},
        ${c.messageMsg === null ? null : sql.json(c.messageMsg as never)}, ${sql.json((n.metadata ?? {}) as never)})
      returning ${sql.unsafe(COLUMNS)}`;
    await enqueuePushNotify(sql, [inserted!.id]);
    return inserted!;
  });
  return notificationView(row, language);
}

/** The test notification (POST /api/notifications/test), returned in `language`. */
export function sendTestNotification(userId: string, language: unknown = "pt"): Promise<NotificationView> {
  return createNotification(userId, { type: "info", ...notices.test(), metadata: { test: true } }, language);
}
