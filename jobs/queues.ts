/**
 * pg-boss queue definitions: name, zod payload, queue options (DESIGN.md §3, pg-boss docs).
 * Queues are created up front at boot with their retry and dead-letter policy.
 */
import { z } from "zod";

export const DEAD_LETTER_QUEUE = "dead-letter";

/**
 * Seconds before pg-boss takes a running tick job for a dead one. Above the longest tick deadline
 * (config `TICK_TIMEOUT_SEC` ≤ 90), so a live tick is always over before its job can expire.
 */
export const TICK_JOB_EXPIRE_SECONDS = 120;

/**
 * One bot tick. `short`: at most one waiting job per bot (singletonKey = user id), so the chain and
 * the scheduler never pile ticks up. Running ticks are not limited by the queue: a job orphaned by a
 * dead process would otherwise block the bot until it expires. Overlap is prevented by the user's
 * lock, which PostgreSQL releases when a process dies (bot.server.ts `runTick`).
 * No pg-boss retries (ADR 0013): the handler always completes the job and chains the next tick,
 * sooner after a transient failure (jobs/handlers.ts); a retry could only duplicate that tick.
 */
export const botTickQueue = {
  name: "bot-tick",
  payload: z.object({ userId: z.uuid() }),
  options: {
    policy: "short" as const,
    retryLimit: 0,
    expireInSeconds: TICK_JOB_EXPIRE_SECONDS,
    deadLetter: DEAD_LETTER_QUEUE,
  },
};

/** Every minute: makes sure each active bot has a tick queued (resumes bots after restarts or lost jobs). */
export const botSchedulerQueue = {
  name: "bot-scheduler",
  cron: "* * * * *",
  payload: z.object({}).loose(),
  options: { policy: "singleton" as const, retryLimit: 0, expireInSeconds: 60, deadLetter: DEAD_LETTER_QUEUE },
};

/**
 * One outgoing e-mail (a row of `email_outbox`). Retried with backoff on SMTP failure; after the last
 * attempt the job goes to the dead-letter queue and the row stays `failed` with the last error.
 */
export const emailSendQueue = {
  name: "email-send",
  payload: z.object({ outboxId: z.uuid() }),
  options: {
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: 120,
    deadLetter: DEAD_LETTER_QUEUE,
  },
};

export const ALL_QUEUES = [botTickQueue, botSchedulerQueue, emailSendQueue];
