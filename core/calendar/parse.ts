/**
 * Parsers of the two calendar sources (issue 11, ADR 0018), both to `CalendarEvent` in UTC:
 * - the shipped CSV files (data/calendar, see their SOURCE.md): header
 *   `time,currency,impact,event,actual,forecast,previous,event_id`, `time` ISO-8601 UTC, `impact` in
 *   high|medium|low|non-economic;
 * - the ForexFactory-style weekly JSON feed (e.g. https://nfs.faireconomy.media/ff_calendar_thisweek.json):
 *   an array of `{title, country, date, impact, forecast, previous}` where `country` is the currency
 *   code, `date` is ISO-8601 with the publisher's offset (`2025-07-01T08:30:00-04:00`, New York time,
 *   so the offset changes with daylight saving) and `impact` is High|Medium|Low|Holiday.
 * Pure: the caller reads the file or fetches the feed.
 */
import { parse } from "csv-parse/sync";
import { z } from "zod";
import { IMPACTS, type CalendarEvent, type Impact } from "./events";

const optText = (v: string | undefined | null) => (v === undefined || v === null || v.trim() === "" ? undefined : v.trim());

/**
 * Parses one calendar CSV (the shipped format).
 * @throws Error naming the line of a row with an invalid time, impact, or an empty currency/event.
 */
export function parseCalendarCsv(text: string, label = "CSV"): CalendarEvent[] {
  const rows = parse(text, { columns: true, skip_empty_lines: true, trim: true, bom: true }) as Record<string, string>[];
  return rows.map((r, i) => {
    const time = Date.parse(r.time ?? "");
    const impact = (r.impact ?? "").toLowerCase();
    if (!Number.isFinite(time) || !(IMPACTS as readonly string[]).includes(impact) || !r.currency || !r.event) {
      throw new Error(`${label}: linha ${i + 2} inválida (${JSON.stringify(r)})`);
    }
    const e: CalendarEvent = { time: new Date(time), currency: r.currency, impact: impact as Impact, title: r.event };
    const extra = { eventId: optText(r.event_id), actual: optText(r.actual), forecast: optText(r.forecast), previous: optText(r.previous) };
    for (const [k, v] of Object.entries(extra)) if (v !== undefined) (e as unknown as Record<string, string>)[k] = v;
    return e;
  });
}

/** ForexFactory's impact label → ours (`Holiday` and anything else unknown → non-economic). */
export function feedImpact(label: string): Impact {
  const l = label.trim().toLowerCase();
  if (l === "high" || l === "medium" || l === "low") return l;
  return "non-economic";
}

const feedItem = z.object({
  title: z.string().trim().min(1),
  country: z.string().trim().min(1).max(8),
  date: z.iso.datetime({ offset: true }),
  impact: z.string(),
  forecast: z.string().nullish(),
  previous: z.string().nullish(),
  actual: z.string().nullish(),
});

/** The feed document: an array of items (each item is checked on its own, so one bad row does not drop the week). */
const feedSchema = z.array(z.unknown());

export interface FeedParseResult {
  events: CalendarEvent[];
  /** Items that did not match the expected shape (skipped). */
  skipped: number;
}

/**
 * Parses the weekly JSON feed (already JSON-decoded). Dates are converted to UTC with their own
 * offset (EDT −04:00 in summer, EST −05:00 in winter).
 * @throws ZodError when the document is not an array (a feed error: the caller keeps the stored events).
 */
export function parseFeed(doc: unknown): FeedParseResult {
  const items = feedSchema.parse(doc);
  const events: CalendarEvent[] = [];
  let skipped = 0;
  for (const raw of items) {
    const r = feedItem.safeParse(raw);
    if (!r.success) {
      skipped++;
      continue;
    }
    const it = r.data;
    const e: CalendarEvent = { time: new Date(Date.parse(it.date)), currency: it.country.toUpperCase() === "ALL" ? "All" : it.country.toUpperCase(), impact: feedImpact(it.impact), title: it.title };
    const actual = optText(it.actual);
    const forecast = optText(it.forecast);
    const previous = optText(it.previous);
    if (actual) e.actual = actual;
    if (forecast) e.forecast = forecast;
    if (previous) e.previous = previous;
    events.push(e);
  }
  return { events, skipped };
}
