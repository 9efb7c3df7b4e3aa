/**
 * GET /api/admin/users?search&status&page → {success, users, total, page, pageSize} (newest first,
 * 50 a page, soft-deleted users left out; status all|active|inactive|past_due|canceled on the
 * subscription status); POST /api/admin/users {email, firstName, lastName, password, isActive,
 * preferences{language, currency, timezone}} → 201 {success, message, user} (PRODUCT.md §7 Admin, §5
 * admin user form; issue 10). Admins only (401 anonymous, 403 users); 409 for a taken e-mail.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { adminUserCreateSchema, parseUserListQuery } from "~/lib/admin-users";
import { requireAdminApi } from "~/services/admin/access.server";
import { adminFailure } from "~/services/admin/user-errors.server";
import { createAdminUser } from "~/services/admin/user-form.server";
import { listAdminUsers } from "~/services/admin/users.server";
import { apiRoute, json, readBody } from "~/route-support/api.server";

export const loader = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, {
    GET: async () => {
      await requireAdminApi(request);
      const list = await adminFailure("admin-accounts:errors.load", () => listAdminUsers(parseUserListQuery(new URL(request.url).searchParams)));
      return { success: true, ...list };
    },
    POST: async () => {
      const actor = await requireAdminApi(request);
      const input = await readBody(request, adminUserCreateSchema);
      const user = await adminFailure("admin-accounts:errors.save", () => createAdminUser(actor, input));
      return json({ success: true, message: translateMsg(msg("admin-accounts:done.created"), actor.user.preferences?.language), user }, 201);
    },
  });

/** Every method reaches the same handler, which answers 405 with `Allow` for the others. */
export const action = loader;
