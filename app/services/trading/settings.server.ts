/**
 * Trading settings per user (PRODUCT.md §3, §5, §9): stored as JSON, normalised on load (invalid
 * values fall back to defaults), validated on save (ValidationError with a translatable message
 * naming the field and its bounds — Portuguese for a pt reader — nothing saved). A save is one
 * transaction: read (row locked), validate against it, write.
 */
import { msg } from "../../../core/i18n/message";
import { decodeIssueMessage } from "../../../core/i18n/zod-message";
import { normaliseLoadedSettings, parseSettingsUpdate, type TradingSettings } from "../../../core/settings";
import type { Sql } from "../../../db/queries/sql";
import { settingsRow, upsertSettings } from "../../../db/queries/trading-settings";
import { db } from "../platform/db.server";
import { ValidationError } from "../platform/errors.server";
import { writePreferences } from "../identity/preferences.server";

async function readSettings(sql: Sql, userId: string, lock: boolean): Promise<TradingSettings> {
  const row = await settingsRow(sql, userId, lock);
  return normalised(row?.settings ?? {});
}

/** Bound on the memo below (distinct stored settings values); the oldest entry leaves first. */
const NORMALISED_LIMIT = 2_000;
const normalisedMemo = new Map<string, TradingSettings>();

/**
 * `normaliseLoadedSettings` of a stored value, memoised by its JSON text (issue 24: a zod parse per field,
 * two or three times per page, ~3 % of the hero's CPU): the answer is a fresh copy each time, so callers
 * may change it. The normalisation depends on the value alone.
 */
function normalised(raw: unknown): TradingSettings {
  const key = JSON.stringify(raw);
  let s = normalisedMemo.get(key);
  if (!s) {
    s = normaliseLoadedSettings(raw);
    if (normalisedMemo.size >= NORMALISED_LIMIT) normalisedMemo.delete(normalisedMemo.keys().next().value as string);
    normalisedMemo.set(key, s);
  }
  return structuredClone(s);
}

/** Validates a patch against the current settings and writes the result, in the caller's transaction. */
async function writeSettings(sql: Sql, userId: string, patch: unknown): Promise<TradingSettings> {
  const result = parseSettingsUpdate(patch, await readSettings(sql, userId, true));
  if (!result.ok) throw new ValidationError(decodeIssueMessage(result.message), { field: result.field });
  await upsertSettings(sql, userId, result.settings);
  return result.settings;
}

/** Settings from a stored `trading_settings.settings` value (undefined: no row yet), defaults filled in. */
export function settingsFromRow(raw: unknown): TradingSettings {
  return normalised(raw ?? {});
}

/** The user's settings, defaults filled in. */
export async function getSettings(userId: string): Promise<TradingSettings> {
  return readSettings(db(), userId, false);
}

/**
 * Applies a (partial) update. Accepts `{settings: {...}}`, the bare object, or `{timeframe}` (PRODUCT.md
 * §7: PUT /api/settings with settings or only timeframe); `{settings, timeframe}` keeps both.
 * @throws ValidationError with the message naming the field and its bounds, or when `timeframe` is
 * sent twice with different values.
 */
export async function saveSettings(userId: string, body: unknown): Promise<TradingSettings> {
  return db().begin((tx) => writeSettings(tx, userId, settingsPatchOf(body)));
}

/** The patch of a PUT /api/settings body: `settings` (or the bare body) with a top-level `timeframe` merged in. */
export function settingsPatchOf(body: unknown): unknown {
  if (!body || typeof body !== "object" || !("settings" in body)) return body;
  const { settings, timeframe } = body as { settings: unknown; timeframe?: unknown };
  if (timeframe === undefined || !settings || typeof settings !== "object" || Array.isArray(settings)) return settings;
  const inner = (settings as { timeframe?: unknown }).timeframe;
  if (inner !== undefined && inner !== timeframe) throw new ValidationError(msg("validation:timeframeTwice"));
  return { ...settings, timeframe };
}

/**
 * The /settings page's save: trading settings and interface preferences together, in one
 * transaction (both or neither). `settings` may be a function of the current settings (the form
 * builds its patch from them: app/lib/settings-form.ts `settingsPatchFromForm`).
 * @throws ValidationError naming the first bad field; nothing is saved.
 */
export async function saveSettingsAndPreferences(
  userId: string,
  input: { settings: Record<string, unknown> | ((current: TradingSettings) => Record<string, unknown>); preferences?: unknown },
): Promise<TradingSettings> {
  return db().begin(async (tx) => {
    const patch = typeof input.settings === "function" ? input.settings(await readSettings(tx, userId, true)) : input.settings;
    const saved = await writeSettings(tx, userId, patch);
    if (input.preferences !== undefined) await writePreferences(tx, userId, input.preferences);
    return saved;
  });
}
