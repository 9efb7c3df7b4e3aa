/**
 * The economic calendar on the server (issue 11, ADR 0018): the `calendar_events` table, the
 * `calendar-refresh` job's work, and an in-memory index for the live bot and the hero.
 *
 * - Source: `NEWS_CALENDAR_URL` (a ForexFactory-style weekly JSON feed) fetched with a timeout and
 *   retries; when unset, the shipped CSV files of `data/calendar` (loaded once per process; the
 *   upsert makes a second load a no-op). A failed fetch logs and keeps the stored events.
 * - Storage: upsert on `event_key` (core/calendar eventKey), so refreshing twice stores each event once
 *   and a newer feed updates an event's figures.
 * - Index: every stored event (a few thousand rows) held in memory, reloaded after each refresh and
 *   when older than `INDEX_MAX_AGE_MS` (served stale while it reloads, so a bot tick never waits on it
 *   after the first load). The bot asks it with the tick's market time (core/trading/tick.ts `now`),
 *   so the simulator's replay of January 2026 meets the shipped January 2026 events.
 */
import type { CalendarUsed } from "../../lib/backtest-run";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { blackoutAt, CalendarIndex, eventKey, eventLabel, newsCalendar, parseCalendarCsv, parseFeed, upcoming } from "../../../core/calendar";
import type { CalendarEvent, Impact } from "../../../core/calendar";
export type { HeroNews, HeroNewsEvent } from "../../lib/news";
import { resolveInstruments, type TradingSettings } from "../../../core/settings";
import type { NewsCalendar } from "../../../core/trading/tick";
import type { HeroNews } from "../../lib/news";
import { config } from "../platform/config.server";
import { db } from "../platform/db.server";
import { heroNewsContext } from "../../../db/queries/hero-news";
import { calendarEventCount, calendarEventRows, upsertCalendarEvents } from "../../../db/queries/calendar-events";
import { logger } from "../platform/logger.server";
import { settingsFromRow } from "./settings.server";

/** Reload the in-memory index when it is older than this. */
export const INDEX_MAX_AGE_MS = 5 * 60_000;
/** Feed request: per-attempt timeout, attempts, first backoff (doubles). */
export const FEED_TIMEOUT_MS = 10_000;
export const FEED_ATTEMPTS = 3;
const FEED_BACKOFF_MS = 1000;
/** Rows per upsert statement. */
const CHUNK = 500;

/** Folder of the shipped calendar files (the app runs from the repository root, like `data/` for the simulator). */
export const SHIPPED_CALENDAR_DIR = path.resolve("data", "calendar");

declare global {
  var __calendarState: { index: CalendarIndex; loadedAt: number; reloading?: Promise<CalendarIndex>; shippedLoaded?: boolean } | undefined;
  var __calendarFirstLoad: Promise<CalendarIndex> | undefined;
}

/** Upserts events of one source; returns how many rows were written. */
export async function storeEvents(source: string, events: readonly CalendarEvent[]): Promise<number> {
  const rows = [...new Map(events.map((e) => [eventKey(e), e])).entries()].map(([key, e]) => ({
    source,
    event_key: key,
    time: e.time,
    currency: e.currency,
    impact: e.impact,
    title: e.title,
    actual: e.actual ?? null,
    forecast: e.forecast ?? null,
    previous: e.previous ?? null,
  }));
  const sql = db();
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    await upsertCalendarEvents(sql, chunk);
  }
  return rows.length;
}

/** A feed request that failed after its retries (network, timeout, HTTP status, not JSON, wrong shape). */
export class FeedError extends Error {}

/**
 * Fetches and parses the weekly feed: `FEED_ATTEMPTS` attempts of at most `FEED_TIMEOUT_MS` each,
 * with a doubling pause between them.
 * @throws FeedError with the last failure
 */
export async function fetchFeed(url: string, opts: { timeoutMs?: number; attempts?: number; backoffMs?: number } = {}): Promise<CalendarEvent[]> {
  const attempts = opts.attempts ?? FEED_ATTEMPTS;
  let last: unknown;
  for (let i = 0; i < attempts; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, (opts.backoffMs ?? FEED_BACKOFF_MS) * 2 ** (i - 1)));
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? FEED_TIMEOUT_MS), headers: { accept: "application/json" } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const { events, skipped } = parseFeed(await res.json());
      if (skipped) logger().warn({ skipped }, "calendário: itens do feed ignorados (formato inesperado)");
      return events;
    } catch (err) {
      last = err;
    }
  }
  throw new FeedError(`feed do calendário indisponível após ${attempts} tentativas: ${last instanceof Error ? last.message : String(last)}`);
}

/** Loads every `*.csv` of the shipped calendar folder (source `file:<name>`); returns the events stored. */
export async function loadShippedCalendar(dir = SHIPPED_CALENDAR_DIR): Promise<number> {
  let n = 0;
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".csv")).sort()) {
    n += await storeEvents(`file:${f}`, parseCalendarCsv(readFileSync(path.join(dir, f), "utf8"), f));
  }
  return n;
}

export interface RefreshResult {
  source: "feed" | "files";
  ok: boolean;
  stored: number;
  error?: string;
}

/**
 * The `calendar-refresh` job: the feed when NEWS_CALENDAR_URL is set, else the shipped files once
 * per process. Never throws for a feed failure (logged; the stored events stay); reloads the index.
 */
