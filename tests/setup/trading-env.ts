/**
 * A trading test environment: a fresh database, a standalone OANDA simulator over HTTP (so broker
 * state survives app restarts), helpers to start the real app against both, register a user and
 * connect a simulator practice account.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { startSimulator } from "../../server/simulator/server";
import { SUPPORTED_INSTRUMENTS } from "../../core/instruments";
import { brokerEnv } from "./broker-env";
import { apiClient, startAppServer, type AppServer } from "./app-server";
import { createTestDatabase, type TestDatabase } from "./db";
import { registerVerifiedAndLogin } from "./verify";

const root = path.resolve(import.meta.dirname, "../..");

export interface TradingEnv {
  db: TestDatabase;
  sim: Awaited<ReturnType<typeof startSimulator>>;
  dataDir: string;
  startApp(extra?: Record<string, string>): Promise<AppServer>;
  simCall<T = Record<string, unknown>>(method: string, p: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

/** Starts the database and the simulator (at a weekday with history behind it). */
export async function createTradingEnv(opts: { startAt?: string; speed?: number } = {}): Promise<TradingEnv> {
  const db = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "forex-ia-it-"));
  const sim = await startSimulator({
    port: 0,
    dataDir: path.join(root, "data"),
    speed: opts.speed ?? 1,
    startAt: opts.startAt ?? "2026-01-14T10:00:00Z",
    statePath: path.join(dataDir, "sim-state.json"),
  });
  const apps: AppServer[] = [];
  return {
    db,
    sim,
    dataDir,
    async startApp(extra = {}) {
      const app = await startAppServer({
        DATABASE_URL: db.url,
        DATA_DIR: dataDir,
        ...brokerEnv(sim.url),
        ...extra,
      });
      apps.push(app);
      return app;
    },
    async simCall<T>(method: string, p: string, body?: unknown) {
      const res = await fetch(sim.url + p, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
      return (await res.json()) as T;
    },
    async close() {
      for (const a of apps) if (a.proc.exitCode === null) await a.kill();
      await sim.close();
      await db.drop();
    },
  };
}

/** Registers a user and connects a fresh simulator practice account; returns the API client and ids. */
export async function userWithBroker(env: TradingEnv, app: AppServer, email = `u${Date.now()}@teste.com`) {
  // Registration no longer opens a session: verify through the database (e-mail is not the subject here), then log in.
  const reg = { body: await registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Ana", lastName: "Souza", email, password: "Senha123" }) };
  const call = apiClient(app.url, reg.body.token);
  const simUser = await env.simCall<{ token: string; accounts: { id: string }[] }>("POST", "/sim/users", { environment: "practice" });
  const accountId = simUser.accounts[0]!.id;
  const connected = await call("POST", "/api/oanda-auth/connect", { token: simUser.token, environment: "practice", accountId });
  if (connected.status !== 200) throw new Error(`connect falhou: ${JSON.stringify(connected.body)}`);
  return { call, token: reg.body.token, userId: reg.body.user.id, brokerToken: simUser.token, accountId };
}

/** Advances the simulator and runs ticks until `done()` holds (bounded). */
export async function tickUntil(
  env: TradingEnv,
  call: ReturnType<typeof apiClient>,
  done: () => Promise<boolean>,
  opts: { advanceSeconds?: number; maxIterations?: number } = {},
): Promise<boolean> {
  for (let i = 0; i < (opts.maxIterations ?? 120); i++) {
    if (await done()) return true;
    await env.simCall("POST", "/sim/clock", { advanceSeconds: opts.advanceSeconds ?? 900 });
    await call("POST", "/api/trades/ai/loop/run-once");
  }
  return done();
}

/**
 * The user chooses to trade `instruments` despite no proven edge (issue 21's edge gate; /settings "Operar
 * mesmo assim"): PUT /api/settings `aiSettings.edgeOverrides`. The AI enters only pairs whose shipped
 * edge-table verdict is "edge" or that the user overrides, so a test whose subject needs the AI to trade
 * opts in with this, as a user would (never by turning the gate off).
 */
export async function tradeWithoutEdge(call: ReturnType<typeof apiClient>, instruments: readonly string[] = SUPPORTED_INSTRUMENTS): Promise<void> {
  const r = await call("PUT", "/api/settings", { settings: { aiSettings: { edgeOverrides: instruments } } });
  if (r.status !== 200) throw new Error(`edgeOverrides falhou: ${JSON.stringify(r.body)}`);
}
