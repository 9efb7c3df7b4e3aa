/**
 * The user's broker connection (PRODUCT.md §7 Broker, §3 Broker connection): token test, the stored
 * connection (token encrypted with ENCRYPTION_KEY, never returned), status, and the OANDA client for a
 * connected user. Connect and disconnect act on the bot's books too: trading/broker-link.server.ts. A broker 401/403 is reported to our API callers as 400 with the
 * broker message: our own 401 means "your session is over" and would log the user out (§8).
 * Broker messages are translatable (`BrokerError.messageMsg`, core namespace `broker`): the API
 * renders them in the user's language (ADR 0007).
 */
import type { AccountSummary, BrokerPort, Environment } from "../../../core/broker/port";
import { msg, type Msg } from "../../../core/i18n/message";
import { createOandaClient } from "../../../core/oanda/client";
import { BrokerError } from "../../../core/oanda/errors";
import { translateMsg } from "~/i18n";
import { systemClock } from "../platform/system-clock";
import { config } from "../platform/config.server";
import { decryptSecret } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { connectionRow, setConnectionStatus, setMarketClockOffset } from "../../../db/queries/broker-connections";
import { DomainError, InternalError, UpstreamError, ValidationError } from "../platform/errors.server";
import { noteBrokerClock } from "./quote-cache.server";
import { egressFor } from "./egress.server";
import { brokerObserver } from "../platform/metrics.server";
import { noteBrokerAnswer } from "../platform/readiness-state";

/** The simulator's reply header with its clock's tag (server/simulator/server.ts SIM_CLOCK_HEADER; not imported: the simulator stays out of the app bundle). */
const SIM_CLOCK_HEADER = "x-sim-clock";

import type { BrokerConnectionRow } from "./broker-connection";
export type { BrokerConnectionRow };

/**
 * An OANDA client for a token and environment, on the hosts of the configured mode, with the
 * configured per-attempt timeout and GET retries (`OANDA_TIMEOUT_MS`, `OANDA_RETRIES`). `signal`
 * cancels its requests, retries and backoff waits included (a bot tick's deadline).
 */
export function clientFor(token: string, environment: Environment, signal?: AbortSignal): BrokerPort {
  const cfg = config();
  const hosts = cfg.oanda[environment];
  const egress = egressFor(token);
  return createOandaClient({
    environment, token, apiUrl: hosts.api, streamUrl: hosts.stream, clock: systemClock,
    // The simulator's clock tag on every reply (absent on OANDA): the shared quotes follow its jumps.
    // The token's egress address and its per-IP budget (egress.server.ts, ADR 0041).
    fetch: async (input, init) => {
      const res = await egress.fetch(input, init);
      noteBrokerClock(environment, res.headers.get(SIM_CLOCK_HEADER));
      if (res.status < 500) noteBrokerAnswer(); // /ready: the broker answered within the last minute
      return res;
    },
    timeoutMs: cfg.OANDA_TIMEOUT_MS, retries: cfg.OANDA_RETRIES, limiter: egress.limiter,
    // Every attempt counted and timed by endpoint template (issue 24 metrics; core keeps no metrics library).
    observer: brokerObserver,
    ...(signal && { signal }),
  });
}

/**
 * A broker failure as a domain error: the broker unreachable, failing (5xx), rate-limiting (429) or
 * answering garbage → UpstreamError (502: not the caller's fault, worth retrying later); a refusal
 * (including a revoked token) → ValidationError (400; never 401: see module doc); ours unchanged,
 * else InternalError. The message is the broker's of PRODUCT.md §8 either way.
 */
export function brokerFailure(err: unknown): DomainError {
  if (err instanceof BrokerError)
    return err.retryable || err.kind === "invalid_response"
      ? new UpstreamError(err.messageMsg, { brokerStatus: err.status })
      : new ValidationError(err.messageMsg, { brokerStatus: err.status });
  if (err instanceof DomainError) return err;
  return new InternalError(msg("api:broker.unexpected"));
}

/** The broker's current time for a connection (our clock corrected by the last observed offset). */
export function brokerNow(conn: Pick<BrokerConnectionRow, "market_clock_offset_ms"> | undefined, now = Date.now()): number {
  return now + Number(conn?.market_clock_offset_ms ?? 0);
}

/** Records the broker's clock as seen in a price time (RFC3339), so windows follow the market's "now". */
export async function recordMarketTime(userId: string, marketTimeMs: number): Promise<void> {
  if (!Number.isFinite(marketTimeMs) || marketTimeMs <= 0) return;
  await setMarketClockOffset(db(), userId, Math.round(marketTimeMs - Date.now()));
}

