/**
 * The `calendar_events` table (migration 0015): the economic calendar's events (issue 11, ADR 0018),
 * one row per `event_key` (core/calendar eventKey). Its statements live here (issue 23 item 2); the
 * service (app/services/trading/calendar.server.ts) fetches, parses and indexes them.
 */
import type { Sql } from "./sql";

/** An event row as the index reads it. */
export interface CalendarEventRow {
  time: Date;
  currency: string;
  impact: string;
  title: string;
  actual: string | null;
  forecast: string | null;
  previous: string | null;
  event_key: string;
}

/** An event to upsert (`source`: the feed or the shipped files). */
export interface CalendarEventInsert {
  source: string;
  event_key: string;
  time: Date;
  currency: string;
  impact: string;
  title: string;
  actual: string | null;
  forecast: string | null;
  previous: string | null;
}

/** Upserts one chunk of events on `event_key` (a newer feed updates the event's figures). */
export async function upsertCalendarEvents(sql: Sql, chunk: readonly CalendarEventInsert[]): Promise<void> {
  await sql`
      insert into calendar_events ${sql(chunk as CalendarEventInsert[], "source", "event_key", "time", "currency", "impact", "title", "actual", "forecast", "previous")}
      on conflict (event_key) do update set
        source = excluded.source, time = excluded.time, currency = excluded.currency, impact = excluded.impact,
        title = excluded.title, actual = excluded.actual, forecast = excluded.forecast, previous = excluded.previous,
        fetched_at = now()`;
}

/** How many events are stored. */
export async function calendarEventCount(sql: Sql): Promise<number | undefined> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from calendar_events`;
  return row?.n;
}

/** Every stored event, oldest first. */
export function calendarEventRows(sql: Sql) {
  return sql<CalendarEventRow[]>`select time, currency, impact, title, actual, forecast, previous, event_key from calendar_events order by time`;
}
