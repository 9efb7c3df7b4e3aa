/**
 * Issue 8 item 10, embedded mode (the README's `npm start` defaults): the demo passwords are not
 * stored in plain text (they are printed at every start, from an encrypted copy), the embedded
 * PostgreSQL has a random password kept owner-only next to the cluster (not postgres/postgres),
 * and the simulator's state file, which holds broker tokens, is readable by its owner only. The
 * server renders with React's production build though NODE_ENV is unset (issue 24).
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../setup/app-server";

const dataDir = mkdtempSync(path.join(os.tmpdir(), "forex-ia-embedded-"));
chmodSync(dataDir, 0o755); // the embedded cluster runs as the postgres user when we are root: it must traverse the folder
let app: AppServer | undefined;

afterAll(async () => {
  await app?.stop();
});

/** Every file below `dir`. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** The two demo logins printed by `server` (they may follow the "Pronto em" line by a moment). */
async function printed(server: AppServer) {
  for (let i = 0; i < 100 && logins(server.output()).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
  return logins(server.output());
}

const logins = (out: string) => [...out.matchAll(/Login (?:admin|usuário) demo:\s+(\S+)\s+\/\s+(\S+)/g)].map((m) => ({ email: m[1]!, password: m[2]! }));

describe("embedded mode keeps its secrets", () => {
  it("prints the same demo logins at every start, stores no plain password, owner-only secret files", { timeout: 240_000 }, async () => {
    app = await startAppServer({ DATA_DIR: dataDir }, 180_000);
    const first = await printed(app);
    expect(first.map((l) => l.email)).toEqual(["admin@demo.local", "demo@demo.local"]);
    // The README's first command serves pages with React's production build (issue 24, ADR 0040).
    expect(app.output()).toContain("React: produção");
    const login = await fetch(`${app.url}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: first[1]!.email, password: first[1]!.password }),
    });
    expect(login.status).toBe(200);
    await app.stop();

    app = await startAppServer({ DATA_DIR: dataDir }, 180_000);
    expect(await printed(app)).toEqual(first);
    await app.stop();
    app = undefined;

    // The database files hold the e-mails (the search works) but neither password.
    const pgFiles = files(path.join(dataDir, "pg", "base"));
    const holds = (needle: string) => pgFiles.some((f) => readFileSync(f).includes(Buffer.from(needle)));
    expect(holds("admin@demo.local")).toBe(true);
    for (const l of first) expect(holds(l.password), l.email).toBe(false);

    const mode = (f: string) => statSync(path.join(dataDir, f)).mode & 0o777;
    expect(readFileSync(path.join(dataDir, "pg-password"), "utf8").trim()).toMatch(/^[0-9a-f]{48}$/);
    expect(mode("pg-password")).toBe(0o600);
    const simState = readdirSync(dataDir).find((f) => f.startsWith("sim-state") && f.endsWith(".json"));
    expect(simState).toBeDefined();
    expect(mode(simState!)).toBe(0o600);
  });
});
