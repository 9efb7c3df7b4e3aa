/**
 * Thin pg-boss handlers (DESIGN.md §2 jobs/): parse the payload, call the service, chain the next tick.
 */
import type { Job } from "pg-boss";
import { activeBotIds, activeInterval, runTick } from "../app/services/bot.server";
import { logger } from "../app/services/logger.server";
import { settleUnknownOrders } from "../app/services/order-intents.server";
import { botTickQueue } from "./queues";
import { enqueueTick } from "./send";

/** Delay of the next tick after a transient broker failure, when shorter than the bot's interval. */
export const TICK_RETRY_DELAY_SEC = 10;

/**
 * One tick per job; when the bot is still active the next tick is queued `intervalSec` later, or
 * sooner (`TICK_RETRY_DELAY_SEC`) after a transient broker failure. That next tick is the retry:
 * the job itself always completes (the tick stored its error on the bot) and pg-boss never retries
 * it (jobs/queues.ts), so no retry can start while a tick of the bot is queued or still running.
 */
export async function handleBotTick(jobs: Job<unknown>[]): Promise<void> {
  for (const job of jobs) {
    const { userId } = botTickQueue.payload.parse(job.data);
    let failed = false;
    try {
      await runTick(userId);
    } catch (err) {
      failed = true;
      logger().warn({ userId, err: err instanceof Error ? err.message : String(err) }, "tick com falha transitória: próximo ciclo antecipado");
    } finally {
      const interval = await activeInterval(userId);
      if (interval !== null) await enqueueTick(userId, failed ? Math.min(interval, TICK_RETRY_DELAY_SEC) : interval);
    }
  }
}

/**
 * Every minute (and at boot): makes sure every active bot has a tick queued (pg-boss keeps one
 * waiting tick per bot). A tick job left `active` by a process that died does not block the bot:
 * the queue limits waiting ticks, not running ones (policy `short`), and ticks of one bot never
 * overlap because each holds the user's lock (bot.server.ts `runTick`); the orphan expires (it is
 * not retried) and the next pass queues the bot's tick again. Also settles order intents whose
 * outcome never became known (app/services/order-intents.server.ts).
 */
export async function handleScheduler(_jobs: Job<unknown>[]): Promise<void> {
  for (const userId of await activeBotIds()) await enqueueTick(userId);
  await settleUnknownOrders();
}
