/**
 * Users in the admin panel (PRODUCT.md §2 "Users", §3 User, §5 admin user form, §6 roles, §7 Admin
 * users; issue 10): the paged list with search and status filter, create, edit, extend a licence,
 * delete, and the read-only support view of one user. Every write is audited in the same
 * transaction as the change (audit.server.ts); the password hash never reaches the audit log.
 *
 * - A user created by an admin is a regular user, e-mail verified, with the 7-day trial every new
 *   user gets (as `createUser` in auth.server.ts).
 * - Deactivating a user (isActive false) revokes their sessions and stops their bot (a disabled
 *   account cannot log in, so nobody could stop it); a password set by the admin revokes sessions too.
 * - Extending a licence (non-admins): the newest valid licence that is not bound to a Stripe
 *   subscription is extended (a trial so extended becomes a 'manual' licence: the admin granted it); when there is none (or a Stripe-paid licence ends later), a 'manual'
 *   licence is created from now, or from the end of the paid one, so the Stripe sync — which rewrites
 *   its own licence's end on every event — never undoes the gift. Logged in `license_changes`
 *   (source 'admin').
 * - Deleting a user (non-admins) is a soft delete, decided for the books (ADR 0015): in one transaction the bot
 *   stops (reason 'account_deleted'), the broker connection row — the encrypted token with it — is
 *   deleted (the reconcile cursor is kept, as on a disconnect), every session is revoked and pending
 *   e-mail links are dropped; the row stays with `deleted_at`, `is_active` false, the e-mail moved to
 *   `deleted_email` and replaced by `deleted+<id>@invalid.local`, so the address can register again.
 *   Trades, decisions, licences and notifications stay for the audit. Trades open at the broker stay
 *   open there with their stop loss and take profit (we no longer hold a token to touch them); the
 *   user manages them at the broker. A user with a live Stripe subscription is refused (409): cancel
 *   it first (Assinaturas), so nobody is charged for a deleted account.
 */
import type postgres from "postgres";
import { isMsg, msg } from "../../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { type AdminUserCreate, type AdminUserUpdate, ADMIN_USERS_PAGE_SIZE, type UserStatusFilter } from "~/lib/admin-users";
import { hashPassword } from "../identity/auth.server";
import { botStatus, decisionReason, type DecisionRow } from "../trading/bot-status.server";
import { db } from "../platform/db.server";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../platform/errors.server";
import { createTrialLicence, joinedLicence, LICENCE_JOIN_COLUMNS, licenceView, type JoinedLicenceColumns } from "../billing/licence.server";
import { logger } from "../platform/logger.server";
import { notificationView } from "../notify/notifications.server";
import { randomToken } from "../platform/crypto.server";
import { makeTickDue } from "../trading/tick-due.server";
import { lockReconcile } from "../trading/reconcile.server";
import { withUserLock } from "../platform/user-lock.server";
import type { AdminActor } from "./access.server";
import { recordAudit } from "./audit.server";

type Sql = postgres.Sql | postgres.TransactionSql;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** 'Usuário não encontrado.' */
const NOT_FOUND = msg("admin-accounts:errors.notFound");

/** Subscription statuses during which Stripe may still charge the customer. */
const LIVE_SUBSCRIPTION = ["active", "trialing", "past_due", "unpaid", "incomplete"];

/** A user row with its newest licence, broker connection and bot flag (one query, no N+1). */
interface AdminUserRow extends JoinedLicenceColumns {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  role: "user" | "admin";
  is_active: boolean;
  preferences: { language: string; currency: string; timezone: string };
  subscription_status: string;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  email_verified_at: Date | null;
  created_at: Date;
  last_login_at: Date | null;
  deleted_at: Date | null;
  deleted_email: string | null;
  broker_environment: string | null;
  broker_account_id: string | null;
  broker_alias: string | null;
  broker_status: string | null;
  broker_last_error: string | null;
  broker_connected_at: Date | null;
  bot_active: boolean;
}

