/**
 * System settings of the admin panel (PRODUCT.md §3 System settings, §5 "Admin settings", §7 GET/PUT
 * /api/admin/settings and the Stripe/SMTP tests, §8 messages; issue 10 "Configurações").
 *
 * Storage: `system_settings`, one jsonb row per area, read by the services that use them:
 * - 'stripe' {secretKey, webhookSecret} — both encrypted (app/services/billing/stripe.server.ts);
 * - 'smtp' {host, port, login, key, fromEmail, senderName} — key encrypted (app/services/notify/email.server.ts);
 * - 'vapid' {publicKey, privateKey, subject} — private key encrypted (web push, issue 11);
 * - 'admins' {superAdminEmails: string[]};
 * - 'operator' {company, cnpj, address, dpoName, dpoEmail, supportEmail} — the operator's public identity on the
 *   legal pages (issue 22 item 10; app/services/platform/operator.server.ts merges it under the OPERATOR_* variables).
 * Secrets are write-only: stored with `encryptSecret` (ENCRYPTION_KEY), shown only masked
 * (`maskSecret`), replaced only when a non-empty value is sent (empty or absent keeps the stored
 * one; `clearSecrets` removes one). Environment variables override stored values (STRIPE_*,
 * SMTP_URL/MAIL_FROM, VAPID_*); `meta.env` says which. Every save is audited in the same transaction
 * (secrets redacted by audit.server.ts).
 *
 * Tests: "Testar Stripe" lists one product with the given key (or the keys in force) — against
 * STRIPE_API_BASE, else the embedded Stripe simulator when this process runs it, else api.stripe.com;
 * "Testar SMTP" runs nodemailer's `verify()` (connect + login) against the given login/key with the
 * stored host/port, or the transport in force.
 */
import nodemailer, { type Transporter } from "nodemailer";
import type postgres from "postgres";
import Stripe from "stripe";
import { z } from "zod";
import { msg } from "../../../core/i18n/message";
import { issueMsg, zMsg } from "../../../core/i18n/zod-message";
import { config } from "../platform/config.server";
import { decryptSecret, encryptSecret, maskSecret } from "../platform/crypto.server";
import { OPERATOR_FIELDS, type OperatorField, type StoredOperator } from "../platform/operator-boot";
import { db } from "../platform/db.server";
import { resolveTransport, type StoredSmtp } from "../notify/email.server";
import { UpstreamError, ValidationError } from "../platform/errors.server";
import { logger } from "../platform/logger.server";
import { stripeSettings, type StoredStripe } from "../billing/stripe.server";
import type { AdminActor } from "./access.server";
import { recordAudit } from "./audit.server";

/** Brevo's SMTP relay, used when no host is stored (email.server.ts has the same default). */
export const DEFAULT_SMTP_HOST = "smtp-relay.brevo.com";
/** Brevo's submission port (STARTTLS). */
export const DEFAULT_SMTP_PORT = 587;

/** Admin-stored web-push keys (system_settings key 'vapid'; private key encrypted). */
export interface StoredVapid {
  publicKey?: string;
  privateKey?: string;
  subject?: string;
}

/** Admin-stored super-admin list (system_settings key 'admins'). */
export interface StoredAdmins {
  superAdminEmails?: string[];
}

/** The secret fields of the settings form / API (write-only). */
export const SECRET_FIELDS = ["stripeSecret", "stripeWebhookSecret", "brevoSmtpKey", "vapidPrivateKey"] as const;
export type SecretField = (typeof SECRET_FIELDS)[number];

