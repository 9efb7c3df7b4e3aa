/**
 * POST /api/backtest {instruments, source, from, to, initialBalance?} → 202 {run} (queued with the
 * user's current settings; 400 invalid, 429 one already running); GET /api/backtest → {runs, offer}
 * (the user's runs, newest first, and what each candle source offers). Issue 12, ADR 0019. Sources:
 * "shipped" (data/), "broker" (the user's connection), "long" (the long H1 history of FX_LONG_DIR when
 * present, issue 21: `offer.long` with each pair's dates and `maxDays`; null when absent).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { apiRoute, json, readBody } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { createRun, listRuns, sourceOffer } from "~/services/backtest/runs.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, {
    GET: async () => {
      const user = await requireApiUser(request);
      return { success: true, runs: await listRuns(user.id), offer: await sourceOffer(user.id) };
    },
    POST: async () => {
      const user = await requireApiUser(request);
      const body = await readBody(request, z.unknown());
      const run = await createRun(user, body);
      return json({ success: true, message: translateMsg(msg("backtest:created"), user.preferences?.language), run }, 202);
    },
  });

export const action = loader;
