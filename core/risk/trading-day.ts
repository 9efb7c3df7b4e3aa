/**
 * The trading day for daily limits (maxDailyTrades, dailyLossLimitPct) and the "today" statistics:
 * by default from local midnight to the next local midnight in the user's timezone (PRODUCT.md §9
 * "P&L today from local midnight to next midnight"; default timezone America/Sao_Paulo, PRODUCT.md §9
 * admin defaults), or from 17:00 New York to 17:00 New York when the user chose the FX brokers' close
 * (setting `tradingDayBoundary`, issue 22; `tradingDay`). Computed with Intl only (IANA tz database of
 * the runtime), DST-safe.
 */

export const DEFAULT_TIMEZONE = "America/Sao_Paulo";

const formatters = new Map<string, Intl.DateTimeFormat>();

/** `tz` when the runtime knows it (an IANA name of its tz database), else undefined; never throws. */
export function knownTimezone(tz: string | null | undefined): string | undefined {
  if (!tz) return undefined;
  try {
    formatter(tz);
    return tz;
  } catch {
    return undefined;
  }
}

/** `tz` when the runtime knows it (IANA name), else DEFAULT_TIMEZONE (PRODUCT.md §9 admin defaults); never throws. */
export function resolveTimezone(tz: string | null | undefined): string {
  return knownTimezone(tz) ?? DEFAULT_TIMEZONE;
}

/** Checks that the runtime knows the timezone `tz`. @throws RangeError for an unknown one. */
export function assertTimezone(tz: string): void {
  formatter(tz);
}

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: tz,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(tz, f);
  }
  return f;
}

/** Local wall-clock fields of an instant, read with Intl (slow: a few µs). */
function intlParts(t: number, tz: string): { y: number; m: number; d: number; h: number; mi: number; s: number } {
  const p: Record<string, number> = {};
  for (const part of formatter(tz).formatToParts(new Date(t))) if (part.type !== "literal") p[part.type] = Number(part.value);
  return { y: p.year!, m: p.month!, d: p.day!, h: p.hour!, mi: p.minute!, s: p.second! };
}

/**
 * UTC offsets per timezone, cached: backtests ask millions of times and Intl would dominate their
 * run time. Offset changes (DST, zone rules) happen on whole, half or quarter hours and months
 * apart, so a UTC day whose start and end share an offset has that offset throughout (two Intl
 * reads a day); a day with a change is resolved per 15-minute slot.
 */
const SLOT_MS = 15 * 60_000;
const DAY_MS = 86_400_000;
const offsets = new Map<string, { days: Map<number, number | null>; slots: Map<number, number> }>();

function intlOffset(start: number, tz: string): number {
  const l = intlParts(start, tz);
  return Date.UTC(l.y, l.m - 1, l.d, l.h, l.mi, l.s) - start;
}

function offsetOf(t: number, tz: string): number {
  let cache = offsets.get(tz);
  if (!cache) offsets.set(tz, (cache = { days: new Map(), slots: new Map() }));
  const day = Math.floor(t / DAY_MS);
  let whole = cache.days.get(day);
  if (whole === undefined) {
    const first = intlOffset(day * DAY_MS, tz);
    whole = intlOffset((day + 1) * DAY_MS - SLOT_MS, tz) === first ? first : null;
    if (cache.days.size > 20_000) cache.days.clear();
    cache.days.set(day, whole);
  }
  if (whole !== null) return whole;
  const slot = Math.floor(t / SLOT_MS);
  let off = cache.slots.get(slot);
  if (off === undefined) {
    off = intlOffset(slot * SLOT_MS, tz);
    if (cache.slots.size > 50_000) cache.slots.clear();
    cache.slots.set(slot, off);
  }
  return off;
}

