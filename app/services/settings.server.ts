/**
 * Trading settings per user (PRODUCT.md §3, §5, §9): stored as JSON, normalised on load (invalid
 * values fall back to defaults), validated on save (400 with a translatable message naming the field
 * and its bounds — Portuguese for a pt reader — nothing saved).
 */
import { decodeIssueMessage } from "../../core/i18n/zod-message";
import { normaliseLoadedSettings, parseSettingsUpdate, type TradingSettings } from "../../core/settings";
import { ApiError } from "./api.server";
import { db } from "./db.server";

/** The user's settings, defaults filled in. */
export async function getSettings(userId: string): Promise<TradingSettings> {
  const [row] = await db()<{ settings: unknown }[]>`select settings from trading_settings where user_id = ${userId}`;
  return normaliseLoadedSettings(row?.settings ?? {});
}

/**
 * Applies a (partial) update. Accepts `{settings: {...}}` or the bare object (PRODUCT.md §7: PUT
 * /api/settings with settings or only timeframe).
 * @throws ApiError 400 with the message naming the field and its bounds.
 */
export async function saveSettings(userId: string, body: unknown): Promise<TradingSettings> {
  const patch = body && typeof body === "object" && "settings" in body ? (body as { settings: unknown }).settings : body;
  const result = parseSettingsUpdate(patch, await getSettings(userId));
  if (!result.ok) throw new ApiError(400, decodeIssueMessage(result.message), { field: result.field });
  const sql = db();
  await sql`insert into trading_settings (user_id, settings) values (${userId}, ${sql.json(result.settings as never)})
    on conflict (user_id) do update set settings = excluded.settings, updated_at = now()`;
  return result.settings;
}
