/** GET /api/docs/{asset} → the reference page's script and style sheet (swagger-ui-dist) and its start-up script; 404 otherwise. Public. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { docsAsset } from "~/route-support/openapi/docs-page.server";

export const loader = ({ request, params }: LoaderFunctionArgs) => apiRoute(request, "GET", () => docsAsset(params.asset ?? ""));

/** Every other method reaches the same handler, which answers 405 with `Allow`. */
export const action = loader;
