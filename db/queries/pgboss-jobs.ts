/**
 * pg-boss's own job table (`pgboss.job`, created by pg-boss, not by db/migrations), read for the process's
 * metrics (app/services/platform/metrics.server.ts): how many jobs wait and how many failed, per queue.
 * Run through pg-boss's own connection (`boss.getDb()`), so the metrics need neither the app's pool nor
 * anything beyond the queue client.
 */

/** pg-boss's SQL executor (`PgBoss#getDb()`). */
export interface PgBossDb {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Jobs of one queue in one state. */
export interface QueueJobCount {
  queue: string;
  state: "created" | "retry" | "failed";
  count: number;
}

/**
 * Jobs waiting (`created`, `retry`) and dead (`failed`: retries exhausted, sent to the dead-letter queue)
 * per queue, in one statement (pg-boss 10 keeps one partition per queue, indexed by name and state).
 */
export async function queueJobCounts(db: PgBossDb): Promise<QueueJobCount[]> {
  const { rows } = await db.executeSql(
    `select name as queue, state::text as state, count(*)::int as count
       from pgboss.job
      where state in ('created', 'retry', 'failed')
      group by name, state`,
    [],
  );
  return rows as QueueJobCount[];
}
