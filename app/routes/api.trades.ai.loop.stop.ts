/** POST /api/trades/ai/loop/stop → {success, message, isActive:false}; stop reason 'manual'; message in the user's language. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { stopBot } from "~/services/trading/bot-stop.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    await stopBot(user.id, "manual");
    return { success: true, message: translateMsg(msg("bot:stopped"), user.preferences?.language), isActive: false };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
