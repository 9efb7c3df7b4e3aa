/** GET /api/push/public-key → {key}: the VAPID public key (PRODUCT.md §7 Push). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { publicKeyRoute } from "~/route-support/push-routes.server";

export const action = ({ request }: ActionFunctionArgs) => publicKeyRoute(request);

/** Every method reaches the same handler, which answers 405 with `Allow` for the wrong ones. */
export const loader = action;
