/**
 * GET /api/notifications?page&limit&type → {notifications, unreadCount, page, limit, total} (page 1,
 * limit 50 up to 100, type one of PRODUCT.md §3 or omitted for all; bad values → 400, Portuguese by
 * default). DELETE /api/notifications → removes all of the user's notifications (PRODUCT.md §7).
 * Texts are in the user's language (preferences.language, ADR 0007).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { toLanguage, translateMsg } from "~/i18n";
import { parseListQuery } from "~/lib/notifications";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { clearNotifications, listNotifications } from "~/services/notify/notifications.server";
import { ValidationError } from "~/services/platform/errors.server";

/** GET lists, DELETE clears; any other method → 405 with `Allow: GET, HEAD, DELETE`. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, {
    GET: async () => {
      const user = await requireApiUser(request);
      const parsed = parseListQuery(new URL(request.url).searchParams);
      if (!parsed.ok) throw new ValidationError(parsed.msg);
      return { success: true, ...(await listNotifications(user.id, parsed.query, toLanguage(user.preferences?.language))) };
    },
    DELETE: async () => {
      const user = await requireApiUser(request);
      const deleted = await clearNotifications(user.id);
      return { success: true, message: translateMsg(msg("notices:api.cleared"), user.preferences?.language), deleted, unreadCount: 0 };
    },
  });

export const action = loader;
