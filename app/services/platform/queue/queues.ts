/**
 * pg-boss queue definitions: name, zod payload, queue options (DESIGN.md §3, pg-boss docs).
 * Queues are created up front at boot with their retry and dead-letter policy.
 */
import { z } from "zod";

export const DEAD_LETTER_QUEUE = "dead-letter";

/**
 * The queue of bot ticks before ADR 0024 (ticks are claimed from `bots.next_tick_at` now): deleted
 * at boot with its leftover jobs (app/services/platform/queue/boss.ts).
 */
export const RETIRED_QUEUES = ["bot-tick"];

/** Every minute: settles order intents whose outcome never became known (jobs/handlers.ts; the name predates ADR 0024). */
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

/**
 * One verified Stripe webhook event to apply (a row of `stripe_events`; app/services/billing/stripe-events.server.ts).
 * Retried with backoff when Stripe or the database fails; processing is idempotent, so a retry after
 * a crash mid-way is harmless.
 */
export const stripeEventQueue = {
  name: "stripe-event",
  payload: z.object({ eventId: z.string().min(1).max(255) }),
  options: {
    retryLimit: 8,
    retryDelay: 10,
    retryBackoff: true,
    expireInSeconds: 120,
    deadLetter: DEAD_LETTER_QUEUE,
  },
};

/** Every 5 minutes: stored Stripe events whose job was lost (the enqueue failed after the insert). */
export const stripePendingQueue = {
  name: "stripe-pending",
  cron: "*/5 * * * *",
  payload: z.object({}).loose(),
  options: { policy: "singleton" as const, retryLimit: 0, expireInSeconds: 300, deadLetter: DEAD_LETTER_QUEUE },
};

/** Once a day (04:17 UTC, a quiet hour in Brazil): every customer's subscriptions re-read from Stripe (missed events). */
export const stripeSweepQueue = {
  name: "stripe-sweep",
  cron: "17 4 * * *",
  payload: z.object({}).loose(),
  options: { policy: "singleton" as const, retryLimit: 2, retryDelay: 600, expireInSeconds: 3600, deadLetter: DEAD_LETTER_QUEUE },
};

/**
 * Every 30 minutes (and once at boot): the economic calendar from NEWS_CALENDAR_URL, else the shipped
 * data/calendar files (app/services/trading/calendar.server.ts, ADR 0018). The fetch retries itself; a failure
 * is logged and keeps the stored events, so the job never fails for it.
 */
export const calendarRefreshQueue = {
  name: "calendar-refresh",
  cron: "*/30 * * * *",
  payload: z.object({}).loose(),
  options: { policy: "singleton" as const, retryLimit: 1, retryDelay: 60, expireInSeconds: 300, deadLetter: DEAD_LETTER_QUEUE },
};

/**
 * Web push of one stored notification (issue 11, ADR 0016): queued in the transaction that inserts
 * the notification (pg-boss's `db` option), so a push is never lost nor queued for a rolled-back
 * row. The handler picks the devices (topic switches) and sends to them in parallel, one delivery per
 * user at a time in a process (issue 24: one user's dead endpoints cannot hold every worker).
 * `subscriptionIds`/`attempt`: a later try of the devices that failed (5xx, network), with backoff.
 */
export const pushNotifyQueue = {
  name: "push-notify",
  payload: z.object({ notificationId: z.uuid(), subscriptionIds: z.array(z.uuid()).max(50).optional(), attempt: z.number().int().min(0).max(20).default(0) }),
  options: { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 60, deadLetter: DEAD_LETTER_QUEUE },
};

/**
 * One push to one device after its push service answered 429: a fresh job after `Retry-After`
 * (`attempt` counts them); 5xx/network → pg-boss retries with backoff; 404/410 → the subscription is
 * deleted. singletonKey notification:subscription:attempt.
 */
export const pushSendQueue = {
  name: "push-send",
  payload: z.object({ notificationId: z.uuid(), subscriptionId: z.uuid(), attempt: z.number().int().min(0).max(20).default(0) }),
  options: { retryLimit: 5, retryDelay: 3, retryBackoff: true, expireInSeconds: 60, deadLetter: DEAD_LETTER_QUEUE },
};

/**
 * One user's backtest run (issue 12, ADR 0019: a row of `backtest_runs`). No pg-boss retry: the
 * handler stores a failure on the row itself, and a crashed run is failed by the stale sweep
 * (app/services/backtest/runs.server.ts `failStaleRuns`), so a retry could only repeat it.
 * singletonKey = run id. Expiry 3600 s: a run on the long history (issue 21) may take many minutes on a
 * loaded machine (docs/BENCHMARKS.md "Backtest on the long history"); an expired job would free the
 * worker while the run still computes, letting a second run start beside it.
 */
export const backtestRunQueue = {
  name: "backtest-run",
  payload: z.object({ runId: z.uuid() }),
  options: { retryLimit: 0, expireInSeconds: 3600, deadLetter: DEAD_LETTER_QUEUE },
};

export const ALL_QUEUES = [botSchedulerQueue, emailSendQueue, stripeEventQueue, stripePendingQueue, stripeSweepQueue, pushNotifyQueue, pushSendQueue, calendarRefreshQueue, backtestRunQueue];
