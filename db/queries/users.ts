/**
 * The `users` table: accounts (e-mail, names, argon2id password hash, role, active/deleted marks),
 * their preferences (jsonb: language, currency, timezone, push topics), terms acceptance, last login
 * and the Stripe customer/subscription mirror. Its statements live here (issue 23 item 2); reads that
 * join other tables live in the read model modules named for what they read.
 */
import type { Sql } from "./sql";

/** A `users` row as the app reads it (app/services/identity/auth.server.ts re-exports it). */
export interface UserRow {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  role: "user" | "admin";
  is_active: boolean;
  preferences: { language: string; currency: string; timezone: string };
  subscription_status: string;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  email_verified_at: Date | null;
  terms_accepted_at: Date | null;
  terms_version: string | null;
  created_at: Date;
  last_login_at: Date | null;
}

/** The active user of an e-mail. */
export async function activeUserByEmail(sql: Sql, email: string): Promise<UserRow | undefined> {
  const [user] = await sql<UserRow[]>`select * from users where email = ${email} and is_active`;
  return user;
}

/** Marks the user's e-mail verified (kept when it already was). */
export async function markEmailVerified(sql: Sql, userId: string): Promise<void> {
  await sql`update users set email_verified_at = coalesce(email_verified_at, now()) where id = ${userId}`;
}

/** Sets the user's password hash and marks the e-mail verified (kept when it already was). */
export async function setPasswordVerified(sql: Sql, userId: string, hash: string): Promise<void> {
  await sql`update users set password_hash = ${hash}, email_verified_at = coalesce(email_verified_at, now()) where id = ${userId}`;
}

/** Records the user's acceptance of terms `version`, now. */
export async function setTermsAccepted(sql: Sql, userId: string, version: string): Promise<void> {
  await sql`update users set terms_accepted_at = now(), terms_version = ${version} where id = ${userId}`;
}

/** A user by id (deleted ones included). */
export async function userRowById(sql: Sql, userId: string): Promise<UserRow | undefined> {
  const [user] = await sql<UserRow[]>`select * from users where id = ${userId}`;
  return user;
}

/** A user by e-mail (inactive ones included). */
export async function userByEmail(sql: Sql, email: string): Promise<UserRow | undefined> {
  const [user] = await sql<UserRow[]>`select * from users where email = ${email}`;
  return user;
}

/** Whether a user holds the e-mail. */
export async function emailExists(sql: Sql, email: string): Promise<boolean> {
  const [existing] = await sql`select 1 from users where email = ${email}`;
  return existing !== undefined;
}

/** What a new account (of `createUser`) records. */
export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  role: "user" | "admin";
  verifiedAt: Date | null;
}

/** Inserts an account; answers its row. */
export async function insertUser(sql: Sql, u: NewUser): Promise<UserRow> {
  const [user] = await sql<UserRow[]>`insert into users (email, first_name, last_name, password_hash, role, email_verified_at)
      values (${u.email}, ${u.firstName}, ${u.lastName}, ${u.passwordHash}, ${u.role},
              ${u.verifiedAt})
      returning *`;
  return user!;
}

/** Records a login of the user, now. */
export async function touchLastLogin(sql: Sql, userId: string): Promise<void> {
  await sql`update users set last_login_at = now() where id = ${userId}`;
}

/** The columns of `users` an admin write reads back (no password hash; app/services/admin/user-record.server.ts re-exports it). */
export interface UserFields {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  is_active: boolean;
  preferences: { language: string; currency: string; timezone: string };
  email_verified_at: Date | null;
  subscription_status: string;
  stripe_subscription_id: string | null;
  deleted_at: Date | null;
}

/** A user that is not deleted, locked for update (in the caller's transaction). */
export async function lockLiveUser(sql: Sql, id: string): Promise<UserFields | undefined> {
  const [u] = await sql<UserFields[]>`select * from users where id = ${id} and deleted_at is null for update`;
  return u;
}

/** Whether another user (than `exceptId`, if given) holds the e-mail. */
export async function emailTaken(sql: Sql, email: string, exceptId?: string): Promise<boolean> {
  const [taken] = await sql`select 1 from users where email = ${email} ${exceptId ? sql`and id <> ${exceptId}` : sql``}`;
  return taken !== undefined;
}

/** What an account created by an admin records. */
export interface NewAdminUser {
  email: string;
  firstName: string;
  lastName: string;
  passwordHash: string;
  isActive: boolean;
  preferences: Record<string, unknown>;
}

/** Inserts a regular user created by an admin (e-mail verified now); answers its row. */
export async function insertAdminCreatedUser(sql: Sql, u: NewAdminUser): Promise<UserFields> {
  const [row] = await sql<UserFields[]>`insert into users (email, first_name, last_name, password_hash, role, is_active, preferences, email_verified_at)
        values (${u.email}, ${u.firstName}, ${u.lastName}, ${u.passwordHash}, 'user', ${u.isActive}, ${sql.json(u.preferences as never)}, now())
        returning *`;
  return row!;
}

/** The fields of an admin edit (the password hash kept when null). */
export interface AdminUserEdit {
  email: string;
  firstName: string;
  lastName: string;
  isActive: boolean;
  preferences: Record<string, unknown>;
  passwordHash: string | null;
}

/** Writes an admin edit of the user; answers the row. */
export async function updateAdminEditedUser(sql: Sql, id: string, e: AdminUserEdit): Promise<UserFields> {
  const [next] = await sql<UserFields[]>`update users set
          email = ${e.email}, first_name = ${e.firstName}, last_name = ${e.lastName},
          is_active = ${e.isActive}, preferences = ${sql.json(e.preferences as never)},
          password_hash = coalesce(${e.passwordHash}, password_hash)
        where id = ${id} returning *`;
  return next!;
}

