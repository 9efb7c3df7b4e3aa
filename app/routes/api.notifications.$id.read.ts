/** PUT /api/notifications/{id}/read → {notification, unreadCount}; 404 when the id is not one of the user's (PRODUCT.md §7). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { markNotificationRead, unreadCount } from "~/services/notify/notifications.server";
import { NotFoundError } from "~/services/platform/errors.server";

export const action = ({ request, params }: ActionFunctionArgs) =>
  apiRoute(request, "PUT", async () => {
    const user = await requireApiUser(request);
    const notification = await markNotificationRead(user.id, params.id ?? "", user.preferences?.language);
    if (!notification) throw new NotFoundError(msg("notices:api.notFound"));
    return { success: true, notification, unreadCount: await unreadCount(user.id) };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