/** The select of `AdminUserRow` (never the password hash nor the broker token). */
const selectUsers = (sql: Sql) => sql`
  select u.id, u.email, u.first_name, u.last_name, u.role, u.is_active, u.preferences, u.subscription_status,
    u.stripe_customer_id, u.stripe_subscription_id, u.email_verified_at, u.created_at, u.last_login_at, u.deleted_at, u.deleted_email,
    ${sql.unsafe(LICENCE_JOIN_COLUMNS)},
    c.environment as broker_environment, c.account_id as broker_account_id, c.account_alias as broker_alias,
    c.status as broker_status, c.last_error as broker_last_error, c.connected_at as broker_connected_at,
    coalesce(b.is_active, false) as bot_active
  from users u
    left join lateral (select id, key, kind, plan_id, plan_name, start_date, end_date, is_active
                       from licenses where user_id = u.id order by end_date desc limit 1) l on true
    left join broker_connections c on c.user_id = u.id
    left join bots b on b.user_id = u.id`;

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
    sql<AdminUserRow[]>`${selectUsers(sql)} ${where} order by u.created_at desc, u.id desc
      limit ${ADMIN_USERS_PAGE_SIZE} offset ${(page - 1) * ADMIN_USERS_PAGE_SIZE}`,
    sql<{ total: number }[]>`select count(*)::int as total from users u ${where}`,
  ]);
  return { users: rows.map(adminUserView), total: count!.total, page, pageSize: ADMIN_USERS_PAGE_SIZE };
}

/** One user in the admin view. @throws NotFoundError for an unknown id (or a deleted user unless `includeDeleted`). */
export async function adminUserById(id: string, opts: { includeDeleted?: boolean } = {}, sql: Sql = db()): Promise<AdminUserView> {
  if (!UUID.test(id)) throw new NotFoundError(NOT_FOUND);
  const [row] = await sql<AdminUserRow[]>`${selectUsers(sql)} where u.id = ${id} ${opts.includeDeleted ? sql`` : sql`and u.deleted_at is null`}`;
  if (!row) throw new NotFoundError(NOT_FOUND);
  return adminUserView(row);
}

/** The columns of `users` an admin write reads back (no password hash). */
interface UserFields {
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

/** What the audit log keeps of a user: the editable fields, never the password hash. */
function auditShape(u: UserFields): Record<string, unknown> {
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

/** Refuses an e-mail another user holds (409 'Este e-mail já está cadastrado.'). */
async function assertEmailFree(tx: Sql, email: string, exceptId?: string): Promise<void> {
  const [taken] = await tx`select 1 from users where email = ${email} ${exceptId ? tx`and id <> ${exceptId}` : tx``}`;
  if (taken) throw new ConflictError(msg("api:auth.emailTaken"), { field: "email" });
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
      const [row] = await tx<UserFields[]>`insert into users (email, first_name, last_name, password_hash, role, is_active, preferences, email_verified_at)
        values (${input.email}, ${input.firstName}, ${input.lastName}, ${hash}, 'user', ${input.isActive}, ${tx.json(input.preferences)}, now())
        returning *`;
      await createTrialLicence(tx, row!.id);
      await recordAudit(actor, { action: "user.create", targetType: "user", targetId: row!.id, after: auditShape(row!) }, tx);
      return row!.id;
    })
    .catch(emailRace);
  return adminUserById(id);
}

/**
 * Edits a user (PUT /api/admin/users/{id}, the edit form): absent fields keep their value, a blank
 * password keeps the current one. A new password or a deactivation revokes the user's sessions; a
 * deactivation stops the bot. An admin cannot deactivate their own account. Audited as 'user.update'.
 * @throws NotFoundError (unknown or deleted), ConflictError 409 (e-mail taken), ValidationError (self-deactivation)
 */