/** Local wall-clock fields of an instant in a timezone (month 1–12, hour 0–23). */
export function localParts(t: number, tz: string): { y: number; m: number; d: number; h: number; mi: number; s: number } {
  const w = new Date(t + offsetOf(t, tz));
  return { y: w.getUTCFullYear(), m: w.getUTCMonth() + 1, d: w.getUTCDate(), h: w.getUTCHours(), mi: w.getUTCMinutes(), s: w.getUTCSeconds() };
}

/**
 * The local calendar date (yyyy-mm-dd) of an instant in a timezone, e.g. 2026-01-05T02:00Z in
 * America/Sao_Paulo → "2026-01-04". @throws RangeError for an unknown timezone.
 */
export function localDate(t: number | Date, tz: string): string {
  const l = localParts(typeof t === "number" ? t : t.getTime(), tz);
  return ymd(l.y, l.m, l.d);
}

/** Offset (ms) of a timezone at an instant: local wall clock read as UTC minus the instant. */
function offsetAt(t: number, tz: string): number {
  const l = localParts(t, tz);
  return Date.UTC(l.y, l.m - 1, l.d, l.h, l.mi, l.s) - Math.floor(t / 1000) * 1000;
}

/** UTC instant of local midnight of the calendar day (y, m, d) in tz. */
export function localMidnight(y: number, m: number, d: number, tz: string): Date {
  return localInstant(y, m, d, 0, 0, tz);
}

/**
 * UTC instant of the local wall-clock time (y, m, d, h, mi) in tz. Out-of-range days roll over
 * (d = 0 is the last day of the previous month), as with Date.UTC. Exact for every wall time that
 * exists once; a time inside a DST gap or overlap gets one of the neighbouring offsets.
 */
export function localInstant(y: number, m: number, d: number, h: number, mi: number, tz: string): Date {
  const wall = Date.UTC(y, m - 1, d, h, mi);
  let t = wall - offsetAt(wall, tz);
  t = wall - offsetAt(t, tz); // second pass settles DST transitions
  return new Date(t);
}

