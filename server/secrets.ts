/**
 * SESSION_SECRET and ENCRYPTION_KEY for a machine with no configuration (DESIGN.md §5): generated
 * once into `DATA_DIR/secrets.json` (mode 600) with a warning, and reused on every later start so
 * stored broker tokens stay readable. Production requires them set (config refuses to boot).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Fills `env.SESSION_SECRET` / `env.ENCRYPTION_KEY` from DATA_DIR when unset; returns the names generated now. */
export function ensureLocalSecrets(env: NodeJS.ProcessEnv, dataDir: string): string[] {
  const file = path.resolve(dataDir, "secrets.json");
  const stored: Record<string, string> = existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {};
  const generated: string[] = [];
  const wanted = { SESSION_SECRET: () => randomBytes(32).toString("hex"), ENCRYPTION_KEY: () => randomBytes(32).toString("hex") };
  for (const [name, make] of Object.entries(wanted)) {
    if (env[name]) continue;
    if (!stored[name]) {
      stored[name] = make();
      generated.push(name);
    }
    env[name] = stored[name];
  }
  if (generated.length) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(stored, null, 2), { mode: 0o600 });
  }
  return generated;
}
