/**
 * The trading day for daily limits (maxDailyTrades, dailyLossLimitPct): from local midnight to the
 * next local midnight in the user's timezone (PRODUCT.md §9 "P&L today from local midnight to next
 * midnight"; default timezone America/Sao_Paulo, PRODUCT.md §9 admin defaults). Computed with Intl
 * only (IANA tz database of the runtime), DST-safe.
 */

export const DEFAULT_TIMEZONE = "America/Sao_Paulo";

const formatters = new Map<string, Intl.DateTimeFormat>();

/** `tz` when the runtime knows it (IANA name), else DEFAULT_TIMEZONE; never throws. */
export function resolveTimezone(tz: string | undefined): string {
  if (!tz) return DEFAULT_TIMEZONE;
  try {
    formatter(tz);
    return tz;
  } catch {
    return DEFAULT_TIMEZONE;
  }
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
 * UTC instant where the trading day containing `now` starts: local midnight in `tz`.
 * E.g. 2026-01-05T02:00Z in America/Sao_Paulo (UTC−3) → 2026-01-04T03:00:00Z.
 * @throws RangeError for an unknown timezone.
 */
export function tradingDayStart(now: Date, tz: string = DEFAULT_TIMEZONE): Date {
  const l = localParts(now.getTime(), tz);
  const key = `${tz}|${l.y}-${l.m}-${l.d}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    start = localMidnight(l.y, l.m, l.d, tz).getTime();
    if (dayStarts.size > 20_000) dayStarts.clear();
    dayStarts.set(key, start);
  }
  return new Date(start);
}

/** Local midnights already found, per timezone and local date (asked at every tick). */
const dayStarts = new Map<string, number>();

/** UTC instant where the next trading day starts (next local midnight in `tz`). */
export function nextTradingDayStart(now: Date, tz: string = DEFAULT_TIMEZONE): Date {
  const l = localParts(now.getTime(), tz);
  const next = new Date(Date.UTC(l.y, l.m - 1, l.d + 1));
  return localMidnight(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), tz);
}
