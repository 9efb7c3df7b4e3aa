/**
 * The `admin_audit_log` table (migration 0013, append-only): every admin write, who, what, before and
 * after, the IP. Its statements live here (issue 23 item 2); the redaction of secrets is the caller's
 * (app/services/admin/audit.server.ts).
 */
import type { Sql } from "./sql";

/** An entry to append (`before` / `after` already redacted; null: none). */
export interface NewAuditLogRow {
  adminId: string;
  adminEmail: string;
  action: string;
  targetType: string;
  targetId: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
}

/** Appends an entry (in the caller's transaction when `sql` is one). */
export async function insertAuditLog(sql: Sql, e: NewAuditLogRow): Promise<void> {
  const json = (v: unknown) => (v === null ? null : sql.json(v as never));
  await sql`insert into admin_audit_log (admin_id, admin_email, action, target_type, target_id, before, after, ip)
    values (${e.adminId}, ${e.adminEmail}, ${e.action}, ${e.targetType}, ${e.targetId},
            ${json(e.before)}, ${json(e.after)}, ${e.ip})`;
}

/** A stored row. */
export interface AuditLogRow {
  id: string;
  admin_id: string | null;
  admin_email: string;
  action: string;
  target_type: string;
  target_id: string | null;
  before: unknown;
  after: unknown;
  ip: string | null;
  created_at: Date;
}

/** Filters of `auditLogPage` (each optional): an action `like` pattern (already escaped), exact target, the e-mail (any string, even empty, filters), ids below `beforeId`. */
export interface AuditLogFilter {
  actionLike?: string;
  targetType?: string;
  targetId?: string;
  adminEmail?: string;
  beforeId?: string | null;
}

/** Up to `limit` rows matching the filter, newest first. */
export async function auditLogPage(sql: Sql, f: AuditLogFilter, limit: number): Promise<AuditLogRow[]> {
  return sql<AuditLogRow[]>`
    select * from admin_audit_log
    where true
      ${f.actionLike ? sql`and action like ${f.actionLike}` : sql``}
      ${f.targetType ? sql`and target_type = ${f.targetType}` : sql``}
      ${f.targetId ? sql`and target_id = ${f.targetId}` : sql``}
      ${f.adminEmail !== undefined ? sql`and admin_email = ${f.adminEmail}` : sql``}
      ${f.beforeId ? sql`and id < ${f.beforeId}` : sql``}
    order by id desc limit ${limit}`;
}
