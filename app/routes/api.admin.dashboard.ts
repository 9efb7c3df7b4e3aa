/**
 * GET /api/admin/dashboard → {success, users, licences, revenue, recentUsers, languages, activity,
 * operations, generatedAt}: the admin dashboard's figures as JSON (PRODUCT.md §2 Admin panel
 * "Dashboard", §9; issue 10), the same the /admin page shows. Admins only (anonymous 401, users 403).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "~/services/admin/access.server";
import { getDashboard } from "~/services/admin/dashboard.server";
import { apiRoute } from "~/route-support/api.server";

/** GET only; any other method → 405 with `Allow: GET, HEAD`. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    await requireAdminApi(request);
    return { success: true, ...(await getDashboard()) };
  });

export const action = loader;
