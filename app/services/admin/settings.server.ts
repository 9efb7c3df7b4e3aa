/**
 * System settings of the admin panel, stored and shown (PRODUCT.md §3 System settings, §5 "Admin
 * settings", §7 GET /api/admin/settings; issue 10 "Configurações"). The update (validation and
 * save) is in settings-update.server.ts, the Stripe/SMTP tests in connection-tests.server.ts.
 *
 * Storage: `system_settings`, one jsonb row per area, read by the services that use them:
 * - 'stripe' {secretKey, webhookSecret} — both encrypted (app/services/billing/stripe.server.ts);
 * - 'smtp' {host, port, login, key, fromEmail, senderName} — key encrypted (app/services/notify/email.server.ts);
 * - 'vapid' {publicKey, privateKey, subject} — private key encrypted (web push, issue 11);
 * - 'admins' {superAdminEmails: string[]};
 * - 'operator' {company, cnpj, address, dpoName, dpoEmail, supportEmail} — the operator's public identity on the
 *   legal pages (issue 22 item 10; app/services/platform/operator.server.ts merges it under the OPERATOR_* variables).
 * Secrets are write-only: stored with `encryptSecret` (ENCRYPTION_KEY), shown only masked
 * (`maskSecret`). Environment variables override stored values (STRIPE_*, SMTP_URL/MAIL_FROM,
 * VAPID_*); `meta.env` says which.
 */
import { config } from "../platform/config.server";
import { decryptSecret, maskSecret } from "../platform/crypto.server";
import { OPERATOR_FIELDS, type OperatorField, type StoredOperator } from "../platform/operator-boot";
import { db } from "../platform/db.server";
import type { StoredSmtp } from "../notify/email.server";
import type { StoredVapid } from "../notify/push/vapid.server";
import { stripeSettings, type StoredStripe } from "../billing/stripe.server";
import type { Sql } from "../../../db/queries/sql";
import { settingRows } from "../../../db/queries/system-settings";

/** Brevo's SMTP relay, used when no host is stored (email.server.ts has the same default). */
export const DEFAULT_SMTP_HOST = "smtp-relay.brevo.com";
/** Brevo's submission port (STARTTLS). */
export const DEFAULT_SMTP_PORT = 587;


/** Admin-stored super-admin list (system_settings key 'admins'). */
export interface StoredAdmins {
  superAdminEmails?: string[];
}

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

/** Every stored area, as read (absent rows are `{}`). */
export interface StoredAll {
  stripe: StoredStripe;
  smtp: StoredSmtp;
  vapid: StoredVapid;
  admins: StoredAdmins;
  operator: StoredOperator;
}

/** The `system_settings` keys of the areas above. */
export const KEYS = ["stripe", "smtp", "vapid", "admins", "operator"] as const;

/** The stored rows (locked `for update` inside a transaction when `lock`). */
export async function readStored(sql: Sql, lock = false): Promise<StoredAll> {
  const rows = await settingRows(sql, KEYS, lock);
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

/** The view of stored rows plus what the environment says (secrets masked). */
export async function viewOf(s: StoredAll): Promise<SettingsView> {
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
