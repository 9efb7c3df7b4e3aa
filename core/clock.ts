/**
 * Time source for `core/`: core code never calls `Date.now()` or `setTimeout` itself (DESIGN.md §2),
 * so the simulator, the backtest and tests can drive time. The wall clock lives outside core:
 * app/services/platform/system-clock.ts.
 */
export interface Clock {
  /** Current instant (UTC). */
  now(): Date;
  /** Resolves after `ms` milliseconds of this clock's time; rejects with the signal's reason if aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A clock that only moves when told: for unit tests. `sleep` resolves once `advance` passes its deadline. */
export class ManualClock implements Clock {
  private t: number;
  private waiters: { at: number; resolve: () => void }[] = [];
  constructor(start: Date | string = "2026-01-05T12:00:00Z") {
    this.t = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.t);
  }
  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => this.waiters.push({ at: this.t + ms, resolve }));
  }
  /** Moves time forward and wakes every sleeper whose deadline has passed. */
  advance(ms: number): void {
    this.t += ms;
    const due = this.waiters.filter((w) => w.at <= this.t);
    this.waiters = this.waiters.filter((w) => w.at > this.t);
    for (const w of due) w.resolve();
  }
}
