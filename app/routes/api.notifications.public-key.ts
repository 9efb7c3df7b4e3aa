/** GET /api/notifications/public-key: alias of /api/push/public-key (PRODUCT.md §7: the client tries both). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { publicKeyRoute } from "~/route-support/push-routes.server";

export const action = ({ request }: ActionFunctionArgs) => publicKeyRoute(request);

/** Every method reaches the same handler, which answers 405 with `Allow` for the wrong ones. */
export const loader = action;
