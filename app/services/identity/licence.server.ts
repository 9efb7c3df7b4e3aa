/**
 * Licences: the 7-day trial every new user gets (PRODUCT.md §6), paid/manual licences, and the
 * licence view of a user (PRODUCT.md §3 User: licenseStatus, license, hasValidLicense).
 */
import type postgres from "postgres";
import type { Msg } from "../../../core/i18n/message";
import { randomToken } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { PaymentRequiredError } from "../platform/errors.server";
import { insertTrialLicence, newestLicence, type JoinedLicenceColumns, type LicenceRow } from "../../../db/queries/licences";

export const TRIAL_DAYS = 7;

export type LicenseStatus = "valid" | "expired" | "pending" | "admin" | "none";

export type { LicenceRow } from "../../../db/queries/licences";

// The newest licence's columns as other statements join them in (db/queries/licences.ts).
export { LICENCE_JOIN_COLUMNS, type JoinedLicenceColumns } from "../../../db/queries/licences";

/** The licence of a row carrying `JoinedLicenceColumns`, or undefined when the user has none. */
export function joinedLicence(r: JoinedLicenceColumns): LicenceRow | undefined {
  return r.lic_id
    ? { id: r.lic_id, key: r.lic_key, kind: r.lic_kind, plan_id: r.lic_plan_id, plan_name: r.lic_plan_name, start_date: r.lic_start_date, end_date: r.lic_end_date, is_active: r.lic_is_active }
    : undefined;
}

/** Creates the trial licence for a new user (inside the caller's transaction). */
export async function createTrialLicence(sql: postgres.Sql | postgres.TransactionSql, userId: string, now = new Date()) {
  const end = new Date(now.getTime() + TRIAL_DAYS * 86_400_000);
  await insertTrialLicence(sql, userId, "TRIAL-" + randomToken(12).toUpperCase(), now, end);
}

/** The newest licence of a user (by end date), if any. */
export async function latestLicence(sql: postgres.Sql, userId: string): Promise<LicenceRow | undefined> {
  return newestLicence(sql, userId);
}

/** Licence view for the API. Admins are always licensed (PRODUCT.md §6). */
export function licenceView(role: string, subscriptionStatus: string, lic: LicenceRow | undefined, now = new Date()) {
  const valid = !!lic && lic.is_active && lic.end_date.getTime() > now.getTime();
  const licenseStatus: LicenseStatus = role === "admin" ? "admin" : valid ? "valid" : lic ? "expired" : "none";
  return {
    licenseStatus,
    hasValidLicense: role === "admin" || valid || subscriptionStatus === "active",
    license: lic
      ? {
          key: lic.key,
          startDate: lic.start_date.toISOString(),
          endDate: lic.end_date.toISOString(),
          planId: lic.plan_id,
          planName: lic.plan_name,
          /** trial (the signup's 7 days), paid (a Stripe subscription) or manual (extended by an admin). */
          kind: lic.kind as "trial" | "paid" | "manual",
          isActive: valid,
        }
      : null,
    plan: lic ? { id: lic.plan_id, name: lic.plan_name } : null,
  };
}

/**
 * Refuses a user without a valid licence (PRODUCT.md §4 licence validity, §6: account data,
 * history and the AI need one): the route-level guard of the account and history APIs.
 * 402, not 403, which would log the user out (§8), as startBot answers.
 * @param message what the user cannot do without one, e.g. `msg("guard:licence.account")`
 * @throws PaymentRequiredError (402) with `message`.
 */
export async function requireValidLicence(user: { id: string; role: string; subscription_status: string }, message: Msg): Promise<void> {
  if (!(await hasValidLicence(user))) throw new PaymentRequiredError(message, { licenseRequired: true });
}

/**
 * Whether a user may see account data and use the AI (PRODUCT.md §4 licence validity, §6): an admin,
 * an active subscription or a valid licence. A failed check counts as unlicensed (§4).
 */
export async function hasValidLicence(user: { id: string; role: string; subscription_status: string }): Promise<boolean> {
  if (user.role === "admin" || user.subscription_status === "active") return true;
  try {
    const lic = await latestLicence(db(), user.id);
    return licenceView(user.role, user.subscription_status, lic).hasValidLicense;
  } catch {
    return false;
  }
}
