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
import { auditLogPage, insertAuditLog } from "../../../db/queries/admin-audit-log";

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
  const redacted = (v: unknown) => (v === undefined || v === null ? null : redactSecrets(v));
  await insertAuditLog(tx ?? db(), {
    adminId: actor.user.id,
    adminEmail: actor.user.email,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId ?? null,
    before: redacted(entry.before),
    after: redacted(entry.after),
    ip: actor.ip,
  });
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
  const rows = await auditLogPage(
    sql,
    {
      actionLike: q.action ? q.action.replace(/[\\%_]/g, "\\$&") + "%" : undefined,
      targetType: q.targetType,
      targetId: q.targetId,
      adminEmail: q.adminEmail ? q.adminEmail.trim().toLowerCase() : undefined,
      beforeId,
    },
    limit + 1,
  );
  const page = rows.slice(0, limit);
  return {
    data: page.map((r) => ({ id: String(r.id), adminId: r.admin_id, adminEmail: r.admin_email, action: r.action, targetType: r.target_type, targetId: r.target_id, before: r.before, after: r.after, ip: r.ip, createdAt: r.created_at.toISOString() })),
    nextCursor: rows.length > limit ? String(page.at(-1)!.id) : null,
  };
}
