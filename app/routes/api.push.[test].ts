/** POST /api/push/test → 201: the test notification, pushed to the caller's devices. File name escapes `test` (`*.test.*` files are not routes). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { pushTestRoute } from "~/route-support/push-routes.server";

export const action = ({ request }: ActionFunctionArgs) => pushTestRoute(request);

/** Every method reaches the same handler, which answers 405 with `Allow` for the wrong ones. */
export const loader = action;
