/**
 * GET /api/research/edge-table → {success, table} (issue 21): the shipped edge table
 * (core/research/edge-table.json: pair × style → verdict and out-of-sample figures, the study's
 * date, command and decision-rule outcome), plus `studyDate` (null until the study has run). Signed-in
 * users (session cookie or bearer token); any other method → 405 with `Allow: GET, HEAD`.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { edgeTableView } from "~/services/research/edge-table.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    await requireApiUser(request);
    return { success: true, table: edgeTableView() };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow`. */
export const action = loader;
