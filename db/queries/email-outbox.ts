/**
 * The `email_outbox` table (migration 0002): every outgoing e-mail, written before it is sent and then
 * marked by the `email-send` job ('queued' → 'sent' | 'failed' | 'skipped', DESIGN.md §5). Its
 * statements live here (issue 23 item 2). Ids are bigserial (text), times timestamptz.
 */
import type { Sql } from "./sql";

/** An outbox row. */
export interface OutboxRow {
  id: string;
  user_id: string | null;
  kind: string;
  to_address: string;
  subject: string;
  html: string;
  text: string;
  status: "queued" | "sent" | "failed" | "skipped";
  attempts: number;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

/** A token query parameter in a link (PostgreSQL regex): what a sent message's stored copy loses. */
const TOKEN_PARAM = "token=[A-Za-z0-9_%-]+";

/** Records a message in the outbox ('queued'); answers its id. */
export async function insertOutbox(
  sql: Sql,
  msg: { userId?: string | null; kind: string; to: string; subject: string; html: string; text: string },
): Promise<string> {
  const [row] = await sql<{ id: string }[]>`insert into email_outbox (user_id, kind, to_address, subject, html, text)
    values (${msg.userId ?? null}, ${msg.kind}, ${msg.to}, ${msg.subject}, ${msg.html}, ${msg.text}) returning id`;
  return row!.id;
}

/** An outbox row by id (undefined when unknown). */
export async function outboxById(sql: Sql, id: string): Promise<OutboxRow | undefined> {
  const [row] = await sql<OutboxRow[]>`select * from email_outbox where id = ${id}`;
  return row;
}

/** Marks a row 'skipped': no SMTP is configured. */
export async function markOutboxSkipped(sql: Sql, id: string): Promise<void> {
  await sql`update email_outbox set status = 'skipped', last_error = 'SMTP não configurado' where id = ${id}`;
}

/**
 * Marks a row 'sent' (one more attempt). The copy kept for the audit loses its live links
 * (verification, password reset): a table is no place for a credential that logs someone in.
 */
export async function markOutboxSent(sql: Sql, id: string): Promise<void> {
  await sql`update email_outbox set status = 'sent', attempts = attempts + 1, sent_at = now(), last_error = null,
      html = regexp_replace(html, ${TOKEN_PARAM}, 'token=removido', 'g'),
      text = regexp_replace(text, ${TOKEN_PARAM}, 'token=removido', 'g')
      where id = ${id}`;
}

/** Marks a row 'failed' (one more attempt) with the SMTP error. */
export async function markOutboxFailed(sql: Sql, id: string, message: string): Promise<void> {
  await sql`update email_outbox set status = 'failed', attempts = attempts + 1, last_error = ${message} where id = ${id}`;
}
