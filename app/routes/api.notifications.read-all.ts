/** PUT /api/notifications/read-all → {updated, unreadCount: 0}: marks every notification of the user read (PRODUCT.md §7). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { markAllNotificationsRead } from "~/services/notify/notifications.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "PUT", async () => {
    const user = await requireApiUser(request);
    const updated = await markAllNotificationsRead(user.id);
    return { success: true, message: translateMsg(msg("notices:api.readAll"), user.preferences?.language), updated, unreadCount: 0 };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
