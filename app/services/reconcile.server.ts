/**
 * Reconcile with the broker (DESIGN.md §3.5): read the account's transactions since the last stored
 * id and record what happened — fills that opened trades (linked to our order intents by the order's
 * client id), stop loss / take profit levels, closes with realized P&L and result WIN/LOSS/BE — then
 * advance the stored id, all in one database transaction. After a crash the same step rebuilds the
 * state before any new order, so nothing is lost and nothing is counted twice (inserts are upserts
 * keyed by the broker's trade id).
 */
import type postgres from "postgres";
import type { BrokerPort, Transaction } from "../../core/broker/port";
import { Decimal } from "../../core/decimal";
import type { Msg } from "../../core/i18n/message";
import { unitsToLots } from "../../core/instruments";
import { notices } from "../lib/notifications";
import type { BrokerConnectionRow } from "./broker.server";
import { db } from "./db.server";
import { notify, type NewNotification } from "./notifications.server";

/** WIN if realized P&L > 0, LOSS if < 0, else BE (PRODUCT.md §4 Trade). */
export function tradeResult(pl: Decimal.Value): "WIN" | "LOSS" | "BE" {
  const d = new Decimal(pl);
  return d.gt(0) ? "WIN" : d.lt(0) ? "LOSS" : "BE";
}

export interface ReconcileSummary {
  opened: number;
  closed: number;
  lastTransactionID: string;
}

/** Reads transactions since `conn.last_transaction_id` and records them. */
export async function reconcile(userId: string, conn: BrokerConnectionRow, client: BrokerPort): Promise<ReconcileSummary> {
  const since = conn.last_transaction_id ?? "0";
  const { transactions, lastTransactionID } = await client.transactionsSinceId(conn.account_id, since);
  const notes: NewNotification[] = [];
  let opened = 0;
  let closed = 0;
  const orderClientIds = new Map<string, string>();
  // Nothing happened since the last reconcile: no statement at all (most ticks).
  if (transactions.length === 0 && lastTransactionID === since) return { opened, closed, lastTransactionID };
  await db().begin(async (sql) => {
    for (const tx of transactions) {
      if (tx.type === "MARKET_ORDER") {
        const id = tx.clientExtensions?.id ?? tx.tradeClientExtensions?.id;
        if (id) orderClientIds.set(tx.id, id);
        continue;
      }
      if (tx.type === "TAKE_PROFIT_ORDER" || tx.type === "STOP_LOSS_ORDER") {
        const column = tx.type === "TAKE_PROFIT_ORDER" ? sql`take_profit` : sql`stop_loss`;
        if (tx.tradeID && tx.price)
          await sql`update trades set ${column} = ${tx.price} where user_id = ${userId} and account_id = ${conn.account_id} and broker_trade_id = ${tx.tradeID}`;
        continue;
      }
      if (tx.type === "ORDER_CANCEL" && tx.orderID) {
        const clientId = orderClientIds.get(tx.orderID);
        if (clientId)
          await sql`update order_intents set status = 'cancelled', detail = ${tx.reason ?? null}, updated_at = now()
            where user_id = ${userId} and client_order_id = ${clientId} and status = 'pending'`;
        continue;
      }
      if (tx.type !== "ORDER_FILL") continue;
      if (tx.tradeOpened) {
        opened += await recordOpen(sql, userId, conn, tx, tx.orderID ? orderClientIds.get(tx.orderID) : undefined, notes);
      }
      for (const c of [...(tx.tradesClosed ?? []), ...(tx.tradeReduced ? [tx.tradeReduced] : [])]) {
        closed += await recordClose(sql, userId, conn, tx, c, c === tx.tradeReduced, notes);
      }
    }
    await sql`update broker_connections set last_transaction_id = ${lastTransactionID}, updated_at = now()
      where user_id = ${userId} and account_id = ${conn.account_id}`;
  });
  conn.last_transaction_id = lastTransactionID;
  for (const n of notes) await notify(userId, n);
  return { opened, closed, lastTransactionID };
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
  const [intent] = clientOrderId
    ? await sql<{ decision_id: string }[]>`update order_intents set status = 'filled', broker_trade_id = ${o.tradeID}, updated_at = now()
        where user_id = ${userId} and client_order_id = ${clientOrderId} returning decision_id`
    : [];
  const [decision] = intent
    ? await sql<{ timeframe: string; confidence: string; reason: string; reason_msg: Msg | null; payload: { tradingStyle?: string } }[]>`
        select timeframe, confidence, reason, reason_msg, payload from decisions where user_id = ${userId} and decision_id = ${intent.decision_id}
        order by created_at desc limit 1`
    : [];
  const inserted = await sql`insert into trades (user_id, account_id, environment, broker_trade_id, client_order_id, decision_id,
      instrument, side, units, open_price, open_time, ai_timeframe, ai_confidence, ai_reason, ai_reason_msg, strategy, trading_style)
    values (${userId}, ${conn.account_id}, ${conn.environment}, ${o.tradeID}, ${clientOrderId ?? null}, ${intent?.decision_id ?? null},
      ${tx.instrument ?? ""}, ${side}, ${units.abs().toString()}, ${price}, ${tx.time},
      ${decision?.timeframe ?? null}, ${decision?.confidence ?? null}, ${decision?.reason ?? null},
      ${decision?.reason_msg ? sql.json(decision.reason_msg as never) : null},
      ${intent ? "IA adaptativa" : "manual"}, ${decision?.payload?.tradingStyle ?? null})
    on conflict (user_id, account_id, broker_trade_id) do nothing returning id`;
  if (inserted.length === 0) return 0;
  notes.push({
    type: "trading",
    ...notices.tradeOpened({ side, instrument: tx.instrument, lots: unitsToLots(units).toFixed(2), price }),
    metadata: { instrument: tx.instrument, side, units: units.toString(), price, tradeId: o.tradeID },
  });
  return 1;
}