export async function refreshCalendar(): Promise<RefreshResult> {
  const url = config().NEWS_CALENDAR_URL;
  let result: RefreshResult;
  if (url) {
    try {
      const events = await fetchFeed(url);
      result = { source: "feed", ok: true, stored: await storeEvents("feed", events) };
      logger().info({ stored: result.stored }, "calendário econômico atualizado");
    } catch (err) {
      if (!(err instanceof FeedError)) throw err;
      result = { source: "feed", ok: false, stored: 0, error: err.message };
      logger().warn({ err: err.message }, "calendário econômico: falha ao atualizar; eventos anteriores mantidos");
    }
  } else {
    const state = globalThis.__calendarState;
    if (state?.shippedLoaded) result = { source: "files", ok: true, stored: 0 };
    else {
      result = { source: "files", ok: true, stored: await loadShippedCalendar() };
      logger().info({ stored: result.stored }, "calendário econômico: arquivos de data/calendar carregados");
    }
  }
  await reloadCalendarIndex(result.source === "files");
  return result;
}

/** The first index of the process, after making sure the calendar's events are stored (see calendarIndex). */
async function firstLoad(): Promise<CalendarIndex> {
  if (!config().NEWS_CALENDAR_URL) {
    await refreshCalendar();
    return globalThis.__calendarState!.index;
  }
  const n = await calendarEventCount(db());
  if ((n ?? 0) === 0) await refreshCalendar();
  return globalThis.__calendarState?.index ?? reloadCalendarIndex();
}

/** Reads every stored event into a fresh index and makes it current. */
export async function reloadCalendarIndex(shippedLoaded?: boolean): Promise<CalendarIndex> {
  const rows = await calendarEventRows(db());
  const index = new CalendarIndex(
    rows.map((r) => ({
      time: r.time,
      currency: r.currency,
      impact: r.impact as Impact,
      title: r.title,
      ...(r.event_key.startsWith("id:") ? { eventId: r.event_key.slice(3) } : {}),
      ...(r.actual ? { actual: r.actual } : {}),
      ...(r.forecast ? { forecast: r.forecast } : {}),
      ...(r.previous ? { previous: r.previous } : {}),
    })),
  );
  const prev = globalThis.__calendarState;
  globalThis.__calendarState = { index, loadedAt: Date.now(), shippedLoaded: shippedLoaded || prev?.shippedLoaded || false };
  return index;
}

/**
 * The current index: loaded on first use, and on first use the calendar itself is made present first
 * (issue 22 item 12: a backtest right after a boot ran before the `calendar-refresh` job had stored any
 * event, so it applied no news blackout while later runs did): without a feed the shipped files are
 * stored once per process (idempotent upserts), with a feed an empty table is filled from it. When
 * older than INDEX_MAX_AGE_MS the stale index is served while one reload runs in the background (a
 * failed reload is logged and retried on the next call).
 */
export async function calendarIndex(): Promise<CalendarIndex> {
  const state = globalThis.__calendarState;
  if (!state) return (globalThis.__calendarFirstLoad ??= firstLoad().finally(() => (globalThis.__calendarFirstLoad = undefined)));
  if (Date.now() - state.loadedAt > INDEX_MAX_AGE_MS && !state.reloading) {
    state.reloading = reloadCalendarIndex().catch((err: Error) => {
      logger().warn({ err: err.message }, "calendário econômico: falha ao recarregar o índice");
      state.reloading = undefined;
      return state.index;
    });
  }
  return state.index;
}

/**
 * What a backtest says of the calendar it ran with (issue 22 item 12): whether the news blackout was
 * on, how many events the calendar held, how many fall in [fromMs, toMs) (UTC ms), and its span (ISO).
 */
export async function calendarUsedFor(settings: TradingSettings, fromMs: number, toMs: number): Promise<CalendarUsed> {
  const index = await calendarIndex();
  return {
    newsFilter: settings.aiSettings.news.enabled,
    events: index.size,
    inPeriod: index.between(fromMs, toMs - 1).length, // between() includes both edges; the period ends before toMs
    first: index.size ? index.events[0]!.time.toISOString() : null,
    last: index.size ? index.events[index.size - 1]!.time.toISOString() : null,
  };
}

/** The executor's calendar port for one user's news settings (app/services/trading/live-tick.server.ts). */
export async function newsCalendarFor(settings: TradingSettings): Promise<NewsCalendar> {
  return newsCalendar(await calendarIndex(), settings.aiSettings.news);
}

/**
 * The hero's news card (no broker call): the next relevant events for the user's instruments and
 * news settings within 24 h (at most 5) and the running blackout, at the user's market time
 * (wall clock + the broker clock offset recorded by the bot).
 */
export async function heroNews(userId: string): Promise<HeroNews> {
  const row = await heroNewsContext(db(), userId);
  const settings = settingsFromRow(row?.settings);
  const news = settings.aiSettings.news;
  const now = new Date(Date.now() + Number(row?.offset ?? 0));
  if (!news.enabled) return { enabled: false, now: now.toISOString(), events: [], blackout: null };
  const index = await calendarIndex();
  const instruments = resolveInstruments(settings);
  const events = upcoming(index, instruments, now, news).map((u) => ({
    title: u.event.title,
    currency: u.event.currency,
    impact: u.event.impact,
    time: u.event.time.toISOString(),
    from: u.from.toISOString(),
    to: u.to.toISOString(),
    active: u.active,
    instruments: u.instruments,
  }));
  let blackout: HeroNews["blackout"] = null;
  for (const i of instruments) {
    const b = blackoutAt(index, i, now, news);
    if (!b.active) continue;
    if (!blackout) {
      const from = new Date(b.source!.time.getTime() - news.blackout.beforeMin * 60_000);
      blackout = { event: eventLabel(b.source!), from: from.toISOString(), until: b.until!.toISOString(), instruments: [i] };
    }
    else {
      blackout.instruments.push(i);
      if (b.until!.toISOString() > blackout.until) blackout.until = b.until!.toISOString();
    }
  }
  return { enabled: true, now: now.toISOString(), events, blackout };
}
