/**
 * GET /api/account/summary → balance, NAV, currency, unrealizedPL, marginUsed… of the connected account; 402 without a
 * valid licence (PRODUCT.md §6). Issue 22: `display` — the user's display currency, the broker's rate from the account
 * currency and the amounts converted at it (2 decimals), or `unavailable` with the notice when the broker has no rate.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { cachedAccountState } from "~/services/broker/account-cache.server";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { brokerFailure, requireBroker } from "~/services/broker/broker.server";
import { requireValidLicence } from "~/services/identity/licence.server";
import { convertAmount } from "~/lib/display-currency";
import { displayRateFor } from "~/services/broker/display-currency.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const user = await requireApiUser(request);
    await requireValidLicence(user, msg("guard:licence.account"));
    const { conn, client } = await requireBroker(user.id);
    const s = await cachedAccountState(`${user.id}:${conn.account_id}:summary`, () => client.getAccountSummary(conn.account_id)).catch((e: unknown) => {
      throw brokerFailure(e);
    });
    const rate = await displayRateFor(user, conn, s.currency);
    const converted = (v: unknown) => convertAmount(v, rate, s.currency);
    const display = rate && {
      currency: rate.display,
      rate: rate.rate,
      instruments: rate.instruments,
      unavailable: rate.unavailable,
      notice: rate.notice,
      balance: converted(s.balance),
      NAV: converted(s.NAV),
      unrealizedPL: converted(s.unrealizedPL),
      pl: converted(s.pl),
      marginUsed: converted(s.marginUsed),
      marginAvailable: converted(s.marginAvailable),
    };
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
      display,
    };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;
