/** GET /api/docs → the API reference page (Swagger UI drawing /api/openapi.json, served from this origin; issue 24). Public. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { docsPage } from "~/route-support/openapi/docs-page.server";

export const loader = ({ request }: LoaderFunctionArgs) => apiRoute(request, "GET", docsPage);

/** Every other method reaches the same handler, which answers 405 with `Allow`. */
export const action = loader;
