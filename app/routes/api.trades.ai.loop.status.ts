/**
 * GET /api/trades/ai/loop/status → {isActive, manageOnly, manageOnlyReason, manageOnlyReasonMsg, intervalSec,
 * loopState{lastStopReason, lastStartedAt, lastStoppedAt, manageOnlyCode, manageOnlySince…}, lastDecisions};
 * `manageOnly`: the loop is on but, its licence lapsed, opens no new trades and only manages the open
 * ones (issue 9). Texts in the user's language, with their messages alongside (ADR 0007).
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { botStatus } from "~/services/trading/bot-status.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const user = await requireApiUser(request);
    return botStatus(user.id, user.preferences?.language);
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;
