/** POST /api/oanda-auth/disconnect: removes the connection and stops the AI (it cannot run without it). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { apiRoute, ApiError } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { stopBot } from "~/services/bot.server";
import { disconnectBroker, NOT_CONNECTED } from "~/services/broker.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    await stopBot(user.id, "manual");
    if (!(await disconnectBroker(user.id))) throw new ApiError(400, NOT_CONNECTED);
    return { success: true, message: translateMsg(msg("api:broker.disconnected"), user.preferences?.language) };
  });