/** The settings as the admin API and page show them (PRODUCT.md §3): secrets masked, never decrypted out. */
export interface SettingsView {
  values: {
    brevoSmtpLogin: string;
    brevoFromEmail: string;
    brevoSenderName: string;
    brevoSmtpHost: string;
    brevoSmtpPort: number;
    superAdminEmails: string[];
    vapidPublicKey: string;
    vapidSubject: string;
    /** Masked ('sk_t••••abcd') or '' when none is stored. */
    stripeSecret: string;
    stripeWebhookSecret: string;
    brevoSmtpKey: string;
    vapidPrivateKey: string;
    /** The operator identity as stored here ('' when not stored; the environment may still set it). */
    operatorCompany: string;
    operatorCnpj: string;
    operatorAddress: string;
    operatorDpoName: string;
    operatorDpoEmail: string;
    supportEmail: string;
  };
  meta: {
    /** A Stripe secret key is set (environment or stored). */
    stripeConfigured: boolean;
    stripeWebhookConfigured: boolean;
    /** SMTP can send: SMTP_URL, or a stored login and key. */
    brevoConfigured: boolean;
    vapidConfigured: boolean;
    /** Which Stripe keys are in force: env, admin (stored), simulator (embedded, no key configured) or none. */
    stripeSource: "env" | "admin" | "simulator" | "none";
    /** Values that come from environment variables (they override the stored ones). */
    env: {
      stripeSecret: boolean;
      stripeWebhookSecret: boolean;
      stripeApiBase: boolean;
      smtp: boolean;
      mailFrom: boolean;
      vapidPublicKey: boolean;
      vapidPrivateKey: boolean;
      vapidSubject: boolean;
      /** Operator identity fields set by their environment variable (which overrides the stored value). */
      operator: Record<OperatorField, boolean>;
    };
    /** Every operator identity field is set (environment or stored): the legal pages print no placeholder. */
    operatorComplete: boolean;
  };
}

interface StoredAll {
  stripe: StoredStripe;
  smtp: StoredSmtp;
  vapid: StoredVapid;
  admins: StoredAdmins;
  operator: StoredOperator;
}

const KEYS = ["stripe", "smtp", "vapid", "admins", "operator"] as const;

/** The stored rows (locked `for update` inside a transaction when `lock`). */
async function readStored(sql: postgres.ISql, lock = false): Promise<StoredAll> {
  const rows = lock
    ? await sql<{ key: string; value: Record<string, unknown> }[]>`select key, value from system_settings where key in ${sql(KEYS)} for update`
    : await sql<{ key: string; value: Record<string, unknown> }[]>`select key, value from system_settings where key in ${sql(KEYS)}`;
  const by = Object.fromEntries(rows.map((r) => [r.key, r.value ?? {}]));
  return { stripe: by.stripe ?? {}, smtp: by.smtp ?? {}, vapid: by.vapid ?? {}, admins: by.admins ?? {}, operator: by.operator ?? {} } as StoredAll;
}

/** A stored secret, masked; '' when absent; '••••' when it cannot be decrypted (ENCRYPTION_KEY changed). */
function masked(stored: string | undefined): string {
  if (!stored) return "";
  try {
    return maskSecret(decryptSecret(stored));
  } catch {
    return "••••";
  }
}

/** The view of stored rows plus what the environment says. */
async function viewOf(s: StoredAll): Promise<SettingsView> {
  const cfg = config();
  const inForce = await stripeSettings().catch(() => null);
  return {
    values: {
      brevoSmtpLogin: s.smtp.login ?? "",
      brevoFromEmail: s.smtp.fromEmail ?? "",
      brevoSenderName: s.smtp.senderName ?? "",
      brevoSmtpHost: s.smtp.host || DEFAULT_SMTP_HOST,
      brevoSmtpPort: Number(s.smtp.port ?? DEFAULT_SMTP_PORT),
      superAdminEmails: Array.isArray(s.admins.superAdminEmails) ? s.admins.superAdminEmails : [],
      vapidPublicKey: s.vapid.publicKey ?? "",
      vapidSubject: s.vapid.subject ?? "",
      stripeSecret: masked(s.stripe.secretKey),
      stripeWebhookSecret: masked(s.stripe.webhookSecret),
      brevoSmtpKey: masked(s.smtp.key),
      vapidPrivateKey: masked(s.vapid.privateKey),
      ...(Object.fromEntries(OPERATOR_FIELDS.map((f) => [f.field, s.operator[f.stored] ?? ""])) as Record<OperatorField, string>),
    },
    meta: {
      stripeConfigured: !!cfg.STRIPE_SECRET_KEY || !!s.stripe.secretKey,
      stripeWebhookConfigured: !!cfg.STRIPE_WEBHOOK_SECRET || !!s.stripe.webhookSecret,
      brevoConfigured: !!cfg.SMTP_URL || (!!s.smtp.login && !!s.smtp.key),
      vapidConfigured: (!!cfg.VAPID_PUBLIC_KEY && !!cfg.VAPID_PRIVATE_KEY) || (!!s.vapid.publicKey && !!s.vapid.privateKey),
      stripeSource: inForce?.source ?? "none",
      env: {
        stripeSecret: !!cfg.STRIPE_SECRET_KEY,
        stripeWebhookSecret: !!cfg.STRIPE_WEBHOOK_SECRET,
        stripeApiBase: !!cfg.STRIPE_API_BASE,
        smtp: !!cfg.SMTP_URL,
        mailFrom: !!cfg.MAIL_FROM,
        vapidPublicKey: !!cfg.VAPID_PUBLIC_KEY,
        vapidPrivateKey: !!cfg.VAPID_PRIVATE_KEY,
        vapidSubject: !!cfg.VAPID_SUBJECT,
        operator: Object.fromEntries(OPERATOR_FIELDS.map((f) => [f.field, !!cfg[f.env]])) as Record<OperatorField, boolean>,
      },
      operatorComplete: OPERATOR_FIELDS.every((f) => !!cfg[f.env] || !!s.operator[f.stored]),
    },
  };
}

