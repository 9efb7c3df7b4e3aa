/**
 * Liveness and readiness (issue 24).
 *
 * - `/health`, `/api/health`, `/api/status` (PRODUCT.md §7 "Health"): **liveness**. The JSON reports the
 *   database, the queue and the broker (an unauthenticated `GET /v3/accounts`; a reachable OANDA answers
 *   401; cached 15 s so health checks never hammer the broker) with `status` "ok" or "degraded", but the
 *   status code is always 200 while the process answers: a broker or database outage must not make the
 *   container health check restart every instance (issue 24 "Health": `/health` answered 503 whenever
 *   OANDA failed).
 * - `/ready`: **readiness**. 200 `{status:"ready"}` only when the database answers, every file of
 *   db/migrations is recorded in `schema_migrations`, this process's workers started (when `WORKERS=on`),
 *   the broker answered within the last minute (any answer to the product's own requests, noted in
 *   readiness-state.ts, else a probe as above; in `OANDA_MODE=sim` the simulator is the broker) and
 *   shutdown has not begun; otherwise 503 `{status:"not_ready", reasons:[…]}` in Portuguese.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { appliedMigrationNames } from "../../../db/queries/schema-migrations";
import { config } from "./config.server";
import { db } from "./db.server";
import { queue } from "./queue/boss";
import { brokerAnsweredAt, isShuttingDown, noteBrokerAnswer, workersStarted } from "./readiness-state";

/** The broker counts as up for `/ready` when it answered within this window, ms (issue 24: "the last minute"). */
export const BROKER_FRESH_MS = 60_000;
/** Each readiness check (database, broker probe) gives up after this long, ms: `/ready` answers within ~2 s. */
const CHECK_TIMEOUT_MS = 2_000;

type BrokerProbe = { ok: boolean; latencyMs?: number; error?: string };
let brokerCache: { at: number; value: BrokerProbe } | undefined;
let probing: Promise<BrokerProbe> | undefined;

/** One unauthenticated `GET /v3/accounts` (401 or 2xx = reachable), at most one at a time, cached 15 s. */
async function probeBroker(): Promise<BrokerProbe> {
  if (brokerCache && Date.now() - brokerCache.at < 15_000) return brokerCache.value;
  probing ??= (async () => {
    const started = Date.now();
    let value: BrokerProbe;
    try {
      const res = await fetch(`${config().oanda.practice.api}/v3/accounts`, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
      await res.body?.cancel();
      value = { ok: res.status === 401 || res.ok, latencyMs: Date.now() - started };
      if (res.status < 500) noteBrokerAnswer();
    } catch (err) {
      value = { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    brokerCache = { at: Date.now(), value };
    return value;
  })().finally(() => (probing = undefined));
  return probing;
}

/** `promise`, or a rejection after `ms` (the pool keeps the query; we stop waiting for it). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: sem resposta em ${ms} ms`)), ms)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The health report; `status` is 'ok' only when every part is reachable (informative: liveness answers 200 either way). */
export async function healthReport() {
  const started = Date.now();
  const database = await within(db()`select 1`, CHECK_TIMEOUT_MS, "banco de dados")
    .then(() => ({ ok: true, latencyMs: Date.now() - started }))
    .catch((err: unknown) => ({ ok: false, error: err instanceof Error ? err.message : String(err) }));
  const boss = queue();
  const queueState = boss
    ? await within(boss.getQueues(), CHECK_TIMEOUT_MS, "fila")
        .then((qs) => ({ ok: true, workers: config().WORKERS, queues: qs.map((q) => q.name) }))
        .catch((err: unknown) => ({ ok: false, error: err instanceof Error ? err.message : String(err) }))
    : { ok: false, error: "fila não iniciada" };
  const broker = { mode: config().OANDA_MODE, ...(await probeBroker()) };
  const ok = database.ok && queueState.ok && broker.ok;
  return { status: ok ? "ok" : "degraded", time: new Date().toISOString(), database, queue: queueState, broker };
}

/** Liveness: the health report as JSON, always 200 (the process answered; the parts' state is in the body). */
export async function healthResponse(): Promise<Response> {
  const report = await healthReport();
  return new Response(JSON.stringify(report), {
    status: 200,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}

let migrationFiles: string[] | undefined;

/**
 * The migration files this code expects (`db/migrations/NNNN_*.sql` of the project directory: the
 * nearest ancestor of this module holding a package.json, as server/index.ts finds it; the Docker
 * image copies db/migrations next to its package.json). Read once. @throws Error when not found
 */
function expectedMigrations(): string[] {
  if (migrationFiles) return migrationFiles;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const migrations = path.join(dir, "db", "migrations");
    if (existsSync(path.join(dir, "package.json")) && existsSync(migrations)) {
      return (migrationFiles = readdirSync(migrations).filter((f) => /^\d{4}_.+\.sql$/.test(f)).sort());
    }
    if (path.dirname(dir) === dir) throw new Error("db/migrations não encontrado");
  }
}

/** What `/ready` found; `reasons` (Portuguese) is empty exactly when ready. */
export interface ReadinessFacts {
  shuttingDown: boolean;
  databaseError?: string;
  pendingMigrations: string[];
  workersRequired: boolean;
  workersStarted: boolean;
  /** ms since the broker last answered; undefined = not since boot. */
  brokerAgeMs?: number;
}

/** The reasons a process with these facts is not ready (empty = ready). Pure: unit-tested. */
export function readinessReasons(f: ReadinessFacts): string[] {
  const reasons: string[] = [];
  if (f.shuttingDown) reasons.push("encerrando: o servidor recebeu o sinal de parada");
  if (f.databaseError !== undefined) reasons.push(`banco de dados indisponível (${f.databaseError})`);
  else if (f.pendingMigrations.length) reasons.push(`migrações pendentes: ${f.pendingMigrations.join(", ")}`);
  if (f.workersRequired && !f.workersStarted) reasons.push("workers ainda não iniciados (WORKERS=on)");
  if (f.brokerAgeMs === undefined || f.brokerAgeMs > BROKER_FRESH_MS) reasons.push("corretora sem resposta no último minuto");
  return reasons;
}

/** Gathers the facts (database and broker checked at most ~2 s each, concurrently) and judges them. */
export async function readinessReport(): Promise<{ status: "ready" | "not_ready"; reasons: string[] }> {
  const facts: ReadinessFacts = {
    shuttingDown: isShuttingDown(),
    pendingMigrations: [],
    workersRequired: config().WORKERS === "on",
    workersStarted: workersStarted(),
  };
  const brokerFresh = () => Date.now() - brokerAnsweredAt() <= BROKER_FRESH_MS;
  await Promise.all([
    within(appliedMigrationNames(db()), CHECK_TIMEOUT_MS, "banco de dados")
      .then((applied) => {
        const done = new Set(applied);
        facts.pendingMigrations = expectedMigrations().filter((f) => !done.has(f));
      })
      .catch((err: unknown) => (facts.databaseError = err instanceof Error ? err.message : String(err))),
    brokerFresh() ? undefined : probeBroker(),
  ]);
  const at = brokerAnsweredAt();
  facts.brokerAgeMs = at ? Date.now() - at : undefined;
  const reasons = readinessReasons(facts);
  return { status: reasons.length ? "not_ready" : "ready", reasons };
}

/** `/ready`: 200 `{status:"ready", reasons:[]}` or 503 `{status:"not_ready", reasons:[…]}`. */
export async function readinessResponse(): Promise<Response> {
  const report = await readinessReport();
  return new Response(JSON.stringify(report), {
    status: report.status === "ready" ? 200 : 503,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
  });
}
