/**
 * The `licenses` table (migrations 0001, 0011): trial, manual and paid licences. Its statements live
 * here (issue 23 item 2), with the SQL pieces other statements join in: the newest licence's columns,
 * prefixed `lic_`.
 */
import type { Sql } from "./sql";

/** A licence as the licence view reads it. */
export interface LicenceRow {
  id: string;
  key: string;
  kind: string;
  plan_id: string | null;
  plan_name: string | null;
  start_date: Date;
  end_date: Date;
  is_active: boolean;
}

/** The newest licence joined into another row with its columns prefixed `lic_` (`LICENCE_JOIN_COLUMNS`; lic_id null: no licence). */
export interface JoinedLicenceColumns {
  lic_id: string | null;
  lic_key: string;
  lic_kind: string;
  lic_plan_id: string | null;
  lic_plan_name: string | null;
  lic_start_date: Date;
  lic_end_date: Date;
  lic_is_active: boolean;
}

/** The select list for `JoinedLicenceColumns` from a licence aliased `l` (the newest one, as `latestLicence` reads it); SQL text for `sql.unsafe`. */
export const LICENCE_JOIN_COLUMNS = `l.id as lic_id, l.key as lic_key, l.kind as lic_kind, l.plan_id as lic_plan_id, l.plan_name as lic_plan_name,
  l.start_date as lic_start_date, l.end_date as lic_end_date, l.is_active as lic_is_active`;

/** Creates a user's trial licence (inside the caller's transaction). */
export async function insertTrialLicence(sql: Sql, userId: string, key: string, start: Date, end: Date): Promise<void> {
  await sql`insert into licenses (user_id, key, kind, plan_name, start_date, end_date)
            values (${userId}, ${key}, 'trial', 'Teste grátis', ${start}, ${end})`;
}

/** The newest licence of a user (by end date), if any. */
export async function newestLicence(sql: Sql, userId: string): Promise<LicenceRow | undefined> {
  const [row] = await sql<LicenceRow[]>`select id, key, kind, plan_id, plan_name, start_date, end_date, is_active
    from licenses where user_id = ${userId} order by end_date desc limit 1`;
  return row;
}

/** The user's newest valid licence not bound to a Stripe subscription, locked `for update` (the admin's extension). */
export async function lockNewestOwnLicence(sql: Sql, userId: string): Promise<{ id: string; kind: string; end_date: Date } | undefined> {
  const [own] = await sql<{ id: string; kind: string; end_date: Date }[]>`
      select id, kind, end_date from licenses where user_id = ${userId} and is_active and end_date > now() and stripe_subscription_id is null
      order by end_date desc limit 1 for update`;
  return own;
}

/** The end of the user's newest valid licence bound to a Stripe subscription, if any. */
export async function newestPaidLicenceEnd(sql: Sql, userId: string): Promise<{ end_date: Date } | undefined> {
  const [paid] = await sql<{ end_date: Date }[]>`
      select end_date from licenses where user_id = ${userId} and is_active and end_date > now() and stripe_subscription_id is not null
      order by end_date desc limit 1`;
  return paid;
}

/** Moves a licence's end (the admin's extension); a trial so extended becomes 'manual' ('Licença manual'). */
export async function extendOwnLicence(sql: Sql, licenceId: string, endAfter: Date): Promise<void> {
  await sql`update licenses set end_date = ${endAfter},
        plan_name = case when kind = 'trial' then 'Licença manual' else plan_name end,
        kind = case when kind = 'trial' then 'manual' else kind end
        where id = ${licenceId}`;
}

/** Creates a 'manual' licence ('Licença manual'); returns its id. */
export async function insertManualLicence(sql: Sql, userId: string, key: string, start: Date, end: Date): Promise<string> {
  const [row] = await sql<{ id: string }[]>`insert into licenses (user_id, key, kind, plan_name, start_date, end_date)
        values (${userId}, ${key}, 'manual', 'Licença manual', ${start}, ${end}) returning id`;
  return row!.id;
}

/** A licence as the admin's support view lists it (`stripe`: bound to a Stripe subscription). */
export interface AdminLicenceRow {
  id: string;
  key: string;
  kind: string;
  plan_name: string | null;
  start_date: Date;
  end_date: Date;
  is_active: boolean;
  stripe: boolean;
  created_at: Date;
}

/** A user's 50 newest licences (by end date), for the admin's support view. */
export function userLicences(sql: Sql, userId: string) {
  return sql<AdminLicenceRow[]>`
      select id, key, kind, plan_name, start_date, end_date, is_active, stripe_subscription_id is not null as stripe, created_at
      from licenses where user_id = ${userId} order by end_date desc limit 50`;
}

/** The licence of a Stripe subscription, locked `for update` (the subscription sync). */
export async function lockSubscriptionLicence(sql: Sql, subscriptionId: string): Promise<{ id: string; end_date: Date; is_active: boolean } | undefined> {
  const [lic] = await sql<{ id: string; end_date: Date; is_active: boolean }[]>`
    select id, end_date, is_active from licenses where stripe_subscription_id = ${subscriptionId} for update`;
  return lic;
}

/** A paid licence's columns (the subscription sync). */
export interface NewPaidLicence {
  userId: string;
  key: string;
  planId: string | null;
  planName: string | null;
  start: Date;
  end: Date;
  subscriptionId: string;
}

/** Creates a Stripe subscription's 'paid' licence; returns its id. */
export async function insertPaidLicence(sql: Sql, l: NewPaidLicence): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
        insert into licenses (user_id, key, kind, plan_id, plan_name, start_date, end_date, stripe_subscription_id)
        values (${l.userId}, ${l.key}, 'paid', ${l.planId}, ${l.planName},
                ${l.start}, ${l.end}, ${l.subscriptionId})
        returning id`;
  return row!.id;
}

/** Renews a subscription's licence to `periodEnd`, active, keeping its plan when `planId` / `planName` are null. */
export async function renewPaidLicence(sql: Sql, licenceId: string, periodEnd: Date, planId: string | null, planName: string | null): Promise<void> {
  await sql`update licenses set end_date = ${periodEnd}, is_active = true, plan_id = coalesce(${planId}, plan_id),
        plan_name = coalesce(${planName}, plan_name) where id = ${licenceId}`;
}

/** Ends a licence at `endedAt`. */
export async function endLicence(sql: Sql, licenceId: string, endedAt: Date): Promise<void> {
  await sql`update licenses set end_date = ${endedAt} where id = ${licenceId}`;
}
