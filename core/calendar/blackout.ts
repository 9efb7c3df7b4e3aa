/**
 * News blackout (PRODUCT.md §3 `aiSettings.news`, §5 bounds, §9 defaults; issue 11; ADR 0018).
 *
 * - Sensitivity → impacts that trigger a blackout: `low` → high only; `medium` → high + medium;
 *   `high` → high + medium + low (a more sensitive bot reacts to more events). `non-economic` items
 *   (bank holidays, nominally at 00:00) never trigger one.
 * - `impactedOnly` on: only events whose currency is the pair's base or quote (EUR_USD: EUR, USD),
 *   or `All`; off: every event of those impacts blacks out every pair.
 * - Window of an event at time T: [T − beforeMin, T + afterMin], both edges included.
 * - Overlapping events: the reason names the most important (highest impact), then the nearest to
 *   now, then the earliest; `until` is the end of the continuous blackout (chained windows merge).
 * Pure: `now` is passed in (the tick's market time, so a replay of history meets its own events).
 */
import { instrumentSpec } from "../instruments";
import type { TradingSettings } from "../settings";
import type { NewsCalendar } from "../trading/tick";
import type { CalendarIndex } from "./calendar-index";
import { ALL_CURRENCIES, impactRank, type CalendarEvent, type Impact } from "./events";

export type NewsSettings = TradingSettings["aiSettings"]["news"];
export type NewsSensitivity = NewsSettings["sensitivity"];

const MINUTE_MS = 60_000;

/** Impacts that trigger a blackout at a sensitivity (see the module docstring). */
export function sensitivityImpacts(sensitivity: NewsSensitivity): readonly Impact[] {
  if (sensitivity === "low") return ["high"];
  if (sensitivity === "medium") return ["high", "medium"];
  return ["high", "medium", "low"];
}

/** Whether `event` concerns `instrument` under the settings' sensitivity and `impactedOnly`. */
export function eventAffects(event: CalendarEvent, instrument: string, news: NewsSettings): boolean {
  if (!sensitivityImpacts(news.sensitivity).includes(event.impact)) return false;
  if (!news.impactedOnly || event.currency === ALL_CURRENCIES) return true;
  const { base, quote } = instrumentSpec(instrument);
  const currency = event.currency.toUpperCase();
  return currency === base || currency === quote;
}

/** `Title (CUR)`: how the reason and the hero name an event. */
export function eventLabel(e: CalendarEvent): string {
  return `${e.title} (${e.currency})`;
}

export interface BlackoutState {
  active: boolean;
  /** The event named in the reason (`Title (CUR)`), when active. */
  event?: string;
  /** The named event itself. */
  source?: CalendarEvent;
  /** End of the continuous blackout (UTC), when active. */
  until?: Date;
}

/** Picks the event to name among overlapping ones: highest impact, then nearest to now, then earliest. */
function primary(events: CalendarEvent[], nowMs: number): CalendarEvent {
  return events.reduce((best, e) => {
    const d = impactRank(e.impact) - impactRank(best.impact);
    if (d !== 0) return d > 0 ? e : best;
    const near = Math.abs(e.time.getTime() - nowMs) - Math.abs(best.time.getTime() - nowMs);
    if (near !== 0) return near < 0 ? e : best;
    return e.time.getTime() < best.time.getTime() ? e : best;
  });
}

/**
 * Whether `instrument` is inside a news blackout at `now` (UTC) under `news`.
 * Disabled news settings → never active. Reads only the index (no I/O).
 */
export function blackoutAt(index: CalendarIndex, instrument: string, now: Date, news: NewsSettings): BlackoutState {
  if (!news.enabled) return { active: false };
  const nowMs = now.getTime();
  const before = news.blackout.beforeMin * MINUTE_MS;
  const after = news.blackout.afterMin * MINUTE_MS;
  // now ∈ [T − before, T + after]  ⇔  T ∈ [now − after, now + before]
  const active = index.between(nowMs - after, nowMs + before).filter((e) => eventAffects(e, instrument, news));
  if (!active.length) return { active: false };
  const named = primary(active, nowMs);
  let until = Math.max(...active.map((e) => e.time.getTime() + after));
  // Windows that start before the current one ends extend the blackout (bounded: each pass moves `until` forward).
  for (let guard = 0; guard < 1000; guard++) {
    const next = index
      .between(nowMs, until + before)
      .filter((e) => eventAffects(e, instrument, news))
      .reduce((m, e) => Math.max(m, e.time.getTime() + after), until);
    if (next <= until) break;
    until = next;
  }
  return { active: true, event: eventLabel(named), source: named, until: new Date(until) };
}

/** The executor's calendar port (core/trading/tick.ts) over an index and one user's news settings. */
export function newsCalendar(index: CalendarIndex, news: NewsSettings): NewsCalendar {
  return {
    blackout(instrument, now) {
      const b = blackoutAt(index, instrument, now, news);
      return b.active ? { active: true, event: b.event!, ...(b.until ? { until: b.until } : {}) } : { active: false };
    },
  };
}

export interface UpcomingEvent {
  event: CalendarEvent;
  /** Which of the given instruments it blacks out. */
  instruments: string[];
  /** Its blackout window (UTC). */
  from: Date;
  to: Date;
  /** Whether `now` is inside its window. */
  active: boolean;
}

/**
 * The next events relevant to any of `instruments` under `news`: those whose blackout has not ended
 * at `now` and that happen within `horizonMin` minutes (default 24 h), earliest first, at most
 * `limit` (default 5). Empty when news is disabled.
 */
export function upcoming(
  index: CalendarIndex,
  instruments: readonly string[],
  now: Date,
  news: NewsSettings,
  opts: { horizonMin?: number; limit?: number } = {},
): UpcomingEvent[] {
  if (!news.enabled) return [];
  const nowMs = now.getTime();
  const before = news.blackout.beforeMin * MINUTE_MS;
  const after = news.blackout.afterMin * MINUTE_MS;
  const out: UpcomingEvent[] = [];
  for (const e of index.between(nowMs - after, nowMs + (opts.horizonMin ?? 24 * 60) * MINUTE_MS)) {
    const hit = instruments.filter((i) => eventAffects(e, i, news));
    if (!hit.length) continue;
    const t = e.time.getTime();
    out.push({ event: e, instruments: hit, from: new Date(t - before), to: new Date(t + after), active: t - before <= nowMs && nowMs <= t + after });
    if (out.length >= (opts.limit ?? 5)) break;
  }
  return out;
}
