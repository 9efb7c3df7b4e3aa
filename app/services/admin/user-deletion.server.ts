/**
 * Deleting a user from the admin panel (PRODUCT.md §2 "Users", §7 Admin users; issue 10). Non-admins
 * only; a soft delete, decided for the books (ADR 0015): in one transaction the bot stops (reason
 * 'account_deleted'), the broker connection row — the encrypted token with it — is deleted (the
 * reconcile cursor is kept, as on a disconnect), every session is revoked and pending e-mail links
 * are dropped; the row stays with `deleted_at`, `is_active` false, the e-mail moved to
 * `deleted_email` and replaced by `deleted+<id>@invalid.local`, so the address can register again.
 * Trades, decisions, licences and notifications stay for the audit. Trades open at the broker stay
 * open there with their stop loss and take profit (we no longer hold a token to touch them); the
 * user manages them at the broker. A user with a live Stripe subscription is refused (409): cancel
 * it first (Assinaturas), so nobody is charged for a deleted account.
 */
import { msg } from "../../../core/i18n/message";
import { db } from "../platform/db.server";
import { deactivateBot } from "../../../db/queries/bots";
import { deleteConnectionKeepingCursor } from "../../../db/queries/broker-connections";
import { tradeCounts } from "../../../db/queries/trades";
import { deleteUnusedTokens } from "../../../db/queries/email-tokens";
import { revokeUserSessions } from "../../../db/queries/sessions";
import { sessionsEnded } from "../platform/session-events";
import { softDeleteUser } from "../../../db/queries/users";
import { ConflictError, NotFoundError } from "../platform/errors.server";
import { lockReconcile } from "../trading/reconcile.server";
import { withUserLock } from "../platform/user-lock.server";
import type { AdminActor } from "./access.server";
import { recordAudit } from "./audit.server";
import { auditShape, lockRegularUser, NOT_FOUND, UUID } from "./user-record.server";

/** Subscription statuses during which Stripe may still charge the customer. */
const LIVE_SUBSCRIPTION = ["active", "trialing", "past_due", "unpaid", "incomplete"];

/** What a deletion did. */
export interface DeleteOutcome {
  botStopped: boolean;
  brokerDisconnected: boolean;
  sessionsRevoked: number;
  tradesKept: number;
  openTradesAtBroker: number;
}

/**
 * Soft-deletes a regular user (DELETE /api/admin/users/{id}); see the module comment for what
 * happens to the bot, the broker token, sessions and trades. Waits (a few seconds at most) for a
 * running bot tick to end, so no tick is halfway through an order when the token goes. Audited as
 * 'user.delete'.
 * @throws NotFoundError; ForbiddenError 403 on an admin; ConflictError 409 with a live Stripe subscription
 */
export async function deleteAdminUser(actor: AdminActor, id: string): Promise<DeleteOutcome> {
  if (!UUID.test(id)) throw new NotFoundError(NOT_FOUND);
  const run = () =>
    db().begin(async (tx) => {
      const cur = await lockRegularUser(tx, id, "admin-accounts:errors.adminDelete");
      if (cur.stripe_subscription_id && LIVE_SUBSCRIPTION.includes(cur.subscription_status)) throw new ConflictError(msg("admin-accounts:errors.liveSubscription"));
      // Under the reconcile lock, as a disconnect: the cursor kept is the one of the last reconcile that committed.
      await lockReconcile(tx, id);
      const botStopped = await deactivateBot(tx, id, "account_deleted");
      const gone = await deleteConnectionKeepingCursor(tx, id);
      const sessionsRevoked = await revokeUserSessions(tx, id);
      await deleteUnusedTokens(tx, id);
      const deleted = await softDeleteUser(tx, id, `deleted+${id}@invalid.local`);
      const t = await tradeCounts(tx, id);
      const outcome: DeleteOutcome = { botStopped, brokerDisconnected: gone.length > 0, sessionsRevoked, tradesKept: t.total, openTradesAtBroker: t.open };
      await recordAudit(
        actor,
        {
          action: "user.delete",
          targetType: "user",
          targetId: id,
          before: { ...auditShape(cur), broker: gone[0] ? { environment: gone[0].environment, accountId: gone[0].account_id } : null },
          after: { ...auditShape(deleted), deletedAt: deleted.deleted_at?.toISOString() ?? null, ...outcome },
        },
        tx,
      );
      return outcome;
    });
  const locked = await withUserLock(id, run, { waitMs: 5_000 });
  // A tick that outlives the wait finds no connection at its next step; the deletion does not wait longer.
  const outcome = locked.acquired ? locked.value : await run();
  sessionsEnded({ userId: id }); // their open price streams end now (issue 24)
  return outcome;
}
