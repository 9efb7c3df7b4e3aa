/**
 * Thin pg-boss handlers (DESIGN.md §2 jobs/). Bot ticks are not a pg-boss queue any more: the tick
 * scheduler claims due bots from the `bots` table (app/services/trading/tick-scheduler.server.ts, ADR 0024).
 */
import type { Job } from "pg-boss";
import { settleUnknownOrders } from "../app/services/trading/order-intents.server";

/**
 * Every minute (cron `bot-scheduler`, one process at a time): settles order intents whose outcome
 * never became known (app/services/trading/order-intents.server.ts). Bots resume after a restart by
 * themselves: an active bot stays due in `bots.next_tick_at`.
 */
export async function handleScheduler(_jobs: Job<unknown>[]): Promise<void> {
  await settleUnknownOrders();
}
