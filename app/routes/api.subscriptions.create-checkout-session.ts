/**
 * POST /api/subscriptions/create-checkout-session {planId} → {success, checkoutUrl, sessionId} (PRODUCT.md §7;
 * issue 9): a Stripe Checkout session for the plan; the browser is sent to `checkoutUrl`. 400 unknown
 * plan, 409 already subscribed, 503 payments not configured, 502 Stripe failure, each with a message.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { zMsg } from "../../core/i18n/zod-message";
import { apiRoute, readBody } from "~/services/platform/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { createCheckout } from "~/services/billing/billing.server";

const planRequired = zMsg("validation:billing.planRequired");
const body = z.object({ planId: z.string({ error: planRequired }).trim().min(1, { error: planRequired }).max(100, { error: planRequired }) });

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const { planId } = await readBody(request, body);
    return { success: true, ...(await createCheckout(user, planId)) };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
