/**
 * The `auth_email_requests` table: each resend-confirmation / forgot-password request, by kind, e-mail
 * and IP, counted for their limits (app/services/identity/verification.server.ts). Its statements live
 * here (issue 23 item 2).
 */
import type { Sql } from "./sql";

/** The limited request kinds. */
export type AuthEmailKind = "resend" | "forgot";

/**
 * Seconds since the last request of `kind` for `email` in the past hour (null without one) and how many
 * there were.
 */
export async function lastHourByEmail(sql: Sql, kind: AuthEmailKind, email: string) {
  const [last] = await sql<{ ago: number; hour: number }[]>`
      select extract(epoch from now() - max(created_at))::float as ago,
             count(*) filter (where created_at > now() - interval '1 hour')::int as hour
      from auth_email_requests where kind = ${kind} and email = ${email} and created_at > now() - interval '1 hour'`;
  return last;
}

/** How many requests of `kind` came from `ip` in the past hour. */
export async function lastHourByIp(sql: Sql, kind: AuthEmailKind, ip: string): Promise<number> {
  const [byIp] = await sql<{ n: number }[]>`select count(*)::int as n from auth_email_requests
        where kind = ${kind} and ip = ${ip} and created_at > now() - interval '1 hour'`;
  return byIp?.n ?? 0;
}

/** Records a request. */
export async function insertAuthEmailRequest(sql: Sql, kind: AuthEmailKind, email: string, ip: string | null): Promise<void> {
  await sql`insert into auth_email_requests (kind, email, ip) values (${kind}, ${email}, ${ip})`;
}
