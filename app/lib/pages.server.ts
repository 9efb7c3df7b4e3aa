/** Loader helpers shared by the page routes: logged-in non-admin users, the header's unread count, the bot dot. */
import { toLanguage } from "~/i18n";
import { redirect } from "@remix-run/node";
import { getUser, requireUser, type UserRow } from "~/services/auth.server";
import { db } from "~/services/db.server";

/** The logged-in regular user; logged out → /auth, admin → /admin (PRODUCT.md §2, §6). */
export async function requireAppUser(request: Request): Promise<UserRow> {
  const user = await requireUser(request);
  if (user.role === "admin") throw redirect("/admin");
  return user;
}

/** Whether a user agent is a phone or tablet browser (the hero's mobile variant, PRODUCT.md §2). */
export function isMobileUserAgent(ua: string | null | undefined): boolean {
  return !!ua && /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile/i.test(ua);
}

/** What the app chrome needs: who is logged in, unread notifications, whether the AI is on. */
export async function chromeData(request: Request) {
  const user = await getUser(request);
  const mobileUA = isMobileUserAgent(request.headers.get("user-agent"));
  if (!user) return { user: null, unread: 0, botActive: false, language: "pt" as const, timezone: "America/Sao_Paulo", mobileUA };
  const sql = db();
  const [[n], [bot]] = await Promise.all([
    sql<{ count: number }[]>`select count(*)::int as count from notifications where user_id = ${user.id} and not read`,
    sql<{ is_active: boolean }[]>`select is_active from bots where user_id = ${user.id}`,
  ]);
  return {
    user: { firstName: user.first_name, lastName: user.last_name, email: user.email, role: user.role },
    unread: n?.count ?? 0,
    botActive: bot?.is_active ?? false,
    language: toLanguage(user.preferences?.language),
    timezone: user.preferences?.timezone || "America/Sao_Paulo",
    mobileUA,
  };
}