export async function updateAdminUser(actor: AdminActor, id: string, input: AdminUserUpdate): Promise<AdminUserView> {
  if (!UUID.test(id)) throw new NotFoundError(NOT_FOUND);
  const hash = input.password ? await hashPassword(input.password) : null;
  await db()
    .begin(async (tx) => {
      const [cur] = await tx<UserFields[]>`select * from users where id = ${id} and deleted_at is null for update`;
      if (!cur) throw new NotFoundError(NOT_FOUND);
      if (input.isActive === false && id === actor.user.id) throw new ValidationError(msg("admin-accounts:errors.selfDeactivate"), { field: "isActive" });
      if (input.email && input.email !== cur.email) await assertEmailFree(tx, input.email, id);
      const preferences = { ...cur.preferences, ...Object.fromEntries(Object.entries(input.preferences ?? {}).filter(([, v]) => v !== undefined)) };
      const [next] = await tx<UserFields[]>`update users set
          email = ${input.email ?? cur.email}, first_name = ${input.firstName ?? cur.first_name}, last_name = ${input.lastName ?? cur.last_name},
          is_active = ${input.isActive ?? cur.is_active}, preferences = ${tx.json(preferences)},
          password_hash = coalesce(${hash}, password_hash)
        where id = ${id} returning *`;
      const deactivated = cur.is_active && !next!.is_active;
      let sessionsRevoked = 0;
      if ((hash && id !== actor.user.id) || deactivated)
        sessionsRevoked = (await tx`update sessions set revoked_at = now() where user_id = ${id} and revoked_at is null returning id`).length;
      let botStopped = false;
      if (deactivated)
        botStopped =
          (
            await tx`update bots set is_active = false, last_stopped_at = now(), last_stop_reason = 'account_disabled',
              manage_only_since = null, manage_only_reason = null, updated_at = now()
            where user_id = ${id} and is_active returning user_id`
          ).length > 0;
      await recordAudit(
        actor,
        {
          action: "user.update",
          targetType: "user",
          targetId: id,
          before: auditShape(cur),
          after: { ...auditShape(next!), ...(hash ? { credentialChanged: true } : {}), ...(sessionsRevoked ? { sessionsRevoked } : {}), ...(botStopped ? { botStopped } : {}) },
        },
        tx,
      );
    })
    .catch(emailRace);
  return adminUserById(id);
}

