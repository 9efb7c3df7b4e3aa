/** POST /api/notifications/test → 201 {notification}: creates a test notification for the user (PRODUCT.md §7). File name escapes `test` because `*.test.*` files are ignored as routes. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, json } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { sendTestNotification } from "~/services/notifications.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const notification = await sendTestNotification(user.id);
    return json({ success: true, message: "Notificação de teste enviada.", notification }, 201);
  });
