/**
 * The in-process pg-boss instance (a `globalThis` singleton). The error listener is attached
 * before `start()` and every queue is created up front (pg-boss 10: `send()` to a missing queue
 * silently returns null).
 */
import PgBoss from "pg-boss";
import { ALL_QUEUES, botTickQueue, DEAD_LETTER_QUEUE } from "../../jobs/queues";
import { config } from "./config.server";
import { logger } from "./logger.server";

declare global {
  var __boss: PgBoss | undefined;
}

/** Starts pg-boss and creates the queues. Safe to call twice. */
export async function startQueue(): Promise<PgBoss> {
  if (globalThis.__boss) return globalThis.__boss;
  const boss = new PgBoss({
    connectionString: config().DATABASE_URL,
    max: 4,
    maintenanceIntervalSeconds: 30,
  });
  boss.on("error", (err) => logger().error({ err }, "pg-boss error"));
  await boss.start();
  await boss.createQueue(DEAD_LETTER_QUEUE).catch(() => {});
  for (const q of ALL_QUEUES) {
    const existing = await boss.getQueue(q.name);
    if (existing) await boss.updateQueue(q.name, { name: q.name, ...q.options });
    else await boss.createQueue(q.name, { name: q.name, ...q.options });
  }
  globalThis.__boss = boss;
  return boss;
}

/** The running instance, if workers or the sender were started in this process. */
export function queue(): PgBoss | undefined {
  return globalThis.__boss;
}

/**
 * Queues a tick for a bot. With the `stately` policy a second queued tick for the same bot is
 * dropped by pg-boss (returns null), which is what we want.
 */
export async function enqueueTick(userId: string, delaySeconds = 0): Promise<string | null> {
  const boss = queue();
  if (!boss) return null;
  return boss.send(botTickQueue.name, { userId }, { singletonKey: userId, startAfter: delaySeconds });
}

/** Graceful stop: lets running jobs finish (up to `timeoutMs`). */
export async function stopQueue(timeoutMs = 20_000): Promise<void> {
  const boss = globalThis.__boss;
  globalThis.__boss = undefined;
  await boss?.stop({ graceful: true, wait: true, timeout: timeoutMs });
}
