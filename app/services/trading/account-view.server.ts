/**
 * The account figures and open trades the screens show (hero `/`, `/dashboard`, GET
 * /api/trades/account/open), served from our database and the shared caches instead of one broker
 * call per page view (issue 13 "Web under load", ADR 0028):
 * - the stored account state (account-state.server.ts, written by bot ticks and by this module):
 *   summary and open trades as the broker last gave them, consistent at a transaction id; while our
 *   reconcile cursor is at that same id they are valued at the environment's shared quotes
 *   (quote-cache.server.ts, ≤ QUOTE_TTL_MS old) with core/trading/account.ts `markToMarket` — the
 *   same `tickAccount` valuation a tick uses;
 * - the account's transactions must have been looked at less than SCREEN_CHECK_MAX_AGE_MS ago: by a
 *   bot tick's sync (`account_states.synced_at`), by the stored read itself, or by a check of this
 *   process (a `reconcile`: `GET transactions/sinceid`, which also books what happened). Else, or without a usable stored state, the screen checks first; a stored state that
 *   is then behind the cursor is read again from the broker (summary, open trades) and stored;
 * - an open trade whose stop loss or take profit the current quote has crossed was probably closed
 *   at the broker: the screen checks at once instead of showing it open.
 * One view of a user is shared by concurrent requests for ACCOUNT_STATE_TTL_MS (account-cache.server.ts);
 * trade events forget it.
 */
import type { AccountSummary, ClientPrice, Trade } from "../../../core/broker/port";
import { Decimal } from "../../../core/decimal";
import { LRUCache } from "lru-cache";
import { cachedAccountState } from "../broker/account-cache.server";
import { parseAccountState, storedFor, tickAccount, ACCOUNT_STATE_MAX_AGE_MS, type StoredAccountState } from "../broker/account-state.server";
import { offeredInstrumentList } from "../broker/account-state.server";
import type { BrokerConnectionRow } from "../broker/broker-connection";
import { brokerFailure, brokerNow, clientFor, connectionStatus, markConnection, NOT_CONNECTED, statusErrorMsg } from "../broker/broker.server";
import { decryptSecret } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { connectionWithState } from "../../../db/queries/broker-connections";
import { ValidationError } from "../platform/errors.server";
import { sharedQuotes } from "../broker/quote-cache.server";
import { reconcile } from "./reconcile.server";
import { openTradeViews } from "./trades.server";
import { translateMsg } from "~/i18n";

/**
 * How long ago the account's transactions may have been looked at for a screen to show the stored
 * account state, ms (ADR 0028): one bot interval (PRODUCT.md §9: the UI starts the loop with 60 s) —
 * the screens see what happened at the broker outside the product (a trade placed on the broker's
 * own platform, a close by stop or target) at most this late; a bot tick's sync
 * within it spares the screens their own check.
 */
export const SCREEN_CHECK_MAX_AGE_MS = 60_000;

/** What a screen knows of the user's connection and account. */
export interface ScreenAccount {
  /** The user's connection (undefined: none). */
  conn: BrokerConnectionRow | undefined;
  /** The account read (absent without a connection or when the broker failed). */
  read?: {
    summary: AccountSummary;
    /** Open trades with unrealized P&L at the quotes of `prices`. */
    trades: Trade[];
    /** Quotes of the open trades' instruments (and conversion pairs). */
    prices: ClientPrice[];
    /** Where summary and trades come from: the broker now, or the stored read valued at current quotes. */
    source: "broker" | "stored";
  };
  /** Why the broker could not be read (with a connection). */
  error?: unknown;
}

/** When this process last looked at a user's transactions (ms), by user id. */
const checks = new LRUCache<string, number>({ max: 50_000, ttl: SCREEN_CHECK_MAX_AGE_MS });
/** Checks under way, by user id (concurrent screens of a user share one): the cursor they end at. */
const checking = new Map<string, Promise<string>>();
/** How long after a check a crossed stop or target does not trigger another (the broker said the trade is open), ms. */
const CROSSED_RECHECK_MS = 5000;

/** The user's connection and stored account state, in one statement. */
async function readScreenRow(userId: string) {
  const row = await connectionWithState(db(), userId);
  if (!row) return undefined;
  const { state, ...conn } = row;
  return { conn: conn as BrokerConnectionRow, stored: parseAccountState(state) };
}

/**
 * Reconciles the user's account now (one `GET transactions/sinceid` when nothing happened; what
 * happened is booked), shared by concurrent callers; `conn.last_transaction_id` becomes the cursor.
 */
async function check(userId: string, conn: BrokerConnectionRow, client: () => ReturnType<typeof clientFor>): Promise<void> {
  let p = checking.get(userId);
  if (!p) {
    const at = Date.now();
    p = reconcile(userId, { ...conn }, client())
      .then((r) => {
        checks.set(userId, at);
        return r.lastTransactionID;
      })
      .finally(() => checking.delete(userId));
    checking.set(userId, p);
  }
  conn.last_transaction_id = await p;
}

/**
 * When a bot tick's sync last confirmed the stored state (`synced_at`, ADR 0027: on the broker's
 * clock, moved back onto ours with the connection's offset), ms; 0 when unknown.
 */
function syncedAt(stored: StoredAccountState | undefined, conn: BrokerConnectionRow): number {
  const at = (stored as { synced_at?: Date | null } | undefined)?.synced_at;
  return at ? at.getTime() - Number(conn.market_clock_offset_ms ?? 0) : 0;
}

