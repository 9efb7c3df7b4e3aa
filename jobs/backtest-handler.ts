/** Thin pg-boss handler of the `backtest-run` queue (app/services/platform/queue/queues.ts): one user's backtest (ADR 0019). */
import type { Job } from "pg-boss";
import { executeRun } from "../app/services/backtest/runs.server";
import { backtestRunQueue } from "../app/services/platform/queue/queues";

/** Runs each run of the batch; the service stores failures on the row, so the job always completes. */
export async function handleBacktestRun(jobs: Job<unknown>[]): Promise<void> {
  for (const job of jobs) {
    const { runId } = backtestRunQueue.payload.parse(job.data);
    await executeRun(runId);
  }
}