/** The user of an admin action on a regular user (for update): 404 unknown/deleted, 403 an admin. */
async function lockRegularUser(tx: postgres.TransactionSql, id: string, adminRefusal: string): Promise<UserFields> {
  if (!UUID.test(id)) throw new NotFoundError(NOT_FOUND);
  const [u] = await tx<UserFields[]>`select * from users where id = ${id} and deleted_at is null for update`;
  if (!u) throw new NotFoundError(NOT_FOUND);
  if (u.role === "admin") throw new ForbiddenError(msg(adminRefusal));
  return u;
}

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
    const [own] = await tx<{ id: string; kind: string; end_date: Date }[]>`
      select id, kind, end_date from licenses where user_id = ${id} and is_active and end_date > now() and stripe_subscription_id is null
      order by end_date desc limit 1 for update`;
    const [paid] = await tx<{ end_date: Date }[]>`
      select end_date from licenses where user_id = ${id} and is_active and end_date > now() and stripe_subscription_id is not null
      order by end_date desc limit 1`;
    const ms = days * 86_400_000;
    let licenceId: string;
    let change: "extended" | "created";
    let endBefore: Date | null;
    let endAfter: Date;
    if (own && (!paid || own.end_date >= paid.end_date)) {
      endBefore = own.end_date;
      endAfter = new Date(own.end_date.getTime() + ms);
      // A trial the admin extends is no longer a trial: the user reads 'Licença manual' (issue 22 item 1).
      await tx`update licenses set end_date = ${endAfter},
        plan_name = case when kind = 'trial' then 'Licença manual' else plan_name end,
        kind = case when kind = 'trial' then 'manual' else kind end
        where id = ${own.id}`;
      licenceId = own.id;
      change = "extended";
    } else {
      const start = paid?.end_date ?? new Date();
      endBefore = paid?.end_date ?? null;
      endAfter = new Date(start.getTime() + ms);
      const [row] = await tx<{ id: string }[]>`insert into licenses (user_id, key, kind, plan_name, start_date, end_date)
        values (${id}, ${"MANUAL-" + randomToken(12).toUpperCase()}, 'manual', 'Licença manual', ${start}, ${endAfter}) returning id`;
      licenceId = row!.id;
      change = "created";
    }
    await tx`insert into license_changes (license_id, user_id, change, end_before, end_after, source)
      values (${licenceId}, ${id}, ${change}, ${endBefore}, ${endAfter}, 'admin')`;
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
  const [bot] = await db()<{ manage_only_since: Date | null }[]>`select manage_only_since from bots where user_id = ${id} and is_active`;
  if (bot?.manage_only_since) await makeTickDue(id).catch((err: unknown) => logger().warn({ userId: id, err: (err as Error).message }, "falha ao enfileirar o ciclo após estender a licença"));
  return { user: await adminUserById(id), change: out.change, days, endBefore: out.endBefore?.toISOString() ?? null, endAfter: out.endAfter.toISOString() };
}

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
      const botStopped =
        (
          await tx`update bots set is_active = false, last_stopped_at = now(), last_stop_reason = 'account_deleted',
            manage_only_since = null, manage_only_reason = null, updated_at = now()
          where user_id = ${id} and is_active returning user_id`
        ).length > 0;
      const gone = await tx<{ environment: string; account_id: string }[]>`with gone as (
          delete from broker_connections where user_id = ${id} returning user_id, environment, account_id, last_transaction_id
        ), kept as (
          insert into broker_cursors (user_id, environment, account_id, last_transaction_id)
          select user_id, environment, account_id, last_transaction_id from gone where last_transaction_id is not null
          on conflict (user_id, environment, account_id) do update set last_transaction_id = excluded.last_transaction_id, updated_at = now()
        )
        select environment, account_id from gone`;
      const sessionsRevoked = (await tx`update sessions set revoked_at = now() where user_id = ${id} and revoked_at is null returning id`).length;
      await tx`delete from email_tokens where user_id = ${id} and used_at is null`;
      const [deleted] = await tx<UserFields[]>`update users set deleted_at = now(), is_active = false, deleted_email = email,
          email = ${`deleted+${id}@invalid.local`}
        where id = ${id} returning *`;
      const [t] = await tx<{ total: number; open: number }[]>`
        select count(*)::int as total, (count(*) filter (where status = 'open'))::int as open from trades where user_id = ${id}`;
      const outcome: DeleteOutcome = { botStopped, brokerDisconnected: gone.length > 0, sessionsRevoked, tradesKept: t!.total, openTradesAtBroker: t!.open };
      await recordAudit(
        actor,
        {
          action: "user.delete",
          targetType: "user",
          targetId: id,
          before: { ...auditShape(cur), broker: gone[0] ? { environment: gone[0].environment, accountId: gone[0].account_id } : null },
          after: { ...auditShape(deleted!), deletedAt: deleted!.deleted_at?.toISOString() ?? null, ...outcome },
        },
        tx,
      );
      return outcome;
    });
  const locked = await withUserLock(id, run, { waitMs: 5_000 });
  // A tick that outlives the wait finds no connection at its next step; the deletion does not wait longer.
  return locked.acquired ? locked.value : run();
}

/** A stored decision as the support view shows it (reason in the reader's language). */
/** A stored decision with whether it was executed. */
interface ExecutedDecisionRow extends DecisionRow {
  executed: boolean;
}

/**
 * The read-only support view of one user (GET /api/admin/users/{id}, /admin/usuarios/{id}): the
 * user (deleted ones too), licence history and its changes, the bot's state, the last 20 decisions
 * with their reasons, the last broker errors (connection state, last tick error, error
 * notifications) and a trade count. Never the broker token; texts in `language`.
 * @throws NotFoundError for an unknown id
 */
