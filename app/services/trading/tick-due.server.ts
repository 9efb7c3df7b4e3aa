/**
 * The bots' due slots in `bots.next_tick_at` (issue 13, ADR 0024): the claim of the tick scheduler
 * (app/services/trading/tick-scheduler.server.ts) and "make this bot due" for starting a bot or retrying a
 * failed tick. No import of the bot service: the bot service itself calls `makeTickDue`.
 */
import { db } from "../platform/db.server";

/** One claimed due slot: the bot, the slot's due time, and the bot's interval (seconds). */
export interface ClaimedTick {
  userId: string;
  dueAt: Date;
  intervalSec: number;
}

/**
 * Claims up to `limit` due active bots (oldest due first), in one statement: their `next_tick_at`
 * moves to the next slot after now (due + k × interval, k ≥ 1), so no other claimer takes the same
 * slot. Rows locked by another claimer or a writer are skipped (they stay due for the next poll).
 */
export async function claimDueTicks(limit: number): Promise<ClaimedTick[]> {
  if (limit <= 0) return [];
  const rows = await db()<{ user_id: string; due_at: Date; interval_sec: number }[]>`
    with due as (
      select user_id, next_tick_at from bots
      where is_active and next_tick_at <= now()
      order by next_tick_at
      limit ${limit}
      for update skip locked
    )
    update bots b
    set next_tick_at = due.next_tick_at + make_interval(secs => b.interval_sec *
      (floor(extract(epoch from (now() - due.next_tick_at)) / b.interval_sec) + 1))
    from due
    where b.user_id = due.user_id
    returning b.user_id, due.next_tick_at as due_at, b.interval_sec`;
  return rows.map((r) => ({ userId: r.user_id, dueAt: r.due_at, intervalSec: r.interval_sec }));
}

/**
 * Makes an active bot due `delaySeconds` from now, or keeps its due time when that is sooner
 * (starting a bot: due now; after a failed tick: sooner). Returns whether an active bot was found.
 */
export async function makeTickDue(userId: string, delaySeconds = 0): Promise<boolean> {
  const rows = await db()`update bots set next_tick_at = least(next_tick_at, now() + make_interval(secs => ${delaySeconds}))
    where user_id = ${userId} and is_active returning user_id`;
  return rows.length > 0;
}
