/** POST /api/trades/ai/loop/stop → {success, message, isActive:false}; stop reason 'manual'. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { stopBot } from "~/services/bot.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    await stopBot(user.id, "manual");
    return { success: true, message: "IA desativada", isActive: false };
  });
