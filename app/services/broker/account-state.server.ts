/**
 * What a bot tick knows of its broker account without asking the broker (issue 13, ADR 0025),
 * stored per user in `account_states` (migration 0018):
 * - the last account summary and open trades read from the broker, consistent at the summary's
 *   `lastTransactionID`. A tick reads the transactions since the stored id anyway (reconcile); when
 *   there were none since that read, and the read is younger than `ACCOUNT_STATE_MAX_AGE_MS`, the
 *   stored figures are valued at the current quotes (core/trading/account.ts) instead of calling
 *   `GET summary` and `GET openTrades`. Any transaction at all (fills, closes, stop/target changes,
 *   financing, transfers…) moves the id, so the next read goes to the broker: nothing that changes
 *   the balance or the trades can be missed; the age bound catches what moves without a
 *   transaction (a margin rate, a trailing stop's level) and any drift of our valuation;
 * - the instruments the account offers (names, precision, margin rates), read again after
 *   `INSTRUMENTS_MAX_AGE_MS`, so a process start does not cost a request per account.
 * A row of another account than the user's current connection is ignored (and overwritten).
 */
import { createHash } from "node:crypto";
import type { AccountSummary, BrokerInstrument, BrokerPort, ClientPrice, Environment, Trade } from "../../../core/broker/port";
import { accountAfterFill, type OwnFill } from "../../../core/broker/own-fill";
import { markInstruments, markToMarket } from "../../../core/trading/account";
import type { BrokerConnectionRow } from "./broker-connection";
import { accountStateOfConnection, saveAccountReadRow, saveInstrumentsRow, saveOwnFillRow } from "../../../db/queries/account-states";
import { db } from "../platform/db.server";

/** How long a stored read of summary and open trades is reused while no transaction happens, ms. */
export const ACCOUNT_STATE_MAX_AGE_MS = 30 * 60_000;
/** How long the stored list of offered instruments is reused, ms. */
export const INSTRUMENTS_MAX_AGE_MS = 6 * 60 * 60_000;

/** A row of `account_states` (jsonb columns parsed, times as Dates). */
export interface StoredAccountState {
  environment: Environment;
  account_id: string;
  summary: AccountSummary | null;
  open_trades: Trade[] | null;
  /** The summary's lastTransactionID: the stored read is this account's state at that id. */
  last_transaction_id: string | null;
  read_at: Date | null;
  instruments: BrokerInstrument[] | null;
  instruments_read_at: Date | null;
  /**
   * When a sync (transactions since the cursor) last confirmed the stored summary and open trades,
   * on the broker's clock (broker.server.ts brokerNow: the simulator may replay history; migration
   * 0019, ADR 0027): a read sets it, a tick that synced and found nothing moves it.
   */
  synced_at: Date | null;
  /** The broker-rule check (migration 0023, broker-rules.server.ts rulesFor reads it), as stored. */
  account_rules?: unknown;
}

/** A row read as jsonb (db/queries/account-states.ts `ACCOUNT_STATE_JSON`), or undefined. */
export function parseAccountState(json: unknown): StoredAccountState | undefined {
  if (!json || typeof json !== "object") return undefined;
  const r = json as Record<string, unknown>;
  const date = (v: unknown) => (typeof v === "string" ? new Date(v) : null);
  return {
    environment: r.environment as Environment,
    account_id: String(r.account_id),
    summary: (r.summary as AccountSummary | null) ?? null,
    open_trades: (r.open_trades as Trade[] | null) ?? null,
    last_transaction_id: (r.last_transaction_id as string | null) ?? null,
    read_at: date(r.read_at),
    instruments: (r.instruments as BrokerInstrument[] | null) ?? null,
    instruments_read_at: date(r.instruments_read_at),
    synced_at: date(r.synced_at),
    account_rules: r.account_rules ?? null,
  };
}

