/** GET /api/trades/account/open → {trades} open on the connected account, live P&L (PRODUCT.md §7 Account). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { openTrades } from "~/services/trades.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => ({ success: true, trades: await openTrades((await requireApiUser(request)).id) }));
