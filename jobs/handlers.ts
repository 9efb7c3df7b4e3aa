/**
 * Thin pg-boss handlers (DESIGN.md §2 jobs/): parse the payload, call the service, chain the next tick.
 */
import type { Job } from "pg-boss";
import { activeBotIds, activeInterval, runTick } from "../app/services/bot.server";
import { botTickQueue } from "./queues";
import { enqueueTick } from "./send";

/** One tick per job; when the bot is still active the next tick is queued `intervalSec` later. */
export async function handleBotTick(jobs: Job<unknown>[]): Promise<void> {
  for (const job of jobs) {
    const { userId } = botTickQueue.payload.parse(job.data);
    try {
      await runTick(userId);
    } finally {
      const interval = await activeInterval(userId);
      if (interval !== null) await enqueueTick(userId, interval);
    }
  }
}

/**
 * Every minute (and at boot): makes sure every active bot has a tick queued (pg-boss keeps one
 * waiting tick per bot). A tick job left `active` by a process that died does not block the bot:
 * the queue limits waiting ticks, not running ones (policy `short`), and ticks of one bot never
 * overlap because each holds the bot's advisory lock (bot.server.ts `runTick`); the orphan expires
 * and its retry is just one more tick.
 */
export async function handleScheduler(_jobs: Job<unknown>[]): Promise<void> {
  for (const userId of await activeBotIds()) await enqueueTick(userId);
}
