/** GET /api/notifications/unread-count → {count, unreadCount} (polled every 30 s by the header bell, PRODUCT.md §7, §9). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { unreadCount } from "~/services/notify/notifications.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const user = await requireApiUser(request);
    const count = await unreadCount(user.id);
    return { success: true, count, unreadCount: count };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;
