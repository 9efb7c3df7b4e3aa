/** GET /api/subscriptions/status → the §3 Subscription status response from our books (PRODUCT.md §7; issue 9). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { subscriptionStatus } from "~/services/billing/billing.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => subscriptionStatus(await requireApiUser(request)));

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;