/** `stored` when it is about the connection's account, else undefined. */
export function storedFor(stored: StoredAccountState | undefined, conn: Pick<BrokerConnectionRow, "environment" | "account_id">) {
  return stored && stored.environment === conn.environment && stored.account_id === conn.account_id ? stored : undefined;
}

/**
 * The stored account state of a user's current connection, for screens that show the account
 * without a broker call (issue 13 "account reads served from our database"): `summary` and
 * `open_trades` as the broker last gave them (their P&L figures are those of `read_at`, not now;
 * `last_transaction_id` says which transactions they include), and the offered instruments.
 * Undefined without a connection or before the first bot tick read it. One statement.
 */
export async function readAccountState(userId: string): Promise<StoredAccountState | undefined> {
  return parseAccountState(await accountStateOfConnection(db(), userId));
}

/** Stores a read of summary and open trades, confirmed at `syncedAt` (the broker's clock; one statement). */
async function saveAccountRead(userId: string, conn: BrokerConnectionRow, summary: AccountSummary, trades: Trade[], syncedAt: Date): Promise<void> {
  await saveAccountReadRow(db(), userId, conn, summary, trades, summary.lastTransactionID, syncedAt);
}

/** Stores the list of instruments the account offers (one statement). */
export async function saveInstruments(userId: string, conn: Pick<BrokerConnectionRow, "environment" | "account_id">, list: readonly BrokerInstrument[]): Promise<void> {
  await saveInstrumentsRow(db(), userId, conn, list);
}

/** The stored instruments list when it is the connection's and younger than INSTRUMENTS_MAX_AGE_MS. */
export function freshInstruments(stored: StoredAccountState | undefined, conn: Pick<BrokerConnectionRow, "environment" | "account_id">, now = Date.now()) {
  const s = storedFor(stored, conn);
  return s?.instruments && s.instruments_read_at && now - s.instruments_read_at.getTime() < INSTRUMENTS_MAX_AGE_MS ? s.instruments : undefined;
}

/**
 * A stable fraction in [0, 1) per user: the offset of the user's sync windows (ADR 0027), the first
 * 32 bits of the SHA-256 of the id (node:crypto), so the users' phases spread evenly over the window
 * whatever their ids look like (sequential, UUIDs).
 */
export function syncPhase(userId: string): number {
  return createHash("sha256").update(userId).digest().readUInt32BE(0) / 2 ** 32;
}

/**
 * Whether a bot tick must sync (read the transactions since its cursor) before using the stored
 * account state (ADR 0027). Not due while the stored read is the connection's, at its cursor, younger
 * than ACCOUNT_STATE_MAX_AGE_MS, and confirmed by a sync within the user's current sync window: time
 * is cut into windows of `maxAgeMs`, offset per user by a stable phase, and the first tick of a new
 * window syncs. So each bot syncs once per window (its state is never older than `maxAgeMs` plus one
 * tick interval) and the syncs of bots started together spread over the window instead of bunching.
 * A clock that went back by more than the age (a simulator replay restarted) is due too.
 * @param maxAgeMs the sync age (config ACCOUNT_SYNC_MAX_AGE_SEC × 1000); 0 = always due
 * @param now the broker's clock, ms (broker.server.ts brokerNow; `synced_at` is on it too): a
 *   simulator replay that jumps ahead syncs as the market moved, OANDA's clock is the wall clock
 */
export function syncDue(
  stored: StoredAccountState | undefined,
  conn: Pick<BrokerConnectionRow, "user_id" | "environment" | "account_id" | "last_transaction_id">,
  maxAgeMs: number,
  now = Date.now(),
): boolean {
  const s = storedFor(stored, conn);
  if (maxAgeMs <= 0 || !s?.summary || !s.open_trades || !s.read_at || !s.synced_at || s.last_transaction_id === null) return true;
  if (s.last_transaction_id !== conn.last_transaction_id || s.summary.lastTransactionID !== s.last_transaction_id) return true;
  if (Date.now() - s.read_at.getTime() >= ACCOUNT_STATE_MAX_AGE_MS) return true;
  const phase = syncPhase(conn.user_id) * maxAgeMs;
  const synced = s.synced_at.getTime();
  // A clock behind the sync by less than the age (a stopped simulator's clock is re-read with a drift) is not a new window.
  if (Math.abs(now - synced) >= maxAgeMs) return true;
  return now > synced && Math.floor((now + phase) / maxAgeMs) !== Math.floor((synced + phase) / maxAgeMs);
}

