/**
 * A fresh, migrated database for one test file, dropped at the end (DESIGN.md §8): a copy of the
 * template database the global setup migrated once (tests/setup/global-db.ts, ADR 0023).
 */
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { inject } from "vitest";
import { runMigrations } from "../../db/migrate";

export interface TestDatabase {
  url: string;
  sql: postgres.Sql;
  drop(): Promise<void>;
}

/**
 * Creates `t_<random>` on the test server from the migrated template, checks that no migration is
 * pending (a no-op then), returns its URL and a pool.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject("adminDbUrl");
  const name = `t_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name} template ${inject("templateDb")}`);
  } finally {
    await admin.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const url = u.toString();
  const sql = postgres(url, { max: 3, onnotice: () => {} });
  await runMigrations(sql);
  return {
    url,
    sql,
    async drop() {
      await sql.end();
      const a = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}
