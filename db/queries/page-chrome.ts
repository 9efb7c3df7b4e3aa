/**
 * A read model over `notifications` and `bots`: what the app chrome shows on every page (the header's
 * unread count, the AI's dot), in one statement.
 */
import type { Sql } from "./sql";

/** The user's unread notifications (count) and whether the AI loop is on (null: no bot). */
export async function chromeCounts(sql: Sql, userId: string): Promise<{ count: number; is_active: boolean | null } | undefined> {
  const [row] = await sql<{ count: number; is_active: boolean | null }[]>`
    select (select count(*)::int from notifications where user_id = ${userId} and not read) as count,
           (select is_active from bots where user_id = ${userId}) as is_active`;
  return row;
}
