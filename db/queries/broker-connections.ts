/**
 * The `broker_connections` table (migration 0001): one row per user, the broker account the AI trades,
 * its encrypted token, the reconcile cursor (`last_transaction_id`) and the broker clock offset. Its
 * statements live here (issue 23 item 2); the tick's batched context read joins it in tick-context.ts,
 * the account's stored state in account-states.ts, the hero's news card in hero-news.ts.
 */
import type { Environment } from "../../core/broker/port";
import type { Sql } from "./sql";

/** A `broker_connections` row as `select *` returns it (without `last_error` and `updated_at`, which no caller reads). */
export interface BrokerConnectionRow {
  user_id: string;
  environment: Environment;
  account_id: string;
  account_alias: string | null;
  account_currency: string | null;
  token_encrypted: string;
  last_transaction_id: string | null;
  /** Broker clock minus ours, ms (string: bigint). */
  market_clock_offset_ms: string;
  status: string;
  connected_at: Date;
}

/** The user's connection (undefined: none). */
export async function connectionRow(sql: Sql, userId: string): Promise<BrokerConnectionRow | undefined> {
  const [row] = await sql<BrokerConnectionRow[]>`select * from broker_connections where user_id = ${userId}`;
  return row;
}

/** The user's connection with the stored account state as jsonb (`state`, null: none), in one statement. */
export async function connectionWithState(sql: Sql, userId: string): Promise<(BrokerConnectionRow & { state: unknown }) | undefined> {
  const [row] = await sql<(BrokerConnectionRow & { state: unknown })[]>`
    select c.*, (select to_jsonb(a) from account_states a where a.user_id = c.user_id) as state
    from broker_connections c where c.user_id = ${userId}`;
  return row;
}

/** The account and clock offset of the user's connection (undefined: none). */
export async function connectionClock(sql: Sql, userId: string): Promise<{ account_id: string; market_clock_offset_ms: string } | undefined> {
  const [conn] = await sql<{ account_id: string; market_clock_offset_ms: string }[]>`
    select account_id, market_clock_offset_ms from broker_connections where user_id = ${userId}`;
  return conn;
}

/** The account the user is connected to, as the user object shows it (undefined: none). */
export async function connectionAccount(sql: Sql, userId: string): Promise<{ environment: string; account_id: string; account_alias: string | null } | undefined> {
  const [c] = await sql<{ environment: string; account_id: string; account_alias: string | null }[]>`
    select environment, account_id, account_alias from broker_connections where user_id = ${userId}`;
  return c;
}

/** Whether the user is still connected to `accountId`. */
export async function isConnectedTo(sql: Sql, userId: string, accountId: string): Promise<boolean> {
  const [still] = await sql`select 1 from broker_connections where user_id = ${userId} and account_id = ${accountId}`;
  return Boolean(still);
}

/** Whether another user than `userId` is connected to the account. */
export async function accountTakenByOther(sql: Sql, userId: string, environment: Environment, accountId: string): Promise<boolean> {
  const [taken] = await sql`select 1 from broker_connections
      where environment = ${environment} and account_id = ${accountId} and user_id <> ${userId}`;
  return Boolean(taken);
}

/** Connects the user (insert or replace the connection: status connected, error cleared); the row. */
export async function upsertConnection(
  sql: Sql,
  userId: string,
  c: { environment: Environment; accountId: string; alias: string | null; currency: string; tokenEncrypted: string; lastTransactionId: string },
): Promise<BrokerConnectionRow | undefined> {
  const [row] = await sql<BrokerConnectionRow[]>`insert into broker_connections (user_id, environment, account_id, account_alias, account_currency, token_encrypted, last_transaction_id)
      values (${userId}, ${c.environment}, ${c.accountId}, ${c.alias}, ${c.currency},
              ${c.tokenEncrypted}, ${c.lastTransactionId})
      on conflict (user_id) do update set environment = excluded.environment, account_id = excluded.account_id,
        account_alias = excluded.account_alias, account_currency = excluded.account_currency,
        token_encrypted = excluded.token_encrypted, last_transaction_id = excluded.last_transaction_id,
        status = 'connected', last_error = null, connected_at = now(), updated_at = now()
      returning *`;
  return row;
}

/**
 * Deletes the user's connection and keeps its last reconciled transaction id in `broker_cursors` (for a
 * reconnect of the same account), in one statement; the account removed (empty: there was none).
 */
export function deleteConnectionKeepingCursor(sql: Sql, userId: string) {
  return sql<{ environment: string; account_id: string }[]>`with gone as (
          delete from broker_connections where user_id = ${userId} returning user_id, environment, account_id, last_transaction_id
        ), kept as (
          insert into broker_cursors (user_id, environment, account_id, last_transaction_id)
          select user_id, environment, account_id, last_transaction_id from gone where last_transaction_id is not null
          on conflict (user_id, environment, account_id) do update set last_transaction_id = excluded.last_transaction_id, updated_at = now()
        )
        select environment, account_id from gone`;
}

/** The reconcile cursor of the user's connection to `accountId` (undefined: not connected to it). */
export async function reconcileCursor(sql: Sql, userId: string, accountId: string): Promise<{ last_transaction_id: string | null } | undefined> {
  const [row] = await sql<{ last_transaction_id: string | null }[]>`select last_transaction_id from broker_connections
        where user_id = ${userId} and account_id = ${accountId}`;
  return row;
}

/** Moves the reconcile cursor of the user's connection to `accountId`. */
export async function setReconcileCursor(sql: Sql, userId: string, accountId: string, lastTransactionId: string): Promise<void> {
  await sql`update broker_connections set last_transaction_id = ${lastTransactionId}, updated_at = now()
        where user_id = ${userId} and account_id = ${accountId}`;
}

/** Records the broker clock offset (ms) of the user's connection. */
export async function setMarketClockOffset(sql: Sql, userId: string, offsetMs: number): Promise<void> {
  await sql`update broker_connections set market_clock_offset_ms = ${offsetMs} where user_id = ${userId}`;
}

/** Records whether the last broker call of the user's connection worked (no write when unchanged). */
export async function setConnectionStatus(sql: Sql, userId: string, status: "connected" | "error", error: string | null): Promise<void> {
  await sql`update broker_connections set status = ${status}, last_error = ${error}, updated_at = now()
    where user_id = ${userId} and status is distinct from ${status}`;
}
