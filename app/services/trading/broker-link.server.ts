/**
 * Connecting and disconnecting the user's broker account (PRODUCT.md §7 Broker: POST
 * /api/oanda-auth/connect, /disconnect; the wizard; /settings "Desconectar"): the stored connection,
 * the catch-up reconcile after a connect and the bot's stop on a disconnect. In trading, not broker,
 * because both act on the bot's books under the reconcile lock (ADR 0038: broker sits below trading).
 */
import type { Environment } from "../../../core/broker/port";
import { BrokerError } from "../../../core/oanda/errors";
import { deactivateBot } from "../../../db/queries/bots";
import { forgetAccountState } from "../broker/account-cache.server";
import { ACCOUNT_IN_USE, brokerFailure, clientFor, recordMarketTime } from "../broker/broker.server";
import { encryptSecret } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { accountTakenByOther, deleteConnectionKeepingCursor, upsertConnection } from "../../../db/queries/broker-connections";
import { keepConnectionCursor, takeCursor } from "../../../db/queries/broker-cursors";
import { ConflictError } from "../platform/errors.server";
import { logger } from "../platform/logger.server";
import { lockReconcile, reconcile } from "./reconcile.server";

/**
 * Connects (or reconnects) the user's account: checks the token reaches it, stores it encrypted.
 * The broker transaction id reconciled so far is kept per account (issue 8 item 5): the current
 * connection's goes to `broker_cursors`, and connecting an account seen before resumes from its
 * stored id instead of the broker's "now". Then, under the user's reconcile lock, what happened
 * while disconnected is replayed and every trade we hold as open on the account is checked against
 * the broker (`reconcile` with `sweepOpen`), so trades closed meanwhile reach history and the risk
 * counters. A failure of that catch-up does not undo the connection: the next reconcile resumes it.
 */
export async function connectBroker(userId: string, input: { token: string; environment: Environment; accountId: string }) {
  const client = clientFor(input.token, input.environment);
  let summary;
  try {
    summary = await client.getAccountSummary(input.accountId);
  } catch (err) {
    throw brokerFailure(err);
  }
  const conn = await db().begin(async (sql) => {
    await lockReconcile(sql, userId);
    // One app user per broker account (the unique index is the guard; this gives the message).
    if (await accountTakenByOther(sql, userId, input.environment, summary.id)) throw new ConflictError(ACCOUNT_IN_USE);
    await keepConnectionCursor(sql, userId);
    const kept = await takeCursor(sql, userId, input.environment, summary.id);
    const row = await upsertConnection(sql, userId, {
      environment: input.environment,
      accountId: summary.id,
      alias: summary.alias ?? null,
      currency: summary.currency,
      tokenEncrypted: encryptSecret(input.token),
      lastTransactionId: kept?.last_transaction_id ?? summary.lastTransactionID,
    });
    return row!;
  }).catch((err: unknown) => {
    // Two users connecting the same account at once: the unique index refuses the second.
    if ((err as { code?: string }).code === "23505") throw new ConflictError(ACCOUNT_IN_USE);
    throw err;
  });
  const price = await client.getPricing(summary.id, ["EUR_USD"]).catch(() => []);
  if (price[0]) await recordMarketTime(userId, Date.parse(price[0].time));
  try {
    await reconcile(userId, conn, client, { sweepOpen: true });
  } catch (err) {
    logger().warn(
      { userId, err: err instanceof BrokerError ? { kind: err.kind, status: err.status } : err },
      "reconciliação após conectar falhou; a próxima reconciliação retoma do id armazenado",
    );
  }
  forgetAccountState(userId); // a screen read of a moment ago still says "no connection" (or the old account)
  return summary;
}

/**
 * Disconnects the broker, in one transaction: the bot stops (reason 'manual', as the stop button:
 * the AI cannot run without a broker) and the connection with its stored token is deleted — both
 * or neither. The account's last reconciled transaction id is kept (`broker_cursors`) for a
 * reconnect of the same account (`connectBroker`). The stop is bot control's own statement
 * (db/queries/bots.ts `deactivateBot`, as trading/bot-stop.server.ts `stopBot`), run in this transaction.
 * @returns whether there was a connection to remove
 */
export async function disconnectBroker(userId: string): Promise<boolean> {
  return db().begin(async (tx) => {
    // Under the reconcile lock, so the id kept below is the one of the last reconcile that committed.
    await lockReconcile(tx, userId);
    await deactivateBot(tx, userId, "manual");
    const rows = await deleteConnectionKeepingCursor(tx, userId);
    return rows.length > 0;
  }).finally(() => forgetAccountState(userId)); // the screens must not show the gone account from their 1 s cache
}
