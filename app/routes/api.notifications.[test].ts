/** POST /api/notifications/test → 201 {notification, devices}: creates a test notification for the user (PRODUCT.md §7), which is also pushed to the user's subscribed devices (`devices`: how many; issue 11); at most USER_ACTION_RATE_LIMIT a minute per user (429 past it). File name escapes `test` because `*.test.*` files are ignored as routes. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { apiRoute, json } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { sendTestNotification } from "~/services/notify/notifications.server";
import { subscriptionCount } from "~/services/notify/push/push.server";
import { consumeUserAction } from "~/services/platform/user-rate-limit.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    await consumeUserAction(user.id, "notifications.test");
    const language = user.preferences?.language;
    const notification = await sendTestNotification(user.id, language);
    return json({ success: true, message: translateMsg(msg("notices:test.sent"), language), notification, devices: await subscriptionCount(user.id) }, 201);
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
