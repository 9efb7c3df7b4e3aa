/**
 * The `backtest_runs` table (migration 0016): the user's own backtests (issue 12, ADR 0019) — the
 * parameters, the progress and the result (jsonb). Its statements live here (issue 23 item 2); the
 * service (app/services/backtest/runs.server.ts) types the jsonb columns through the row's parameters.
 */
import type { Sql } from "./sql";

/** A `backtest_runs` row as `select *` returns it (`P` the params, `R` the result, `S` the status). */
export interface BacktestRunRow<P = unknown, R = unknown, S extends string = string> {
  id: string;
  user_id: string;
  status: S;
  progress: number;
  params: P;
  result: R | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  duration_ms: number | null;
}

/** Fails the runs (the user's, or all users' without `userId`) running without progress for `staleRunningSeconds` or queued for `staleQueuedSeconds`; their ids. */
export function failStaleRunRows(sql: Sql, error: string, userId: string | undefined, staleRunningSeconds: number, staleQueuedSeconds: number) {
  return sql`
    update backtest_runs set status = 'failed', error = ${error}, finished_at = now(), updated_at = now()
    where ${userId ? sql`user_id = ${userId} and` : sql``}
      ((status = 'running' and updated_at < now() - make_interval(secs => ${staleRunningSeconds}))
       or (status = 'queued' and created_at < now() - make_interval(secs => ${staleQueuedSeconds})))
    returning id`;
}

/** How many of the user's runs are queued or running. */
export async function busyRunCount(sql: Sql, userId: string): Promise<number | undefined> {
  const [busy] = await sql<{ n: number }[]>`select count(*)::int as n from backtest_runs where user_id = ${userId} and status in ('queued', 'running')`;
  return busy?.n;
}

/** Inserts a queued run with its params; the row. */
export async function insertRun<Row extends BacktestRunRow>(sql: Sql, userId: string, params: Row["params"]): Promise<Row | undefined> {
  const [created] = await sql<Row[]>`insert into backtest_runs (user_id, params) values (${userId}, ${sql.json(params as never)}) returning *`;
  return created;
}

/** Deletes the user's finished runs older than the newest `keep`. */
export async function pruneRuns(sql: Sql, userId: string, keep: number): Promise<void> {
  await sql`
      delete from backtest_runs where user_id = ${userId} and status in ('done', 'failed') and id not in (
        select id from backtest_runs where user_id = ${userId} order by created_at desc limit ${keep})`;
}

/** Fails a run with `error` (its job could not be queued). */
export async function failRun(sql: Sql, id: string, error: string): Promise<void> {
  await sql`update backtest_runs set status = 'failed', error = ${error}, finished_at = now(), updated_at = now() where id = ${id}`;
}

/** The user's newest `limit` runs, without their results (`result` null). */
export function listRunRows<Row extends BacktestRunRow>(sql: Sql, userId: string, limit: number) {
  return sql<Row[]>`
    select id, user_id, status, progress, params, null as result, error, created_at, started_at, finished_at, duration_ms
    from backtest_runs where user_id = ${userId} order by created_at desc limit ${limit}`;
}

/** One of the user's runs (undefined: missing or another user's). */
export async function runRow<Row extends BacktestRunRow>(sql: Sql, userId: string, id: string): Promise<Row | undefined> {
  const [row] = await sql<Row[]>`select * from backtest_runs where id = ${id} and user_id = ${userId}`;
  return row;
}

/** The user's runs among `ids`, oldest first. */
export function runRows<Row extends BacktestRunRow>(sql: Sql, userId: string, ids: readonly string[]) {
  return sql<Row[]>`select * from backtest_runs where user_id = ${userId} and id in ${sql(ids as string[])} order by created_at`;
}

/** Deletes one of the user's runs. */
export async function deleteRunRow(sql: Sql, userId: string, id: string): Promise<void> {
  await sql`delete from backtest_runs where id = ${id} and user_id = ${userId}`;
}

/** Claims a queued run (queued → running, progress 0); undefined when it is not queued. */
export async function claimRun<Row extends BacktestRunRow>(sql: Sql, runId: string): Promise<Row | undefined> {
  const [row] = await sql<Row[]>`
    update backtest_runs set status = 'running', started_at = now(), updated_at = now(), progress = 0
    where id = ${runId} and status = 'queued' returning *`;
  return row;
}

/** Writes a running run's progress. */
export async function setRunProgress(sql: Sql, runId: string, progress: number): Promise<void> {
  await sql`update backtest_runs set progress = ${progress}, updated_at = now() where id = ${runId} and status = 'running'`;
}

/** Stores a run's result (done, progress 100). */
export async function finishRun(sql: Sql, runId: string, result: unknown, durationMs: number): Promise<void> {
  await sql`
      update backtest_runs set status = 'done', progress = 100, result = ${sql.json(result as never)}, error = null,
        finished_at = now(), updated_at = now(), duration_ms = ${durationMs}
      where id = ${runId}`;
}

/** Stores a run's failure. */
export async function failRunAfter(sql: Sql, runId: string, error: string, durationMs: number): Promise<void> {
  await sql`
      update backtest_runs set status = 'failed', error = ${error}, finished_at = now(), updated_at = now(),
        duration_ms = ${durationMs}
      where id = ${runId}`;
}
