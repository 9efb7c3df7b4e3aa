/** Thin pg-boss handler of the `backtest-run` queue (app/services/platform/queue/queues.ts): one user's backtest (ADR 0019, 0039). */
import type { Job } from "pg-boss";
import { executeRun } from "../app/services/backtest/runs.server";
import { config } from "../app/services/platform/config.server";
import { backtestRunQueue } from "../app/services/platform/queue/queues";

/** One-job workers to register on the queue: as many as runs may compute at once (BACKTEST_CONCURRENCY), so the rest wait in the queue. */
export function backtestJobWorkers(): number {
  return config().BACKTEST_CONCURRENCY;
}

/** Runs each run of the batch; the service stores failures on the row, so the job always completes. */
export async function handleBacktestRun(jobs: Job<unknown>[]): Promise<void> {
  for (const job of jobs) {
    const { runId } = backtestRunQueue.payload.parse(job.data);
    await executeRun(runId);
  }
}
