/** POST /api/notifications/subscribe: alias of /api/push/subscribe (PRODUCT.md §7). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { subscribeRoute } from "~/route-support/push-routes.server";

export const action = ({ request }: ActionFunctionArgs) => subscribeRoute(request);

/** Every method reaches the same handler, which answers 405 with `Allow` for the wrong ones. */
export const loader = action;
