/**
 * Sends one market order behind its order intent (ADR 0002), for the AI's decisions
 * (trading/live-broker.server.ts placeOrder) and the user's manual orders (manual-order.server.ts) alike: the intent
 * row is written first, keyed by the order's client id; when it already exists the order was already
 * acted on (a repeated tick, a crashed tick, the same idempotency key twice) and nothing is sent. The
 * reconcile links the fill to the intent by the client id and records the trade with the intent's
 * origin ('ai' | 'manual', migration 0022).
 */
import type { BrokerPort, MarketOrderRequest, MarketOrderResult } from "../../../core/broker/port";
import { BrokerError } from "../../../core/oanda/errors";
import type { BrokerConnectionRow } from "../broker/broker-connection";
import { crashPoint } from "../platform/crash-point.server";
import { db } from "../platform/db.server";
import { logger } from "../platform/logger.server";

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

/**
 * What became of the order: `duplicate` (the intent existed: nothing sent), `filled` (a trade opened:
 * the reconcile that follows records it), `cancelled` / `rejected` (by the broker, or refused locally
 * by the client; the intent says so with the reason in `detail`).
 */
export type SendOutcome =
  | { status: "duplicate" }
  | { status: "filled"; result: MarketOrderResult }
  | { status: "cancelled" | "rejected"; detail: string | null };

/**
 * Writes the intent, then sends `order` (its client extensions must carry `intent.clientOrderId`).
 * @throws the broker's error when the outcome is unknown (a retryable failure, a lost answer): the
 *   intent stays pending and the next reconcile settles it from the broker's transactions.
 */
export async function sendMarketOrder(userId: string, conn: BrokerConnectionRow, client: BrokerPort, intent: OrderIntent, order: MarketOrderRequest): Promise<SendOutcome> {
  const sql = db();
  const id = intent.clientOrderId;
  crashPoint("before-intent");
  const inserted = await sql`insert into order_intents (user_id, client_order_id, decision_id, account_id, instrument, units, origin, request)
    values (${userId}, ${id}, ${intent.decisionId}, ${conn.account_id}, ${intent.instrument}, ${intent.units}, ${intent.origin},
      ${intent.request ? sql.json(intent.request as never) : null})
    on conflict do nothing returning client_order_id`;
  if (inserted.length === 0) return { status: "duplicate" };
  crashPoint("before-order");
  try {
    const result = await client.createMarketOrder(conn.account_id, order);
    crashPoint("after-order"); // the broker filled, our bookkeeping has not run yet
    if (result.filled) return { status: "filled", result }; // recorded by the reconcile that follows
    const detail = result.cancelReason ?? null;
    await sql`update order_intents set status = 'cancelled', detail = ${detail}, updated_at = now()
      where user_id = ${userId} and client_order_id = ${id}`;
    return { status: "cancelled", detail };
  } catch (err) {
    // RangeError: the client refused the order locally (nothing reached the broker).
    if ((err instanceof BrokerError && !err.retryable) || err instanceof RangeError) {
      const detail = err instanceof BrokerError ? (err.errorCode ?? err.message) : err.message;
      await sql`update order_intents set status = 'rejected', detail = ${detail}, updated_at = now()
        where user_id = ${userId} and client_order_id = ${id}`;
      logger().warn({ userId, code: err instanceof BrokerError ? err.errorCode : err.message, origin: intent.origin }, "ordem rejeitada");
      return { status: "rejected", detail };
    }
    throw err; // unknown outcome: the intent stays pending and the next reconcile settles it
  }
}
