/**
 * Thin pg-boss handlers (DESIGN.md §2 jobs/): parse the payload, call the service, chain the next tick.
 */
import type { Job } from "pg-boss";
import { activeBotIds, activeInterval, runTick } from "../app/services/bot.server";
import { enqueueTick } from "../app/services/queue.server";
import { botTickQueue } from "./queues";

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

/** Every minute: a tick queued for every active bot (pg-boss drops duplicates per bot). */
export async function handleScheduler(_jobs: Job<unknown>[]): Promise<void> {
  for (const userId of await activeBotIds()) await enqueueTick(userId);
}
