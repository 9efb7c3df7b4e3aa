/**
 * GET /api/subscriptions/validate-session/{sessionId} → {success, valid, ...status} (PRODUCT.md §7;
 * issue 9): the return from Checkout, checked with Stripe (the session must be the caller's) and
 * applied at once; 404 for someone else's or an unknown session.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { validateCheckoutSession } from "~/services/billing/billing.server";

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const user = await requireApiUser(request);
    const { valid, status } = await validateCheckoutSession(user, params.sessionId ?? "");
    return { ...status, valid };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;
