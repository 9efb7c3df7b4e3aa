/** Health (liveness): database, queue and broker reachability as JSON, always 200 while the process answers (readiness is /ready); GET/HEAD only (405 with `Allow` otherwise). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { healthResponse } from "~/services/platform/health.server";

export const loader = ({ request }: LoaderFunctionArgs) => apiRoute(request, "GET", healthResponse);

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;
