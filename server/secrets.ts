/**
 * SESSION_SECRET and ENCRYPTION_KEY for a machine with no configuration (DESIGN.md §5): generated
 * once into `DATA_DIR/secrets.json` (mode 600) with a warning, and reused on every later start so
 * stored broker tokens stay readable. Production requires them set (config refuses to boot).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The local values of SESSION_SECRET / ENCRYPTION_KEY that `given` lacks, from DATA_DIR (generated
 * and stored on first use). Nothing is written to the environment: the caller folds the values into
 * the config (`withRuntime`).
 * @returns `sessionSecret`/`encryptionKey` for the unset ones, and the names generated now
 */
export function ensureLocalSecrets(
  given: { SESSION_SECRET?: string; ENCRYPTION_KEY?: string },
  dataDir: string,
): { sessionSecret?: string; encryptionKey?: string; generated: string[] } {
  const file = path.resolve(dataDir, "secrets.json");
  const stored: Record<string, string> = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const generated: string[] = [];
  const out: { sessionSecret?: string; encryptionKey?: string; generated: string[] } = { generated };
  const wanted = {
    SESSION_SECRET: { make: () => randomBytes(32).toString("hex"), key: "sessionSecret" },
    ENCRYPTION_KEY: { make: () => randomBytes(32).toString("hex"), key: "encryptionKey" },
  } as const;
  for (const [name, { make, key }] of Object.entries(wanted)) {
    if (given[name as keyof typeof wanted]) continue;
    if (!stored[name]) {
      stored[name] = make();
      generated.push(name);
    }
    out[key] = stored[name];
  }
  if (generated.length) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return out;
}
