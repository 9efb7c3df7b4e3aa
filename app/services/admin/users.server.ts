/**
 * Users in the admin panel, read (PRODUCT.md §2 "Users", §3 User, §7 Admin users; issue 10): the
 * paged list with search and status filter, and one user in the admin view (the §3 shape plus the
 * licence kind, broker and bot summaries; never the password hash nor the broker token). The writes
 * live beside it: user-form (create, edit), licence-extension, user-deletion; the support view in
 * user-detail.
 */
import type postgres from "postgres";
import { ADMIN_USERS_PAGE_SIZE, type UserStatusFilter } from "~/lib/admin-users";
import { db } from "../platform/db.server";
import { NotFoundError } from "../platform/errors.server";
import { joinedLicence, licenceView } from "../identity/licence.server";
import { countAdminUsers, selectAdminUsers, type AdminUserRow } from "../../../db/queries/admin-users";
import { NOT_FOUND, UUID } from "./user-record.server";

type Sql = postgres.Sql | postgres.TransactionSql;

/** A user as the admin API returns it: the PRODUCT.md §3 shape plus the licence kind, broker and bot summaries. */
export function adminUserView(r: AdminUserRow) {
  const lic = joinedLicence(r);
  return {
    _id: r.id,
    id: r.id,
    email: r.email,
    firstName: r.first_name,
    lastName: r.last_name,
    isActive: r.is_active,
    role: r.role,
    preferences: r.preferences,
    subscriptionStatus: r.subscription_status,
    stripeCustomerId: r.stripe_customer_id,
    stripeSubscriptionId: r.stripe_subscription_id,
    ...licenceView(r.role, r.subscription_status, lic),
    licenseKind: lic?.kind ?? null,
    oandaAuth: r.broker_account_id
      ? {
          isConnected: true,
          environment: r.broker_environment,
          accountId: r.broker_account_id,
          accountName: r.broker_alias ?? `Conta ${r.broker_account_id}`,
          status: r.broker_status,
          lastError: r.broker_last_error,
          connectedAt: r.broker_connected_at?.toISOString() ?? null,
        }
      : { isConnected: false, environment: null, accountId: null, accountName: null, status: null, lastError: null, connectedAt: null },
    bot: { isActive: r.bot_active },
    emailVerifiedAt: r.email_verified_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    lastLogin: r.last_login_at?.toISOString() ?? null,
    deletedAt: r.deleted_at?.toISOString() ?? null,
  };
}
export type AdminUserView = ReturnType<typeof adminUserView>;

/** Escapes LIKE wildcards so the search text matches literally. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The SQL condition of a status filter (on the subscription status, as the §4 admin badges). */
function statusCondition(sql: Sql, status: UserStatusFilter) {
  switch (status) {
    case "active":
      return sql`and u.subscription_status in ('active', 'trialing')`;
    case "past_due":
      return sql`and u.subscription_status in ('past_due', 'unpaid')`;
    case "canceled":
      return sql`and u.subscription_status in ('canceled', 'incomplete_expired')`;
    case "inactive":
      return sql`and u.subscription_status not in ('active', 'trialing', 'past_due', 'unpaid', 'canceled', 'incomplete_expired')`;
    default:
      return sql``;
  }
}

/**
 * The admin list (GET /api/admin/users, /admin/usuarios): soft-deleted users left out, search over
 * e-mail / first / last name (and "first last"), status filter, newest first, 50 a page.
 */
export async function listAdminUsers(q: { search?: string; status?: UserStatusFilter; page?: number }) {
  const sql = db();
  const page = Math.max(1, Math.floor(q.page ?? 1));
  const search = (q.search ?? "").trim();
  const where = sql`where u.deleted_at is null
    ${search ? sql`and (u.email ilike ${likePattern(search)} or u.first_name ilike ${likePattern(search)} or u.last_name ilike ${likePattern(search)}
                     or (u.first_name || ' ' || u.last_name) ilike ${likePattern(search)})` : sql``}
    ${statusCondition(sql, q.status ?? "all")}`;
  const [rows, [count]] = await Promise.all([
    sql<AdminUserRow[]>`${selectAdminUsers(sql)} ${where} order by u.created_at desc, u.id desc
      limit ${ADMIN_USERS_PAGE_SIZE} offset ${(page - 1) * ADMIN_USERS_PAGE_SIZE}`,
    countAdminUsers(sql, where),
  ]);
  return { users: rows.map(adminUserView), total: count!.total, page, pageSize: ADMIN_USERS_PAGE_SIZE };
}

/** One user in the admin view. @throws NotFoundError for an unknown id (or a deleted user unless `includeDeleted`). */
export async function adminUserById(id: string, opts: { includeDeleted?: boolean } = {}, sql: Sql = db()): Promise<AdminUserView> {
  if (!UUID.test(id)) throw new NotFoundError(NOT_FOUND);
  const [row] = await sql<AdminUserRow[]>`${selectAdminUsers(sql)} where u.id = ${id} ${opts.includeDeleted ? sql`` : sql`and u.deleted_at is null`}`;
  if (!row) throw new NotFoundError(NOT_FOUND);
  return adminUserView(row);
}
