/**
 * Time windows of the risk gate (issue 7), pure and DST-safe (Intl through trading-day.ts):
 *
 * - The user's trading hours (settings.tradingHours): a daily window "HH:MM"–"HH:MM" on chosen ISO
 *   weekdays, in the user's timezone. End minute included ("00:00"–"23:59" is the whole day). A window
 *   with end < start crosses midnight, and its part after midnight belongs to the day it started on:
 *   22:00–06:00 on Monday–Friday allows Friday 23:00 and Saturday 03:00, but not Monday 03:00.
 * - The weekly FX market close: Friday 17:00 America/New_York to Sunday 17:00 America/New_York
 *   (OANDA's trading week; 21:00/22:00 UTC depending on New York's DST). settings.weekend decides
 *   what happens in the last `minutesBeforeClose` minutes before the close and while closed, because
 *   weekend gaps through stops produced losses of 1.4–2.9 % of the balance on a 1 % risk.
 */
import { clockMinutes, type TradingSettings } from "../settings";
import { DEFAULT_TIMEZONE, isoWeekday, localInstant, localParts } from "./trading-day";

/** Timezone of the FX week's close and reopen. */
export const FX_WEEK_TIMEZONE = "America/New_York";
/** ISO weekday and local time (minutes) of the weekly close: Friday 17:00 New York. */
export const FX_WEEK_CLOSE = { weekday: 5, minutes: 17 * 60 } as const;
/** ISO weekday and local time (minutes) of the weekly reopen: Sunday 17:00 New York. */
export const FX_WEEK_OPEN = { weekday: 7, minutes: 17 * 60 } as const;

/** Local calendar day, ISO weekday (1 = Monday … 7 = Sunday) and minutes since midnight of an instant in tz. */
export function localClock(now: Date, tz: string): { y: number; m: number; d: number; weekday: number; minutes: number } {
  const l = localParts(now.getTime(), tz);
  return { y: l.y, m: l.m, d: l.d, weekday: isoWeekday(l.y, l.m, l.d), minutes: l.h * 60 + l.mi };
}

/**
 * Whether `now` is inside the trading-hours window in `tz` (see the file comment for the rules).
 * A disabled window always allows; an invalid start/end (never after the schema) blocks.
 * @throws RangeError for an unknown timezone.
 */
export function withinTradingHours(now: Date, hours: TradingSettings["tradingHours"], tz: string = DEFAULT_TIMEZONE): boolean {
  if (!hours.enabled) return true;
  const start = clockMinutes(hours.start);
  const end = clockMinutes(hours.end);
  if (start === null || end === null) return false;
  const { weekday, minutes } = localClock(now, tz);
  const dayAllowed = (d: number) => hours.days.includes(d);
  if (start <= end) return dayAllowed(weekday) && minutes >= start && minutes <= end;
  // Crosses midnight: [start, 24:00) belongs to today, [00:00, end] to the window that began yesterday.
  if (minutes >= start) return dayAllowed(weekday);
  if (minutes <= end) return dayAllowed(weekday === 1 ? 7 : weekday - 1);
  return false;
}

type Clock = ReturnType<typeof localClock>;

function closedAt(c: Clock): boolean {
  return (
    (c.weekday === FX_WEEK_CLOSE.weekday && c.minutes >= FX_WEEK_CLOSE.minutes) ||
    c.weekday === 6 ||
    (c.weekday === FX_WEEK_OPEN.weekday && c.minutes < FX_WEEK_OPEN.minutes)
  );
}

function weekCloseAt(c: Clock, closed: boolean): Date {
  // Days from today (New York) to the Friday of the close: back while closed, ahead while open.
  const offset = closed ? -((c.weekday - FX_WEEK_CLOSE.weekday + 7) % 7) : (FX_WEEK_CLOSE.weekday - c.weekday + 7) % 7;
  return localInstant(c.y, c.m, c.d + offset, Math.floor(FX_WEEK_CLOSE.minutes / 60), FX_WEEK_CLOSE.minutes % 60, FX_WEEK_TIMEZONE);
}

/** True while the FX market is closed for the weekend (Friday 17:00 to Sunday 17:00, New York). */
export function isFxWeekendClosed(now: Date): boolean {
  return closedAt(localClock(now, FX_WEEK_TIMEZONE));
}

/**
 * The weekly close of the FX week `now` belongs to: while the market is open the next Friday 17:00
 * New York (later than `now`); while it is closed, the Friday 17:00 that began the closure (not later
 * than `now`). E.g. 2026-03-06T12:00Z (Friday, New York on EST) → 2026-03-06T22:00Z; a week later,
 * after New York moved to EDT on 2026-03-08, → 2026-03-13T21:00Z.
 */
export function fxWeekClose(now: Date): Date {
  const c = localClock(now, FX_WEEK_TIMEZONE);
  return weekCloseAt(c, closedAt(c));
}

/** What settings.weekend asks for at an instant. */
export interface MarketCloseWindow {
  /** No new positions: inside the last `minutesBeforeClose` minutes before the weekly close, or closed (mode ≠ 'off'). */
  noEntry: boolean;
  /** Close the open positions: same window, mode 'flat' (the executor does it). */
  flatten: boolean;
  /** The weekly close of the current FX week (fxWeekClose; in the past while closed); null when mode is 'off'. */
  closesAt: Date | null;
}

/**
 * The weekend guard at `now` for the user's settings.weekend. Pure; DST-safe for New York.
 * E.g. mode 'no_entry', 120 minutes: Friday 15:00–17:00 New York and the whole weekend →
 * { noEntry: true, flatten: false }; mode 'flat' also flattens there; mode 'off' → all false, closesAt null.
 */
export function marketCloseWindow(now: Date, settings: Pick<TradingSettings, "weekend">): MarketCloseWindow {
  const { mode, minutesBeforeClose } = settings.weekend;
  if (mode === "off") return { noEntry: false, flatten: false, closesAt: null };
  const c = localClock(now, FX_WEEK_TIMEZONE);
  const closed = closedAt(c);
  const closesAt = weekCloseAt(c, closed);
  const inside = closed || now.getTime() >= closesAt.getTime() - minutesBeforeClose * 60_000;
  return { noEntry: inside, flatten: inside && mode === "flat", closesAt };
}
