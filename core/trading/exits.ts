/**
 * The exits the AI manages itself (DESIGN.md §3 step "manage exits"): stop loss, take profit and
 * the trailing stop are the broker's orders, attached on fill; the scalper's maximum hold and the
 * weekend/market-close "flat" window are ours, checked at every tick on the AI's own trades only.
 */
import type { Trade } from "../broker/port";
import { marketCloseWindow } from "../risk/market-hours";
import type { TradingSettings } from "../settings";

/** The client-extensions tag on every order and trade the AI opens (a user's manual trades are never touched). */
export const AI_TRADE_TAG = "forex-ia";

/** Why the AI closes one of its trades: the scalper's maxHoldSec elapsed, or the weekend window in mode "flat". */
export type AiExitReason = "max_hold" | "weekend_flat";

/** Whether a broker trade was opened by the AI (its client extensions carry AI_TRADE_TAG). */
export function isAiTrade(t: Pick<Trade, "clientExtensions">): boolean {
  return t.clientExtensions?.tag === AI_TRADE_TAG;
}

/**
 * Why the AI closes a trade at `now` (UTC), or null: the scalper's maxHoldSec since the trade's
 * openTime (settings.aiSettings.scalper, PRODUCT.md §9), or the weekend window in mode "flat"
 * (core/risk/market-hours.ts).
 */
export function exitReason(t: Pick<Trade, "openTime">, settings: TradingSettings, now: Date): AiExitReason | null {
  const ai = settings.aiSettings;
  const scalper = ai.scalper.enabled || ai.tradingStyle === "scalper";
  if (scalper && now.getTime() - Date.parse(t.openTime) >= ai.scalper.maxHoldSec * 1000) return "max_hold";
  if (marketCloseWindow(now, settings).flatten) return "weekend_flat";
  return null;
}
