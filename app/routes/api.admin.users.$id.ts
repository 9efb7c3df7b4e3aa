/**
 * /api/admin/users/{id} (PRODUCT.md §7 Admin; issue 10), admins only (401 anonymous, 403 users):
 * GET → {success, user, licences, licenceChanges, bot, decisions, brokerErrors, trades}, the
 * read-only support view (never the broker token); PUT {email?, firstName?, lastName?, password?
 * (blank keeps it), isActive?, preferences?} → {success, message, user}; DELETE → {success, message,
 * outcome}: the soft delete of a regular user (bot stopped, broker token destroyed, sessions revoked,
 * trades kept; 403 on an admin, 409 with a live Stripe subscription). 404 for an unknown user.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { adminUserUpdateSchema } from "~/lib/admin-users";
import { requireAdminApi } from "~/services/admin/access.server";
import { adminFailure } from "~/services/admin/user-errors.server";
import { deleteAdminUser } from "~/services/admin/user-deletion.server";
import { adminUserDetail } from "~/services/admin/user-detail.server";
import { updateAdminUser } from "~/services/admin/user-form.server";
import { apiRoute, readBody } from "~/route-support/api.server";

export const loader = ({ request, params }: ActionFunctionArgs) =>
  apiRoute(request, {
    GET: async () => {
      const { user } = await requireAdminApi(request);
      return { success: true, ...(await adminFailure("admin-accounts:errors.load", () => adminUserDetail(String(params.id), user.preferences?.language))) };
    },
    PUT: async () => {
      const actor = await requireAdminApi(request);
      const input = await readBody(request, adminUserUpdateSchema);
      const user = await adminFailure("admin-accounts:errors.save", () => updateAdminUser(actor, String(params.id), input));
      return { success: true, message: translateMsg(msg("admin-accounts:done.updated"), actor.user.preferences?.language), user };
    },
    DELETE: async () => {
      const actor = await requireAdminApi(request);
      const outcome = await adminFailure("admin-accounts:errors.delete", () => deleteAdminUser(actor, String(params.id)));
      return { success: true, message: translateMsg(msg("admin-accounts:done.deleted"), actor.user.preferences?.language), outcome };
    },
  });

/** Every method reaches the same handler, which answers 405 with `Allow` for the others. */
export const action = loader;
