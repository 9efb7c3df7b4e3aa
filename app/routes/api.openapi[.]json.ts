/** GET /api/openapi.json → the OpenAPI 3.1 document of every /api route (issue 24; app/route-support/openapi). Public. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { openApiDocument } from "~/route-support/openapi/document.server";

export const loader = ({ request }: LoaderFunctionArgs) => apiRoute(request, "GET", async () => openApiDocument());

/** Every other method reaches the same handler, which answers 405 with `Allow`. */
export const action = loader;
