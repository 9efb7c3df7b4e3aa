/**
 * The `trading_settings` table (migration 0001): one row per user, the trading settings as jsonb
 * (normalised on load by core/settings). Its statements live here (issue 23 item 2); the tick's batched
 * context read joins it in tick-context.ts, the hero's news card in hero-news.ts.
 */
import type { Sql } from "./sql";

/** The user's stored settings (undefined: no row yet); `lock` takes the row (`for update`) in the caller's transaction. */
export async function settingsRow(sql: Sql, userId: string, lock: boolean): Promise<{ settings: unknown } | undefined> {
  const [row] = lock
    ? await sql<{ settings: unknown }[]>`select settings from trading_settings where user_id = ${userId} for update`
    : await sql<{ settings: unknown }[]>`select settings from trading_settings where user_id = ${userId}`;
  return row;
}

/** Writes the user's settings (insert or replace). */
export async function upsertSettings(sql: Sql, userId: string, settings: unknown): Promise<void> {
  await sql`insert into trading_settings (user_id, settings) values (${userId}, ${sql.json(settings as never)})
    on conflict (user_id) do update set settings = excluded.settings, updated_at = now()`;
}
