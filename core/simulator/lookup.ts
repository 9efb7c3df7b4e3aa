/**
 * Lookups on an account's append-only books (orders and transactions are only ever pushed, and a
 * pending order never returns to PENDING), kept incrementally so each costs O(1) amortised instead
 * of a scan of every order or transaction the account ever had: a ten-year backtest books tens of
 * thousands of them, and scanning them at every step made its cost grow with their square.
 * The indexes live in WeakMaps keyed by the arrays, so a state loaded from disk builds its own.
 */
import type { AccountState, OrderState, Tx } from "./state";

interface OrderIndex {
  byId: Map<string, OrderState>;
  indexed: number;
  /** Every order before this index is no longer PENDING. */
  firstPending: number;
}

const orderIndexes = new WeakMap<readonly OrderState[], OrderIndex>();

function orderIndex(orders: readonly OrderState[]): OrderIndex {
  let ix = orderIndexes.get(orders);
  if (!ix) orderIndexes.set(orders, (ix = { byId: new Map(), indexed: 0, firstPending: 0 }));
  for (; ix.indexed < orders.length; ix.indexed++) ix.byId.set(orders[ix.indexed]!.id, orders[ix.indexed]!);
  return ix;
}

/** The order with this id (any state), or undefined (also for an undefined id). */
export function orderById(acct: AccountState, id: string | undefined): OrderState | undefined {
  return id === undefined ? undefined : orderIndex(acct.orders).byId.get(id);
}

/** Number of orders in state PENDING. */
export function pendingOrderCount(acct: AccountState): number {
  const orders = acct.orders;
  const ix = orderIndex(orders);
  while (ix.firstPending < orders.length && orders[ix.firstPending]!.state !== "PENDING") ix.firstPending++;
  let n = 0;
  for (let i = ix.firstPending; i < orders.length; i++) if (orders[i]!.state === "PENDING") n++;
  return n;
}

interface ClientIdIndex {
  ids: Set<string>;
  indexed: number;
}

const clientIdIndexes = new WeakMap<readonly Tx[], ClientIdIndex>();

/** Whether a MARKET_ORDER transaction of the account already used this client order id (OANDA: CLIENT_ORDER_ID_ALREADY_EXISTS). */
export function marketOrderClientIdUsed(acct: AccountState, id: string): boolean {
  const txs = acct.transactions;
  let ix = clientIdIndexes.get(txs);
  if (!ix) clientIdIndexes.set(txs, (ix = { ids: new Set(), indexed: 0 }));
  for (; ix.indexed < txs.length; ix.indexed++) {
    const t = txs[ix.indexed]!;
    const ext = t.clientExtensions as { id?: unknown } | undefined;
    if (t.type === "MARKET_ORDER" && typeof ext === "object" && ext !== null && !Array.isArray(ext) && typeof ext.id === "string") ix.ids.add(ext.id);
  }
  return ix.ids.has(id);
}
