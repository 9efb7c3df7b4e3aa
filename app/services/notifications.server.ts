/**
 * Notifications created by the product (PRODUCT.md §3 Notification): a row per event, read through
 * its owner. Web push and SSE fan-out hook in here later (each channel failing alone, DESIGN.md §3.6).
 */
import type { ListQuery, NotificationTypeName, NotificationView } from "../lib/notifications";
import { db } from "./db.server";
import { logger } from "./logger.server";

export type NotificationType = "success" | "warning" | "error" | "limit" | "trading" | "info";

export interface NewNotification {
  type: NotificationType;
  title: string;
  message: string;
  metadata?: Record<string, unknown>;
}

/** Stores a notification for a user. Never throws: a failed notification must not break a tick. */
export async function notify(userId: string, n: NewNotification): Promise<void> {
  try {
    const sql = db();
    await sql`insert into notifications (user_id, type, title, message, metadata)
      values (${userId}, ${n.type}, ${n.title}, ${n.message}, ${sql.json((n.metadata ?? {}) as never)})`;
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
  read: boolean;
  metadata: Record<string, unknown> | null;
  created_at: Date;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when the text is a UUID (anything else can never be a notification id). */
export function isNotificationId(id: string): boolean {
  return UUID_RE.test(id);
}

/** A row as the API returns it (`_id` and `id` alike, ISO `createdAt`). */
export function notificationView(row: NotificationRow): NotificationView {
  return {
    _id: row.id,
    id: row.id,
    type: row.type,
    title: row.title,
    message: row.message,
    read: row.read,
    createdAt: row.created_at.toISOString(),
    metadata: row.metadata ?? {},
  };
}

/** Escapes LIKE wildcards so the search text matches literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
 * only, search in title, message or instrument), the total matching and the user's unread count.
 */
export async function listNotifications(userId: string, query: ListQuery) {
  const sql = db();
  const conditions = [sql`user_id = ${userId}`];
  if (query.type) conditions.push(sql`type = ${query.type}`);
  if (query.unread) conditions.push(sql`not read`);
  if (query.q) {
    const p = likePattern(query.q);
    const pSlash = likePattern(query.q.replace(/\//g, "_"));
    conditions.push(sql`(title ilike ${p} or message ilike ${p} or coalesce(metadata->>'instrument', '') ilike ${p}
      or coalesce(metadata->>'instrument', '') ilike ${pSlash})`);
  }
  const where = conditions.reduce((acc, c) => sql`${acc} and ${c}`);
  const offset = (query.page - 1) * query.limit;
  const [rows, [counts]] = await Promise.all([
    sql<NotificationRow[]>`select id, type, title, message, read, metadata, created_at from notifications
      where ${where} order by created_at desc, id desc limit ${query.limit} offset ${offset}`,
    sql<{ total: number; unread: number }[]>`select
        (select count(*)::int from notifications where ${where}) as total,
        (select count(*)::int from notifications where user_id = ${userId} and not read) as unread`,
  ]);
  return {
    notifications: rows.map(notificationView),
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

/** Marks one of the user's notifications read; null when the id is not one of theirs. */
export async function markNotificationRead(userId: string, id: string): Promise<NotificationView | null> {
  if (!isNotificationId(id)) return null;
  const [row] = await db()<NotificationRow[]>`update notifications set read = true
    where user_id = ${userId} and id = ${id}
    returning id, type, title, message, read, metadata, created_at`;
  return row ? notificationView(row) : null;
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

/** Stores a notification and returns it (unlike `notify`, failures propagate to the caller). */
export async function createNotification(userId: string, n: NewNotification): Promise<NotificationView> {
  const sql = db();
  const [row] = await sql<NotificationRow[]>`insert into notifications (user_id, type, title, message, metadata)
    values (${userId}, ${n.type}, ${n.title}, ${n.message}, ${sql.json((n.metadata ?? {}) as never)})
    returning id, type, title, message, read, metadata, created_at`;
  return notificationView(row!);
}

/** The test notification (POST /api/notifications/test). */
export function sendTestNotification(userId: string): Promise<NotificationView> {
  return createNotification(userId, {
    type: "info",
    title: "Notificação de teste",
    message: "Se você está vendo esta mensagem, as notificações estão funcionando.",
    metadata: { test: true },
  });
}
