/**
 * The `account_states` table (migrations 0018, 0019, 0023): one row per user, what we last read of the
 * broker account (summary, open trades, offered instruments, the account rules). Its statements live here
 * (issue 23 item 2), with the SQL piece other statements join in (ACCOUNT_STATE_JSON).
 */
import type { Environment } from "../../core/broker/port";
import type { Sql } from "./sql";

/** The account a state row is about. */
export interface AccountKey {
  environment: Environment;
  account_id: string;
}

/** SQL expression (in a statement naming the user's id `u.id`) giving the user's row as jsonb (null: none), for `parseAccountState`; text for `sql.unsafe`. */
export const ACCOUNT_STATE_JSON = "(select to_jsonb(a) from account_states a where a.user_id = u.id)";

/** The stored state (as jsonb, for `parseAccountState`) of the user when it is about their current connection's account. */
export async function accountStateOfConnection(sql: Sql, userId: string): Promise<unknown> {
  const [row] = await sql<{ state: unknown }[]>`
    select to_jsonb(a) as state from account_states a
      join broker_connections c on c.user_id = a.user_id and c.environment = a.environment and c.account_id = a.account_id
    where a.user_id = ${userId}`;
  return row?.state;
}

/** Stores a read of summary and open trades (`lastTransactionId` their last transaction), confirmed at `syncedAt`; keeps the instruments of the same account. */
export async function saveAccountReadRow(sql: Sql, userId: string, conn: AccountKey, summary: unknown, trades: unknown, lastTransactionId: string, syncedAt: Date): Promise<void> {
  await sql`insert into account_states (user_id, environment, account_id, summary, open_trades, last_transaction_id, read_at, synced_at)
    values (${userId}, ${conn.environment}, ${conn.account_id}, ${sql.json(summary as never)}, ${sql.json(trades as never)}, ${lastTransactionId}, now(), ${syncedAt})
    on conflict (user_id) do update set
      instruments = case when account_states.environment = excluded.environment and account_states.account_id = excluded.account_id then account_states.instruments end,
      instruments_read_at = case when account_states.environment = excluded.environment and account_states.account_id = excluded.account_id then account_states.instruments_read_at end,
      environment = excluded.environment, account_id = excluded.account_id, summary = excluded.summary, open_trades = excluded.open_trades,
      last_transaction_id = excluded.last_transaction_id, read_at = excluded.read_at, synced_at = excluded.synced_at, updated_at = now()`;
}

/**
 * Moves the stored read of `conn`'s account past an own order's fill (issue 24, ADR 0042): summary,
 * open trades and last id replaced only while the row is still at `fromTransactionId` (compare and
 * set); `read_at` and `synced_at` kept (the valuation's age bound still counts from the broker read).
 * @returns whether the row was at `fromTransactionId` and was updated
 */
export async function saveOwnFillRow(sql: Sql, userId: string, conn: AccountKey, summary: unknown, trades: unknown, fromTransactionId: string, lastTransactionId: string): Promise<boolean> {
  const rows = await sql`update account_states set summary = ${sql.json(summary as never)}, open_trades = ${sql.json(trades as never)},
      last_transaction_id = ${lastTransactionId}, updated_at = now()
    where user_id = ${userId} and environment = ${conn.environment} and account_id = ${conn.account_id} and last_transaction_id = ${fromTransactionId}`;
  return rows.count === 1;
}

/** Stores the list of instruments the account offers; keeps the read of the same account. */
export async function saveInstrumentsRow(sql: Sql, userId: string, conn: AccountKey, list: unknown): Promise<void> {
  await sql`insert into account_states (user_id, environment, account_id, instruments, instruments_read_at)
    values (${userId}, ${conn.environment}, ${conn.account_id}, ${sql.json(list as never)}, now())
    on conflict (user_id) do update set
      summary = case when account_states.environment = excluded.environment and account_states.account_id = excluded.account_id then account_states.summary end,
      open_trades = case when account_states.environment = excluded.environment and account_states.account_id = excluded.account_id then account_states.open_trades end,
      last_transaction_id = case when account_states.environment = excluded.environment and account_states.account_id = excluded.account_id then account_states.last_transaction_id end,
      read_at = case when account_states.environment = excluded.environment and account_states.account_id = excluded.account_id then account_states.read_at end,
      synced_at = case when account_states.environment = excluded.environment and account_states.account_id = excluded.account_id then account_states.synced_at end,
      environment = excluded.environment, account_id = excluded.account_id,
      instruments = excluded.instruments, instruments_read_at = excluded.instruments_read_at, updated_at = now()`;
}

/** Stores the account rules checked now; the rules stored before (undefined: none). */
export async function saveAccountRulesRow(sql: Sql, userId: string, conn: AccountKey, rules: unknown): Promise<unknown> {
  const [row] = await sql<{ previous: unknown }[]>`
    with prev as (select account_rules from account_states where user_id = ${userId})
    insert into account_states (user_id, environment, account_id, account_rules, account_rules_checked_at)
      values (${userId}, ${conn.environment}, ${conn.account_id}, ${sql.json(rules as never)}, now())
    on conflict (user_id) do update set account_rules = excluded.account_rules, account_rules_checked_at = now(), updated_at = now()
    returning (select account_rules from prev) as previous`;
  return row?.previous;
}

/** The stored account rules and their check time, with the current connection's account (undefined without a state or a connection). */
export async function accountRulesRow(sql: Sql, userId: string) {
  const [row] = await sql<{ account_rules: unknown; checked_at: Date | null; environment: string; account_id: string }[]>`
    select a.account_rules, a.account_rules_checked_at as checked_at, c.environment, c.account_id
    from account_states a join broker_connections c on c.user_id = a.user_id
    where a.user_id = ${userId}`;
  return row;
}
