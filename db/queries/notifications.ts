/**
 * The `notifications` table (migration 0001): one row per notice the product gives a user, with the
 * Portuguese texts in title/message and the translatable messages in title_msg/message_msg (jsonb,
 * ADR 0007), a read flag and metadata (jsonb). Its statements live here (issue 23 item 2); every read,
 * update and delete goes through the owner (`user_id`), except the push delivery's read by id (which
 * joins the owner to check them). Ids are uuids, times timestamptz.
 */
import type { Msg } from "../../core/i18n/message";
import type { Sql } from "./sql";

/** The types a notification has (app/lib/notifications.ts NOTIFICATION_TYPES). */
export type NotificationRowType = "success" | "warning" | "error" | "limit" | "trading" | "info";

/** A notification as read back (the columns of `NOTIFICATION_COLUMNS`). */
export interface NotificationRow {
  id: string;
  type: NotificationRowType;
  title: string;
  message: string;
  title_msg: unknown;
  message_msg: unknown;
  read: boolean;
  metadata: Record<string, unknown> | null;
  created_at: Date;
}

/** Columns read back for a notification. */
export const NOTIFICATION_COLUMNS = "id, type, title, message, title_msg, message_msg, read, metadata, created_at";

/** The columns of a new notification: Portuguese texts, the messages (null for a ready text), metadata. */
export interface NewNotificationRow {
  type: string;
  title: string;
  message: string;
  titleMsg: Msg | null;
  messageMsg: Msg | null;
  metadata: Record<string, unknown>;
}

/** Inserts the user's notifications in one statement; answers their ids. */
export async function insertNotificationRows(sql: Sql, userId: string, ns: readonly NewNotificationRow[]): Promise<string[]> {
  const rows = ns.map((n) => ({
    user_id: userId,
    type: n.type,
    title: n.title,
    message: n.message,
    title_msg: n.titleMsg === null ? null : sql.json(n.titleMsg as never),
    message_msg: n.messageMsg === null ? null : sql.json(n.messageMsg as never),
    metadata: sql.json(n.metadata as never),
  }));
  const inserted = await sql<{ id: string }[]>`insert into notifications ${sql(rows)} returning id`;
  return inserted.map((r) => r.id);
}

/** Inserts one notification of the user and answers it (`NOTIFICATION_COLUMNS`). */
export async function insertNotification(sql: Sql, userId: string, n: NewNotificationRow): Promise<NotificationRow> {
  const [inserted] = await sql<NotificationRow[]>`insert into notifications (user_id, type, title, message, title_msg, message_msg, metadata)
      values (${userId}, ${n.type}, ${n.title}, ${n.message}, ${n.titleMsg === null ? null : sql.json(n.titleMsg as never)},
        ${n.messageMsg === null ? null : sql.json(n.messageMsg as never)}, ${sql.json(n.metadata as never)})
      returning ${sql.unsafe(NOTIFICATION_COLUMNS)}`;
  return inserted!;
}

/** The filters of a page of notifications: type, unread only, and a search (LIKE patterns, escaped, and the catalog keys whose text matches). */
export interface NotificationFilter {
  type?: string;
  unread?: boolean;
  search?: { pattern: string; slashPattern: string; keys: string[] };
}

/**
 * One page of the user's notifications matching the filter, newest first, with the total matching
 * and the user's unread count (two statements, run side by side).
 */