/** The settings for the admin API and page: stored values, secrets masked, and which come from the environment. */
export async function getSettingsView(): Promise<SettingsView> {
  return viewOf(await readStored(db()));
}

// ---- validation ---------------------------------------------------------------------------------

const trimmed = (max: number, tooLong: string) => z.string().trim().max(max, tooLong);
const EMAIL = z.email();

/** A comma/newline separated list (or an array) → trimmed, lower-cased, de-duplicated, empties dropped (PRODUCT.md §5). */
const emailList = z
  .union([z.string(), z.array(z.string())], { error: zMsg("admin-settings:superAdminEmails.type") })
  .transform((v) => [...new Set((Array.isArray(v) ? v : v.split(/[,;\n]/)).map((e) => e.trim().toLowerCase()).filter(Boolean))])
  .superRefine((list, ctx) => {
    const bad = list.find((e) => !EMAIL.safeParse(e).success);
    if (bad !== undefined) ctx.addIssue({ code: "custom", message: zMsg("admin-settings:superAdminEmails.invalid") });
    if (list.length > 50) ctx.addIssue({ code: "custom", message: zMsg("admin-settings:superAdminEmails.tooMany") });
  });

/** A secret: trimmed; '' means "keep the stored one". */
const secret = (pattern: RegExp, message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(500, message)
    .refine((v) => v === "" || pattern.test(v), { message });

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
/** CNPJ with 14 digits, punctuation optional (00.000.000/0000-00); the check digits are not verified. */
const CNPJ = /^\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}$/;

