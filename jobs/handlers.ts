/**
 * Thin pg-boss handlers (DESIGN.md §2 jobs/): parse the payload, call the service, chain the next tick.
 */
import type { Job } from "pg-boss";
import { activeBotIds, activeInterval, isTickRunning, runTick } from "../app/services/bot.server";
import { db } from "../app/services/db.server";
import { enqueueTick, queue } from "../app/services/queue.server";
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

/**
 * Every minute (and at boot): fails tick jobs left `active` by a process that died (no process holds
 * the bot's tick lock), so the bot is not blocked until the job expires; then makes sure every active
 * bot has a tick queued (pg-boss drops duplicates per bot).
 */
export async function handleScheduler(_jobs: Job<unknown>[]): Promise<void> {
  const boss = queue();
  if (boss) {
    const stale = await db()<{ id: string; user_id: string }[]>`
      select id, singleton_key as user_id from pgboss.job where name = ${botTickQueue.name} and state = 'active' and started_on < now() - interval '30 seconds'`;
    for (const job of stale) {
      if (!(await isTickRunning(job.user_id))) await boss.fail(botTickQueue.name, job.id, { message: "processo encerrado durante o ciclo" });
    }
  }
  for (const userId of await activeBotIds()) await enqueueTick(userId);
}
