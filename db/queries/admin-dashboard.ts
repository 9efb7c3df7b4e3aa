/**
 * The admin dashboard's operations figures (issue 10; issue 23 item 2: its SQL on `bots` and `decisions`
 * lives here): counts over the last hour, read with the rest of the dashboard.
 */
import type { Sql } from "./sql";

/** The dashboard's operations counts: AI loops on (users not deleted), bots that ticked and bots whose tick failed in the last hour, decisions in the last hour. */
export interface LoopActivity {
  loops: number;
  ticked: number;
  errors: number;
  decisions: number;
}

/** The `LoopActivity` counts, one row. */
export function loopActivity(sql: Sql) {
  return sql<LoopActivity[]>`
      select
        (select count(*)::int from bots b join users u on u.id = b.user_id where b.is_active and u.deleted_at is null) as loops,
        (select count(*)::int from bots where last_tick_at > now() - interval '1 hour') as ticked,
        (select count(*)::int from bots where last_tick_at > now() - interval '1 hour' and last_tick_error is not null) as errors,
        (select count(*)::int from decisions where created_at > now() - interval '1 hour') as decisions`;
}
