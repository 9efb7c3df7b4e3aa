/**
 * The account figures the screens show (hero `/`, `/dashboard`), read through the shared account
 * cache (account-cache.server.ts) instead of one broker call per page view (issue 13 "Web under
 * load"): the summary entry is the one GET /api/account/summary and the pre-flight check use, the
 * open-trades entry the one GET /api/trades/account/open uses, so a page, its data request and the
 * APIs it polls share one broker read per user per ACCOUNT_STATE_TTL_MS.
 */
import type { AccountSummary } from "../../core/broker/port";
import { msg, type Msg } from "../../core/i18n/message";
import { BrokerError } from "../../core/oanda/errors";
import { translateMsg } from "~/i18n";
import { cachedAccountState } from "./account-cache.server";
import type { BrokerConnectionRow } from "./broker-connection";
import { clientFor, getConnection, markConnection } from "./broker.server";
import { decryptSecret } from "./crypto.server";
import { openTrades } from "./trades.server";

/** The cache key of a connection's account summary (shared with api.account.summary.ts and preflight.server.ts). */
export function summaryKey(userId: string, accountId: string): string {
  return `${userId}:${accountId}:summary`;
}

/** The cache key of a user's open trades (shared with api.trades.account.open.ts). */
export function openTradesKey(userId: string): string {
  return `${userId}:open`;
}

/**
 * Connection status with the account figures, as broker.server.ts `brokerStatus` answers it (PRODUCT.md §3
 * Broker connection Status) — same shape, same texts — with the summary read through the shared cache
 * and the connection's status written only when it changes. `conn`: the connection already read by the
 * caller (undefined: read here; null: none).
 */
export async function accountStatus(userId: string, language: unknown = "pt", conn?: BrokerConnectionRow | null) {
  const c = conn === undefined ? await getConnection(userId) : (conn ?? undefined);
  if (!c) return { isConnected: false, account: null };
  const base = {
    id: c.account_id,
    name: c.account_alias || `Conta ${c.account_id}`,
    environment: c.environment,
    platform: "OANDA v20",
    currency: c.account_currency ?? "USD",
  };
  try {
    const s = await cachedAccountState<AccountSummary>(summaryKey(userId, c.account_id), () =>
      clientFor(decryptSecret(c.token_encrypted), c.environment).getAccountSummary(c.account_id),
    );
    if (c.status !== "connected") await markConnection(userId, "connected");
    return {
      isConnected: true,
      account: {
        ...base,
        currency: s.currency,
        balance: s.balance,
        nav: s.NAV,
        unrealizedPL: s.unrealizedPL,
        marginUsed: s.marginUsed,
        marginAvailable: s.marginAvailable,
        openTradeCount: s.openTradeCount,
        openPositionCount: s.openPositionCount,
        lastTransactionID: s.lastTransactionID,
      },
    };
  } catch (err) {
    const errorMsg: Msg = err instanceof BrokerError ? err.messageMsg : msg("api:broker.accountLoadError");
    await markConnection(userId, "error", translateMsg(errorMsg, "pt"));
    return { isConnected: true, account: { ...base, balance: "0.0000" }, error: translateMsg(errorMsg, language), errorMsg };
  }
}

/**
 * The user's open trades (trades.server.ts `openTrades`) through the shared cache, never stale (a trade
 * placed at the broker directly is not in our books: the list must be the broker's of the last second).
 * @throws what openTrades throws
 */
export function cachedOpenTrades(userId: string): ReturnType<typeof openTrades> {
  return cachedAccountState(openTradesKey(userId), () => openTrades(userId), { stale: false });
}
