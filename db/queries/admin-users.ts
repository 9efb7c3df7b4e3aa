/**
 * The admin panel's user read model (PRODUCT.md §3 User, §7 Admin users; issue 10; issue 23 item 2: its
 * join on `bots` lives here): a user with the newest licence, the broker connection and the bot flag, in
 * one select the list and the one-user view complete with their own where, order and limit.
 */
import type postgres from "postgres";
import { LICENCE_JOIN_COLUMNS, type JoinedLicenceColumns } from "./licences";
import type { Sql } from "./sql";

/** A user row with its newest licence, broker connection and bot flag (one query, no N+1). */
export interface AdminUserRow extends JoinedLicenceColumns {
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
export const selectAdminUsers = (sql: Sql) => sql`
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

/** How many users the admin list's `where` (over `users u`) keeps, one row `total`. */
export function countAdminUsers(sql: Sql, where: postgres.Fragment) {
  return sql<{ total: number }[]>`select count(*)::int as total from users u ${where}`;
}
