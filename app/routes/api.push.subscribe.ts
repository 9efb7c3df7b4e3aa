/** POST /api/push/subscribe {subscription, topics?, client} (or the bare subscription) → 201: stores the caller's device. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { subscribeRoute } from "~/route-support/push-routes.server";

export const action = ({ request }: ActionFunctionArgs) => subscribeRoute(request);

/** Every method reaches the same handler, which answers 405 with `Allow` for the wrong ones. */
export const loader = action;
