/**
 * Reconcile with the broker (DESIGN.md §3.5): read the account's transactions since the last stored
 * id and record what happened — fills that opened trades (linked to our order intents by the order's
 * client id), stop loss / take profit levels, closes with realized P&L and result WIN/LOSS/BE — then
 * advance the stored id, all in one database transaction with the 'Trade aberto'/'Trade fechado'
 * notices of what it recorded. After a crash the same step rebuilds the
 * state before any new order, so nothing is lost and nothing is counted twice (inserts are upserts
 * keyed by the broker's trade id).
 *
 * Issue 8 items 4 and 5: reconciles of one user are serialized by an advisory lock of their own and
 * apply only what lies after the id stored at that moment, so concurrent callers (a tick, manual
 * closes) never count a transaction twice; a reduced or closed trade takes the broker's units and
 * realized P&L. On reconnect (broker.server.ts) the stored id of the account is kept and every trade
 * we hold as open is checked against the broker, so closes made while disconnected reach our books.
 */
import type postgres from "postgres";
import type { OwnFill } from "../../../core/broker/own-fill";
import type { BrokerPort, Trade, Transaction } from "../../../core/broker/port";
import { Decimal } from "../../../core/decimal";
import { unitsToLots } from "../../../core/instruments";
import { BrokerError } from "../../../core/oanda/errors";
import { tradeResult } from "../../../core/stats";
import { notices } from "../../lib/notifications";
import type { BrokerConnectionRow } from "../broker/broker-connection";
import { crashPoint } from "../platform/crash-point.server";
import { db } from "../platform/db.server";
import { reconcileCursor, setReconcileCursor } from "../../../db/queries/broker-connections";
import { logger } from "../platform/logger.server";
import { fillIntent, settlePendingIntent } from "../../../db/queries/order-intents";
import { openingDecision } from "../../../db/queries/decisions";
import {
  closeSweptTrade,
  closeTradeRow,
  insertOpenedTrade,
  openBrokerTradeIds,
  reduceTrade,
  setReducedTrade,
  setTradeExitLevel,
  syncOpenTrade,
  tradeForClose,
} from "../../../db/queries/trades";
import { insertNotifications, type NewNotification } from "../notify/notifications.server";
import { publishTradeEvents } from "../notify/trade-events.server";

export interface ReconcileSummary {
  opened: number;
  closed: number;
  lastTransactionID: string;
}

/** Options of `reconcile`. */
export interface ReconcileOptions {
  /**
   * Also compare every trade we hold as open with the broker's record of it (units, realized P&L,
   * closed or not): on (re)connect, and by itself whenever the stored id is gone at the broker.
   */
  sweepOpen?: boolean;
}

/**
 * PostgreSQL advisory lock namespace of reconcile, per user (`hashtext(user_id)`), taken for one
 * transaction. Not the bot tick's (trading/tick-runner.server.ts, 724002): the tick holds that one on another
 * connection for the whole tick and calls reconcile inside it, so reconcile must never wait on it.
 */
export const RECONCILE_LOCK_NAMESPACE = 724_003;

