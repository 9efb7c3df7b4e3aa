/**
 * Pure notification helpers shared by the server, the /notifications page and the header bell
 * (PRODUCT.md §3 Notification, §9): the types, the list query (page 1, size 50, max 100), the unread
 * badge capped at '99+', and the short relative time ('Agora', 'Nm', 'Nh', 'Nd' under 7 days, then
 * dd/mm in the user's timezone). No I/O: safe on server and client, unit-tested.
 */
import { z } from "zod";
import { relativeTime, safeTimeZone } from "./format";

/** Every notification type (PRODUCT.md §3). */
export const NOTIFICATION_TYPES = ["success", "warning", "error", "limit", "trading", "info"] as const;
export type NotificationTypeName = (typeof NOTIFICATION_TYPES)[number];

/** The type chips of the page, in order (PRODUCT.md §2 Notifications); 'all' = no type filter. */
export const TYPE_CHIPS = ["all", "success", "warning", "error", "limit", "trading"] as const;
export type TypeChip = (typeof TYPE_CHIPS)[number];

/** Page size and its cap (PRODUCT.md §9). */
export const NOTIFICATIONS_PAGE_SIZE = 50;
export const NOTIFICATIONS_MAX_LIMIT = 100;
/** Polling interval of the unread count and of the list (PRODUCT.md §9). */
export const NOTIFICATIONS_POLL_MS = 30_000;
/** Longest search text accepted. */
export const SEARCH_MAX_LENGTH = 100;

/** A notification as the API and the page see it (PRODUCT.md §3). */
export interface NotificationView {
  _id: string;
  id: string;
  type: NotificationTypeName;
  title: string;
  message: string;
  read: boolean;
  createdAt: string;
  metadata: Record<string, unknown>;
}

const blankToUndefined = (v: unknown) => (v === null || v === "" ? undefined : v);

/** Query of GET /api/notifications (and the page): page, limit, type, plus optional unread and search. */
export const listQuerySchema = z.object({
  page: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: "page deve ser um número inteiro maior ou igual a 1." })
      .int({ error: "page deve ser um número inteiro maior ou igual a 1." })
      .min(1, { error: "page deve ser um número inteiro maior ou igual a 1." })
      .max(1_000_000, { error: "page deve ser um número inteiro maior ou igual a 1." })
      .default(1),
  ),
  limit: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: `limit deve ser um número inteiro entre 1 e ${NOTIFICATIONS_MAX_LIMIT}.` })
      .int({ error: `limit deve ser um número inteiro entre 1 e ${NOTIFICATIONS_MAX_LIMIT}.` })
      .min(1, { error: `limit deve ser um número inteiro entre 1 e ${NOTIFICATIONS_MAX_LIMIT}.` })
      .max(NOTIFICATIONS_MAX_LIMIT, { error: `limit deve ser um número inteiro entre 1 e ${NOTIFICATIONS_MAX_LIMIT}.` })
      .default(NOTIFICATIONS_PAGE_SIZE),
  ),
  type: z.preprocess(
    (v) => (v === "all" ? undefined : blankToUndefined(v)),
    z.enum(NOTIFICATION_TYPES, { error: `type deve ser um de: ${NOTIFICATION_TYPES.join(", ")}.` }).optional(),
  ),
  unread: z.preprocess(
    blankToUndefined,
    z
      .enum(["1", "0", "true", "false"], { error: "unread deve ser true ou false." })
      .optional()
      .transform((v) => v === "1" || v === "true"),
  ),
  q: z.preprocess(
    (v) => (typeof v === "string" ? v.trim() || undefined : v),
    z.string().max(SEARCH_MAX_LENGTH, { error: `A busca deve ter no máximo ${SEARCH_MAX_LENGTH} caracteres.` }).optional(),
  ),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

/** Parses URL search params into a list query, or the first Portuguese error message. */
export function parseListQuery(params: URLSearchParams): { ok: true; query: ListQuery } | { ok: false; message: string } {
  const raw: Record<string, string> = {};
  for (const key of ["page", "limit", "type", "unread", "q"] as const) {
    const v = params.get(key);
    if (v !== null) raw[key] = v;
  }
  const parsed = listQuerySchema.safeParse(raw);
  if (parsed.success) return { ok: true, query: parsed.data };
  return { ok: false, message: parsed.error.issues[0]?.message ?? "Parâmetros inválidos." };
}

/** The unread badge text: '' for none, the number up to 99, then '99+' (PRODUCT.md §9). */
export function formatUnreadBadge(count: number | null | undefined): string {
  if (count === null || count === undefined || !Number.isFinite(count) || count <= 0) return "";
  return count > 99 ? "99+" : String(Math.floor(count));
}

/**
 * Short relative time (PRODUCT.md §9): under a minute 'Agora' (or `nowLabel`), then 'Nm', 'Nh',
 * 'Nd' under 7 days, then 'dd/mm' in `timeZone`. A time in the future counts as now; '—' when unknown.
 */
export function notificationTime(
  when: string | number | Date | null | undefined,
  now: number | Date,
  timeZone = "America/Sao_Paulo",
  nowLabel = "Agora",
): string {
  return relativeTime(when, now, { justNow: nowLabel, timeZone: safeTimeZone(timeZone) ?? "America/Sao_Paulo" });
}

/** Query string for the page with some keys changed (empty/undefined values dropped; page reset unless given). */
export function pageQuery(current: URLSearchParams, changes: Record<string, string | undefined>): string {
  const next = new URLSearchParams(current);
  if (!("page" in changes)) next.delete("page");
  next.delete("confirm");
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === "" || (k === "type" && v === "all")) next.delete(k);
    else next.set(k, v);
  }
  const s = next.toString();
  return s ? `?${s}` : "";
}
