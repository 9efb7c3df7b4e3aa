/**
 * GET /api/backtest/{id} → {run} with status, progress and (when done) the result, each trade's
 * reason also as text in the user's language; DELETE → {success} (a finished run). 404 for an id
 * that is not one of the user's. Issue 12, ADR 0019.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { deleteRun, getRun } from "~/services/backtest/runs.server";

export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiRoute(request, {
    GET: async () => {
      const user = await requireApiUser(request);
      const run = await getRun(user.id, params.id ?? "");
      const lang = user.preferences?.language;
      if (run.result) run.result = { ...run.result, trades: run.result.trades.map((t) => ({ ...t, reasonText: translateMsg(t.reasonMsg, lang) })) };
      return { success: true, run };
    },
    DELETE: async () => {
      const user = await requireApiUser(request);
      await deleteRun(user.id, params.id ?? "");
      return { success: true, message: translateMsg(msg("backtest:deleted"), user.preferences?.language) };
    },
  });

export const action = loader;