/** Takes the user's reconcile lock for the rest of the transaction `sql` (see `RECONCILE_LOCK_NAMESPACE`). */
export async function lockReconcile(sql: postgres.TransactionSql, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${RECONCILE_LOCK_NAMESPACE}, hashtext(${userId}))`;
}

/** a < b for OANDA transaction ids (decimal integer strings). */
function idBefore(a: string, b: string): boolean {
  return BigInt(a) < BigInt(b);
}

/**
 * Reads the account's transactions since the stored last id and records them; idempotent and
 * serialized per user. The broker calls come first, outside any database transaction; then, under
 * the user's reconcile lock, the stored id is read again and only transactions after it are applied
 * (another reconcile may have applied some meanwhile), with the broker's figures of each reduced or
 * closed trade (its `currentUnits` and `realizedPL`) as the truth, and the new id is stored — all in
 * one transaction. When the stored id moved behind our back the read starts over from it. When the
 * broker no longer has the stored id (416/404) every trade we hold as open is checked one by one
 * (as with `sweepOpen`) and the cursor restarts at the broker's last id.
 * Nothing new since the stored id: no SQL statement at all (most ticks).
 */
export async function reconcile(
  userId: string,
  conn: BrokerConnectionRow,
  client: BrokerPort,
  opts: ReconcileOptions = {},
): Promise<ReconcileSummary> {
  let since = conn.last_transaction_id ?? "0";
  for (let attempt = 0; attempt < 5; attempt++) {
    const batch = await readSince(client, conn.account_id, since);
    const sweep = opts.sweepOpen === true || batch.lost;
    if (!sweep && batch.transactions.length === 0 && batch.lastTransactionID === since) return { opened: 0, closed: 0, lastTransactionID: since };
    const held = sweep ? await openBrokerTradeIds(db(), userId, conn.account_id) : [];
    const touched = new Set(held);
    for (const tx of batch.transactions)
      for (const c of [...(tx.tradesClosed ?? []), ...(tx.tradeReduced ? [tx.tradeReduced] : [])]) touched.add(c.tradeID);
    const states = await brokerTrades(client, conn.account_id, [...touched]);
    crashPoint("reconcile-after-read");

    const notes: NewNotification[] = [];
    const outcome = await db().begin(async (sql) => {
      await lockReconcile(sql, userId);
      const row = await reconcileCursor(sql, userId, conn.account_id);
      if (!row) return { kind: "gone" as const };
      const stored = row.last_transaction_id ?? "0";
      // Our read began before the stored id (it went back: a reconnect), or a sweep raced with another reconcile.
      if (idBefore(stored, since) || (sweep && stored !== since)) return { kind: "moved" as const, stored };
      // Another reconcile already applied everything we read.
      if (!sweep && !idBefore(stored, batch.lastTransactionID)) return { kind: "done" as const, stored };
      const counts = await applyTransactions(sql, userId, conn, batch.transactions.filter((tx) => idBefore(stored, tx.id)), states, notes);
      if (sweep) counts.closed += await applySweep(sql, userId, conn, held, states, notes);
      await setReconcileCursor(sql, userId, conn.account_id, batch.lastTransactionID);
      // The notices commit with the trades they tell of (a crash after the commit used to lose them).
      await insertNotifications(sql, userId, notes);
      // order_fill / trade_close on the SSE streams, delivered on commit (ADR 0017).
      await publishTradeEvents(sql, userId, notes);
      crashPoint("reconcile-before-commit");
      return { kind: "applied" as const, ...counts };
    });
    if (outcome.kind === "moved") {
      since = conn.last_transaction_id = outcome.stored;
      continue;
    }
    if (outcome.kind === "gone") return { opened: 0, closed: 0, lastTransactionID: since };
    if (outcome.kind === "done") {
      conn.last_transaction_id = outcome.stored;
      return { opened: 0, closed: 0, lastTransactionID: outcome.stored };
    }
    crashPoint("reconcile-after-commit");
    conn.last_transaction_id = batch.lastTransactionID;
    return { opened: outcome.opened, closed: outcome.closed, lastTransactionID: batch.lastTransactionID };
  }
  logger().warn({ userId }, "reconcile: id de transação armazenado mudou a cada tentativa; fica para a próxima");
  return { opened: 0, closed: 0, lastTransactionID: since };
}

/**
 * Records an order of ours from its own response (issue 24, ADR 0042) instead of reading the
 * transactions again: `fill` (core/broker/own-fill.ts `ownFill`) is every transaction after
 * `fill.after`, so, under the user's reconcile lock and only while the stored cursor is still
 * `fill.after`, it is applied exactly as `reconcile` would apply those transactions read from
 * `sinceid` (trade, stop loss and take profit levels, the order intent filled, the 'Trade aberto'
 * notice and its SSE event) and the cursor moves to the batch's last id, in one transaction.
 * @returns false when the cursor moved meanwhile (another reconcile ran): nothing written, the
 *   caller reconciles as before
 */
export async function recordOwnFill(userId: string, conn: BrokerConnectionRow, fill: OwnFill): Promise<boolean> {
  if ((conn.last_transaction_id ?? null) !== fill.after) return false;
  const notes: NewNotification[] = [];
  const applied = await db().begin(async (sql) => {
    await lockReconcile(sql, userId);
    const row = await reconcileCursor(sql, userId, conn.account_id);
    if (!row || row.last_transaction_id !== fill.after) return false;
    await applyTransactions(sql, userId, conn, fill.transactions, new Map(), notes);
    await setReconcileCursor(sql, userId, conn.account_id, fill.lastTransactionID);
    await insertNotifications(sql, userId, notes);
    await publishTradeEvents(sql, userId, notes);
    return true;
  });
  if (applied) conn.last_transaction_id = fill.lastTransactionID;
  return applied;
}

/**
 * Transactions after `since`; `lost` when the broker no longer has that id (416, or 404: too old,
 * or from before a reset), then none and the broker's current last id.
 */
async function readSince(
  client: BrokerPort,
  accountId: string,
  since: string,
): Promise<{ transactions: Transaction[]; lastTransactionID: string; lost: boolean }> {
  try {
    return { ...(await client.transactionsSinceId(accountId, since)), lost: false };
  } catch (err) {
    if (!(err instanceof BrokerError) || (err.status !== 416 && err.status !== 404)) throw err;
    const summary = await client.getAccountSummary(accountId);
    return { transactions: [], lastTransactionID: summary.lastTransactionID, lost: true };
  }
}

/** The broker's record of each trade (a few at a time); a trade the broker does not know is left out. */
async function brokerTrades(client: BrokerPort, accountId: string, ids: string[]): Promise<Map<string, Trade>> {
  const out = new Map<string, Trade>();
  for (let i = 0; i < ids.length; i += 5) {
    const got = await Promise.all(
      ids.slice(i, i + 5).map((id) =>
        client.getTrade(accountId, id).catch((err: unknown) => {
          if (err instanceof BrokerError && err.kind === "not_found") return undefined;
          throw err;
        }),
      ),
    );
    for (const t of got) if (t) out.set(t.id, t);
  }
  return out;
}

/** Records a run of transactions (ascending, all after the stored id); returns what opened and closed. */
async function applyTransactions(
  sql: Sql,
  userId: string,
  conn: BrokerConnectionRow,
  transactions: Transaction[],
  states: Map<string, Trade>,
  notes: NewNotification[],
): Promise<{ opened: number; closed: number }> {
  let opened = 0;
  let closed = 0;
  const orderClientIds = new Map<string, string>();
  for (const tx of transactions) {
    if (tx.type === "MARKET_ORDER") {
      const id = tx.clientExtensions?.id ?? tx.tradeClientExtensions?.id;
      if (id) orderClientIds.set(tx.id, id);
      continue;
    }
    if (tx.type === "TAKE_PROFIT_ORDER" || tx.type === "STOP_LOSS_ORDER") {
      if (tx.tradeID && tx.price)
        await setTradeExitLevel(sql, userId, conn.account_id, tx.tradeID, tx.type === "TAKE_PROFIT_ORDER" ? "take_profit" : "stop_loss", tx.price);
      continue;
    }
    if (tx.type === "MARKET_ORDER_REJECT") {
      // A refused order (e.g. after a crash before we read the answer): its intent is settled by client id.
      const clientId = tx.clientExtensions?.id ?? tx.tradeClientExtensions?.id;
      if (clientId) await settlePendingIntent(sql, userId, clientId, "rejected", tx.rejectReason ?? null);
      continue;
    }
    if (tx.type === "ORDER_CANCEL" && tx.orderID) {
      const clientId = orderClientIds.get(tx.orderID);
      if (clientId) await settlePendingIntent(sql, userId, clientId, "cancelled", tx.reason ?? null);
      continue;
    }
    if (tx.type !== "ORDER_FILL") continue;
    if (tx.tradeOpened) {
      opened += await recordOpen(sql, userId, conn, tx, tx.orderID ? orderClientIds.get(tx.orderID) : undefined, notes);
    }
    for (const c of [...(tx.tradesClosed ?? []), ...(tx.tradeReduced ? [tx.tradeReduced] : [])]) {
      closed += await recordClose(sql, userId, conn, tx, c, c === tx.tradeReduced, states.get(c.tradeID), notes);
    }
  }
  return { opened, closed };
}

/**
 * Brings every trade of `held` (open in our books when the sweep began) in line with the broker's
 * record: still open → its current units and realized P&L; closed → closed here with the broker's
 * close time, average close price and total realized P&L. Returns how many it closed.
 */
async function applySweep(
  sql: Sql,
  userId: string,
  conn: BrokerConnectionRow,
  held: string[],
  states: Map<string, Trade>,
  notes: NewNotification[],
): Promise<number> {
  let closed = 0;
  for (const id of held) {
    const t = states.get(id);
    if (!t) continue;
    if (t.state !== "CLOSED") {
      await syncOpenTrade(sql, userId, conn.account_id, id, new Decimal(t.currentUnits).abs().toString(), t.realizedPL);
      continue;
    }
    const row = await closeSweptTrade(sql, userId, conn.account_id, id, {
      price: t.averageClosePrice ?? null,
      time: t.closeTime ?? new Date().toISOString(),
      realizedPL: t.realizedPL,
      result: tradeResult(t.realizedPL),
      reason: closeReasonOf(t),
    });
    if (!row) continue;
    closed++;
    notes.push(closedNotice(conn, id, row, tradeResult(t.realizedPL), new Decimal(t.realizedPL), closeReasonOf(t)));
  }
  return closed;
}

/** Why a closed trade closed, from its dependent orders (as the fill's `reason` would say); null when none of them filled. */
function closeReasonOf(t: Trade): string | null {
  if (t.stopLossOrder?.state === "FILLED") return "STOP_LOSS_ORDER";
  if (t.takeProfitOrder?.state === "FILLED") return "TAKE_PROFIT_ORDER";
  if (t.trailingStopLossOrder?.state === "FILLED") return "TRAILING_STOP_LOSS_ORDER";
  return null;
}

/** The 'Trade fechado …' notification of a close. */
function closedNotice(
  conn: BrokerConnectionRow,
  tradeId: string,
  row: { instrument: string; side: string },
  result: "WIN" | "LOSS" | "BE",
  total: Decimal,
  closeReason: string | null | undefined,
): NewNotification {
  return {
    type: result === "LOSS" ? "warning" : "success",
    ...notices.tradeClosed({
      result,
      side: row.side,
      instrument: row.instrument,
      closeReason,
      pl: Number(total.toFixed(2)),
      currency: conn.account_currency,
    }),
    metadata: { instrument: row.instrument, side: row.side, pnl: total.toString(), result, tradeId },
  };
}

type Sql = postgres.TransactionSql;

async function recordOpen(
  sql: Sql,
  userId: string,
  conn: BrokerConnectionRow,
  tx: Transaction,
  clientOrderId: string | undefined,
  notes: NewNotification[],
): Promise<number> {
  const o = tx.tradeOpened!;
  const units = new Decimal(o.units);
  const side = units.gte(0) ? "buy" : "sell";
  const price = o.price ?? tx.price ?? "0";
  const intent = clientOrderId ? await fillIntent(sql, userId, clientOrderId, o.tradeID) : undefined;
  const decision = intent ? await openingDecision(sql, userId, intent.decision_id) : undefined;
  // Who opened it (migration 0022): the intent's origin; a trade without an intent was opened outside the app.
  const origin = intent?.origin ?? "manual";
  const inserted = await insertOpenedTrade(sql, userId, {
    accountId: conn.account_id,
    environment: conn.environment,
    brokerTradeId: o.tradeID,
    clientOrderId: clientOrderId ?? null,
    decisionId: intent?.decision_id ?? null,
    instrument: tx.instrument ?? "",
    side,
    units: units.abs().toString(),
    openPrice: price,
    openTime: tx.time,
    aiTimeframe: decision?.timeframe ?? null,
    aiConfidence: decision?.confidence ?? null,
    aiReason: decision?.reason ?? null,
    aiReasonMsg: decision?.reason_msg ?? null,
    strategy: origin === "ai" ? "IA adaptativa" : "manual",
    tradingStyle: decision?.payload?.tradingStyle ?? null,
    origin,
  });
  if (!inserted) return 0;
  notes.push({
    type: "trading",
    ...notices.tradeOpened({ side, instrument: tx.instrument, lots: Number(unitsToLots(units).toFixed(2)), price }),
    metadata: { instrument: tx.instrument, side, units: units.toString(), price, tradeId: o.tradeID },
  });
  return 1;
}

/**
 * Records one close or reduction of a trade of ours. `state` is the broker's record of the trade,
 * read after the transactions: its `currentUnits` and `realizedPL` are the truth for a reduction
 * while it is still open, its `realizedPL` for a full close; without it (unknown to the broker) the
 * transaction's own figures are added up.
 */
async function recordClose(
  sql: Sql,
  userId: string,
  conn: BrokerConnectionRow,
  tx: Transaction,
  c: { tradeID: string; units: string; price?: string; realizedPL: string; financing?: string },
  partial: boolean,
  state: Trade | undefined,
  notes: NewNotification[],
): Promise<number> {
  const price = c.price ?? tx.price ?? null;
  const row = await tradeForClose(sql, userId, conn.account_id, c.tradeID);
  if (!row || row.status === "closed") return 0;
  if (partial) {
    if (state && state.state !== "CLOSED")
      await setReducedTrade(sql, userId, conn.account_id, c.tradeID, state.realizedPL, new Decimal(state.currentUnits).abs().toString());
    else
      await reduceTrade(sql, userId, conn.account_id, c.tradeID, new Decimal(row.realized_pl ?? 0).plus(c.realizedPL).toString(), new Decimal(c.units).abs().toString());
    return 0;
  }
  const total = state?.state === "CLOSED" ? new Decimal(state.realizedPL) : new Decimal(row.realized_pl ?? 0).plus(c.realizedPL);
  const result = tradeResult(total);
  // The closing fill's units are the units held at the close: the truth, whatever earlier partial
  // closes left in our row (a crash between a partial close and its bookkeeping could skew it).
  await closeTradeRow(sql, userId, conn.account_id, c.tradeID, {
    price,
    time: tx.time,
    realizedPL: total.toString(),
    units: new Decimal(c.units).abs().toString(),
    financing: c.financing ?? null,
    result,
    reason: tx.reason ?? null,
  });
  notes.push(closedNotice(conn, c.tradeID, row, result, total, tx.reason));
  return 1;
}
