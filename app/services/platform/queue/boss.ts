/**
 * The in-process pg-boss instance (a `globalThis` singleton, so Vite dev reloads keep one). The
 * error listener is attached before `start()` and every queue is created (or updated to its
 * current options) up front: pg-boss 10's `send()` to a missing queue silently returns null.
 */
import PgBoss from "pg-boss";
import { ALL_QUEUES, DEAD_LETTER_QUEUE, RETIRED_QUEUES } from "./queues";

declare global {
  var __boss: PgBoss | undefined;
}

export interface StartQueueOptions {
  /** PostgreSQL URL (the app's database; pg-boss keeps its own schema and pool there). */
  connectionString: string;
  /** Receives pg-boss's background errors (its maintenance and workers). */
  onError: (err: Error) => void;
  /**
   * Whether this process runs workers (config `WORKERS`, default true). A web-only process (false) only
   * creates the queues and sends jobs: no pg-boss cron clock (and its `__pgboss__send-it` worker), no
   * maintenance; the WORKERS=on processes do those (README "Deployment").
   */
  workers?: boolean;
}

/** Starts pg-boss, creates the queues and deletes retired ones (`RETIRED_QUEUES`). Safe to call twice. */
export async function startQueue(opts: StartQueueOptions): Promise<PgBoss> {
  if (globalThis.__boss) return globalThis.__boss;
  const workers = opts.workers ?? true;
  const boss = new PgBoss({ connectionString: opts.connectionString, max: 4, maintenanceIntervalSeconds: 30, schedule: workers, supervise: workers });
  boss.on("error", opts.onError);
  await boss.start();
  // One read of every queue, then writes only where something changed (ADR 0026: a boot used to spend
  // ~20 round trips here re-writing identical options).
  const existing = new Map((await boss.getQueues()).map((q) => [q.name, q]));
  if (!existing.has(DEAD_LETTER_QUEUE)) await boss.createQueue(DEAD_LETTER_QUEUE).catch(() => {});
  for (const q of ALL_QUEUES) {
    const stored = existing.get(q.name);
    if (!stored) await boss.createQueue(q.name, { name: q.name, ...q.options });
    else if (!sameQueueOptions(stored, q.options)) await boss.updateQueue(q.name, { name: q.name, ...q.options });
  }
  for (const name of RETIRED_QUEUES) if (existing.has(name)) await boss.deleteQueue(name);
  globalThis.__boss = boss;
  return boss;
}

/**
 * Whether a stored queue already has `wanted`'s options (an option left out is kept by pg-boss's update,
 * except `policy`, which defaults to "standard"), so its update would change nothing.
 */
export function sameQueueOptions(stored: PgBoss.QueueResult, wanted: Partial<Omit<PgBoss.Queue, "name">>): boolean {
  if ((stored.policy ?? "standard") !== (wanted.policy ?? "standard")) return false;
  const keys = ["retryLimit", "retryDelay", "retryBackoff", "expireInSeconds", "retentionMinutes", "deadLetter"] as const;
  return keys.every((k) => wanted[k] === undefined || stored[k] === wanted[k]);
}

/** The running instance, if the sender (and maybe the workers) were started in this process. */
export function queue(): PgBoss | undefined {
  return globalThis.__boss;
}

/** Graceful stop: lets running jobs finish (up to `timeoutMs`). */
export async function stopQueue(timeoutMs = 20_000): Promise<void> {
  const boss = globalThis.__boss;
  globalThis.__boss = undefined;
  await boss?.stop({ graceful: true, wait: true, timeout: timeoutMs });
}
