/**
 * POST /api/admin/users/{id}/extend-license {days} (default 30, 1–3650) → {success, message, change,
 * days, endBefore, endAfter, user} (PRODUCT.md §7 Admin, §9 "Extend licence 30 days"; issue 10).
 * Admins only (401 anonymous, 403 users); regular users only (403 on an admin); 404 unknown user.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { INTL_LOCALE, toLanguage, translateMsg } from "~/i18n";
import { ADMIN_TIME_ZONE, extendLicenseSchema } from "~/lib/admin-users";
import { requireAdminApi } from "~/services/admin/access.server";
import { adminFailure } from "~/services/admin/user-errors.server";
import { extendUserLicence } from "~/services/admin/licence-extension.server";
import { apiRoute, readBody } from "~/route-support/api.server";

export const action = ({ request, params }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const actor = await requireAdminApi(request);
    const { days } = await readBody(request, extendLicenseSchema);
    const out = await adminFailure("admin-accounts:errors.extend", () => extendUserLicence(actor, String(params.id), days));
    const language = actor.user.preferences?.language;
    // The admin's locale, America/Sao_Paulo (PRODUCT.md §9 admin dates).
    const date = new Intl.DateTimeFormat(INTL_LOCALE[toLanguage(language)], { timeZone: ADMIN_TIME_ZONE, day: "2-digit", month: "2-digit", year: "numeric" }).format(new Date(out.endAfter));
    return { success: true, message: translateMsg(msg("admin-accounts:done.extended", { days, date }), language), ...out };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow`. */
export const loader = action;