/** The account as one tick sees it: summary and open trades, consistent. */
export interface AccountSnapshot {
  summary: AccountSummary;
  trades: Trade[];
  /** Where the figures come from: the broker (read now) or the stored read valued at current quotes. */
  source: "broker" | "stored";
}

/**
 * One tick's view of the account (ADR 0025): `snapshot()` gives the summary and open trades at the
 * connection's current reconcile cursor — the stored read valued at `quotes` when no transaction
 * happened since it and it is recent, else `GET summary` then `GET openTrades`,
 * stored for the next ticks. A snapshot is reused within the tick until the cursor moves (a sync
 * that recorded transactions).
 * @param quotes the shared quotes (quote-cache.server.ts) of the instruments asked
 * @param marginRates each instrument's margin rate (the offered instruments list); `offered` its names
 */
export function tickAccount(opts: {
  userId: string;
  conn: BrokerConnectionRow;
  client: Pick<BrokerPort, "getAccountSummary" | "listOpenTrades">;
  stored: StoredAccountState | undefined;
  quotes: (instruments: string[]) => Promise<ClientPrice[]>;
  marginRates: () => Promise<ReadonlyMap<string, string>>;
  offered: () => Promise<readonly string[]>;
  /** The broker's clock now, ms (broker.server.ts brokerNow): when a read is confirmed (`synced_at`). */
  marketNow: () => number;
}) {
  let stored = storedFor(opts.stored, opts.conn);
  let last: { cursor: string | null; snap: AccountSnapshot } | undefined;
  const { conn } = opts;

  async function fromStored(): Promise<AccountSnapshot | undefined> {
    const s = stored;
    if (!s?.summary || !s.open_trades || !s.read_at || s.last_transaction_id === null) return undefined;
    if (s.last_transaction_id !== conn.last_transaction_id || s.summary.lastTransactionID !== s.last_transaction_id) return undefined;
    if (Date.now() - s.read_at.getTime() >= ACCOUNT_STATE_MAX_AGE_MS) return undefined;
    // No open trade: nothing moves with prices, the broker's figures stand as read.
    if (s.open_trades.length === 0) return { summary: s.summary, trades: [], source: "stored" };
    const prices = await opts.quotes(markInstruments(s.open_trades, s.summary.currency, await opts.offered()));
    const marked = markToMarket(s.summary, s.open_trades, prices, await opts.marginRates());
    return marked ? { ...marked, source: "stored" } : undefined;
  }

  return {
    /** Where the last snapshot's figures came from (undefined before the first). */
    lastSource: () => last?.snap.source,
    /**
     * Moves the stored read past an own order's fill (issue 24, ADR 0042), after the books recorded
     * it (reconcile.server.ts `recordOwnFill` moved the cursor to `fill.lastTransactionID`): the
     * stored read must be this connection's and at `fill.after`, the batch's first transaction's
     * predecessor, so that read plus the batch is the account at the new id; the result must value
     * at the current quotes (every trade priced, converted and with a margin rate). Then the summary
     * (the broker's balance after the fill) and open trades are stored at the new id, and the next
     * tick starts from them without asking the broker. Otherwise nothing is stored and the next
     * tick reads summary and open trades as after any transaction (ADR 0025).
     * @returns whether the stored read was moved
     */
    async afterOwnFill(fill: OwnFill): Promise<boolean> {
      const s = stored;
      if (!s?.summary || !s.open_trades || !s.read_at || s.last_transaction_id !== fill.after || s.summary.lastTransactionID !== fill.after) return false;
      if (Date.now() - s.read_at.getTime() >= ACCOUNT_STATE_MAX_AGE_MS) return false;
      const moved = accountAfterFill(s.summary, s.open_trades, fill);
      const prices = await opts.quotes(markInstruments(moved.trades, moved.summary.currency, await opts.offered()));
      const marked = markToMarket(moved.summary, moved.trades, prices, await opts.marginRates());
      if (!marked) return false;
      if (!(await saveOwnFillRow(db(), opts.userId, conn, marked.summary, marked.trades, fill.after, fill.lastTransactionID))) return false;
      stored = { ...s, summary: marked.summary, open_trades: marked.trades, last_transaction_id: fill.lastTransactionID };
      return true;
    },
    async snapshot(): Promise<AccountSnapshot> {
      const cursor = conn.last_transaction_id;
      if (last && last.cursor === cursor) return last.snap;
      let snap = await fromStored();
      if (!snap) {
        // Summary first: the trades are then at its transaction id or later; a later state shows as
        // transactions after the stored id at the next tick, which then reads again (never the reverse).
        const summary = await opts.client.getAccountSummary(conn.account_id);
        const trades = await opts.client.listOpenTrades(conn.account_id);
        const syncedAt = new Date(opts.marketNow());
        await saveAccountRead(opts.userId, conn, summary, trades, syncedAt);
        stored = { ...(stored ?? { environment: conn.environment, account_id: conn.account_id, instruments: null, instruments_read_at: null }), summary, open_trades: trades, last_transaction_id: summary.lastTransactionID, read_at: new Date(), synced_at: syncedAt };
        snap = { summary, trades, source: "broker" };
      }
      last = { cursor, snap };
      return snap;
    },
  };
}