/** The body of PUT /api/admin/settings (and the page's save form). Absent fields keep their value. */
export const settingsUpdateSchema = z.object({
  stripeSecret: secret(/^(sk|rk)_[A-Za-z0-9_]{8,}$/, zMsg("admin-settings:stripeSecret.invalid")).optional(),
  stripeWebhookSecret: secret(/^whsec_[A-Za-z0-9_+/=]{8,}$/, zMsg("admin-settings:stripeWebhookSecret.invalid")).optional(),
  brevoSmtpLogin: trimmed(200, zMsg("admin-settings:brevoSmtpLogin.invalid"))
    .refine((v) => !/\s/.test(v), { message: zMsg("admin-settings:brevoSmtpLogin.invalid") })
    .optional(),
  brevoSmtpKey: secret(/^\S{8,}$/, zMsg("admin-settings:brevoSmtpKey.invalid")).optional(),
  brevoFromEmail: trimmed(200, zMsg("admin-settings:brevoFromEmail.invalid"))
    .transform((v) => v.toLowerCase())
    .refine((v) => v === "" || EMAIL.safeParse(v).success, { message: zMsg("admin-settings:brevoFromEmail.invalid") })
    .optional(),
  brevoSenderName: trimmed(100, zMsg("admin-settings:brevoSenderName.tooLong"))
    .refine((v) => !/[<>"\r\n]/.test(v), { message: zMsg("admin-settings:brevoSenderName.tooLong") })
    .optional(),
  brevoSmtpHost: trimmed(253, zMsg("admin-settings:brevoSmtpHost.invalid"))
    .refine((v) => v === "" || /^[A-Za-z0-9.-]+$/.test(v), { message: zMsg("admin-settings:brevoSmtpHost.invalid") })
    .optional(),
  brevoSmtpPort: z.coerce
    .number({ error: zMsg("admin-settings:brevoSmtpPort.invalid") })
    .int(zMsg("admin-settings:brevoSmtpPort.invalid"))
    .min(1, zMsg("admin-settings:brevoSmtpPort.invalid"))
    .max(65535, zMsg("admin-settings:brevoSmtpPort.invalid"))
    .optional(),
  superAdminEmails: emailList.optional(),
  vapidPublicKey: trimmed(200, zMsg("admin-settings:vapidPublicKey.invalid"))
    .refine((v) => v === "" || (BASE64URL.test(v) && v.length >= 40), { message: zMsg("admin-settings:vapidPublicKey.invalid") })
    .optional(),
  vapidPrivateKey: secret(/^[A-Za-z0-9_-]{40,}={0,2}$/, zMsg("admin-settings:vapidPrivateKey.invalid")).optional(),
  vapidSubject: trimmed(200, zMsg("admin-settings:vapidSubject.invalid"))
    .refine((v) => v === "" || /^mailto:[^\s@]+@[^\s@]+$/.test(v) || /^https:\/\/\S+$/.test(v), { message: zMsg("admin-settings:vapidSubject.invalid") })
    .optional(),
  // The operator identity: the same rules as its environment variables (config.server.ts); '' removes the stored value.
  operatorCompany: trimmed(200, zMsg("admin-settings:operatorCompany.invalid"))
    .refine((v) => v === "" || v.length >= 2, { message: zMsg("admin-settings:operatorCompany.invalid") })
    .optional(),
  operatorCnpj: trimmed(30, zMsg("admin-settings:operatorCnpj.invalid"))
    .refine((v) => v === "" || CNPJ.test(v), { message: zMsg("admin-settings:operatorCnpj.invalid") })
    .optional(),
  operatorAddress: trimmed(300, zMsg("admin-settings:operatorAddress.invalid"))
    .refine((v) => v === "" || v.length >= 5, { message: zMsg("admin-settings:operatorAddress.invalid") })
    .optional(),
  operatorDpoName: trimmed(200, zMsg("admin-settings:operatorDpoName.invalid"))
    .refine((v) => v === "" || v.length >= 2, { message: zMsg("admin-settings:operatorDpoName.invalid") })
    .optional(),
  operatorDpoEmail: trimmed(200, zMsg("admin-settings:operatorDpoEmail.invalid"))
    .refine((v) => v === "" || EMAIL.safeParse(v).success, { message: zMsg("admin-settings:operatorDpoEmail.invalid") })
    .optional(),
  supportEmail: trimmed(200, zMsg("admin-settings:supportEmail.invalid"))
    .refine((v) => v === "" || EMAIL.safeParse(v).success, { message: zMsg("admin-settings:supportEmail.invalid") })
    .optional(),
  /** Secrets to remove (the only way to empty one: an empty value keeps it). */
  clearSecrets: z.array(z.enum(SECRET_FIELDS, { error: zMsg("admin-settings:clearSecrets.invalid") })).max(4).optional(),
});

/** A validated settings update. */
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

/**
 * Parses a settings update.
 * @throws ValidationError with the first message (Portuguese text made by `zMsg`, translatable) and `extra.field`
 */
export function parseSettingsUpdate(input: unknown): SettingsUpdate {
  const parsed = settingsUpdateSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ValidationError(issueMsg(issue, msg("api:invalidData")), { field: issue.path.join(".") });
  }
  return parsed.data;
}

/** The next stored rows and the secrets replaced or cleared. */
function applyUpdate(cur: StoredAll, u: SettingsUpdate): { next: StoredAll; rotated: SecretField[]; cleared: SecretField[] } {
  const next: StoredAll = { stripe: { ...cur.stripe }, smtp: { ...cur.smtp }, vapid: { ...cur.vapid }, admins: { ...cur.admins }, operator: { ...cur.operator } };
  const rotated: SecretField[] = [];
  const setSecret = (field: SecretField, value: string | undefined, put: (enc: string) => void) => {
    if (value) {
      put(encryptSecret(value));
      rotated.push(field);
    }
  };
  setSecret("stripeSecret", u.stripeSecret, (v) => (next.stripe.secretKey = v));
  setSecret("stripeWebhookSecret", u.stripeWebhookSecret, (v) => (next.stripe.webhookSecret = v));
  setSecret("brevoSmtpKey", u.brevoSmtpKey, (v) => (next.smtp.key = v));
  setSecret("vapidPrivateKey", u.vapidPrivateKey, (v) => (next.vapid.privateKey = v));
  const cleared: SecretField[] = [];
  for (const f of u.clearSecrets ?? []) {
    if (rotated.includes(f)) continue; // a new value wins over "clear" in the same save
    if (f === "stripeSecret") delete next.stripe.secretKey;
    if (f === "stripeWebhookSecret") delete next.stripe.webhookSecret;
    if (f === "brevoSmtpKey") delete next.smtp.key;
    if (f === "vapidPrivateKey") delete next.vapid.privateKey;
    cleared.push(f);
  }
  const text = (v: string | undefined, put: (v: string | undefined) => void) => {
    if (v !== undefined) put(v === "" ? undefined : v);
  };
  text(u.brevoSmtpLogin, (v) => (next.smtp.login = v));
  text(u.brevoFromEmail, (v) => (next.smtp.fromEmail = v));
  text(u.brevoSenderName, (v) => (next.smtp.senderName = v));
  text(u.brevoSmtpHost, (v) => (next.smtp.host = v));
  if (u.brevoSmtpPort !== undefined) next.smtp.port = u.brevoSmtpPort;
  text(u.vapidPublicKey, (v) => (next.vapid.publicKey = v));
  text(u.vapidSubject, (v) => (next.vapid.subject = v));
  if (u.superAdminEmails !== undefined) next.admins.superAdminEmails = u.superAdminEmails;
  for (const f of OPERATOR_FIELDS) text(u[f.field], (v) => (next.operator[f.stored] = v));
  // JSON drops undefined: strip them so the stored rows hold only set fields.
  for (const k of KEYS) next[k] = JSON.parse(JSON.stringify(next[k])) as never;
  return { next, rotated, cleared };
}

/**
 * Saves the system settings (PUT /api/admin/settings, the Configurações form): validates, applies
 * (secrets only when filled, encrypted), stores and audits in one transaction.
 * @returns the new view (secrets masked)
 * @throws ValidationError (nothing saved) for a bad field
 */
export async function saveSystemSettings(actor: AdminActor, input: unknown): Promise<SettingsView> {
  const update = parseSettingsUpdate(input);
  const next = await db().begin(async (tx) => {
    // One row lock per key; rows that do not exist yet are created by the upserts below.
    const cur = await readStored(tx, true);
    const { next, rotated, cleared } = applyUpdate(cur, update);
    for (const k of KEYS) {
      if (JSON.stringify(next[k]) === JSON.stringify(cur[k])) continue;
      await tx`insert into system_settings (key, value, updated_at) values (${k}, ${tx.json(next[k] as never)}, now())
        on conflict (key) do update set value = excluded.value, updated_at = now()`;
    }
    const before = await viewOf(cur);
    const after = await viewOf(next);
    await recordAudit(
      actor,
      { action: "settings.update", targetType: "settings", targetId: "system", before: before.values, after: { ...after.values, rotated, cleared } },
      tx,
    );
    return next;
  });
  return viewOf(next);
}

// ---- connection tests ---------------------------------------------------------------------------

/** Body of POST /api/admin/settings/test/stripe. */
export const stripeTestSchema = z.object({
  stripeSecret: secret(/^(sk|rk)_[A-Za-z0-9_]{8,}$/, zMsg("admin-settings:stripeSecret.invalid")).optional(),
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
    throw new UpstreamError(msg("admin-config:test.smtpFailed", { detail: detailOf(err, secrets) }));
  } finally {
    transporter.close();
  }
  return { message: msg("admin-config:test.smtpOk") };
}
