/**
 * The live trade store of a tick (core/trading/tick.ts TradeStore) over our PostgreSQL books of the
 * account: the sync (reconcile), the risk counters' trades, the decisions and an order not placed.
 */
import type { TradeStore } from "../../../core/trading/tick";
import type { OwnFill } from "../../../core/broker/own-fill";
import { syncDue, type tickAccount } from "../broker/account-state.server";
import { brokerNow } from "../broker/broker.server";
import { config } from "../platform/config.server";
import { db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import { recordOwnFill, reconcile } from "./reconcile.server";
import { counterTrades, countersFromPreRead } from "./counter-trades.server";
import { recordTickDecisions } from "./decisions-store.server";
import type { LiveTick } from "./live-tick";
import { markNotExecuted } from "../../../db/queries/decisions";

/**
 * What a tick's syncs did: whether one recorded transactions (`changed`), when the first ran
 * (`syncedAt`, broker clock), and whether the tick began from the stored state without one (`deferred`).
 */
export interface Books {
  changed: boolean;
  syncedAt?: Date;
  deferred?: boolean;
  /** An order of this tick filled and cannot be booked from its response (live-broker.server.ts): the sync after the orders reads the transactions. */
  unbookedFills?: boolean;
  /** The fills of this tick's orders whose responses are the whole story since the cursor, in order (core/broker/own-fill.ts). */
  ownFills?: OwnFill[];
  /** What waits until the tick's orders left (the timeframe notices, decisions-store.server.ts): run by the tick (live-tick.server.ts). */
  afterOrders?: () => Promise<void>;
}

/**
 * The executor's trade store over our PostgreSQL books of the account (core/trading/tick.ts
 * TradeStore). `tick.counters` are the counter trades read with the tick's context: used while
 * no sync of this tick recorded anything (`books.changed`). The first sync is deferred while the
 * stored account state is within its sync window (account-state.server.ts `syncDue`, ADR 0027),
 * never for a forced tick (run-once: the user expects a tick on the broker's current state).
 * After the orders, the fills kept in `books.ownFills` are booked from their responses and `account`
 * (the tick's `tickAccount`) moves the stored state past each (ADR 0042); the transactions are read
 * only for a fill that could not be booked so.
 */
export function liveStore(tick: LiveTick, books: Books, account?: Pick<ReturnType<typeof tickAccount>, "afterOwnFill">): TradeStore {
  const { userId, conn, client, settings } = tick;
  const sql = db();
  const pre = tick.counters;
  return {
    deferSync: () => (books.deferred = !tick.forced && !syncDue(tick.stored, conn, config().ACCOUNT_SYNC_MAX_AGE_SEC * 1000, brokerNow(conn))),
    sync: async () => {
      books.syncedAt ??= new Date(brokerNow(conn));
      const before = conn.last_transaction_id;
      await reconcile(userId, conn, client);
      if (conn.last_transaction_id !== before) books.changed = true;
    },
    // The orders' fills are booked from their responses (issue 24, ADR 0042), in order, and the stored account
    // state moved past each; when one cannot be (the cursor moved meanwhile) or one was never bookable, read the transactions.
    syncAfterOrders: async () => {
      for (const fill of books.ownFills ?? []) {
        if (books.unbookedFills || !(await recordOwnFill(userId, conn, fill))) {
          books.unbookedFills = true;
          break;
        }
        books.changed = true;
        // The books hold the fill; a stored state not moved (no quote now, a failed write) only makes the next tick read the broker.
        await account?.afterOwnFill(fill).catch((err: unknown) => logger().warn({ userId, err }, "estado da conta não atualizado após a ordem"));
      }
      books.ownFills = [];
      if (!books.unbookedFills) return;
      books.unbookedFills = false;
      const before = conn.last_transaction_id;
      await reconcile(userId, conn, client);
      if (conn.last_transaction_id !== before) books.changed = true;
    },
    counterTrades: (dayStart) => (pre && !books.changed && dayStart >= pre.since ? countersFromPreRead(pre, dayStart) : counterTrades(userId, conn.account_id, dayStart)),
    recordDecisions: async (records, now) => {
      const later = await recordTickDecisions(userId, records, settings, now);
      if (later) books.afterOrders = later;
    },
    orderNotPlaced: async (decision) => {
      await markNotExecuted(sql, userId, decision.id);
    },
  };
}
