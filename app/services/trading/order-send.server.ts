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
import { metrics } from "../platform/metrics.server";
import { insertIntent, settleIntent, type OrderIntent } from "../../../db/queries/order-intents";

// The order intent row of one order (client id, decision id or `manual:<key>`, instrument, signed units, origin): db/queries.
export type { OrderIntent } from "../../../db/queries/order-intents";

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
  if (!(await insertIntent(sql, userId, conn.account_id, intent))) return { status: "duplicate" };
  crashPoint("before-order");
  try {
    const result = await client.createMarketOrder(conn.account_id, order);
    crashPoint("after-order"); // the broker filled, our bookkeeping has not run yet
    if (result.filled) {
      metrics().ordersPlaced.inc({ origin: intent.origin });
      return { status: "filled", result }; // recorded by the reconcile that follows
    }
    const detail = result.cancelReason ?? null;
    metrics().ordersRejected.inc({ origin: intent.origin, outcome: "cancelled" });
    await settleIntent(sql, userId, id, "cancelled", detail);
    return { status: "cancelled", detail };
  } catch (err) {
    // RangeError: the client refused the order locally (nothing reached the broker).
    if ((err instanceof BrokerError && !err.retryable) || err instanceof RangeError) {
      const detail = err instanceof BrokerError ? (err.errorCode ?? err.message) : err.message;
      metrics().ordersRejected.inc({ origin: intent.origin, outcome: "rejected" });
      await settleIntent(sql, userId, id, "rejected", detail);
      logger().warn({ userId, code: err instanceof BrokerError ? err.errorCode : err.message, origin: intent.origin }, "ordem rejeitada");
      return { status: "rejected", detail };
    }
    throw err; // unknown outcome: the intent stays pending and the next reconcile settles it
  }
}