/** ISO weekday (1 = Monday … 7 = Sunday) of a calendar day. */
export function isoWeekday(y: number, m: number, d: number): number {
  return ((new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7) + 1;
}

/**
 * Where the user's trading day starts and ends (setting `tradingDayBoundary`, issue 22):
 * - "local_midnight": local midnight to the next local midnight in the user's timezone (PRODUCT.md §9
 *   "P&L today from local midnight to next midnight"; the default);
 * - "ny_close": 17:00 America/New_York to the next 17:00 New York, the daily close FX brokers use
 *   (OANDA's trading day and rollover); 21:00 UTC in US summer time, 22:00 UTC in winter.
 */
export const TRADING_DAY_BOUNDARIES = ["local_midnight", "ny_close"] as const;
export type TradingDayBoundary = (typeof TRADING_DAY_BOUNDARIES)[number];
export const DEFAULT_TRADING_DAY_BOUNDARY: TradingDayBoundary = "local_midnight";

/** The New York daily close (17:00 America/New_York) that ends an FX trading day. */
export const NEW_YORK = "America/New_York";
const NY_CLOSE_HOUR = 17;

/** One trading day: [start, end) as UTC instants, and its name `date` (yyyy-mm-dd). */
export interface TradingDay {
  start: Date;
  end: Date;
  /** The calendar day it is named by: the local date for "local_midnight", the New York date of the closing 17:00 for "ny_close". */
  date: string;
}

/** Trading days already found, per boundary, timezone and day (asked at every tick, millions of times in backtests). */
const days = new Map<string, { start: number; end: number; date: string }>();

const pad = (n: number) => String(n).padStart(2, "0");
const ymd = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

/** The calendar day `k` days after (y, m, d), as [y, m, d]. */
function addDays(y: number, m: number, d: number, k: number): [number, number, number] {
  const t = new Date(Date.UTC(y, m - 1, d + k));
  return [t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate()];
}

/**
 * First instant (UTC ms) of the local calendar day (y, m, d) in tz: local midnight, or the end of
 * the DST gap when midnight does not exist that day (São Paulo until 2018: 00:00 → 01:00).
 */
function dayStartMs(y: number, m: number, d: number, tz: string): number {
  const t = localMidnight(y, m, d, tz).getTime();
  const l = localParts(t, tz);
  if (l.y === y && l.m === m && l.d === d) return t;
  // Midnight fell in the gap: the instant found is still on the previous day; the day begins where its offset ends.
  return Date.UTC(y, m - 1, d) - offsetAt(t, tz);
}

/**
 * The trading day containing the instant `now` for a timezone and a boundary (TRADING_DAY_BOUNDARIES):
 * [start, end) in UTC, and its name. One rule for the daily loss limit, the daily trade count, the
 * resume after a daily stop and the "today" statistics (issue 22).
 * - "local_midnight": local midnight in `tz` to the next one (23 or 25 h on DST days).
 * - "ny_close": 17:00 New York to the next 17:00 New York, named by the New York date of the close that
 *   ends it (Monday 18:00 New York belongs to Tuesday's day); DST-aware (21:00 or 22:00 UTC). Every
 *   day is 24 h of New York clock, weekends included: Friday 17:00 → Saturday 17:00 is Saturday's day
 *   (market closed), and the Sunday 17:00 open starts Monday's. `tz` is not used.
 * E.g. 2026-01-05T22:30Z: local_midnight in America/Sao_Paulo → [2026-01-05T03:00Z, 2026-01-06T03:00Z)
 * "2026-01-05"; ny_close → [2026-01-05T22:00Z, 2026-01-06T22:00Z) "2026-01-06".
 * @throws RangeError for an unknown timezone with "local_midnight".
 */
export function tradingDay(now: Date, tz: string = DEFAULT_TIMEZONE, boundary: TradingDayBoundary = DEFAULT_TRADING_DAY_BOUNDARY): TradingDay {
  const ny = boundary === "ny_close";
  const zone = ny ? NEW_YORK : tz;
  const l = localParts(now.getTime(), zone);
  const [y, m, d] = ny && l.h >= NY_CLOSE_HOUR ? addDays(l.y, l.m, l.d, 1) : [l.y, l.m, l.d];
  const key = `${ny ? "ny" : tz}|${y}-${m}-${d}`;
  let day = days.get(key);
  if (day === undefined) {
    const [ny1, nm1, nd1] = addDays(y, m, d, ny ? -1 : 1);
    day = ny
      ? { start: localInstant(ny1, nm1, nd1, NY_CLOSE_HOUR, 0, NEW_YORK).getTime(), end: localInstant(y, m, d, NY_CLOSE_HOUR, 0, NEW_YORK).getTime(), date: ymd(y, m, d) }
      : { start: dayStartMs(y, m, d, tz), end: dayStartMs(ny1, nm1, nd1, tz), date: ymd(y, m, d) };
    if (days.size > 20_000) days.clear();
    days.set(key, day);
  }
  return { start: new Date(day.start), end: new Date(day.end), date: day.date };
}

/**
 * UTC instant where the trading day containing `now` starts (tradingDay(...).start): local midnight
 * in `tz` by default. E.g. 2026-01-05T02:00Z in America/Sao_Paulo (UTC−3) → 2026-01-04T03:00:00Z.
 * @throws RangeError for an unknown timezone.
 */
export function tradingDayStart(now: Date, tz: string = DEFAULT_TIMEZONE, boundary: TradingDayBoundary = DEFAULT_TRADING_DAY_BOUNDARY): Date {
  return tradingDay(now, tz, boundary).start;
}

/** UTC instant where the next trading day starts (tradingDay(...).end): the next local midnight in `tz` by default. */
export function nextTradingDayStart(now: Date, tz: string = DEFAULT_TIMEZONE, boundary: TradingDayBoundary = DEFAULT_TRADING_DAY_BOUNDARY): Date {
  return tradingDay(now, tz, boundary).end;
}
