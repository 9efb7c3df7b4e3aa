/**
 * The `login_throttle` table: one row per (e-mail, source) tried at login (known e-mail or not), with
 * its streak of attempts, the last attempt and the lock it earned, plus one account-wide row per
 * e-mail (`source` = `ACCOUNT_SOURCE`) that counts the attempts from every source and is never locked
 * (app/services/identity/login-throttle.server.ts holds the rules). Its statements live here (issue 23
 * item 2; the source since issue 24).
 */
import type postgres from "postgres";
import type { Sql } from "./sql";

/** The `source` of the account-wide row (no client address is spelt so). */
export const ACCOUNT_SOURCE = "*";

/** The lock rule's numbers (app/services/identity/login-throttle.server.ts). */
export interface ThrottleRule {
  freeFailures: number;
  baseLockSeconds: number;
  maxLockSeconds: number;
  streakResetHours: number;
}

/**
 * Counts one attempt of `email` from `source` (atomic upsert, serialized by the row lock) and sets the
 * lock it earns; answers the streak, or undefined when the pair is locked (the attempt is then not counted).
 */
export async function countLoginAttempt(sql: Sql, email: string, source: string, rule: ThrottleRule): Promise<number | undefined> {
  const { freeFailures: FREE_FAILURES, baseLockSeconds: BASE_LOCK_SECONDS, maxLockSeconds: MAX_LOCK_SECONDS, streakResetHours: STREAK_RESET_HOURS } = rule;
  // The streak after this attempt, and the lock it earns, in the one statement that counts it.
  const lockFor = (n: postgres.Fragment) =>
    sql`case when ${n} >= ${FREE_FAILURES}::int
      then now() + least(${MAX_LOCK_SECONDS}::int, ${BASE_LOCK_SECONDS}::int * power(2, least(20, ${n} - ${FREE_FAILURES}::int))) * interval '1 second'
      end`;
  const next = sql`(case when t.last_attempt_at < now() - ${STREAK_RESET_HOURS}::int * interval '1 hour' then 1 else t.failures + 1 end)`;
  const [row] = await sql<{ failures: number }[]>`
    insert into login_throttle as t (email, source, failures, last_attempt_at, locked_until)
    values (${email}, ${source}, 1, now(), ${lockFor(sql`1`)})
    on conflict (email, source) do update set failures = ${next}, last_attempt_at = now(), locked_until = ${lockFor(next)}
    where t.locked_until is null or t.locked_until <= now()
    returning failures`;
  return row?.failures;
}

/**
 * Counts one attempt on the account `email` from any source (the account-wide row, never locked; a
 * streak whose last attempt is older than `streakResetHours` starts over); answers the streak.
 */
export async function countAccountAttempt(sql: Sql, email: string, streakResetHours: number): Promise<number> {
  const STREAK_RESET_HOURS = streakResetHours;
  const [row] = await sql<{ failures: number }[]>`
    insert into login_throttle as t (email, source, failures, last_attempt_at, locked_until)
    values (${email}, ${ACCOUNT_SOURCE}, 1, now(), null)
    on conflict (email, source) do update set
      failures = case when t.last_attempt_at < now() - ${STREAK_RESET_HOURS}::int * interval '1 hour' then 1 else least(t.failures + 1, 1000000) end,
      last_attempt_at = now()
    returning failures`;
  return row!.failures;
}

/** Seconds left of the lock of `email` from `source` (0 when over; undefined without a row). */
export async function lockSecondsLeft(sql: Sql, email: string, source: string): Promise<number | undefined> {
  const [lock] = await sql<{ left: number }[]>`
      select greatest(0, extract(epoch from locked_until - now()))::float as left from login_throttle where email = ${email} and source = ${source}`;
  return lock?.left;
}

/** Deletes the streaks whose last attempt is older than `streakResetHours` and which hold no running lock. */
export async function deleteStaleStreaks(sql: Sql, streakResetHours: number): Promise<void> {
  const STREAK_RESET_HOURS = streakResetHours;
  await sql`delete from login_throttle where last_attempt_at < now() - ${STREAK_RESET_HOURS}::int * interval '1 hour'
      and (locked_until is null or locked_until < now())`;
}

/** Deletes the streak of `email` from `source` and the account-wide one (other sources keep theirs). */
export async function deleteStreak(sql: Sql, email: string, source: string): Promise<void> {
  await sql`delete from login_throttle where email = ${email} and source in (${source}, ${ACCOUNT_SOURCE})`;
}
