/**
 * The connection tests of the admin settings (PRODUCT.md §5 "Admin settings", §7 the Stripe/SMTP
 * tests, §8 messages; issue 10 "Configurações"): "Testar Stripe" lists one product with the given
 * key (or the keys in force) — against STRIPE_API_BASE, else the embedded Stripe simulator when this
 * process runs it, else api.stripe.com; "Testar SMTP" runs nodemailer's `verify()` (connect + login)
 * against the given login/key with the stored host/port, or the transport in force.
 */
import nodemailer, { type Transporter } from "nodemailer";
import Stripe from "stripe";
import { z } from "zod";
import { msg } from "../../../core/i18n/message";
import { issueMsg } from "../../../core/i18n/zod-message";
import { config } from "../platform/config.server";
import { decryptSecret } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { resolveTransport } from "../notify/email.server";
import { UpstreamError, ValidationError } from "../platform/errors.server";
import { logger } from "../platform/logger.server";
import { stripeSettings } from "../billing/stripe.server";
import { DEFAULT_SMTP_HOST, DEFAULT_SMTP_PORT, readStored } from "./settings.server";
import { settingsUpdateSchema } from "./settings-update.server";

/** Body of POST /api/admin/settings/test/stripe. */
export const stripeTestSchema = z.object({
  stripeSecret: settingsUpdateSchema.shape.stripeSecret,
});

/** Body of POST /api/admin/settings/test/brevo (all optional: empty tests the transport in force). */
export const smtpTestSchema = z.object({
  brevoSmtpLogin: settingsUpdateSchema.shape.brevoSmtpLogin,
  brevoSmtpKey: settingsUpdateSchema.shape.brevoSmtpKey,
  brevoSmtpHost: settingsUpdateSchema.shape.brevoSmtpHost,
  brevoSmtpPort: settingsUpdateSchema.shape.brevoSmtpPort,
});

/** A failure detail safe to show: one line, bounded, no secret (`secrets` are blanked if echoed). */
function detailOf(err: unknown, secrets: string[]): string {
  let text = (err instanceof Error ? err.message : String(err)).replace(/\s+/g, " ").trim();
  for (const s of secrets) if (s && s.length >= 4) text = text.split(s).join("••••");
  return text.slice(0, 200) || "erro desconhecido";
}

/**
 * "Testar Stripe": one real SDK call (`products.list({limit: 1})`) with the given key, or with the
 * keys in force when none is given. A given key goes to STRIPE_API_BASE, else to the embedded Stripe
 * simulator when this process runs it (development, tests), else to api.stripe.com.
 * @returns the message 'Stripe OK' (as a Msg key)
 * @throws ValidationError 400 bad key format or nothing configured; UpstreamError 502 'Falha no teste do Stripe: …'
 */
export async function testStripe(input: unknown): Promise<{ message: ReturnType<typeof msg>; source: string }> {
  const parsed = stripeTestSchema.safeParse(input);
  if (!parsed.success) throw new ValidationError(issueMsg(parsed.error.issues[0], msg("api:invalidData")), { field: "stripeSecret" });
  const cfg = config();
  let target: { secretKey: string; apiBase: string | null; source: string };
  if (parsed.data.stripeSecret) {
    target = { secretKey: parsed.data.stripeSecret, apiBase: cfg.STRIPE_API_BASE ?? cfg.stripeEmbedded?.apiBase ?? null, source: "given" };
  } else {
    const s = await stripeSettings();
    if (!s) throw new ValidationError(msg("admin-config:test.stripeFailed", { detail: msg("admin-config:test.notConfigured") }));
    target = { secretKey: s.secretKey, apiBase: s.apiBase, source: s.source };
  }
  const base = target.apiBase ? new URL(target.apiBase) : null;
  // A client of its own: no retries, a short timeout, and never cached (a bad candidate key must not linger).
  const client = new Stripe(target.secretKey, {
    maxNetworkRetries: 0,
    timeout: 10_000,
    appInfo: { name: "Forex IA" },
    ...(base
      ? { host: base.hostname, port: base.port ? Number(base.port) : base.protocol === "http:" ? 80 : 443, protocol: base.protocol === "http:" ? ("http" as const) : ("https" as const) }
      : {}),
  });
  try {
    await client.products.list({ limit: 1 });
  } catch (err) {
    logger().info({ err: detailOf(err, [target.secretKey]), source: target.source }, "teste da Stripe falhou");
    throw new UpstreamError(msg("admin-config:test.stripeFailed", { detail: detailOf(err, [target.secretKey]) }));
  }
  return { message: msg("admin-config:test.stripeOk"), source: target.source };
}

/**
 * "Testar SMTP": nodemailer `verify()` (connect, STARTTLS when offered, login). With a login and/or
 * key given, they are tried against the stored host/port (or the given ones; a missing half is taken
 * from the stored settings); with nothing given, the transport in force (SMTP_URL or the stored one).
 * A failure says only whether the server refused the login (it answered as an SMTP server and
 * rejected the credentials) or could not be reached: refused, timed out, TLS, greeting and any other
 * connection error give one message, with no address, port or system error, so the test cannot be
 * used to scan which ports of which hosts answer (issue 24); the detail goes to the server's log.
 * @returns the message 'SMTP OK' (as a Msg key)
 * @throws ValidationError 400 bad input or nothing configured; UpstreamError 502 'Falha no teste do SMTP: …'
 */
export async function testSmtp(input: unknown): Promise<{ message: ReturnType<typeof msg> }> {
  const parsed = smtpTestSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ValidationError(issueMsg(issue, msg("api:invalidData")), { field: issue.path.join(".") });
  }
  const b = parsed.data;
  const notConfigured = () => new ValidationError(msg("admin-config:test.smtpFailed", { detail: msg("admin-config:test.notConfigured") }));
  let transporter: Transporter;
  const secrets: string[] = [];
  if (b.brevoSmtpLogin || b.brevoSmtpKey || b.brevoSmtpHost) {
    const { smtp } = await readStored(db());
    const login = b.brevoSmtpLogin || smtp.login;
    let pass = b.brevoSmtpKey || "";
    if (!pass && smtp.key) {
      try {
        pass = decryptSecret(smtp.key);
      } catch {
        pass = "";
      }
    }
    if (!login || !pass) throw notConfigured();
    secrets.push(pass);
    const port = b.brevoSmtpPort ?? Number(smtp.port ?? DEFAULT_SMTP_PORT);
    transporter = nodemailer.createTransport({
      host: b.brevoSmtpHost || smtp.host || DEFAULT_SMTP_HOST,
      port,
      secure: port === 465,
      auth: { user: login, pass },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 15_000,
    });
  } else {
    const t = await resolveTransport();
    if (!t) throw notConfigured();
    transporter = t.transporter;
  }
  try {
    await transporter.verify();
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    logger().warn({ err: detailOf(err, secrets), code }, "teste do SMTP falhou");
    const detail = code === "EAUTH" ? msg("admin-config:test.smtpAuthRejected") : msg("admin-config:test.smtpUnreachable");
    throw new UpstreamError(msg("admin-config:test.smtpFailed", { detail }));
  } finally {
    transporter.close();
  }
  return { message: msg("admin-config:test.smtpOk") };
}
