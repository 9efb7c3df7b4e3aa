/** Loader helpers shared by the page routes: logged-in non-admin users, the header's unread count, the bot dot. */
import { toLanguage } from "~/i18n";
import { redirect } from "@remix-run/node";
import { getUser, requireUser, type UserRow } from "~/services/identity/auth.server";
import { db } from "~/services/platform/db.server";
import { chromeCounts } from "../../db/queries/page-chrome";

/** The user read by each request's first loader (key: the request's load context, one object per request). */
const usersOfRequest = new WeakMap<object, Promise<UserRow | null>>();

/**
 * The logged-in user of a page request, or null. With the request's load `context` (Remix hands every
 * loader of one request the same object) a GET/HEAD request reads the session once for all its loaders
 * (root + page: one session query instead of two, issue 13); a POST always reads it fresh.
 */
export function pageUser(request: Request, context?: unknown): Promise<UserRow | null> {
  if (!context || typeof context !== "object" || (request.method !== "GET" && request.method !== "HEAD")) return getUser(request);
  let user = usersOfRequest.get(context);
  if (!user) {
    user = getUser(request);
    usersOfRequest.set(context, user);
  }
  return user;
}

/**
 * The logged-in regular user; logged out → /auth, admin → /admin (PRODUCT.md §2, §6). `context`: the
 * loader's load context, to share the session read with the request's other loaders (`pageUser`).
 */
export async function requireAppUser(request: Request, context?: unknown): Promise<UserRow> {
  const user = context === undefined ? await requireUser(request) : await pageUser(request, context);
  if (!user) throw redirect("/auth");
  if (user.role === "admin") throw redirect("/admin");
  return user;
}

/** Whether a user agent is a phone or tablet browser (the hero's mobile variant, PRODUCT.md §2). */
export function isMobileUserAgent(ua: string | null | undefined): boolean {
  return !!ua && /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile/i.test(ua);
}

/** What the app chrome needs: who is logged in, unread notifications, whether the AI is on (`context`: see `pageUser`). */
export async function chromeData(request: Request, context?: unknown) {
  const user = await pageUser(request, context);
  const mobileUA = isMobileUserAgent(request.headers.get("user-agent"));
  if (!user) return { user: null, unread: 0, botActive: false, language: "pt" as const, timezone: "America/Sao_Paulo", mobileUA };
  const row = await chromeCounts(db(), user.id);
  return {
    user: { firstName: user.first_name, lastName: user.last_name, email: user.email, role: user.role },
    unread: row?.count ?? 0,
    botActive: row?.is_active ?? false,
    language: toLanguage(user.preferences?.language),
    timezone: user.preferences?.timezone || "America/Sao_Paulo",
    mobileUA,
  };
}
