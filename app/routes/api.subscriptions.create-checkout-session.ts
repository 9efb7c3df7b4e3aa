/**
 * POST /api/subscriptions/create-checkout-session {planId} → {success, checkoutUrl, sessionId} (PRODUCT.md §7;
 * issue 9): a Stripe Checkout session for the plan; the browser is sent to `checkoutUrl`. 400 unknown
 * plan, 409 already subscribed, 503 payments not configured, 502 Stripe failure, each with a message.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, readBody } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { createCheckout } from "~/services/billing/billing.server";
import { checkoutSessionSchema as body } from "~/route-support/openapi/request-schemas";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const { planId } = await readBody(request, body);
    return { success: true, ...(await createCheckout(user, planId)) };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
