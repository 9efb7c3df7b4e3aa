/** POST /api/oanda-auth/connect {token, accountId, environment} → {success, message} (PRODUCT.md §7 Broker). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { apiRoute, readBody } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { connectBroker } from "~/services/broker.server";
import { notices } from "~/lib/notifications";
import { notify } from "~/services/notifications.server";
import { connectSchema } from "~/services/validation";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const input = await readBody(request, connectSchema);
    const summary = await connectBroker(user.id, input);
    await notify(user.id, { type: "success", ...notices.brokerConnected(summary.alias || summary.id, input.environment) });
    return { success: true, message: translateMsg(msg("api:broker.connected"), user.preferences?.language), account: { id: summary.id, name: summary.alias || `Conta ${summary.id}`, environment: input.environment } };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
