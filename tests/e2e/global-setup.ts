/**
 * Playwright global setup: makes sure the fresh e2e database exists when TEST_DATABASE_URL is set
 * (the web server's command creates it too, since Playwright starts the server first) and makes the
 * screenshot folder. The returned teardown leaves the database for inspection unless E2E_DROP_DB=1.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { createE2eDatabase, dropE2eDatabase } from "./db";

export default async function globalSetup() {
  mkdirSync(path.resolve("test-results/screenshots"), { recursive: true });
  await createE2eDatabase();
  return async () => {
    if (process.env.E2E_DROP_DB === "1") await dropE2eDatabase().catch((e) => console.warn("[e2e-db] drop falhou:", e));
  };
}
