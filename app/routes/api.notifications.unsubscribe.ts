/** POST /api/notifications/unsubscribe: alias of /api/push/unsubscribe. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { unsubscribeRoute } from "~/route-support/push-routes.server";

export const action = ({ request }: ActionFunctionArgs) => unsubscribeRoute(request);

/** Every method reaches the same handler, which answers 405 with `Allow` for the wrong ones. */
export const loader = action;
