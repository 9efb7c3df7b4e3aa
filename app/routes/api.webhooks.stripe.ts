/**
 * POST /api/webhooks/stripe (issue 9, ADR 0014): Stripe's signed events. The raw body is verified
 * with `stripe.webhooks.constructEvent` (400 and nothing stored on a bad or stale signature), stored
 * once (a duplicate is a 200 no-op) and processed by a pg-boss job; the answer is immediate.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { receiveStripeEvent } from "~/services/billing/stripe-events.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const { id, duplicate } = await receiveStripeEvent(await request.text(), request.headers.get("stripe-signature"));
    return { received: true, id, duplicate };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
