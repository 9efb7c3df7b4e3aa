/**
 * The bots' due slots in `bots.next_tick_at` (issue 13, ADR 0024): the claim of the tick scheduler
 * (app/services/trading/tick-scheduler.server.ts) and "make this bot due" for starting a bot or retrying a
 * failed tick. No import of the bot service: the bot service itself calls `makeTickDue`.
 */
import { db } from "../platform/db.server";
import { claimDueBots, makeBotDue } from "../../../db/queries/bots";

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
  const rows = await claimDueBots(db(), limit);
  return rows.map((r) => ({ userId: r.user_id, dueAt: r.due_at, intervalSec: r.interval_sec }));
}

/**
 * Makes an active bot due `delaySeconds` from now, or keeps its due time when that is sooner
 * (starting a bot: due now; after a failed tick: sooner). Returns whether an active bot was found.
 */
export async function makeTickDue(userId: string, delaySeconds = 0): Promise<boolean> {
  return makeBotDue(db(), userId, delaySeconds);
}
