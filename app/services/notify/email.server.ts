/**
 * Outgoing e-mail (DESIGN.md §5): every message is first written to `email_outbox` and then sent by
 * the `email-send` pg-boss job (retry + dead letter). Transport: nodemailer to `SMTP_URL`; else the
 * SMTP settings admins stored in system_settings key 'smtp' (Brevo; key encrypted with
 * `encryptSecret`; read only here); else nothing is sent and the row is marked `skipped` (admins can
 * read it; outside production the message is also written to the server log so a local user can
 * follow its link). Bodies are Portuguese by default, in the user's language (i18n namespace `email`), and
 * links are built from APP_URL.
 */
import nodemailer, { type Transporter } from "nodemailer";
import { insertOutbox, markOutboxFailed, markOutboxSent, markOutboxSkipped, outboxById, type OutboxRow } from "../../../db/queries/email-outbox";
import { queue } from "../platform/queue/boss";
import { enqueueEmail } from "../platform/queue/send";
import { i18nFor } from "~/i18n";
import { config } from "../platform/config.server";
import { decryptSecret } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { logger } from "../platform/logger.server";
import { metrics } from "../platform/metrics.server";
import { settingValue } from "../../../db/queries/system-settings";

/** Sender when MAIL_FROM is not set. */
export const DEFAULT_MAIL_FROM = "Forex IA <no-reply@localhost>";

/** Admin-stored SMTP settings (system_settings key 'smtp'). */
export interface StoredSmtp {
  host?: string;
  port?: number;
  login?: string;
  key?: string;
  fromEmail?: string;
  senderName?: string;
}

/** An outbox row. */
export type { OutboxRow };

/** The transport to use right now and its sender, or null when no SMTP is configured. */
export async function resolveTransport(): Promise<{ transporter: Transporter; from: string } | null> {
  const cfg = config();
  if (cfg.SMTP_URL) return { transporter: nodemailer.createTransport(cfg.SMTP_URL), from: cfg.MAIL_FROM ?? DEFAULT_MAIL_FROM };
  const s = await settingValue<StoredSmtp>(db(), "smtp");
  if (!s?.login || !s.key) return null;
  let pass: string;
  try {
    pass = decryptSecret(s.key);
  } catch (err) {
    logger().warn({ err: (err as Error).message }, "chave SMTP armazenada ilegível");
    return null;
  }
  const port = Number(s.port ?? 587);
  const transporter = nodemailer.createTransport({
    host: s.host || "smtp-relay.brevo.com",
    port,
    secure: port === 465,
    auth: { user: s.login, pass },
  });
  const address = s.fromEmail || s.login;
  const from = cfg.MAIL_FROM ?? (s.senderName ? `${s.senderName} <${address}>` : address);
  return { transporter, from };
}

/**
 * Records a message in the outbox and queues its delivery. Without a running queue (a process that
 * never started pg-boss) delivery runs in the background of this process.
 */
export async function queueEmail(msg: { userId?: string | null; kind: string; to: string; subject: string; html: string; text: string }): Promise<string> {
  const id = await insertOutbox(db(), msg);
  if (queue()) await enqueueEmail(id);
  else void deliverOutbox(id).catch((err) => logger().warn({ err: (err as Error).message, id }, "envio de e-mail falhou"));
  return id;
}

/**
 * Delivers one outbox row (idempotent: a `sent` or `skipped` row is left alone).
 * @throws the SMTP error after recording it, so the job is retried.
 */
export async function deliverOutbox(id: string): Promise<OutboxRow["status"]> {
  const row = await outboxById(db(), id);
  if (!row || row.status === "sent" || row.status === "skipped") return row?.status ?? "skipped";
  const transport = await resolveTransport();
  if (!transport) {
    await markOutboxSkipped(db(), id);
    // A newcomer on the embedded defaults has no mail server: show the message (and its link) in the
    // server log so the account can still be verified. Never in production, where links are secrets.
    if (config().NODE_ENV !== "production")
      logger().warn({ to: row.to_address, subject: row.subject, text: row.text }, "e-mail não enviado (SMTP não configurado): conteúdo abaixo para uso local");
    return "skipped";
  }
  try {
    await transport.transporter.sendMail({ from: transport.from, to: row.to_address, subject: row.subject, html: row.html, text: row.text });
    // Once sent, the copy kept for the audit loses its live links (verification, password reset):
    // a table is no place for a credential that logs someone in.
    await markOutboxSent(db(), id);
    metrics().emailsSent.inc();
    return "sent";
  } catch (err) {
    metrics().emailsFailed.inc();
    const message = (err as Error).message?.slice(0, 500) ?? String(err);
    await markOutboxFailed(db(), id, message);
    throw err;
  } finally {
    transport.transporter.close();
  }
}

/** Escapes text for HTML. */
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** A simple, accessible HTML layout with one call-to-action button. */
function layout(opts: { title: string; lines: string[]; button: string; link: string; footer: string[] }): string {
  const p = (t: string) => `<p style="margin:0 0 16px;font-size:15px;line-height:1.5;color:#1e293b">${esc(t)}</p>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>${esc(opts.title)}</title></head>
<body style="margin:0;padding:24px;background:#f1f5f9;font-family:Arial,Helvetica,sans-serif">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0"><tr><td align="center">
<table role="presentation" width="560" cellspacing="0" cellpadding="0" style="max-width:560px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td>
<p style="margin:0 0 24px;font-size:20px;font-weight:bold;color:#059669">Forex IA</p>
<h1 style="margin:0 0 16px;font-size:22px;color:#0f172a">${esc(opts.title)}</h1>
${opts.lines.map(p).join("\n")}
<p style="margin:24px 0"><a href="${esc(opts.link)}" style="display:inline-block;background:#10b981;color:#0f172a;text-decoration:none;font-weight:bold;padding:12px 24px;border-radius:8px">${esc(opts.button)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#475569;word-break:break-all">${esc(opts.link)}</p>
${opts.footer.map((t) => `<p style="margin:0 0 8px;font-size:12px;color:#64748b">${esc(t)}</p>`).join("\n")}
</td></tr></table></td></tr></table></body></html>`;
}

/** Subject, HTML and text of a transactional e-mail (`verify` or `reset`) in the user's language. */
export function renderEmail(kind: "verify" | "reset", language: unknown, vars: { name: string; link: string }) {
  const t = i18nFor(language).getFixedT(null, "email");
  const subject = t(`${kind}.subject`);
  const lines = [t("greeting", { name: vars.name }), t(`${kind}.intro`), t(`${kind}.expiry`)];
  const footer = [t(`${kind}.ignore`), t("footer")];
  const html = layout({ title: t(`${kind}.title`), lines, button: t(`${kind}.button`), link: vars.link, footer });
  const text = [t(`${kind}.title`), "", ...lines, "", `${t(`${kind}.button`)}: ${vars.link}`, "", ...footer].join("\n");
  return { subject, html, text };
}

/** An absolute link on the public base URL (APP_URL). */
export function appLink(pathAndQuery: string): string {
  const base = config().APP_URL; // APP_URL, else derived from the bound port at boot (config.server.ts withRuntime)
  return new URL(pathAndQuery, base.replace(/\/?$/, "/")).toString();
}
