/**
 * The header bell's pieces (PRODUCT.md §9), apart from app/lib/notifications.ts so the bell — on every
 * page — does not pull zod and the list schemas into the first load (issue 13).
 */

/** Polling interval of the unread count and of the list (PRODUCT.md §9). */
export const NOTIFICATIONS_POLL_MS = 30_000;

/** The unread badge text: '' for none, the number up to 99, then '99+' (PRODUCT.md §9). */
export function formatUnreadBadge(count: number | null | undefined): string {
  if (count === null || count === undefined || !Number.isFinite(count) || count <= 0) return "";
  return count > 99 ? "99+" : String(Math.floor(count));
}
