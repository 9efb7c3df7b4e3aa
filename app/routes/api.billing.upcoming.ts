/**
 * GET /api/billing/upcoming → {success, upcoming} (PRODUCT.md §7: next_payment_attempt,
 * next_payment_date, period_end, also under `upcoming`): the next charge of the caller's active
 * subscription from Stripe's invoice preview; `upcoming: null` when there is none.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { upcomingInvoice } from "~/services/billing/billing.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const upcoming = await upcomingInvoice(await requireApiUser(request));
    return { success: true, ...(upcoming ?? {}), upcoming };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;
