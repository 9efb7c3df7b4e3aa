/**
 * Entry of a backtest worker thread (issue 24; ADR 0039; driven by worker-pool.server.ts): takes one
 * `ComputeRequest` at a time from the parent, runs `computeRun` on this thread's own event loop and
 * answers with messages `{type: "progress", pct}` (0–100), then `{type: "done", output}` or
 * `{type: "error", message}` (a Portuguese text when the failure has one). The production build
 * bundles this file as `<BUILD_DIR>/backtest-worker.js` (package.json build:server); under tsx it
 * runs as TypeScript. Candle caches (shipped files, long history) live as long as the thread.
 * On Linux the thread lowers its own priority (nice BACKTEST_THREAD_NICE; Linux applies it to the
 * calling thread only), so the thread serving the pages and ticking the bots wins the CPU when both want it.
 */
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { computeRun, type ComputeOutput, type ComputeRequest } from "./compute.server";

/** A message from a backtest worker to its parent. */
export type WorkerMessage = { type: "progress"; pct: number } | { type: "done"; output: ComputeOutput } | { type: "error"; message: string };

/** Niceness of a backtest thread (0 = the process's, 19 = the lowest priority). */
export const BACKTEST_THREAD_NICE = 10;

const port = parentPort;
if (port) {
  if (process.platform === "linux") {
    try {
      setPriority(BACKTEST_THREAD_NICE);
    } catch {
      // not allowed here: the thread keeps the process's priority
    }
  }
  port.on("message", (req: ComputeRequest) => {
    const send = (m: WorkerMessage) => port.postMessage(m);
    computeRun(req, (pct) => send({ type: "progress", pct }))
      .then((output) => send({ type: "done", output }))
      .catch((err: unknown) => send({ type: "error", message: err instanceof Error ? err.message : String(err) }));
  });
}
