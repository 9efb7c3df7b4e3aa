/**
 * The `system_settings` table: the admin's stored settings (stripe, smtp, vapid, admins, operator) and
 * the embedded mode's demo logins, one jsonb `value` per `key`. Its statements live here (issue 23 item 2).
 */
import type { Sql } from "./sql";

/** The stored value of one key, or undefined when the row does not exist. */
export async function settingValue<T>(sql: Sql, key: string): Promise<T | undefined> {
  const [row] = await sql<{ value: T }[]>`select value from system_settings where key = ${key}`;
  return row ? row.value : undefined;
}

/** The rows of the given keys (locked `for update` when `lock`, inside a transaction). */
export async function settingRows(sql: Sql, keys: readonly string[], lock = false): Promise<{ key: string; value: Record<string, unknown> }[]> {
  return lock
    ? await sql<{ key: string; value: Record<string, unknown> }[]>`select key, value from system_settings where key in ${sql(keys)} for update`
    : await sql<{ key: string; value: Record<string, unknown> }[]>`select key, value from system_settings where key in ${sql(keys)}`;
}

/** Stores a key's value (insert, or replace the existing row's), stamping `updated_at`. */
export async function upsertSetting(sql: Sql, key: string, value: unknown): Promise<void> {
  await sql`insert into system_settings (key, value, updated_at) values (${key}, ${sql.json(value as never)}, now())
        on conflict (key) do update set value = excluded.value, updated_at = now()`;
}

/** Replaces an existing key's value (no row: nothing). */
export async function updateSettingValue(sql: Sql, key: string, value: unknown): Promise<void> {
  await sql`update system_settings set value = ${sql.json(value as never)} where key = ${key}`;
}

/** Stores a key's value unless the key exists (`on conflict do nothing`). */
export async function insertSettingIfAbsent(sql: Sql, key: string, value: unknown): Promise<void> {
  await sql`insert into system_settings (key, value) values (${key}, ${sql.json(value as never)}) on conflict do nothing`;
}
