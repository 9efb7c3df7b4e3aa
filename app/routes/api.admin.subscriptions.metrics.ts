/**
 * GET /api/admin/subscriptions/metrics → {success, active_count, mrr_monthly_by_currency} (PRODUCT.md
 * §3 Subscription metrics, §7 Admin; issue 10): Stripe's active subscriptions and their monthly value
 * in cents per currency (yearly prices divided by 12, × quantity). Admins only (401/403); 503 payments
 * not configured; 502 'Erro ao carregar assinaturas do Stripe'.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/services/admin/access.server";
import { subscriptionMetrics } from "~/services/admin/subscriptions.server";
import { apiRoute } from "~/route-support/api.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    await requireAdminApi(request);
    return { success: true, ...(await subscriptionMetrics()) };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow`. */
export const action = loader;
