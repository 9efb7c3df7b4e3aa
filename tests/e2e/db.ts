/**
 * The e2e database on TEST_DATABASE_URL's server: `create` makes `e2e_<run id>` (idempotent), `drop`
 * removes it. Run as a CLI before the web server starts (Playwright starts `webServer` before
 * `globalSetup`), and used by the global setup/teardown.
 */
import postgres from "postgres";

function target(): { admin: string; name: string } | null {
  const admin = process.env.TEST_DATABASE_URL;
  const url = process.env.E2E_DATABASE_URL;
  if (!admin || !url) return null;
  const name = new URL(url).pathname.slice(1);
  if (!/^e2e_[0-9a-f]+$/.test(name)) throw new Error(`nome de banco e2e inesperado: ${name}`);
  return { admin, name };
}

/** Creates the e2e database if it does not exist yet. */
export async function createE2eDatabase(): Promise<void> {
  const t = target();
  if (!t) return;
  const sql = postgres(t.admin, { max: 1, onnotice: () => {} });
  try {
    const [exists] = await sql`select 1 from pg_database where datname = ${t.name}`;
    if (!exists) await sql.unsafe(`create database "${t.name}"`);
  } finally {
    await sql.end();
  }
}

/** Drops the e2e database (forcing out remaining connections). */
export async function dropE2eDatabase(): Promise<void> {
  const t = target();
  if (!t) return;
  const sql = postgres(t.admin, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists "${t.name}" with (force)`);
  } finally {
    await sql.end();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop() ?? "") && process.argv[2]) {
  const run = process.argv[2] === "drop" ? dropE2eDatabase : createE2eDatabase;
  run().catch((err) => {
    console.error("[e2e-db]", err);
    process.exit(1);
  });
}
