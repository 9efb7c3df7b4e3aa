/**
 * Who may use the admin area (PRODUCT.md §6 roles, §7 Admin; issue 10): the role is checked on the
 * server for every admin page and admin API call. The API answers 401 JSON to anonymous callers
 * ('Token inválido ou expirado', which logs the client out) and 403 JSON to regular users; pages send
 * anonymous visitors to /admin/login and regular users to / (§2 "/admin/*: others redirected to /").
 */
import { redirect } from "@remix-run/node";
import { msg } from "../../../core/i18n/message";
import { getUser, requireApiUser, type UserRow } from "../identity/auth.server";
import { clientIp } from "../platform/client-ip.server";
import { ForbiddenError } from "../platform/errors.server";

/** The admin behind a request, with what the audit log records of the request. */
export interface AdminActor {
  user: UserRow;
  ip: string | null;
}

/**
 * The admin calling an admin API.
 * @throws UnauthorizedError (401) anonymous; ForbiddenError (403, 'Acesso restrito a administradores.') non-admin
 */
export async function requireAdminApi(request: Request): Promise<AdminActor> {
  const user = await requireApiUser(request);
  if (user.role !== "admin") throw new ForbiddenError(msg("admin:errors.adminOnly"));
  return { user, ip: clientIp(request) };
}

/**
 * The admin viewing an admin page.
 * @throws redirect to /admin/login (anonymous) or / (regular user)
 */
export async function requireAdminPage(request: Request): Promise<AdminActor> {
  const user = await getUser(request);
  if (!user) throw redirect("/admin/login");
  if (user.role !== "admin") throw redirect("/");
  return { user, ip: clientIp(request) };
}
