/**
 * The `license_changes` table (migration 0011): the log of each licence's changes (created, extended,
 * shortened, reactivated, ended) and their source (admin, webhook, sync…). Its statements live here
 * (issue 23 item 2).
 */
import type { Sql } from "./sql";

/** A change to log (`stripeEventId`: the Stripe event that caused it, if any). */
export interface NewLicenceChange {
  licenceId: string;
  userId: string;
  change: string;
  endBefore: Date | null;
  endAfter: Date;
  source: string;
}

/** Logs an admin's change (source 'admin'). */
export async function insertAdminLicenceChange(sql: Sql, c: Omit<NewLicenceChange, "source">): Promise<void> {
  await sql`insert into license_changes (license_id, user_id, change, end_before, end_after, source)
      values (${c.licenceId}, ${c.userId}, ${c.change}, ${c.endBefore}, ${c.endAfter}, 'admin')`;
}

/** Logs a change of the Stripe sync, with the event that caused it (null: none). */
export async function insertSyncLicenceChange(sql: Sql, c: NewLicenceChange, stripeEventId: string | null): Promise<void> {
  await sql`insert into license_changes (license_id, user_id, change, end_before, end_after, source, stripe_event_id)
      values (${c.licenceId}, ${c.userId}, ${c.change}, ${c.endBefore}, ${c.endAfter}, ${c.source}, ${stripeEventId})`;
}

/** A change as the admin's support view lists it. */
export interface LicenceChangeRow {
  change: string;
  end_before: Date | null;
  end_after: Date;
  source: string;
  created_at: Date;
}

/** A user's 20 latest licence changes, newest first. */
export function userLicenceChanges(sql: Sql, userId: string) {
  return sql<LicenceChangeRow[]>`
      select change, end_before, end_after, source, created_at from license_changes where user_id = ${userId} order by id desc limit 20`;
}
