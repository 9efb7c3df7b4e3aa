/** POST /api/oanda-auth/disconnect: stops the AI and removes the connection, in one transaction (broker.server.ts). */
import type { ActionFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { NOT_CONNECTED } from "~/services/broker/broker.server";
import { disconnectBroker } from "~/services/trading/broker-link.server";
import { ValidationError } from "~/services/platform/errors.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    if (!(await disconnectBroker(user.id))) throw new ValidationError(NOT_CONNECTED);
    return { success: true, message: translateMsg(msg("api:broker.disconnected"), user.preferences?.language) };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
