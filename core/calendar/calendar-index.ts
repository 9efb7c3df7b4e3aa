/**
 * An in-memory, time-sorted index of calendar events. Window lookups are a binary search plus a scan
 * of the events inside the window, so a backtest can ask at every step (tens of thousands of steps)
 * and the live bot at every tick without touching the database.
 */
import { dedupEvents, type CalendarEvent } from "./events";

export class CalendarIndex {
  /** Events sorted by time (deduplicated). */
  readonly events: readonly CalendarEvent[];
  private readonly times: Float64Array;

  constructor(events: Iterable<CalendarEvent>) {
    this.events = dedupEvents(events);
    this.times = Float64Array.from(this.events, (e) => e.time.getTime());
  }

  get size(): number {
    return this.events.length;
  }

  /** Index of the first event whose time is ≥ `ms` (the length when none). */
  private lowerBound(ms: number): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.times[mid]! < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Events with `fromMs ≤ time ≤ toMs` (UTC epoch ms, both edges included), in time order. */
  between(fromMs: number, toMs: number): CalendarEvent[] {
    const out: CalendarEvent[] = [];
    for (let i = this.lowerBound(fromMs); i < this.times.length && this.times[i]! <= toMs; i++) out.push(this.events[i]!);
    return out;
  }

  /** Time span covered, or undefined when empty. */
  span(): { from: Date; to: Date } | undefined {
    if (!this.events.length) return undefined;
    return { from: this.events[0]!.time, to: this.events[this.events.length - 1]!.time };
  }
}