/** Offered-instrument lists read in this process, by `environment:account`, with when the broker gave them (the tick reads the stored one from its context row). */
const offered = new Map<string, { at: number; list: readonly BrokerInstrument[] }>();
/** Equal lists are kept once (most accounts of an environment offer the same instruments). */
const internedLists = new Map<string, readonly BrokerInstrument[]>();

function intern(list: readonly BrokerInstrument[]): readonly BrokerInstrument[] {
  const key = JSON.stringify(list);
  const hit = internedLists.get(key);
  if (hit) return hit;
  if (internedLists.size > 1000) internedLists.clear();
  internedLists.set(key, list);
  return list;
}

/**
 * The instruments the connected account offers (GET A/instruments: names, precision, margin rates),
 * read from the broker at most once per INSTRUMENTS_MAX_AGE_MS per account: from this process's
 * memory, else the account's stored list (`account_states`, ADR 0025; `known.stored` when the
 * caller already read it, else one statement), else the broker — then stored for every process.
 * The tick skips the user's instruments that are not in it and the pre-flight check uses the
 * broker's margin rates (issue 12).
 * @throws the broker's error when the list cannot be read
 */
export async function offeredInstrumentList(
  conn: Pick<BrokerConnectionRow, "environment" | "account_id"> & { user_id?: string },
  client: BrokerPort,
  known?: { stored: StoredAccountState | undefined },
): Promise<readonly BrokerInstrument[]> {
  const key = `${conn.environment}:${conn.account_id}`;
  const now = Date.now();
  const hit = offered.get(key);
  if (hit && now - hit.at < INSTRUMENTS_MAX_AGE_MS) return hit.list;
  const stored = known ? known.stored : conn.user_id ? await readAccountState(conn.user_id) : undefined;
  const fromDb = freshInstruments(stored, conn, now);
  if (fromDb) {
    const list = intern(fromDb);
    offered.set(key, { at: storedFor(stored, conn)!.instruments_read_at!.getTime(), list });
    return list;
  }
  const list = intern(await client.getInstruments(conn.account_id));
  offered.set(key, { at: now, list });
  if (conn.user_id) await saveInstruments(conn.user_id, conn, list);
  return list;
}
