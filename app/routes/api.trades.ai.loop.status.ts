/** GET /api/trades/ai/loop/status → {isActive, intervalSec, loopState{lastStopReason, lastStartedAt, lastStoppedAt…}, lastDecisions}. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { botStatus } from "~/services/bot.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => botStatus((await requireApiUser(request)).id));
