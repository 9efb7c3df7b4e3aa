/**
 * Notifications created by the product (PRODUCT.md §3 Notification): a row per event, read through
 * its owner. Web push and SSE fan-out hook in here later (each channel failing alone, DESIGN.md §3.6).
 */
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
