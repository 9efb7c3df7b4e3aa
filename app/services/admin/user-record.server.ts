/**
 * The `users` row as the admin writes read it (create, edit, licence extension, deletion): the id
 * check, the not-found message, what the audit log keeps of a user (never the password hash) and
 * the lock of a regular user an admin acts on.
 */
import type postgres from "postgres";
import { msg } from "../../../core/i18n/message";
import { lockLiveUser, type UserFields } from "../../../db/queries/users";
import { ForbiddenError, NotFoundError } from "../platform/errors.server";

/** The shape of a user id (a uuid); any other text is a 404 without a query. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** 'Usuário não encontrado.' */
export const NOT_FOUND = msg("admin-accounts:errors.notFound");

/** The columns of `users` an admin write reads back (its home: db/queries/users.ts). */
export type { UserFields };

/** What the audit log keeps of a user: the editable fields, never the password hash. */
export function auditShape(u: UserFields): Record<string, unknown> {
  return {
    email: u.email,
    firstName: u.first_name,
    lastName: u.last_name,
    role: u.role,
    isActive: u.is_active,
    preferences: u.preferences,
    emailVerified: u.email_verified_at !== null,
  };
}

/**
 * The user of an admin action on a regular user, locked for update.
 * @throws NotFoundError 404 unknown/deleted; ForbiddenError 403 an admin (message `adminRefusal`)
 */
export async function lockRegularUser(tx: postgres.TransactionSql, id: string, adminRefusal: string): Promise<UserFields> {
  if (!UUID.test(id)) throw new NotFoundError(NOT_FOUND);
  const u = await lockLiveUser(tx, id);
  if (!u) throw new NotFoundError(NOT_FOUND);
  if (u.role === "admin") throw new ForbiddenError(msg(adminRefusal));
  return u;
}
