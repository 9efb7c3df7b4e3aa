/**
 * The PostgreSQL pool, one per process (a `globalThis` singleton so Vite dev reloads don't open
 * new pools). Numeric columns come back as strings (decimal-safe); bigint ids as strings too.
 */
import postgres from "postgres";
import { config } from "./config.server";

declare global {
  var __sql: postgres.Sql | undefined;
}

/** The shared pool for the configured `DATABASE_URL` (the embedded database's in embedded mode: config.server.ts `withRuntime`). */
export function db(): postgres.Sql {
  if (!globalThis.__sql) {
    const url = config().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL não definido: o servidor deve iniciar o banco antes do app.");
    globalThis.__sql = postgres(url, { max: 10, onnotice: () => {}, idle_timeout: 30 });
  }
  return globalThis.__sql;
}

/** Closes the pool (shutdown). */
export async function closeDb(): Promise<void> {
  const sql = globalThis.__sql;
  globalThis.__sql = undefined;
  await sql?.end({ timeout: 5 });
}
