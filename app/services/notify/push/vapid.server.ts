/**
 * The VAPID key pair of web push (issue 11, ADR 0016), in order: the `VAPID_PUBLIC_KEY` /
 * `VAPID_PRIVATE_KEY` (and `VAPID_SUBJECT`) environment variables; else the admin settings
 * (system_settings 'vapid', private key encrypted with ENCRYPTION_KEY; app/services/admin/settings.server.ts);
 * else a pair generated once (web-push `generateVAPIDKeys`) and stored encrypted in that same row, so
 * the admin page shows it and every process uses it. Generation takes a transaction-scoped advisory
 * lock and re-reads the row, so two processes booting together store one pair.
 *
 * Read on every use (one small query): a pair saved by an admin is used by the next push.
 */
import webpush from "web-push";
import { config } from "../../platform/config.server";
import { decryptSecret, encryptSecret } from "../../platform/crypto.server";
import { db } from "../../platform/db.server";
import { logger } from "../../platform/logger.server";
import { settingValue, upsertSetting } from "../../../../db/queries/system-settings";

/** Admin-stored web-push keys (system_settings key 'vapid'; private key encrypted). */
export interface StoredVapid {
  publicKey?: string;
  privateKey?: string;
  subject?: string;
}

/** The key pair in force and where it comes from. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  /** `mailto:` or `https:` contact sent to push services. */
  subject: string;
  source: "env" | "admin" | "generated";
}

/** A contact for push services when none is configured: ADMIN_EMAIL, else the APP_URL's host. */
function defaultSubject(): string {
  const cfg = config();
  if (cfg.ADMIN_EMAIL) return `mailto:${cfg.ADMIN_EMAIL}`;
  let host = "localhost";
  try {
    host = new URL(cfg.APP_URL).hostname || host;
  } catch {
    // keep localhost
  }
  return `mailto:admin@${host}`;
}

/** The stored pair, decrypted; null when incomplete or unreadable (ENCRYPTION_KEY changed). */
function fromStored(v: StoredVapid & { generatedAt?: string }): Omit<VapidKeys, "subject"> & { subject?: string } | null {
  if (!v.publicKey || !v.privateKey) return null;
  try {
    return { publicKey: v.publicKey, privateKey: decryptSecret(v.privateKey), subject: v.subject, source: v.generatedAt ? "generated" : "admin" };
  } catch (err) {
    logger().warn({ err: (err as Error).message }, "chave VAPID armazenada ilegível");
    return null;
  }
}

async function readRow(): Promise<StoredVapid & { generatedAt?: string }> {
  return (await settingValue<StoredVapid>(db(), "vapid")) ?? {};
}

/**
 * The key pair to sign pushes with (and whose public key browsers subscribe with); generates and
 * stores one when none exists anywhere.
 * @throws Error only when the database fails
 */
export async function vapidKeys(): Promise<VapidKeys> {
  const cfg = config();
  const stored = await readRow();
  if (cfg.VAPID_PUBLIC_KEY && cfg.VAPID_PRIVATE_KEY)
    return { publicKey: cfg.VAPID_PUBLIC_KEY, privateKey: cfg.VAPID_PRIVATE_KEY, subject: cfg.VAPID_SUBJECT ?? stored.subject ?? defaultSubject(), source: "env" };
  const have = fromStored(stored);
  if (have) return { ...have, subject: cfg.VAPID_SUBJECT ?? have.subject ?? defaultSubject() };
  const made = await db().begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(hashtext('forex-ia:vapid-generate'))`;
    const stored = await settingValue<StoredVapid & { generatedAt?: string }>(tx, "vapid");
    const row = stored === undefined ? undefined : { value: stored };
    const again = fromStored(row?.value ?? {});
    if (again) return again;
    const pair = webpush.generateVAPIDKeys();
    const value = { ...(row?.value ?? {}), publicKey: pair.publicKey, privateKey: encryptSecret(pair.privateKey), generatedAt: new Date().toISOString() };
    await upsertSetting(tx, "vapid", value);
    logger().info("chaves VAPID geradas e armazenadas (system_settings 'vapid')");
    return { publicKey: pair.publicKey, privateKey: pair.privateKey, subject: row?.value?.subject, source: "generated" as const };
  });
  return { ...made, subject: cfg.VAPID_SUBJECT ?? made.subject ?? defaultSubject() };
}
