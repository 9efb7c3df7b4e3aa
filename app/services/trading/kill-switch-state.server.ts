/**
 * What the graduated kill switch (issue 22, kill-switch.server.ts) leaves on the bot, read on its own
 * (trading/tick-runner.server.ts asks it before a forced tick; it imports nothing of the bot, so no import cycle).
 */
import { db } from "../platform/db.server";
import { closedAllHolds as closedAllHoldsRow } from "../../../db/queries/bots";

/**
 * True while a 'Fechar tudo e pausar' holds: the user closed everything (bots.closed_all_at,
 * migration 0021) and has not started the AI since (last_started_at is older). The tick then refuses
 * even a forced run, so nothing reopens until the user turns the AI on again.
 */
export async function closedAllHolds(userId: string): Promise<boolean> {
  return closedAllHoldsRow(db(), userId);
}
