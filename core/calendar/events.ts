/**
 * Economic calendar events (issue 11, ADR 0018): the shape every source (the shipped CSV files, the
 * ForexFactory-style weekly JSON feed) is converted to, and the key they are deduplicated on.
 */

/** ForexFactory's impact levels; `non-economic` = bank holidays and other all-day markers. */
export const IMPACTS = ["high", "medium", "low", "non-economic"] as const;
export type Impact = (typeof IMPACTS)[number];

/** One scheduled release. */
export interface CalendarEvent {
  /** Scheduled release time, UTC. */
  time: Date;
  /** ISO currency code the release concerns (`USD`, `EUR`, …) or `All` (every currency). */
  currency: string;
  impact: Impact;
  title: string;
  /** The source's own id, when it has one (ForexFactory's event id in the 2020 archive). */
  eventId?: string;
  actual?: string;
  forecast?: string;
  previous?: string;
}

/** Currency code of events that concern every currency (ForexFactory's "All"). */
export const ALL_CURRENCIES = "All";

/**
 * Deduplication key of an event: `id:<eventId>` when the source gives an id, else
 * `<UTC ISO time>|<currency>|<title>` (the same release seen twice, or in two sources without ids,
 * collapses to one row).
 */
export function eventKey(e: Pick<CalendarEvent, "eventId" | "time" | "currency" | "title">): string {
  if (e.eventId) return `id:${e.eventId}`;
  return `${e.time.toISOString()}|${e.currency}|${e.title.trim()}`;
}

/** Deduplicates by `eventKey` (the last occurrence wins: a feed's newer figures replace older ones), sorted by time. */
export function dedupEvents(events: Iterable<CalendarEvent>): CalendarEvent[] {
  const byKey = new Map<string, CalendarEvent>();
  for (const e of events) byKey.set(eventKey(e), e);
  return [...byKey.values()].sort((a, b) => a.time.getTime() - b.time.getTime());
}

/** Rank for "most important first": high 3, medium 2, low 1, non-economic 0. */
export function impactRank(impact: Impact): number {
  return impact === "high" ? 3 : impact === "medium" ? 2 : impact === "low" ? 1 : 0;
}
