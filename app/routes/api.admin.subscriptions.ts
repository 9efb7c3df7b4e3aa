/**
 * GET /api/admin/subscriptions?status=active&limit=50&starting_after=sub_… → {success, data,
 * has_more, next_cursor} (PRODUCT.md §3 Provider subscription, §7 Admin, §9 page size 50; issue 10):
 * Stripe's subscriptions read through the SDK, newest first, with our customers' names and our plans'
 * names. Admins only (401/403). 400 bad status/limit/cursor; 503 payments not configured; 502
 * 'Erro ao carregar assinaturas do Stripe'.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/services/admin/access.server";
import { listSubscriptions } from "~/services/admin/subscriptions.server";
import { apiRoute } from "~/route-support/api.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    await requireAdminApi(request);
    const q = new URL(request.url).searchParams;
    const page = await listSubscriptions({ status: q.get("status"), limit: q.get("limit"), startingAfter: q.get("starting_after") ?? q.get("cursor") });
    return { success: true, ...page };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow`. */
export const action = loader;
