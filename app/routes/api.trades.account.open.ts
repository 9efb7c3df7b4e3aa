/** GET /api/trades/account/open → {trades} open on the connected account, P&L at current quotes from the stored account state (ADR 0028; PRODUCT.md §7 Account); 402 without a valid licence (§6). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { screenOpenTrades } from "~/services/trading/account-view.server";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { requireValidLicence } from "~/services/identity/licence.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const user = await requireApiUser(request);
    await requireValidLicence(user, msg("guard:licence.account"));
    return { success: true, trades: await screenOpenTrades(user.id) };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;
