/**
 * The PostgreSQL pool, one per process (a `globalThis` singleton so Vite dev reloads don't open
 * new pools). Numeric columns come back as strings (decimal-safe); bigint ids as strings too.
 */
import postgres from "postgres";
import { config } from "./config.server";

declare global {
  var __sql: postgres.Sql | undefined;
  var __sqlQueries: number | undefined;
}

/**
 * Statements sent by this process's pool so far (postgres.js `debug` hook): the bot logs the
 * round trips of each tick with it (issue 7 budget: ≤ 10 per bot-tick; measured by
 * tests/integration/tick-round-trips.test.ts).
 */
export function sqlQueryCount(): number {
  return globalThis.__sqlQueries ?? 0;
}

/** The shared pool for the configured `DATABASE_URL` (the embedded database's in embedded mode: config.server.ts `withRuntime`). */
export function db(): postgres.Sql {
  if (!globalThis.__sql) {
    const url = config().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL não definido: o servidor deve iniciar o banco antes do app.");
    globalThis.__sql = postgres(url, {
      max: 10,
      onnotice: () => {},
      idle_timeout: 30,
      debug: () => {
        globalThis.__sqlQueries = (globalThis.__sqlQueries ?? 0) + 1;
      },
    });
  }
  return globalThis.__sql;
}

/** Closes the pool (shutdown). */
export async function closeDb(): Promise<void> {
  const sql = globalThis.__sql;
  globalThis.__sql = undefined;
  await sql?.end({ timeout: 5 });
}