/** Soft-deletes the user: inactive, `deleted_at` now, the e-mail moved to `deleted_email` and replaced by `deletedEmail`. */
export async function softDeleteUser(sql: Sql, id: string, deletedEmail: string): Promise<UserFields> {
  const [deleted] = await sql<UserFields[]>`update users set deleted_at = now(), is_active = false, deleted_email = email,
          email = ${deletedEmail}
        where id = ${id} returning *`;
  return deleted!;
}

/** The user's stored preferences (jsonb, null when none). */
export async function userPreferences<P>(sql: Sql, userId: string): Promise<Partial<P> | null | undefined> {
  const [row] = await sql<{ preferences: Partial<P> | null }[]>`select preferences from users where id = ${userId}`;
  return row?.preferences;
}

/** Merges `patch` into the user's preferences (other keys kept). */
export async function mergePreferences(sql: Sql, userId: string, patch: Record<string, unknown>): Promise<void> {
  await sql`update users set preferences = coalesce(preferences, '{}'::jsonb) || ${sql.json(patch as never)} where id = ${userId}`;
}

/** The user's push topic switches (`preferences.pushTopics`, raw; undefined without a row). */
export async function pushTopicsPreference(sql: Sql, userId: string): Promise<unknown> {
  const [row] = await sql<{ topics: unknown }[]>`select preferences->'pushTopics' as topics from users where id = ${userId}`;
  return row?.topics;
}

/** The preferences of a live (not deleted, active) user; undefined when there is none. */
export async function liveUserPreferences(sql: Sql, userId: string) {
  const [user] = await sql<{ preferences: { language?: string } | null }[]>`select preferences from users where id = ${userId} and deleted_at is null and is_active`;
  return user;
}

/** The user's row with the stored subscription summary (`D`: its shape, app/services/billing/subscription-sync.server.ts). */
export async function userWithSubscription<D>(sql: Sql, userId: string) {
  const [u] = await sql<(UserRow & { subscription_details: D | null })[]>`select * from users where id = ${userId}`;
  return u;
}

/** The user's stored subscription summary (undefined without a row). */
export async function subscriptionDetails<D>(sql: Sql, userId: string): Promise<D | null | undefined> {
  const [u] = await sql<{ subscription_details: D | null }[]>`select subscription_details from users where id = ${userId}`;
  return u?.subscription_details;
}

/** Sets the user's Stripe customer when it is still `old` (compare-and-set); answers whether it was set. */
export async function swapStripeCustomer(sql: Sql, userId: string, customerId: string, old: string | null): Promise<boolean> {
  const updated = await sql`update users set stripe_customer_id = ${customerId} where id = ${userId} and stripe_customer_id is not distinct from ${old}`;
  return updated.count > 0;
}

/** The subscription fields of a user, as the Stripe sync reads them. */
export interface SubscriptionOwner {
  id: string;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  subscription_status: string;
}

/** The user of a Stripe customer, locked for update. */
export async function lockOwnerByCustomer(sql: Sql, customer: string | null): Promise<SubscriptionOwner | undefined> {
  const [byCustomer] = await sql<SubscriptionOwner[]>`
    select id, stripe_customer_id, stripe_subscription_id, subscription_status from users where stripe_customer_id = ${customer} for update`;
  return byCustomer;
}

/** A user by id, locked for update (subscription fields). */
export async function lockOwnerById(sql: Sql, userId: string): Promise<SubscriptionOwner | undefined> {
  const [byMeta] = await sql<SubscriptionOwner[]>`
    select id, stripe_customer_id, stripe_subscription_id, subscription_status from users where id = ${userId} for update`;
  return byMeta;
}

/** Sets the user's Stripe customer. */
export async function setStripeCustomer(sql: Sql, userId: string, customer: string): Promise<void> {
  await sql`update users set stripe_customer_id = ${customer} where id = ${userId}`;
}

/** Stores the user's current subscription (status, id, summary), synced now. */
export async function setSubscription(sql: Sql, userId: string, status: string, subscriptionId: string, summary: unknown): Promise<void> {
  await sql`update users set subscription_status = ${status}, stripe_subscription_id = ${subscriptionId},
      subscription_details = ${sql.json(summary as never)}, subscription_synced_at = now() where id = ${userId}`;
}

/** Marks the user's subscription synced now. */
export async function markSubscriptionSynced(sql: Sql, userId: string): Promise<void> {
  await sql`update users set subscription_synced_at = now() where id = ${userId}`;
}

/** Up to `limit` Stripe customers of our users, the longest unsynced first. */
export async function customersToSync(sql: Sql, limit: number): Promise<string[]> {
  const rows = await sql<{ stripe_customer_id: string }[]>`
    select stripe_customer_id from users where stripe_customer_id is not null
    order by subscription_synced_at nulls first limit ${limit}`;
  return rows.map((r) => r.stripe_customer_id);
}

/** The e-mail a deleted user had (one row, null when not deleted; none for an unknown id). */
export function deletedEmailOf(sql: Sql, id: string) {
  return sql<{ deleted_email: string | null }[]>`select deleted_email from users where id = ${id}`;
}

/** Our users of some Stripe customers: names and e-mail, by customer id. */
export function usersByCustomers(sql: Sql, customerIds: string[]) {
  return sql<{ stripe_customer_id: string; first_name: string; last_name: string; email: string }[]>`
          select stripe_customer_id, first_name, last_name, email from users where stripe_customer_id in ${sql(customerIds)}`;
}
