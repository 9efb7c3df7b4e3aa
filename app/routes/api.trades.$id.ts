/**
 * GET /api/trades/:id → {trade, decision, decisionMissing} (issue 12): one of the user's trades (broker trade
 * id) with the decision that opened it, texts in the user's language (app/services/trading/trade-detail.server.ts).
 * Another user's id answers 404 'Trade não encontrado.' like an unknown one; 402 without a valid licence (as
 * the history). The nested POST /api/trades/:id/close keeps its own route (api.trades.$id.close.ts).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { requireValidLicence } from "~/services/identity/licence.server";
import { tradeDetail, tradeDetailJson } from "~/services/trading/trade-detail.server";

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const user = await requireApiUser(request);
    await requireValidLicence(user, msg("guard:licence.history"));
    const detail = await tradeDetail(user.id, params.id ?? "");
    return { success: true, ...tradeDetailJson(detail, user.preferences?.language) };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;