/** Accounts the token can reach in the environment, with name, currency and balance (wizard step 3). */
export async function testToken(token: string, environment: Environment) {
  const client = clientFor(token, environment);
  try {
    const refs = await client.listAccounts();
    const accounts = await Promise.all(
      refs.map(async (ref) => {
        try {
          const s = await client.getAccountSummary(ref.id);
          return { id: s.id, name: s.alias || `Conta ${s.id}`, alias: s.alias ?? null, currency: s.currency, balance: s.balance, environment };
        } catch {
          return { id: ref.id, name: `Conta ${ref.id}`, alias: null, currency: null, balance: null, environment };
        }
      }),
    );
    return accounts;
  } catch (err) {
    throw brokerFailure(err);
  }
}

/** The stored connection of a user, if any. */
export async function getConnection(userId: string): Promise<BrokerConnectionRow | undefined> {
  return connectionRow(db(), userId);
}

/** The broker account is connected by another user of the app (issue 8: one app user per broker account). */
export const ACCOUNT_IN_USE: Msg = msg("api:broker.accountInUse");

/** No connection: 'Nenhuma conta Oanda conectada.' (PRODUCT.md §8). */
export const NOT_CONNECTED: Msg = msg("api:broker.notConnected");

/**
 * The user's connection and a client for it (`signal`: see `clientFor`).
 * @throws ValidationError 'Nenhuma conta Oanda conectada.'
 */
export async function requireBroker(userId: string, signal?: AbortSignal) {
  const conn = await getConnection(userId);
  if (!conn) throw new ValidationError(NOT_CONNECTED);
  return { conn, client: clientFor(decryptSecret(conn.token_encrypted), conn.environment, signal) };
}

/**
 * The connection status of PRODUCT.md §3 Broker connection (`isConnected`, `account` with the
 * figures) built from what was read: `read.summary` the account summary (live or stored), or
 * `read.error` the failure that kept it from being read — then `balance` is '0.0000', `error` its
 * text in `language` (Portuguese by default) and `errorMsg` the message itself. The one builder of
 * GET /api/oanda-auth/status (`brokerStatus`) and the screens (account-view.server.ts `accountStatus`).
 */
export function connectionStatus(
  conn: Pick<BrokerConnectionRow, "account_id" | "account_alias" | "environment" | "account_currency"> | undefined,
  read: { summary: AccountSummary } | { error: unknown },
  language: unknown = "pt",
) {
  if (!conn) return { isConnected: false as const, account: null };
  const base = accountIdentity(conn);
  if ("error" in read) {
    const errorMsg = statusErrorMsg(read.error);
    return { isConnected: true as const, account: { ...base, balance: "0.0000" }, error: translateMsg(errorMsg, language), errorMsg };
  }
  const s = read.summary;
  return {
    isConnected: true as const,
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
}

/** What identifies a connected account (no figures): id, name (alias or 'Conta {id}'), environment, platform, currency. */
function accountIdentity(conn: Pick<BrokerConnectionRow, "account_id" | "account_alias" | "environment" | "account_currency">) {
  return {
    id: conn.account_id,
    name: conn.account_alias || `Conta ${conn.account_id}`,
    environment: conn.environment,
    platform: "OANDA v20",
    currency: conn.account_currency ?? "USD",
  };
}

/**
 * Connection status without account figures, for a user without a valid licence (PRODUCT.md §6:
 * account data needs one): isConnected and the account's id, name, environment — no balance, NAV,
 * P&L or margin, and no broker call.
 */
export async function brokerIdentityStatus(userId: string) {
  const conn = await getConnection(userId);
  if (!conn) return { isConnected: false as const, account: null };
  return { isConnected: true as const, account: accountIdentity(conn) };
}

/** The message of a failed account read: the broker's, else 'Erro ao carregar dados da conta' (api:broker.accountLoadError). */
export function statusErrorMsg(err: unknown): Msg {
  return err instanceof BrokerError ? err.messageMsg : msg("api:broker.accountLoadError");
}

/**
 * Connection status with live account figures (PRODUCT.md §3 Broker connection Status), read from
 * the broker now (GET /api/oanda-auth/status); the connection's status is recorded (the stored
 * `last_error` always Portuguese). Shape and texts: `connectionStatus`.
 */
export async function brokerStatus(userId: string, language: unknown = "pt") {
  const conn = await getConnection(userId);
  if (!conn) return connectionStatus(undefined, { error: null }, language);
  try {
    const summary = await clientFor(decryptSecret(conn.token_encrypted), conn.environment).getAccountSummary(conn.account_id);
    await markConnection(userId, "connected");
    return connectionStatus(conn, { summary }, language);
  } catch (error) {
    await markConnection(userId, "error", translateMsg(statusErrorMsg(error), "pt"));
    return connectionStatus(conn, { error }, language);
  }
}

/** Records whether the last broker call of a user's connection worked. */
export async function markConnection(userId: string, status: "connected" | "error", error?: string) {
  await setConnectionStatus(db(), userId, status, error ?? null);
}