export async function adminUserDetail(id: string, language: unknown = "pt") {
  const user = await adminUserById(id, { includeDeleted: true });
  const sql = db();
  const [licences, changes, decisions, errors, [trades], [deleted], bot] = await Promise.all([
    sql<{ id: string; key: string; kind: string; plan_name: string | null; start_date: Date; end_date: Date; is_active: boolean; stripe: boolean; created_at: Date }[]>`
      select id, key, kind, plan_name, start_date, end_date, is_active, stripe_subscription_id is not null as stripe, created_at
      from licenses where user_id = ${id} order by end_date desc limit 50`,
    sql<{ change: string; end_before: Date | null; end_after: Date; source: string; created_at: Date }[]>`
      select change, end_before, end_after, source, created_at from license_changes where user_id = ${id} order by id desc limit 20`,
    sql<ExecutedDecisionRow[]>`
      select instrument, action, side, confidence, timeframe, reason, reason_msg, risk_reason, payload->'riskReasonMsg' as risk_reason_msg, executed, created_at
      from decisions where user_id = ${id} order by id desc limit 20`,
    sql<Parameters<typeof notificationView>[0][]>`
      select id, type, title, message, title_msg, message_msg, read, metadata, created_at
      from notifications where user_id = ${id} and type = 'error' order by created_at desc limit 10`,
    sql<{ open: number; closed: number; realized: string | null }[]>`
      select (count(*) filter (where status = 'open'))::int as open, (count(*) filter (where status = 'closed'))::int as closed,
        sum(realized_pl) filter (where status = 'closed')::text as realized
      from trades where user_id = ${id}`,
    sql<{ deleted_email: string | null }[]>`select deleted_email from users where id = ${id}`,
    botStatus(id, language),
  ]);
  const now = Date.now();
  return {
    user: { ...user, deletedEmail: deleted?.deleted_email ?? null },
    licences: licences.map((l) => ({
      id: l.id,
      keyPrefix: l.key.slice(0, 8),
      kind: l.kind,
      planName: l.plan_name,
      startDate: l.start_date.toISOString(),
      endDate: l.end_date.toISOString(),
      isActive: l.is_active,
      isValid: l.is_active && l.end_date.getTime() > now,
      fromStripe: l.stripe,
      createdAt: l.created_at.toISOString(),
    })),
    licenceChanges: changes.map((c) => ({
      change: c.change,
      endBefore: c.end_before?.toISOString() ?? null,
      endAfter: c.end_after.toISOString(),
      source: c.source,
      at: c.created_at.toISOString(),
    })),
    bot: {
      isActive: bot.isActive,
      intervalSec: bot.intervalSec,
      manageOnly: bot.manageOnly,
      manageOnlyReason: bot.manageOnlyReason,
      lastStopReason: bot.loopState.lastStopReason,
      lastStopReasonText: bot.loopState.lastStopReasonText,
      lastStartedAt: bot.loopState.lastStartedAt,
      lastStoppedAt: bot.loopState.lastStoppedAt,
      lastTickAt: bot.loopState.lastTickAt,
      lastTickError: bot.loopState.lastTickError,
    },
    decisions: decisions.map((d) => {
      const reason = decisionReason(d);
      return {
        instrument: d.instrument,
        action: d.action,
        side: d.side,
        confidence: d.confidence === null ? null : Number(d.confidence),
        timeframe: d.timeframe,
        executed: d.executed,
        reason: translateMsg(reason, language),
        reasonMsg: isMsg(reason) ? reason : null,
        at: d.created_at.toISOString(),
      };
    }),
    brokerErrors: {
      connectionStatus: user.oandaAuth.status,
      connectionError: user.oandaAuth.lastError,
      lastTickError: bot.loopState.lastTickError,
      notifications: errors.map((n) => notificationView(n, language)),
    },
    trades: { open: trades?.open ?? 0, closed: trades?.closed ?? 0, realizedPL: trades?.realized ?? null },
  };
}
export type AdminUserDetail = Awaited<ReturnType<typeof adminUserDetail>>;
