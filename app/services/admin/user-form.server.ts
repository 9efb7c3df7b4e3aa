/**
 * The admin user form (PRODUCT.md §5 admin user form, §6 roles, §7 Admin users; issue 10): create
 * and edit a user, each audited in the same transaction as the change (audit.server.ts); the
 * password hash never reaches the audit log.
 *
 * - A user created by an admin is a regular user, e-mail verified, with the 7-day trial every new
 *   user gets (as `createUser` in auth.server.ts).
 * - Deactivating a user (isActive false) revokes their sessions and stops their bot (a disabled
 *   account cannot log in, so nobody could stop it); a password set by the admin revokes sessions too.
 */
import type postgres from "postgres";
import { msg } from "../../../core/i18n/message";
import type { AdminUserCreate, AdminUserUpdate } from "~/lib/admin-users";
import { hashPassword } from "../identity/auth.server";
import { db } from "../platform/db.server";
import { deactivateBot } from "../../../db/queries/bots";
import { revokeUserSessions } from "../../../db/queries/sessions";
import { sessionsEnded } from "../platform/session-events";
import { emailTaken, insertAdminCreatedUser, lockLiveUser, updateAdminEditedUser } from "../../../db/queries/users";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../platform/errors.server";
import { createTrialLicence } from "../identity/licence.server";
import type { AdminActor } from "./access.server";
import { recordAudit } from "./audit.server";
import { adminUserById, type AdminUserView } from "./users.server";
import { auditShape, NOT_FOUND, UUID } from "./user-record.server";

type Sql = postgres.Sql | postgres.TransactionSql;

/** Refuses an e-mail another user holds (409 'Este e-mail já está cadastrado.'). */
async function assertEmailFree(tx: Sql, email: string, exceptId?: string): Promise<void> {
  if (await emailTaken(tx, email, exceptId)) throw new ConflictError(msg("api:auth.emailTaken"), { field: "email" });
}

/** The unique-violation of `users.email` lost to a concurrent write, as the 409. */
function emailRace(err: unknown): never {
  if ((err as { code?: string }).code === "23505" && String((err as { constraint_name?: string }).constraint_name ?? "").includes("email"))
    throw new ConflictError(msg("api:auth.emailTaken"), { field: "email" });
  throw err;
}

/**
 * Creates a regular user (POST /api/admin/users, "Adicionar Usuário"): e-mail verified, the 7-day
 * trial, preferences as given (defaults pt / BRL / America/Sao_Paulo). Audited as 'user.create'.
 * @throws ConflictError 409 when the e-mail is taken
 */
export async function createAdminUser(actor: AdminActor, input: AdminUserCreate): Promise<AdminUserView> {
  const hash = await hashPassword(input.password);
  const id = await db()
    .begin(async (tx) => {
      await assertEmailFree(tx, input.email);
      const row = await insertAdminCreatedUser(tx, {
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        passwordHash: hash,
        isActive: input.isActive,
        preferences: input.preferences,
      });
      await createTrialLicence(tx, row.id);
      await recordAudit(actor, { action: "user.create", targetType: "user", targetId: row.id, after: auditShape(row) }, tx);
      return row.id;
    })
    .catch(emailRace);
  return adminUserById(id);
}

/**
 * Edits a user (PUT /api/admin/users/{id}, the edit form): absent fields keep their value, a blank
 * password keeps the current one. A new password or a deactivation revokes the user's sessions; a
 * deactivation stops the bot. An admin cannot deactivate their own account, nor change another
 * admin's password or e-mail (issue 24: that took the other admin's account over; each admin changes
 * their own in /settings). Audited as 'user.update'.
 * @throws NotFoundError (unknown or deleted), ConflictError 409 (e-mail taken), ValidationError (self-deactivation),
 *   ForbiddenError 403 'Não é possível alterar a senha ou o e-mail de outro administrador.' (nothing changed)
 */
export async function updateAdminUser(actor: AdminActor, id: string, input: AdminUserUpdate): Promise<AdminUserView> {
  if (!UUID.test(id)) throw new NotFoundError(NOT_FOUND);
  const hash = input.password ? await hashPassword(input.password) : null;
  let revoked = false;
  await db()
    .begin(async (tx) => {
      const cur = await lockLiveUser(tx, id);
      if (!cur) throw new NotFoundError(NOT_FOUND);
      if (input.isActive === false && id === actor.user.id) throw new ValidationError(msg("admin-accounts:errors.selfDeactivate"), { field: "isActive" });
      if (cur.role === "admin" && id !== actor.user.id && (hash || (input.email !== undefined && input.email !== cur.email)))
        throw new ForbiddenError(msg("admin-accounts:errors.adminCredentials"), { field: hash ? "password" : "email" });
      if (input.email && input.email !== cur.email) await assertEmailFree(tx, input.email, id);
      const preferences = { ...cur.preferences, ...Object.fromEntries(Object.entries(input.preferences ?? {}).filter(([, v]) => v !== undefined)) };
      const next = await updateAdminEditedUser(tx, id, {
        email: input.email ?? cur.email,
        firstName: input.firstName ?? cur.first_name,
        lastName: input.lastName ?? cur.last_name,
        isActive: input.isActive ?? cur.is_active,
        preferences,
        passwordHash: hash,
      });
      const deactivated = cur.is_active && !next.is_active;
      let sessionsRevoked = 0;
      if ((hash && id !== actor.user.id) || deactivated)
        sessionsRevoked = await revokeUserSessions(tx, id);
      revoked = sessionsRevoked > 0;
      let botStopped = false;
      if (deactivated) botStopped = await deactivateBot(tx, id, "account_disabled");
      await recordAudit(
        actor,
        {
          action: "user.update",
          targetType: "user",
          targetId: id,
          before: auditShape(cur),
          after: { ...auditShape(next), ...(hash ? { credentialChanged: true } : {}), ...(sessionsRevoked ? { sessionsRevoked } : {}), ...(botStopped ? { botStopped } : {}) },
        },
        tx,
      );
    })
    .catch(emailRace);
  if (revoked) sessionsEnded({ userId: id }); // their open price streams end now (issue 24)
  return adminUserById(id);
}