async function recordClose(
  sql: Sql,
  userId: string,
  conn: BrokerConnectionRow,
  tx: Transaction,
  c: { tradeID: string; units: string; price?: string; realizedPL: string; financing?: string },
  partial: boolean,
  notes: NewNotification[],
): Promise<number> {
  const price = c.price ?? tx.price ?? null;
  const [row] = await sql<{ instrument: string; side: string; realized_pl: string | null; status: string }[]>`
    select instrument, side, realized_pl, status from trades
    where user_id = ${userId} and account_id = ${conn.account_id} and broker_trade_id = ${c.tradeID}`;
  if (!row || row.status === "closed") return 0;
  const total = new Decimal(row.realized_pl ?? 0).plus(c.realizedPL);
  if (partial) {
    await sql`update trades set realized_pl = ${total.toString()}, units = units - ${new Decimal(c.units).abs().toString()}
      where user_id = ${userId} and account_id = ${conn.account_id} and broker_trade_id = ${c.tradeID}`;
    return 0;
  }
  const result = tradeResult(total);
  await sql`update trades set status = 'closed', close_price = ${price}, close_time = ${tx.time}, realized_pl = ${total.toString()},
      financing = ${c.financing ?? null}, result = ${result}, close_reason = ${tx.reason ?? null}
    where user_id = ${userId} and account_id = ${conn.account_id} and broker_trade_id = ${c.tradeID}`;
  notes.push({
    type: result === "LOSS" ? "warning" : "success",
    ...notices.tradeClosed({
      result,
      side: row.side,
      instrument: row.instrument,
      closeReason: tx.reason,
      amount: `${total.gt(0) ? "+" : ""}${total.toFixed(2)} ${conn.account_currency ?? ""}`.trim(),
    }),
    metadata: { instrument: row.instrument, side: row.side, pnl: total.toString(), result, tradeId: c.tradeID },
  });
  return 1;
}
