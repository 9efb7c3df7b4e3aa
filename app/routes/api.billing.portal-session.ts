/**
 * POST /api/billing/portal-session → {success, portalUrl} (PRODUCT.md §7 "a billing-portal session
 * call returns portalUrl"; the path is ours): Stripe's Billing Portal for the caller's customer,
 * returning to /billing. 400 without a Stripe customer, 502 when Stripe fails.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { createPortalSession } from "~/services/billing/billing.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => ({ success: true, ...(await createPortalSession(await requireApiUser(request))) }));

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
