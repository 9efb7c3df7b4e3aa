/**
 * POST /api/trades/ai/kill-switch/resume → {success, level: "resume_entries", isActive, message}: "Retomar entradas"
 * ends the user's 'Parar novas entradas' (issue 22, app/services/trading/kill-switch.server.ts); audited in the notifications.
 * Session auth; like starting the AI it needs a valid licence (402); 409 when entries are not stopped by the user.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { resumeEntries } from "~/services/trading/kill-switch.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const { title: _title, messageMsg: _messageMsg, ...result } = await resumeEntries(user, "app", user.preferences?.language);
    return result;
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
