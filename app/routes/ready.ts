/** Readiness (issue 24): 200 when this process can serve (database, migrations, workers, broker within a minute, not shutting down), 503 `{status:"not_ready", reasons}` otherwise; GET/HEAD only (405 with `Allow` otherwise). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { readinessResponse } from "~/services/platform/health.server";

export const loader = ({ request }: LoaderFunctionArgs) => apiRoute(request, "GET", readinessResponse);

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;
