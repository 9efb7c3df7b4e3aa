/**
 * The wall clock (`Clock` of core/clock.ts) for the running process: `core/` never reads time or
 * sets timers itself (DESIGN.md §2), so the server side hands this one to it (e.g. the OANDA client).
 */
import type { Clock } from "../../../core/clock";

/** Wall-clock time; `sleep` uses setTimeout and honours an AbortSignal. */
export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(t);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};
