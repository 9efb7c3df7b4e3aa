/**
 * The `order_intents` table (migrations 0001, 0022): one row per order, written BEFORE the order is sent
 * and keyed by the order's client id (ADR 0002), so an order is never sent twice; the reconcile settles
 * its status from the broker's transactions ('pending' → 'filled' | 'cancelled' | 'rejected'), a job
 * settles the ones never answered ('failed'). Its statements live here (issue 23 item 2). Units are
 * numeric (signed decimal text: + buy, − sell), `request` jsonb.
 */
import type { Sql } from "./sql";

/** The order intent row of one order: its client id, what it answers (a decision id, or `manual:<key>`), instrument, signed units, origin. */
export interface OrderIntent {
  clientOrderId: string;
  decisionId: string;
  instrument: string;
  /** Signed integer units as a decimal string (+ buy, − sell). */
  units: string;
  origin: "ai" | "manual";
  /** A manual order's request as answered (stops, what was defaulted): kept for the idempotent replay. */
  request?: Record<string, unknown>;
}

/** Inserts the intent of an order on the account `accountId` unless one with its client id exists. Returns whether it was inserted (false: a duplicate). */
export async function insertIntent(sql: Sql, userId: string, accountId: string, intent: OrderIntent): Promise<boolean> {
  const inserted = await sql`insert into order_intents (user_id, client_order_id, decision_id, account_id, instrument, units, origin, request)
    values (${userId}, ${intent.clientOrderId}, ${intent.decisionId}, ${accountId}, ${intent.instrument}, ${intent.units}, ${intent.origin},
      ${intent.request ? sql.json(intent.request as never) : null})
    on conflict do nothing returning client_order_id`;
  return inserted.length > 0;
}

/** Settles an intent as the send's answer said ('cancelled' by the broker, 'rejected' by it or by the client), with the reason in `detail`. */
export async function settleIntent(sql: Sql, userId: string, clientOrderId: string, status: "cancelled" | "rejected", detail: string | null): Promise<void> {
  await sql`update order_intents set status = ${status}, detail = ${detail}, updated_at = now()
        where user_id = ${userId} and client_order_id = ${clientOrderId}`;
}

/** Settles a still pending intent from the broker's transactions ('rejected': MARKET_ORDER_REJECT, 'cancelled': ORDER_CANCEL). */
export async function settlePendingIntent(sql: Sql, userId: string, clientOrderId: string, status: "cancelled" | "rejected", detail: string | null): Promise<void> {
  await sql`update order_intents set status = ${status}, detail = ${detail}, updated_at = now()
          where user_id = ${userId} and client_order_id = ${clientOrderId} and status = 'pending'`;
}

/** Marks an intent filled by the broker trade `brokerTradeId`, whatever its status; answers its decision id and origin (undefined: no such intent). */
export async function fillIntent(sql: Sql, userId: string, clientOrderId: string, brokerTradeId: string) {
  const [intent] = await sql<{ decision_id: string; origin: "ai" | "manual" }[]>`update order_intents set status = 'filled', broker_trade_id = ${brokerTradeId}, updated_at = now()
        where user_id = ${userId} and client_order_id = ${clientOrderId} returning decision_id, origin`;
  return intent;
}

/**
 * Settles as 'failed' every user's intent pending for more than `minutes` minutes with no trade of
 * its client id (issue 8 item 10). One statement; returns how many.
 */
export async function failUnansweredIntents(sql: Sql, minutes: number): Promise<number> {
  const rows = await sql`update order_intents i set status = 'failed', detail = 'sem resposta da corretora', updated_at = now()
    where i.status = 'pending' and i.created_at < now() - make_interval(mins => ${minutes})
      and not exists (select 1 from trades t where t.user_id = i.user_id and t.client_order_id = i.client_order_id)
    returning 1`;
  return rows.length;
}

/** A manual order's intent with the trade it opened, if any (`request`: what the first call stored for the replay). */
export interface ManualIntentRow<R> {
  status: "pending" | "filled" | "cancelled" | "rejected" | "failed";
  detail: string | null;
  instrument: string;
  units: string;
  request: R | null;
  trade_id: string | null;
  side: string | null;
  trade_units: string | null;
  open_price: string | null;
  stop_loss: string | null;
  take_profit: string | null;
  open_time: Date | null;
  trade_status: string | null;
}

/** The manual order `clientOrderId` of the user: its intent and its trade (decimals as text), or undefined. */
export async function manualIntentWithTrade<R>(sql: Sql, userId: string, clientOrderId: string): Promise<ManualIntentRow<R> | undefined> {
  const [row] = await sql<ManualIntentRow<R>[]>`
    select i.status, i.detail, i.instrument, i.units::text as units, i.request, t.broker_trade_id as trade_id, t.side, t.units::text as trade_units,
      t.open_price::text as open_price, t.stop_loss::text as stop_loss, t.take_profit::text as take_profit, t.open_time, t.status as trade_status
    from order_intents i left join trades t on t.user_id = i.user_id and t.client_order_id = i.client_order_id
    where i.user_id = ${userId} and i.client_order_id = ${clientOrderId} and i.origin = 'manual'`;
  return row;
}
