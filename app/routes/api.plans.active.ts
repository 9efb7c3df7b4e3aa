/**
 * GET /api/plans/active → {success, plans} (PRODUCT.md §3 Plan, §7 "array or {plans}", §9): the active
 * plans, cheapest first, the default (highlighted, else first) marked `isDefault`, the duration in the
 * caller's language. Public: a price list holds no one's data, and the subscription modal, the billing
 * page and any pre-signup page read the same list (PRODUCT.md §6 names no role for it).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { activePlans } from "~/services/billing/plans.server";
import { requestLanguage } from "~/services/identity/request-language.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => ({ success: true, plans: await activePlans(await requestLanguage(request)) }));

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;
