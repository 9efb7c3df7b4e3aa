/**
 * Per-account backoff for failed logins (issue 8 item 1), kept in PostgreSQL (`login_throttle`) so
 * every process agrees. Complements the per-IP limit of server/rate-limits.ts: an attacker spread
 * over many addresses still gets only a few guesses per account per quarter hour.
 *
 * Every attempt is counted *before* the password is checked (one atomic upsert, serialized by the
 * row lock), so concurrent guesses cannot all slip in before the first failure is recorded; a
 * successful login deletes the row. The first `FREE_FAILURES` attempts of a streak pass freely;
 * from then on each attempt locks the account for `BASE_LOCK_SECONDS × 2^(n − FREE_FAILURES)`
 * seconds (30 s, 60 s, 2 min, 4 min, 8 min, then `MAX_LOCK_SECONDS`). While locked, attempts are
 * refused without checking the password (the right password included) and do not extend the lock.
 * A streak whose last attempt is older than `STREAK_RESET_HOURS` starts over. Unknown e-mails are
 * throttled the same way, so the answer never reveals whether an account exists.
 */
import { msg } from "../../../core/i18n/message";
import { countLoginAttempt, deleteStaleStreaks, deleteStreak, lockSecondsLeft } from "../../../db/queries/login-throttle";
import { db } from "../platform/db.server";
import { RateLimitedError } from "../platform/errors.server";

/** Attempts of a streak before the first lock. */
export const FREE_FAILURES = 5;
/** Lock after the `FREE_FAILURES`-th failed attempt, seconds; doubles with each further one. */
export const BASE_LOCK_SECONDS = 30;
/** Longest lock, seconds (15 minutes). */
export const MAX_LOCK_SECONDS = 15 * 60;
/** A streak whose last attempt is older than this starts over (hours). */
export const STREAK_RESET_HOURS = 24;

/** The 429 of a locked account, with `retryAfter` seconds. */
export function lockedError(seconds: number): RateLimitedError {
  const wait = Math.max(1, Math.ceil(seconds));
  const m = wait < 120 ? msg("api:auth.loginLockedSeconds", { seconds: wait }) : msg("api:auth.loginLockedMinutes", { minutes: Math.ceil(wait / 60) });
  return new RateLimitedError(m, { retryAfter: wait });
}

/**
 * Counts a login attempt for `email` (already trimmed and lower-cased) before its password is
 * checked, and locks the account for the next attempts when the streak is long enough.
 * @throws RateLimitedError (429, `extra.retryAfter` in seconds) while the account is locked; the
 *   attempt is then not counted.
 */
export async function beginLoginAttempt(email: string): Promise<void> {
  const rule = { freeFailures: FREE_FAILURES, baseLockSeconds: BASE_LOCK_SECONDS, maxLockSeconds: MAX_LOCK_SECONDS, streakResetHours: STREAK_RESET_HOURS };
  const failures = await countLoginAttempt(db(), email, rule);
  if (failures === undefined) {
    const left = await lockSecondsLeft(db(), email);
    throw lockedError(left ?? BASE_LOCK_SECONDS);
  }
  // Now and then, forget streaks nobody continued (the table holds every e-mail tried, known or not).
  if (Math.random() < 0.01) {
    await deleteStaleStreaks(db(), STREAK_RESET_HOURS);
  }
}

/** Ends the streak of `email` after a correct password. */
export async function clearLoginFailures(email: string): Promise<void> {
  await deleteStreak(db(), email);
}
