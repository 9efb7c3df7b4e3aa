/**
 * The user's interface preferences (PRODUCT.md §3 User preferences): language (pt|en|es), timezone
 * and display currency (BRL|USD|EUR, issue 22), stored in users.preferences (jsonb, merged so other
 * keys are kept). Read and written only through the owner's user id.
 */
import { msg } from "../../../core/i18n/message";
import type { Sql } from "../../../db/queries/sql";
import { mergePreferences, userPreferences } from "../../../db/queries/users";
import { issueMsg } from "../../../core/i18n/zod-message";
import { preferencesSchema, type PreferencesInput } from "~/lib/settings-form";
import { db } from "../platform/db.server";
import { ValidationError } from "../platform/errors.server";

/** Stored preferences of a user. */
export interface Preferences {
  language: string;
  currency: string;
  timezone: string;
}

/** The user's preferences, with the defaults filled in. */
export async function getPreferences(userId: string): Promise<Preferences> {
  const p = (await userPreferences<Preferences>(db(), userId)) ?? {};
  return { language: p.language || "pt", currency: p.currency || "BRL", timezone: p.timezone || "America/Sao_Paulo" };
}

/**
 * Saves language, timezone and/or display currency (other keys untouched).
 * @throws ValidationError with a translatable message on an unknown language, timezone or currency.
 */
export async function savePreferences(userId: string, input: unknown): Promise<Preferences> {
  await writePreferences(db(), userId, input);
  return getPreferences(userId);
}

/**
 * Validates and writes language and/or timezone with the given connection (a transaction's, e.g. the
 * settings page's save: settings.server.ts `saveSettingsAndPreferences`).
 * @throws ValidationError on an unknown language or timezone.
 */
export async function writePreferences(sql: Sql, userId: string, input: unknown): Promise<void> {
  const parsed = preferencesSchema.partial().safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(issueMsg(issue, msg("api:preferences.invalid")), { field: issue?.path.join(".") });
  }
  const patch: Partial<PreferencesInput> = {};
  if (parsed.data.language) patch.language = parsed.data.language;
  if (parsed.data.timezone) patch.timezone = parsed.data.timezone;
  if (parsed.data.currency) patch.currency = parsed.data.currency;
  if (Object.keys(patch).length)
    await mergePreferences(sql, userId, patch);
}
