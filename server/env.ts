/**
 * The one place that reads the process environment (DESIGN.md §5: "validated once at boot").
 * Only the entry points call it — server/index.ts (the app), server/simulator/cli.ts (`npm run sim`),
 * db/migrate-cli.ts (`npm run db:migrate`) and server/cli/db-backup.ts (`npm run db:backup`,
 * `db:restore`) — and parse the copy with zod; everything else gets
 * the parsed values passed in (tests/unit/architecture/process-env.test.ts checks both).
 */

/** A snapshot of the environment variables, read once at boot. */
export function readEnvironment(): Readonly<Record<string, string | undefined>> {
  return { ...process.env };
}
