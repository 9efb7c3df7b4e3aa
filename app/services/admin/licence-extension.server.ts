/**
 * Extending a user's licence from the admin panel (PRODUCT.md §2 "Users", §7 Admin users; issue 10;
 * ADR 0015). Non-admins only: the newest valid licence that is not bound to a Stripe subscription is
 * extended (a trial so extended becomes a 'manual' licence: the admin granted it); when there is none
 * (or a Stripe-paid licence ends later), a 'manual' licence is created from now, or from the end of
 * the paid one, so the Stripe sync — which rewrites its own licence's end on every event — never
 * undoes the gift. Logged in `license_changes` (source 'admin') and audited in the same transaction.
 */
import { db } from "../platform/db.server";
import { activeManageOnlySince } from "../../../db/queries/bots";
import { NotFoundError } from "../platform/errors.server";
import { logger } from "../platform/logger.server";
import { randomToken } from "../platform/crypto.server";
import { makeTickDue } from "../trading/tick-due.server";
import type { AdminActor } from "./access.server";
import { recordAudit } from "./audit.server";
import { adminUserById, type AdminUserView } from "./users.server";
import { lockRegularUser, NOT_FOUND, UUID } from "./user-record.server";
import { extendOwnLicence, insertManualLicence, lockNewestOwnLicence, newestPaidLicenceEnd } from "../../../db/queries/licences";
import { insertAdminLicenceChange } from "../../../db/queries/license-changes";

/** What an extension did. */
export interface ExtendOutcome {
  user: AdminUserView;
  change: "extended" | "created";
  days: number;
  endBefore: string | null;
  endAfter: string;
}

/**
 * Extends a regular user's licence by `days` (POST /api/admin/users/{id}/extend-license): see the
 * module comment for which licence. Audited as 'user.extend_license'; a bot in manage-only resumes
 * at once (its next tick is queued).
 * @throws NotFoundError; ForbiddenError 403 on an admin
 */
export async function extendUserLicence(actor: AdminActor, id: string, days: number): Promise<ExtendOutcome> {
  if (!UUID.test(id)) throw new NotFoundError(NOT_FOUND);
  const out = await db().begin(async (tx) => {
    await lockRegularUser(tx, id, "admin-accounts:errors.adminExtend");
    const own = await lockNewestOwnLicence(tx, id);
    const paid = await newestPaidLicenceEnd(tx, id);
    const ms = days * 86_400_000;
    let licenceId: string;
    let change: "extended" | "created";
    let endBefore: Date | null;
    let endAfter: Date;
    if (own && (!paid || own.end_date >= paid.end_date)) {
      endBefore = own.end_date;
      endAfter = new Date(own.end_date.getTime() + ms);
      // A trial the admin extends is no longer a trial: the user reads 'Licença manual' (issue 22 item 1).
      await extendOwnLicence(tx, own.id, endAfter);
      licenceId = own.id;
      change = "extended";
    } else {
      const start = paid?.end_date ?? new Date();
      endBefore = paid?.end_date ?? null;
      endAfter = new Date(start.getTime() + ms);
      licenceId = await insertManualLicence(tx, id, "MANUAL-" + randomToken(12).toUpperCase(), start, endAfter);
      change = "created";
    }
    await insertAdminLicenceChange(tx, { licenceId, userId: id, change, endBefore, endAfter });
    await recordAudit(
      actor,
      {
        action: "user.extend_license",
        targetType: "user",
        targetId: id,
        before: { licenseEnd: endBefore?.toISOString() ?? null },
        after: { licenseId: licenceId, change, days, licenseEnd: endAfter.toISOString() },
      },
      tx,
    );
    return { change, endBefore, endAfter };
  });
  if (await activeManageOnlySince(db(), id)) await makeTickDue(id).catch((err: unknown) => logger().warn({ userId: id, err: (err as Error).message }, "falha ao enfileirar o ciclo após estender a licença"));
  return { user: await adminUserById(id), change: out.change, days, endBefore: out.endBefore?.toISOString() ?? null, endAfter: out.endAfter.toISOString() };
}
