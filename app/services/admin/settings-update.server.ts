/**
 * Updating the system settings of the admin panel (PRODUCT.md §5 "Admin settings", §7 PUT
 * /api/admin/settings, §8 messages; issue 10 "Configurações"): the validation of an update and its
 * save. A secret is replaced only when a non-empty value is sent (empty or absent keeps the stored
 * one; `clearSecrets` removes one), stored encrypted (ENCRYPTION_KEY). Every save is audited in the
 * same transaction (secrets redacted by audit.server.ts).
 */
import { z } from "zod";
import { msg } from "../../../core/i18n/message";
import { issueMsg, zMsg } from "../../../core/i18n/zod-message";
import { encryptSecret } from "../platform/crypto.server";
import { OPERATOR_FIELDS } from "../platform/operator-boot";
import { db } from "../platform/db.server";
import { ValidationError } from "../platform/errors.server";
import type { AdminActor } from "./access.server";
import { recordAudit } from "./audit.server";
import { KEYS, readStored, type SettingsView, type StoredAll, viewOf } from "./settings.server";
import { upsertSetting } from "../../../db/queries/system-settings";

/** The secret fields of the settings form / API (write-only). */
export const SECRET_FIELDS = ["stripeSecret", "stripeWebhookSecret", "brevoSmtpKey", "vapidPrivateKey"] as const;
export type SecretField = (typeof SECRET_FIELDS)[number];

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
      await upsertSetting(tx, k, next[k]);
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
