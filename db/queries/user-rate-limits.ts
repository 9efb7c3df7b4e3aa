/**
 * The `user_rate_limits` table: per user and limited action, the current fixed window's start and its
 * hits (app/services/platform/user-rate-limit.server.ts holds the limits). Its statements live here
 * (issue 23 item 2).
 */
import type { Sql } from "./sql";

/**
 * Counts one call of `action` by `userId` in the window of `windowSeconds` (a window over starts anew), in
 * one atomic upsert; answers the window's hits and the seconds left of it.
 */
export async function countUserAction(sql: Sql, userId: string, action: string, windowSeconds: number) {
  const USER_ACTION_WINDOW_SECONDS = windowSeconds;
  const expired = sql`r.window_start <= now() - ${USER_ACTION_WINDOW_SECONDS}::int * interval '1 second'`;
  const [row] = await sql<{ hits: number; left: number }[]>`
    insert into user_rate_limits as r (user_id, action, window_start, hits)
    values (${userId}, ${action}, now(), 1)
    on conflict (user_id, action) do update set
      window_start = case when ${expired} then now() else r.window_start end,
      hits = case when ${expired} then 1 else least(r.hits + 1, 1000000) end
    returning hits, extract(epoch from window_start + ${USER_ACTION_WINDOW_SECONDS}::int * interval '1 second' - now())::float as left`;
  return row;
}
