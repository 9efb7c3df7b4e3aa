/**
 * The `schema_migrations` table the migrator keeps (db/migrate.ts: one row per applied
 * `db/migrations/NNNN_name.sql`, created by the migrator itself). Read by `/ready`
 * (app/services/platform/health.server.ts) to tell whether every migration file is applied.
 */
import type { Sql } from "./sql";

/** Names of the applied migration files (e.g. `0001_init.sql`); empty when the table does not exist yet. */
export async function appliedMigrationNames(sql: Sql): Promise<string[]> {
  const rows = await sql<{ name: string }[]>`select name from schema_migrations`.catch(
    (err: unknown) => {
      // 42P01 undefined_table: a database the migrator never ran on.
      if ((err as { code?: string }).code === "42P01") return [] as { name: string }[];
      throw err;
    },
  );
  return rows.map((r) => r.name);
}
