/**
 * Throttling of failed logins (issue 8 item 1; issue 24 "Lockout"), kept in PostgreSQL
 * (`login_throttle`) so every process agrees. Complements the per-IP limit of server/rate-limits.ts
 * (every login request from one address, hard: 429 past `AUTH_RATE_LIMIT` per 15 minutes).
 *
 * Two counters per e-mail, each counted *before* the password is checked (one atomic upsert,
 * serialized by the row lock, so concurrent guesses cannot all slip in before the first failure is
 * recorded); a successful login deletes the pair's row and the account's:
 * - **per (account, source)**, the source being the client address (`sourceKey`: IPv6 by /64). The
 *   first `FREE_FAILURES` attempts of a streak pass freely; from then on each attempt locks the pair
 *   for `BASE_LOCK_SECONDS × 2^(n − FREE_FAILURES)` seconds (30 s, 60 s, 2 min, 4 min, 8 min, then
 *   `MAX_LOCK_SECONDS`). While locked, attempts from that source are refused without checking the
 *   password (the right one included) and do not extend the lock. Other sources are not affected:
 *   an attacker who knows an e-mail no longer locks its owner out (issue 24: ~4 requests an hour kept
 *   any account, admins included, locked).
 * - **per account**, over every source: past `ACCOUNT_FREE_FAILURES` attempts in a streak, each
 *   attempt waits `accountDelayMs` (250 ms, doubling, at most `ACCOUNT_MAX_DELAY_MS`) before the
 *   password is checked: guesses spread over many addresses slow down, the right password still
 *   logs in (never a lock; the reset link stays open too).
 * A streak whose last attempt is older than `STREAK_RESET_HOURS` starts over. Unknown e-mails are
 * throttled the same way, so the answer never reveals whether an account exists.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { ipKeyGenerator } from "express-rate-limit";
import { msg } from "../../../core/i18n/message";
import { countAccountAttempt, countLoginAttempt, deleteStaleStreaks, deleteStreak, lockSecondsLeft } from "../../../db/queries/login-throttle";
import { db } from "../platform/db.server";
import { RateLimitedError } from "../platform/errors.server";

/** Attempts of a (account, source) streak before the first lock. */
export const FREE_FAILURES = 5;
/** Lock after the `FREE_FAILURES`-th failed attempt, seconds; doubles with each further one. */
export const BASE_LOCK_SECONDS = 30;
/** Longest lock, seconds (15 minutes). */
export const MAX_LOCK_SECONDS = 15 * 60;
/** A streak whose last attempt is older than this starts over (hours). */
export const STREAK_RESET_HOURS = 24;
/** Attempts on one account, from every source, before its logins are delayed. */
export const ACCOUNT_FREE_FAILURES = 10;
/** The first delay past `ACCOUNT_FREE_FAILURES`, milliseconds; doubles with each further attempt. */
export const ACCOUNT_BASE_DELAY_MS = 250;
/** The longest delay of an account's login, milliseconds. */
export const ACCOUNT_MAX_DELAY_MS = 5_000;

/** The source of a login attempt: the client address (IPv6 by its /64, which one host may hold whole), or "unknown". */
export function sourceKey(ip: string | null): string {
  return ip ? ipKeyGenerator(ip, 64) : "unknown";
}

/**
 * The wait before the password check of the `attempt`-th attempt of an account's streak,
 * milliseconds: 0 up to `ACCOUNT_FREE_FAILURES`, then 250, 500, 1,000… up to `ACCOUNT_MAX_DELAY_MS`.
 */
export function accountDelayMs(attempt: number): number {
  if (attempt <= ACCOUNT_FREE_FAILURES) return 0;
  return Math.min(ACCOUNT_MAX_DELAY_MS, ACCOUNT_BASE_DELAY_MS * 2 ** Math.min(20, attempt - ACCOUNT_FREE_FAILURES - 1));
}

/** The 429 of a locked (account, source) pair, with `retryAfter` seconds. */
export function lockedError(seconds: number): RateLimitedError {
  const wait = Math.max(1, Math.ceil(seconds));
  const m = wait < 120 ? msg("api:auth.loginLockedSeconds", { seconds: wait }) : msg("api:auth.loginLockedMinutes", { minutes: Math.ceil(wait / 60) });
  return new RateLimitedError(m, { retryAfter: wait });
}

/**
 * Counts a login attempt for `email` (already trimmed and lower-cased) from the address `ip` before
 * its password is checked: locks the pair for the next attempts when its streak is long enough, and
 * waits the account's progressive delay.
 * @param ip the client address (`clientIp`), null when unknown
 * @throws RateLimitedError (429, `extra.retryAfter` in seconds) while the pair is locked; the attempt
 *   is then not counted, on the pair or the account.
 */
export async function beginLoginAttempt(email: string, ip: string | null): Promise<void> {
  const source = sourceKey(ip);
  const rule = { freeFailures: FREE_FAILURES, baseLockSeconds: BASE_LOCK_SECONDS, maxLockSeconds: MAX_LOCK_SECONDS, streakResetHours: STREAK_RESET_HOURS };
  const failures = await countLoginAttempt(db(), email, source, rule);
  if (failures === undefined) {
    const left = await lockSecondsLeft(db(), email, source);
    throw lockedError(left ?? BASE_LOCK_SECONDS);
  }
  const delay = accountDelayMs(await countAccountAttempt(db(), email, STREAK_RESET_HOURS));
  if (delay > 0) await sleep(delay);
  // Now and then, forget streaks nobody continued (the table holds every e-mail tried, known or not).
  if (Math.random() < 0.01) {
    await deleteStaleStreaks(db(), STREAK_RESET_HOURS);
  }
}

/** Ends the streak of `email` from the address `ip` and the account's, after a correct password (other sources keep theirs). */
export async function clearLoginFailures(email: string, ip: string | null): Promise<void> {
  await deleteStreak(db(), email, sourceKey(ip));
}
