/**
 * Per-account transaction log (oanda/PROTOCOL.md §8): one consecutive counter per account for
 * every transaction type; a request's transactions share `batchID` = the first one's id.
 */
import type { AccountState, Tx } from "./state";
import { rfc3339 } from "./time";

/** Context of one batch of transactions (one API request, or one trigger). */
export interface Batch {
  acct: AccountState;
  time: number;
  /** Set from the first transaction when undefined. */
  batchID?: string;
  /** Absent on system-generated transactions (triggers). */
  requestID?: string;
  /** System-generated (triggers): userID 0, as OANDA shows it. */
  system?: boolean;
  ids: string[];
}

/** Starts a batch at sim time `time` (epoch ms); `system` for transactions no user request caused. */
export function newBatch(acct: AccountState, time: number, requestID?: string, system = false): Batch {
  return { acct, time, requestID, system, ids: [] };
}

/**
 * Appends a transaction with the next id and the common fields (id, time, userID, accountID,
 * batchID, requestID?, type) followed by `fields`; returns it.
 */
export function addTx(b: Batch, type: string, fields: Record<string, unknown>): Tx {
  const id = String(++b.acct.lastTransactionID);
  b.batchID ??= id;
  const tx: Tx = {
    id, time: rfc3339(b.time), userID: b.system ? 0 : b.acct.userID, accountID: b.acct.id, batchID: b.batchID,
    ...(b.requestID ? { requestID: b.requestID } : {}), type, ...fields,
  };
  b.acct.transactions.push(tx);
  b.ids.push(id);
  return tx;
}

/** Transaction by id, or undefined. Ids are consecutive from 1, so this is an array lookup. */
export function getTx(acct: AccountState, id: string): Tx | undefined {
  if (!/^\d+$/.test(id)) return undefined;
  return acct.transactions[Number(id) - 1];
}

/** Transactions with id strictly greater than `id`, ascending. */
export function sinceId(acct: AccountState, id: number): Tx[] {
  return acct.transactions.slice(Math.max(0, id));
}

/** Transactions with from ≤ id ≤ to, ascending, optionally only of the given types. */
export function idRange(acct: AccountState, from: number, to: number, types?: string[]): Tx[] {
  return acct.transactions.slice(Math.max(0, from - 1), Math.max(0, to)).filter((t) => !types || types.includes(t.type));
}
