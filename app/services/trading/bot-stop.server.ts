/**
 * Stopping the AI loop (PRODUCT.md §4 "AI loop"): the one statement that deactivates a bot with a
 * stop reason (db/queries/bots.ts `deactivateBot`, which the broker's disconnect also runs, in its
 * transaction), used by the stop button, the tick's stops and the kill switch, and the labels of stop reasons.
 * Imports nothing of the broker or the tick, so any of them may import it.
 */
import { msg, type Msg } from "../../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { db } from "../platform/db.server";
import { deactivateBot } from "../../../db/queries/bots";

/** Stop reasons with a label of their own (PRODUCT.md §4 "AI loop"); any other reads 'Inativo'. */
export const LABELLED_STOP_REASONS = ["manual", "max_consecutive_losses", "daily_loss_limit", "max_drawdown", "trading_hours", "server_shutdown"] as const;
export const hasLabel = (reason: string | null | undefined): reason is (typeof LABELLED_STOP_REASONS)[number] =>
  LABELLED_STOP_REASONS.includes(reason as (typeof LABELLED_STOP_REASONS)[number]);

/** The label of a stop reason as a message ('Parado manualmente' … or 'Inativo'). */
export const stopReasonMsg = (reason: string | null | undefined): Msg => msg(`bot:stopReason.${hasLabel(reason) ? reason : "other"}`);
/** The label of a stop reason in a language (Portuguese by default). */
export const stopReasonText = (reason: string | null | undefined, language: unknown = "pt") => translateMsg(stopReasonMsg(reason), language);

/**
 * Deactivates the loop with a stop reason (PRODUCT.md §4), leaving manage-only too. Returns whether
 * it was active. The statement is db/queries/bots.ts `deactivateBot`, the broker's disconnect's too.
 */
export async function stopBot(userId: string, reason = "manual"): Promise<boolean> {
  return deactivateBot(db(), userId, reason);
}