/** Whether the quote that would close `t` has reached its stop loss or take profit (the broker has probably closed it). */
export function crossedExit(
  t: { instrument: string; currentUnits: string; stopLossOrder?: { price?: string } | undefined; takeProfitOrder?: { price?: string } | undefined },
  prices: readonly ClientPrice[],
): boolean {
  const q = prices.find((p) => p.instrument === t.instrument);
  if (!q) return false;
  const long = new Decimal(t.currentUnits).gte(0);
  const close = new Decimal(long ? q.bid : q.ask);
  const sl = t.stopLossOrder?.price;
  const tp = t.takeProfitOrder?.price;
  if (long) return (sl !== undefined && close.lte(sl)) || (tp !== undefined && close.gte(tp));
  return (sl !== undefined && close.gte(sl)) || (tp !== undefined && close.lte(tp));
}

/** The account as the stored state (or, when it does not match the cursor, a broker read that is then stored) gives it. */
async function snapshot(userId: string, conn: BrokerConnectionRow, stored: StoredAccountState | undefined, client: () => ReturnType<typeof clientFor>) {
  const seen = new Map<string, ClientPrice>();
  const offered = () => offeredInstrumentList(conn, client(), { stored });
  const names = async () => (await offered()).map((i) => i.name);
  const quotes = async (instruments: string[]) => {
    const list = await names();
    const got = await sharedQuotes(conn.environment, instruments, {
      accountId: conn.account_id,
      client: { getPricing: (id, ins) => client().getPricing(id, ins) },
      offered: list,
    }, { screen: true });
    for (const p of got) seen.set(p.instrument, p);
    return got;
  };
  const snap = await tickAccount({
    userId,
    conn,
    client: { getAccountSummary: (id) => client().getAccountSummary(id), listOpenTrades: (id) => client().listOpenTrades(id) },
    stored,
    quotes,
    marginRates: async () => new Map((await offered()).map((i) => [i.name, i.marginRate])),
    offered: names,
    marketNow: () => brokerNow(conn),
  }).snapshot();
  // A broker read carries the broker's P&L; the price chips still need the quotes.
  const missing = [...new Set(snap.trades.map((t) => t.instrument))].filter((i) => !seen.has(i));
  if (missing.length) await quotes(missing);
  return { summary: snap.summary, trades: snap.trades, prices: [...seen.values()], source: snap.source };
}

/** The screen's account read (see the module doc). */
async function readAccount(userId: string): Promise<ScreenAccount> {
  const row = await readScreenRow(userId);
  if (!row) return { conn: undefined };
  const { conn } = row;
  let made: ReturnType<typeof clientFor> | undefined;
  const client = () => (made ??= clientFor(decryptSecret(conn.token_encrypted), conn.environment));
  try {
    const stored = storedFor(row.stored, conn);
    const now = Date.now();
    const usable =
      stored?.summary && stored.open_trades && stored.read_at && stored.last_transaction_id === conn.last_transaction_id && now - stored.read_at.getTime() < ACCOUNT_STATE_MAX_AGE_MS;
    const lookedAt = Math.max(stored?.read_at?.getTime() ?? 0, syncedAt(stored, conn), checks.get(userId) ?? 0);
    if (!usable || now - lookedAt > SCREEN_CHECK_MAX_AGE_MS) await check(userId, conn, client);
    let read = await snapshot(userId, conn, stored, client);
    if (read.source === "stored" && read.trades.some((t) => crossedExit(t, read.prices)) && Date.now() - (checks.get(userId) ?? 0) > CROSSED_RECHECK_MS) {
      await check(userId, conn, client);
      read = await snapshot(userId, conn, stored, client);
    }
    if (conn.status !== "connected" && read.source === "broker") await markConnection(userId, "connected");
    return { conn, read };
  } catch (error) {
    await markConnection(userId, "error", translateMsg(statusErrorMsg(error), "pt"));
    return { conn, error };
  }
}

/**
 * The user's connection and account for a screen (module doc), shared by the requests of one user
 * within ACCOUNT_STATE_TTL_MS. Never throws for a broker failure: `error` says it.
 */
export function screenAccount(userId: string): Promise<ScreenAccount> {
  return cachedAccountState(`${userId}:screen`, () => readAccount(userId), { stale: false });
}

/**
 * Connection status with the account figures (PRODUCT.md §3 Broker connection Status; builder shared
 * with GET /api/oanda-auth/status: broker.server.ts `connectionStatus`), from `screenAccount`.
 */
export async function accountStatus(userId: string, language: unknown = "pt", known?: ScreenAccount) {
  const a = known ?? (await screenAccount(userId));
  if (!a.conn) return connectionStatus(undefined, { error: null }, language);
  return connectionStatus(a.conn, a.read ? { summary: a.read.summary } : { error: a.error }, language);
}

/**
 * The user's open trades as GET /api/trades/account/open answers them (trades.server.ts
 * `openTradeViews`), from `screenAccount`.
 * @throws ValidationError 'Nenhuma conta Oanda conectada.'; the broker's failure as a domain error
 */
export async function screenOpenTrades(userId: string, known?: ScreenAccount) {
  const a = known ?? (await screenAccount(userId));
  if (!a.conn) throw new ValidationError(NOT_CONNECTED);
  if (!a.read) throw brokerFailure(a.error);
  return openTradeViews(userId, a.conn.account_id, a.read.trades, a.read.prices);
}
