/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database under DATA_DIR). */
import postgres from "postgres";
import { runMigrations } from "./migrate";
import { parseConfig } from "../app/services/platform/config.server";
import { startEmbeddedPostgres } from "../server/embedded-db";
import { readEnvironment } from "../server/env";

const cfg = parseConfig(readEnvironment());
const embedded = cfg.DATABASE_URL ? undefined : await startEmbeddedPostgres(cfg.DATA_DIR);
const sql = postgres(cfg.DATABASE_URL ?? embedded!.url, { max: 1, onnotice: () => {} });
try {
  const applied = await runMigrations(sql);
  console.log(applied.length ? `Migrações aplicadas: ${applied.join(", ")}` : "Banco de dados já está atualizado.");
} finally {
  await sql.end();
  await embedded?.stop();
}
