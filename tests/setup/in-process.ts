/**
 * For tests that call the app's services in process (no HTTP, no build): a fresh test database
 * for the file and the app's config pointing at it, set up before the tests and torn down after.
 * Returns a getter for the database (available once `beforeAll` has run).
 */
import { afterAll, beforeAll } from "vitest";
import { parseConfig, setConfig } from "../../app/services/platform/config.server";
import { closeDb } from "../../app/services/platform/db.server";
import { createTestDatabase, type TestDatabase } from "./db";

export function inProcessApp(): () => TestDatabase {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    setConfig(parseConfig({ DATABASE_URL: db.url, NODE_ENV: "test", LOG_LEVEL: "silent" }));
  });
  afterAll(async () => {
    await closeDb();
    globalThis.__forexIaConfig = undefined;
    await db?.drop();
  });
  return () => {
    if (!db) throw new Error("inProcessApp: the database is ready only inside the tests");
    return db;
  };
}
