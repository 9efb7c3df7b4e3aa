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

/**
 * Makes React, react-dom and Express load their production builds (they choose at load time from
 * `process.env.NODE_ENV`), whatever the product's own NODE_ENV says: that one only decides how strict the
 * configuration is (required secrets, no simulators: config.server.ts), and `npm start` leaves it unset.
 * Called by server/index.ts before it loads the Remix build, except under `--dev` (Vite, HMR). ADR 0040.
 */
export function loadLibrariesInProductionMode(): void {
  process.env.NODE_ENV = "production";
}
