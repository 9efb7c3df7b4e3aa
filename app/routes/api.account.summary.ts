/** GET /api/account/summary → balance, NAV, currency, unrealizedPL, marginUsed… of the connected account. */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute } from "~/services/api.server";
import { requireApiUser } from "~/services/auth.server";
import { brokerFailure, requireBroker } from "~/services/broker.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const user = await requireApiUser(request);
    const { conn, client } = await requireBroker(user.id);
    const s = await client.getAccountSummary(conn.account_id).catch((e: unknown) => {
      throw brokerFailure(e);
    });
    return {
      success: true,
      accountId: s.id,
      environment: conn.environment,
      currency: s.currency,
      balance: s.balance,
      NAV: s.NAV,
      nav: s.NAV,
      unrealizedPL: s.unrealizedPL,
      pl: s.pl,
      marginUsed: s.marginUsed,
      marginAvailable: s.marginAvailable,
      openTradeCount: s.openTradeCount,
      openPositionCount: s.openPositionCount,
    };
  });
