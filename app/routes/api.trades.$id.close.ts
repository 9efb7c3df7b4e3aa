/** POST /api/trades/{id}/close {units} (default 'ALL') closes one open trade of the user's account. */
import type { ActionFunctionArgs } from "@remix-run/node";
import { forgetAccountState } from "~/services/broker/account-cache.server";
import { apiRoute, readBody } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { closeTrade } from "~/services/trading/trades.server";
import { closeTradeSchema as body } from "~/route-support/openapi/request-schemas";

export const action = ({ request, params }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const { units } = await readBody(request, body);
    try {
      return await closeTrade(user.id, params.id ?? "", units, user.preferences?.language);
    } finally {
      forgetAccountState(user.id); // the screens read the account fresh after a close attempt
    }
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
