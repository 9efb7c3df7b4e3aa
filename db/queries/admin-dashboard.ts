/**
 * The admin dashboard's figures (issue 10; issue 23 item 2: its SQL on `bots`, `decisions` and `users`
 * lives here): the operations counts over the last hour, the users figures and lists, read together.
 */
import type { Sql } from "./sql";

/** The dashboard's operations counts: AI loops on (users not deleted), bots that ticked and bots whose tick failed in the last hour, decisions in the last hour. */
export interface LoopActivity {
  loops: number;
  ticked: number;
  errors: number;
  decisions: number;
}

/** The `LoopActivity` counts, one row. */
export function loopActivity(sql: Sql) {
  return sql<LoopActivity[]>`
      select
        (select count(*)::int from bots b join users u on u.id = b.user_id where b.is_active and u.deleted_at is null) as loops,
        (select count(*)::int from bots where last_tick_at > now() - interval '1 hour') as ticked,
        (select count(*)::int from bots where last_tick_at > now() - interval '1 hour' and last_tick_error is not null) as errors,
        (select count(*)::int from decisions where created_at > now() - interval '1 hour') as decisions`;
}

/** A user line of the "recent users" and "system activity" lists (app/services/admin/dashboard.server.ts). */
export interface UserLine {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: "user" | "admin";
  is_active: boolean;
  language: string | null;
  created_at: Date;
  last_login_at: Date | null;
}

/** The users figures (soft-deleted users left out): total, new this week, active, inactive, admins, with a broker connection. */
export function userCounts(sql: Sql) {
  return sql<{ total: number; new_week: number; active: number; inactive: number; admins: number; broker: number }[]>`
      select count(*)::int as total,
        count(*) filter (where u.created_at >= now() - interval '7 days')::int as new_week,
        count(*) filter (where u.is_active)::int as active,
        count(*) filter (where not u.is_active)::int as inactive,
        count(*) filter (where u.role = 'admin')::int as admins,
        count(bc.user_id)::int as broker
      from users u left join broker_connections bc on bc.user_id = u.id
      where u.deleted_at is null`;
}

/** Regular users by the status of their newest licence (as the user object shows it: licence.server.ts licenceView). */
export function licenceCounts(sql: Sql) {
  return sql<{ valid: number; expired: number }[]>`
      select count(*) filter (where l.is_active and l.end_date > now())::int as valid,
        count(*) filter (where not (l.is_active and l.end_date > now()))::int as expired
      from users u
      join lateral (select is_active, end_date from licenses where user_id = u.id order by end_date desc limit 1) l on true
      where u.deleted_at is null and u.role <> 'admin'`;
}

/** The plan of the newest licence of each user with an active subscription (the revenue's prices). */
export function activePlanPrices(sql: Sql) {
  return sql<{ price_cents: number; currency: string; interval: string; interval_count: number }[]>`
      select p.price_cents, p.currency, p.interval, p.interval_count
      from users u
      join lateral (select plan_id from licenses where user_id = u.id order by end_date desc limit 1) l on true
      join plans p on p.id = l.plan_id
      where u.deleted_at is null and u.subscription_status = 'active'`;
}

/** The 5 newest users. */
export function newestUsers(sql: Sql) {
  return sql<UserLine[]>`select id, email, first_name, last_name, role, is_active, preferences->>'language' as language, created_at, last_login_at
      from users where deleted_at is null order by created_at desc, id limit 5`;
}

/** Users per language (pt unless en or es). */
export function languageSplit(sql: Sql) {
  return sql<{ language: string; n: number }[]>`
      select case when preferences->>'language' in ('en', 'es') then preferences->>'language' else 'pt' end as language, count(*)::int as n
      from users where deleted_at is null group by 1`;
}

/** The 8 latest logins. */
export function latestLogins(sql: Sql) {
  return sql<UserLine[]>`select id, email, first_name, last_name, role, is_active, preferences->>'language' as language, created_at, last_login_at
      from users where deleted_at is null and last_login_at is not null order by last_login_at desc, id limit 8`;
}
