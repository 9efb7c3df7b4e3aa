/**
 * The `login_throttle` table: one row per e-mail tried at login (known or not), with its streak of
 * attempts, the last attempt and the lock it earned (app/services/identity/login-throttle.server.ts
 * holds the rules). Its statements live here (issue 23 item 2).
 */
import type postgres from "postgres";
import type { Sql } from "./sql";

/** The lock rule's numbers (app/services/identity/login-throttle.server.ts). */
export interface ThrottleRule {
  freeFailures: number;
  baseLockSeconds: number;
  maxLockSeconds: number;
  streakResetHours: number;
}

/**
 * Counts one attempt of `email` (atomic upsert, serialized by the row lock) and sets the lock it earns;
 * answers the streak, or undefined when the account is locked (the attempt is then not counted).
 */
export async function countLoginAttempt(sql: Sql, email: string, rule: ThrottleRule): Promise<number | undefined> {
  const { freeFailures: FREE_FAILURES, baseLockSeconds: BASE_LOCK_SECONDS, maxLockSeconds: MAX_LOCK_SECONDS, streakResetHours: STREAK_RESET_HOURS } = rule;
  // The streak after this attempt, and the lock it earns, in the one statement that counts it.
  const lockFor = (n: postgres.Fragment) =>
    sql`case when ${n} >= ${FREE_FAILURES}::int
      then now() + least(${MAX_LOCK_SECONDS}::int, ${BASE_LOCK_SECONDS}::int * power(2, least(20, ${n} - ${FREE_FAILURES}::int))) * interval '1 second'
      end`;
  const next = sql`(case when t.last_attempt_at < now() - ${STREAK_RESET_HOURS}::int * interval '1 hour' then 1 else t.failures + 1 end)`;
  const [row] = await sql<{ failures: number }[]>`
    insert into login_throttle as t (email, failures, last_attempt_at, locked_until)
    values (${email}, 1, now(), ${lockFor(sql`1`)})
    on conflict (email) do update set failures = ${next}, last_attempt_at = now(), locked_until = ${lockFor(next)}
    where t.locked_until is null or t.locked_until <= now()
    returning failures`;
  return row?.failures;
}

/** Seconds left of the lock of `email` (0 when over; undefined without a row). */
export async function lockSecondsLeft(sql: Sql, email: string): Promise<number | undefined> {
  const [lock] = await sql<{ left: number }[]>`
      select greatest(0, extract(epoch from locked_until - now()))::float as left from login_throttle where email = ${email}`;
  return lock?.left;
}

/** Deletes the streaks whose last attempt is older than `streakResetHours` and which hold no running lock. */
export async function deleteStaleStreaks(sql: Sql, streakResetHours: number): Promise<void> {
  const STREAK_RESET_HOURS = streakResetHours;
  await sql`delete from login_throttle where last_attempt_at < now() - ${STREAK_RESET_HOURS}::int * interval '1 hour'
      and (locked_until is null or locked_until < now())`;
}

/** Deletes the streak of `email`. */
export async function deleteStreak(sql: Sql, email: string): Promise<void> {
  await sql`delete from login_throttle where email = ${email}`;
}
