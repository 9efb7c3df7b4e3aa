/**
 * The PostgreSQL pool, one per process (a `globalThis` singleton so Vite dev reloads don't open
 * new pools). Numeric columns come back as strings (decimal-safe); bigint ids as strings too.
 *
 * No code holds a connection of this pool while it waits for another one from it (issue 8 item 2,
 * ADR 0013): the bots' per-user locks live on their own session (user-lock.server.ts). A query that
 * finds every connection taken waits at most `POOL_WAIT_TIMEOUT_MS` and then fails with
 * `DatabaseBusyError` (503 on the API) instead of waiting for ever.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import postgres from "postgres";
import { msg } from "../../../core/i18n/message";
import { config } from "./config.server";
import { ServiceUnavailableError } from "./errors.server";

declare global {
  var __sql: postgres.Sql | undefined;
  var __sqlQueries: number | undefined;
}

/** Size of the app's pool. */
export const POOL_SIZE = 10;
/** Longest wait of a query for a free connection of the pool before `DatabaseBusyError`. */
export const POOL_WAIT_TIMEOUT_MS = 10_000;

/** A query gave up waiting for a free connection of the pool (every one was taken for `waitedMs`). */
export class DatabaseBusyError extends ServiceUnavailableError {
  readonly code = "POOL_WAIT_TIMEOUT";
  constructor(readonly waitedMs: number) {
    super(msg("api:databaseBusy"));
  }
}

/**
 * Statements sent by this process's pools so far (postgres.js `debug` hook). A bot tick's own round
 * trips are counted with `countStatementsIn` (issue 7/13 budget: ≤ 10 per bot-tick; measured by
 * tests/integration/tick-round-trips.test.ts).
 */
export function sqlQueryCount(): number {
  return globalThis.__sqlQueries ?? 0;
}

/** Statement counters of the work running in an async scope (`countStatementsIn`). */
const statementScope = new AsyncLocalStorage<{ statements: number }>();

/**
 * Runs `fn` and counts in `scope.statements` the statements its own async scope sends (a bot tick's round trips, issue 13),
 * unlike a `sqlQueryCount` delta, which also counts whatever else the process runs meanwhile. A
 * statement that waited for a free connection may be counted in the scope that freed it.
 */
export function countStatementsIn<T>(scope: { statements: number }, fn: () => Promise<T>): Promise<T> {
  return statementScope.run(scope, fn);
}

/** The statement scope of the running async context (a bot tick's), if any: a batch of several ticks' statements charges each its share. */
export function currentStatementScope(): { statements: number } | undefined {
  return statementScope.getStore();
}

/**
 * Runs `fn` (one statement serving several scopes: a batch of bot ticks, sql-batch.server.ts) outside
 * any caller's scope and charges each of `scopes` an equal share of the statements it sent, so a
 * tick's `statements` is its average cost over the batch (fractional).
 */
export async function countSharedStatements<T>(scopes: readonly ({ statements: number } | undefined)[], fn: () => Promise<T>): Promise<T> {
  const shared = { statements: 0 };
  try {
    return await statementScope.run(shared, fn);
  } finally {
    const share = scopes.length > 0 ? shared.statements / scopes.length : 0;
    for (const s of scopes) if (s) s.statements += share;
  }
}

/** The `debug` hook of every pool of the app: counts statements for `sqlQueryCount` (and the running `countStatementsIn` scope). */
function countStatement(): void {
  globalThis.__sqlQueries = (globalThis.__sqlQueries ?? 0) + 1;
  const scope = statementScope.getStore();
  if (scope) scope.statements++;
}

/** The parts of a postgres.js `Query` the wait timeout uses (postgres 3.4: `state` is set once a connection took it). */
interface PendingQuery {
  state: unknown;
  handle(): Promise<void>;
  cancel(): unknown;
  resolve(value: unknown): void;
  reject(err: unknown): void;
}

const isQuery = (q: unknown): q is PendingQuery =>
  typeof q === "object" && q !== null && typeof (q as PendingQuery).handle === "function" && typeof (q as PendingQuery).cancel === "function" && "state" in q;

/**
 * Arms the wait timeout of one query when it is executed (postgres.js queries are lazy; a fragment
 * that is only interpolated is never executed and never armed). If no connection has taken it after
 * `waitMs` it is cancelled, which removes it from the pool's queue (postgres.js `query.cancel()`),
 * and it rejects with `DatabaseBusyError`. A query already on a connection is left to run.
 */
function armWaitTimeout<T>(query: T, waitMs: number): T {
  if (!isQuery(query)) return query;
  const q = query;
  const handle = q.handle;
  let armed = false;
  q.handle = function (this: PendingQuery) {
    if (!armed) {
      armed = true;
      const { resolve, reject } = q;
      const timer = setTimeout(() => {
        if (q.state) return;
        const settle = q.reject;
        q.reject = () => settle(new DatabaseBusyError(waitMs));
        q.cancel();
      }, waitMs);
      timer.unref();
      q.resolve = (value) => {
        clearTimeout(timer);
        resolve(value);
      };
      q.reject = (err) => {
        clearTimeout(timer);
        reject(err);
      };
    }
    return handle.call(this);
  };
  return query;
}

/**
 * A postgres.js pool whose queries (tagged templates, `unsafe`, and the `begin` of `sql.begin`)
 * wait at most `waitTimeoutMs` for a connection, then reject with `DatabaseBusyError`. Statements
 * are counted for `sqlQueryCount`. `reserve()` is not bounded: the app does not reserve connections
 * of the pool (ADR 0013).
 */
export function createPool(url: string, opts: postgres.Options<Record<string, postgres.PostgresType>> & { waitTimeoutMs?: number } = {}): postgres.Sql {
  const { waitTimeoutMs = POOL_WAIT_TIMEOUT_MS, ...options } = opts;
  const raw = postgres(url, { onnotice: () => {}, debug: countStatement, ...options });
  const unsafe = raw.unsafe;
  // `sql.begin` sends its BEGIN through `sql.unsafe` (looked up on the instance at call time).
  raw.unsafe = ((...args: Parameters<typeof unsafe>) => armWaitTimeout(unsafe(...args), waitTimeoutMs)) as typeof unsafe;
  return new Proxy(raw, {
    apply: (target, thisArg, args: unknown[]) => armWaitTimeout(Reflect.apply(target, thisArg, args) as unknown, waitTimeoutMs),
  });
}

/** The shared pool for the configured `DATABASE_URL` (the embedded database's in embedded mode: config.server.ts `withRuntime`). */
export function db(): postgres.Sql {
  if (!globalThis.__sql) {
    const url = config().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL não definido: o servidor deve iniciar o banco antes do app.");
    globalThis.__sql = createPool(url, { max: POOL_SIZE, idle_timeout: 30 });
  }
  return globalThis.__sql;
}

/** Closes the pool (shutdown). */
export async function closeDb(): Promise<void> {
  const sql = globalThis.__sql;
  globalThis.__sql = undefined;
  await sql?.end({ timeout: 5 });
}
