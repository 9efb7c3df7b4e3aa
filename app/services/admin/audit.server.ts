/**
 * The admin audit log (issue 10 "Beyond the seed"): every admin write — who, when, what, the row
 * before and after, the IP — in `admin_audit_log`, an append-only table (migration 0013 refuses
 * UPDATE and DELETE). Write the entry with the same transaction as the change, so one never exists
 * without the other. Secrets never appear in it: `redactSecrets` replaces every secret-bearing field
 * (passwords, keys, tokens, webhook/SMTP/VAPID secrets) with "[redacted]" or, when set, a mask.
 */
import type postgres from "postgres";
import { db } from "../platform/db.server";
import type { AdminActor } from "./access.server";

/** Field names whose values are secrets (case-insensitive, anywhere in the name). */
const SECRET_FIELD = /(password|passwd|secret|token|private|api_?key|smtp_?key|brevoSmtpKey|stripeSecret|webhook)/i;

/** A copy of `value` with every secret-bearing field replaced by "[redacted]" (deep). */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_FIELD.test(k) && v !== null && v !== undefined && v !== "" ? "[redacted]" : redactSecrets(v)]),
    );
  }
  return value;
}

/** One admin write to record. */
export interface AuditEntry {
  /** What was done, `<area>.<verb>`: 'user.create', 'user.extend_license', 'plan.delete', 'settings.update'… */
  action: string;
  /** What it was done to: 'user', 'plan', 'subscription', 'settings'. */
  targetType: string;
  targetId?: string | null;
  before?: unknown;
  after?: unknown;
}

/**
 * Records an admin write, in the caller's transaction when given (recommended: the same one as the change).
 * @throws the database error (the caller's transaction then rolls the change back too)
 */
export async function recordAudit(actor: AdminActor, entry: AuditEntry, tx?: postgres.TransactionSql): Promise<void> {
  const sql = tx ?? db();
  const json = (v: unknown) => (v === undefined || v === null ? null : sql.json(redactSecrets(v) as never));
  await sql`insert into admin_audit_log (admin_id, admin_email, action, target_type, target_id, before, after, ip)
    values (${actor.user.id}, ${actor.user.email}, ${entry.action}, ${entry.targetType}, ${entry.targetId ?? null},
            ${json(entry.before)}, ${json(entry.after)}, ${actor.ip})`;
}

/** A row of the audit log as the admin page and API show it. */
export interface AuditRow {
  id: string;
  adminId: string | null;
  adminEmail: string;
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  createdAt: string;
}

/** Filters of the audit page: action prefix, target, admin e-mail, newest first, 50 a page before a cursor id. */
export interface AuditQuery {
  action?: string;
  targetType?: string;
  targetId?: string;
  adminEmail?: string;
  before?: string;
  limit?: number;
}

/** The audit log, newest first, with `nextCursor` for the next page (null at the end). */
export async function listAudit(q: AuditQuery = {}): Promise<{ data: AuditRow[]; nextCursor: string | null }> {
  const sql = db();
  const limit = Math.min(Math.max(q.limit ?? 50, 1), 200);
  const beforeId = q.before && /^\d{1,18}$/.test(q.before) ? q.before : null;
  const rows = await sql<{ id: string; admin_id: string | null; admin_email: string; action: string; target_type: string; target_id: string | null; before: unknown; after: unknown; ip: string | null; created_at: Date }[]>`
    select * from admin_audit_log
    where true
      ${q.action ? sql`and action like ${q.action.replace(/[\\%_]/g, "\\$&") + "%"}` : sql``}
      ${q.targetType ? sql`and target_type = ${q.targetType}` : sql``}
      ${q.targetId ? sql`and target_id = ${q.targetId}` : sql``}
      ${q.adminEmail ? sql`and admin_email = ${q.adminEmail.trim().toLowerCase()}` : sql``}
      ${beforeId ? sql`and id < ${beforeId}` : sql``}
    order by id desc limit ${limit + 1}`;
  const page = rows.slice(0, limit);
  return {
    data: page.map((r) => ({ id: String(r.id), adminId: r.admin_id, adminEmail: r.admin_email, action: r.action, targetType: r.target_type, targetId: r.target_id, before: r.before, after: r.after, ip: r.ip, createdAt: r.created_at.toISOString() })),
    nextCursor: rows.length > limit ? String(page.at(-1)!.id) : null,
  };
}
