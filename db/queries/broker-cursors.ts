/**
 * The `broker_cursors` table (migration 0008): the last reconciled transaction id of each account a
 * user was connected to, kept for a reconnect of the same account (app/services/trading/broker-link.server.ts).
 * Its statements live here (issue 23 item 2); the disconnect's statement that fills it from the deleted
 * connection is broker-connections.ts `deleteConnectionKeepingCursor`.
 */
import type { Environment } from "../../core/broker/port";
import type { Sql } from "./sql";

/** Keeps the cursor of the user's current connection (if it has one), before the connection is replaced. */
export async function keepConnectionCursor(sql: Sql, userId: string): Promise<void> {
  await sql`insert into broker_cursors (user_id, environment, account_id, last_transaction_id)
      select user_id, environment, account_id, last_transaction_id from broker_connections
      where user_id = ${userId} and last_transaction_id is not null
      on conflict (user_id, environment, account_id) do update set last_transaction_id = excluded.last_transaction_id, updated_at = now()`;
}

/** Takes (deletes and returns) the kept cursor of the user's account (undefined: none kept). */
export async function takeCursor(sql: Sql, userId: string, environment: Environment, accountId: string): Promise<{ last_transaction_id: string } | undefined> {
  const [kept] = await sql<{ last_transaction_id: string }[]>`delete from broker_cursors
      where user_id = ${userId} and environment = ${environment} and account_id = ${accountId} returning last_transaction_id`;
  return kept;
}
