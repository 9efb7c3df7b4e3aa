/**
 * The manage-only switch of a running loop (issue 9): the bot enters the mode when the licence
 * lapses and leaves it when the licence is valid again, one notification each.
 */
import { msg } from "../../../core/i18n/message";
import { manageOnlyVerdict } from "../../../core/risk";
import { db } from "../platform/db.server";
import { notify } from "../notify/notifications.server";
import type { TickBotRow } from "./tick-context.server";
import { enterManageOnly, leaveLicenceManageOnly } from "../../../db/queries/bots";

/**
 * Enters or leaves manage-only as the licence says, before the broker is called (the mode follows
 * the licence, not the broker's health): each change is one conditional update, so it notifies once
 * however many ticks see it. Nothing is written while the mode does not change.
 */
export async function switchManageOnly(userId: string, bot: TickBotRow, licensed: boolean) {
  const verdict = manageOnlyVerdict(licensed);
  if (verdict?.manageOnly && !bot.manage_only_since) {
    if (await enterManageOnly(db(), userId, verdict.manageOnly))
      await notify(userId, {
        type: "warning",
        title: msg("notices:manageOnly.title"),
        message: msg("notices:manageOnly.message"),
        metadata: { mode: "manage_only", reason: verdict.manageOnly },
      });
  } else if (!verdict && bot.manage_only_since && bot.manage_only_reason !== "user") {
    // The user's own 'Parar novas entradas' (issue 22) outlives the licence: only "Retomar entradas" ends it.
    if (await leaveLicenceManageOnly(db(), userId))
      await notify(userId, {
        type: "success",
        title: msg("notices:manageOnlyEnded.title"),
        message: msg("notices:manageOnlyEnded.message"),
        metadata: { mode: "trading", reason: bot.manage_only_reason },
      });
  }
}