export async function notificationPage(sql: Sql, userId: string, filter: NotificationFilter, limit: number, offset: number) {
  const conditions = [sql`user_id = ${userId}`];
  if (filter.type) conditions.push(sql`type = ${filter.type}`);
  if (filter.unread) conditions.push(sql`not read`);
  if (filter.search) {
    const { pattern: p, slashPattern: pSlash, keys } = filter.search;
    const byKey = keys.length
      ? sql`or jsonb_path_query_array(coalesce(title_msg, '{}'), 'strict $.**.key') ?| ${keys}::text[]
          or jsonb_path_query_array(coalesce(message_msg, '{}'), 'strict $.**.key') ?| ${keys}::text[]`
      : sql``;
    conditions.push(sql`(title ilike ${p} or message ilike ${p} or coalesce(metadata->>'instrument', '') ilike ${p}
      or coalesce(metadata->>'instrument', '') ilike ${pSlash} ${byKey})`);
  }
  const where = conditions.reduce((acc, c) => sql`${acc} and ${c}`);
  const [rows, [counts]] = await Promise.all([
    sql<NotificationRow[]>`select ${sql.unsafe(NOTIFICATION_COLUMNS)} from notifications
      where ${where} order by created_at desc, id desc limit ${limit} offset ${offset}`,
    sql<{ total: number; unread: number }[]>`select
        (select count(*)::int from notifications where ${where}) as total,
        (select count(*)::int from notifications where user_id = ${userId} and not read) as unread`,
  ]);
  return { rows, total: counts?.total ?? 0, unread: counts?.unread ?? 0 };
}

/** The user's unread notification count. */
export async function unreadNotificationCount(sql: Sql, userId: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`select count(*)::int as count from notifications where user_id = ${userId} and not read`;
  return row?.count ?? 0;
}

/** Counts of the user's notifications: total, unread, and per type (warnings include limits). */
export interface NotificationStats {
  total: number;
  unread: number;
  success: number;
  warning: number;
  error: number;
  trading: number;
}

/** The counts of all of the user's notifications (undefined: never, one aggregate row). */
export async function notificationCounts(sql: Sql, userId: string): Promise<NotificationStats | undefined> {
  const [row] = await sql<NotificationStats[]>`select
      count(*)::int as total,
      count(*) filter (where not read)::int as unread,
      count(*) filter (where type = 'success')::int as success,
      count(*) filter (where type in ('warning', 'limit'))::int as warning,
      count(*) filter (where type = 'error')::int as error,
      count(*) filter (where type = 'trading')::int as trading
    from notifications where user_id = ${userId}`;
  return row;
}

/** Marks one of the user's notifications read and answers it; undefined when the id is not one of theirs. */
export async function markRead(sql: Sql, userId: string, id: string): Promise<NotificationRow | undefined> {
  const [row] = await sql<NotificationRow[]>`update notifications set read = true
    where user_id = ${userId} and id = ${id}
    returning ${sql.unsafe(NOTIFICATION_COLUMNS)}`;
  return row;
}

/** Marks all of the user's unread notifications read; answers how many changed. */
export async function markAllRead(sql: Sql, userId: string): Promise<number> {
  const rows = await sql`update notifications set read = true where user_id = ${userId} and not read returning 1`;
  return rows.length;
}

/** Deletes all of the user's notifications; answers how many were removed. */
export async function deleteUserNotifications(sql: Sql, userId: string): Promise<number> {
  const rows = await sql`delete from notifications where user_id = ${userId} returning 1`;
  return rows.length;
}

/** The user's 10 newest error notifications (the admin's support view: the last broker errors). */
export async function latestErrorNotifications(sql: Sql, userId: string): Promise<NotificationRow[]> {
  return sql<NotificationRow[]>`
      select id, type, title, message, title_msg, message_msg, read, metadata, created_at
      from notifications where user_id = ${userId} and type = 'error' order by created_at desc limit 10`;
}

/** A notification with its owner's preferences and deletion time, as the push delivery reads it. */
export interface NotificationDeliveryRow {
  id: string;
  user_id: string;
  type: string;
  title: string;
  message: string;
  title_msg: unknown;
  message_msg: unknown;
  metadata: Record<string, unknown> | null;
  created_at: Date;
  preferences: { language?: string; pushTopics?: unknown } | null;
  deleted_at: Date | null;
}

/** A notification by id joined with its owner (undefined when gone). */
export async function notificationWithOwner(sql: Sql, notificationId: string): Promise<NotificationDeliveryRow | undefined> {
  const [row] = await sql<NotificationDeliveryRow[]>`select n.id, n.user_id, n.type, n.title, n.message, n.title_msg, n.message_msg, n.metadata, n.created_at,
      u.preferences, u.deleted_at
    from notifications n join users u on u.id = n.user_id where n.id = ${notificationId}`;
  return row;
}
