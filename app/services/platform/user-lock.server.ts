/**
 * The per-user trading lock (ADR 0013): one bot tick (or any other work on a user's broker books)
 * at a time per user, across every process. It is a PostgreSQL session-level advisory lock, held on
 * a dedicated one-connection session of this process (`lockSession`), never on a connection of the
 * query pool: a holder keeps using the pool freely, so no connection of the pool ever waits on
 * another one (the deadlock of issue 8 item 2). PostgreSQL releases the locks if the process dies.
 *
 * Advisory locks are re-entrant within a session, and every holder of this process shares the one
 * session, so an in-process table (`held`) keeps two holders of this process apart; the advisory
 * lock keeps processes apart. If the lock session drops, PostgreSQL has released its locks: every
 * holder's signal aborts (their work must stop) and the table entries go when each holder ends.
 */
import type postgres from "postgres";
import { msg, type Msg } from "../../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { config } from "./config.server";
import { createPool } from "./db.server";
import { logger } from "./logger.server";
import { StatementBatcher } from "./sql-batch.server";

/** The advisory lock's first key (the second is `hashtext(userId)`); unchanged since the bot's first lock. */
const LOCK_NAMESPACE = 724_002;
/** Poll period while waiting for a lock held elsewhere (`waitMs`). */
const POLL_MS = 100;

declare global {
  var __lockSql: postgres.Sql | undefined;
  var __userLocks: Map<string, AbortController> | undefined;
}

/** The lock session was lost (connection dropped): PostgreSQL released the locks held on it. */
export class LockLostError extends Error {
  readonly messageMsg: Msg = msg("bot:errors.lockLost");
  constructor() {
    super(translateMsg(msg("bot:errors.lockLost"), "pt"));
    this.name = "LockLostError";
  }
}

/** Holders of this process, by user id, with the controller that aborts their work if the lock is lost. */
function held(): Map<string, AbortController> {
  return (globalThis.__userLocks ??= new Map());
}

/** Every holder's work must stop: the session that held their locks is gone. */
function sessionLost(): void {
  if (held().size === 0) return;
  logger().error({ holders: held().size }, "sessão dos locks perdida: ciclos em andamento interrompidos");
  for (const controller of held().values()) controller.abort(new LockLostError());
}

/**
 * The dedicated lock session: one connection, never closed for idleness or age (that would drop the
 * locks it holds), statements counted like the pool's (a tick's round trips include its lock).
 */
function lockSession(): postgres.Sql {
  if (!globalThis.__lockSql) {
    const url = config().DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL não definido: o servidor deve iniciar o banco antes do app.");
    globalThis.__lockSql = createPool(url, { max: 1, max_lifetime: null, onclose: sessionLost });
  }
  return globalThis.__lockSql;
}

/**
 * The lock and unlock statements of the ticks running at once go together, one statement per batch
 * (sql-batch.server.ts, ADR 0032): the ticks a claim starts take their locks in one round trip on the
 * lock session instead of one each. Each user's lock is still taken or released by its own function
 * call, in order (`with ordinality`); the in-process table keeps one user out of a batch twice.
 */
const lockBatcher = new StatementBatcher<string, boolean>({
  many: async (userIds) => {
    try {
      const rows = await lockSession()<{ ok: boolean }[]>`select pg_try_advisory_lock(${LOCK_NAMESPACE}, hashtext(k.id)) as ok
        from unnest(${userIds}::text[]) with ordinality as k(id, n) order by k.n`;
      return rows.map((r) => r.ok);
    } catch (err) {
      // A session-level advisory lock outlives the statement that failed after taking it, and the batcher then
      // locks each user again alone: release whatever this statement may have taken first (none of these users
      // held it before: the in-process table), so no lock is left held twice.
      await lockSession()`select pg_advisory_unlock(${LOCK_NAMESPACE}, hashtext(k.id)) from unnest(${userIds}::text[]) as k(id)`.catch(() => {});
      throw err;
    }
  },
  one: async (userId) => {
    const [row] = await lockSession()<{ ok: boolean }[]>`select pg_try_advisory_lock(${LOCK_NAMESPACE}, hashtext(${userId})) as ok`;
    return row?.ok === true;
  },
});

const unlockBatcher = new StatementBatcher<string, void>({
  many: async (userIds) => {
    await lockSession()`select pg_advisory_unlock(${LOCK_NAMESPACE}, hashtext(k.id)) from unnest(${userIds}::text[]) as k(id)`;
    return userIds.map(() => undefined);
  },
  one: async (userId) => {
    await lockSession()`select pg_advisory_unlock(${LOCK_NAMESPACE}, hashtext(${userId}))`;
  },
});

async function tryLock(userId: string): Promise<AbortController | null> {
  if (held().has(userId)) return null;
  const controller = new AbortController();
  held().set(userId, controller); // before the round trip: a second caller of this process sees it at once
  try {
    if (await lockBatcher.submit(userId)) return controller;
  } catch (err) {
    held().delete(userId);
    throw err;
  }
  held().delete(userId);
  return null;
}

async function unlock(userId: string): Promise<void> {
  try {
    await unlockBatcher.submit(userId);
  } catch (err) {
    // The session is gone, and the lock with it.
    logger().warn({ userId, err }, "falha ao liberar o lock do usuário");
  } finally {
    held().delete(userId);
  }
}

/**
 * Runs `fn` while holding the user's trading lock, then releases it. `fn` receives a signal that
 * aborts (reason `LockLostError`) if the lock is lost while it runs: it must then stop touching the
 * broker. Returns `{acquired: false}` without running `fn` when another holder (of this or another
 * process) has the lock and it did not come free within `waitMs` (default 0: no wait).
 * Do not nest calls for the same user: the inner one never acquires.
 */
export async function withUserLock<T>(
  userId: string,
  fn: (signal: AbortSignal) => Promise<T>,
  opts: { waitMs?: number } = {},
): Promise<{ acquired: true; value: T } | { acquired: false }> {
  const until = Date.now() + (opts.waitMs ?? 0);
  let controller = await tryLock(userId);
  while (!controller && Date.now() < until) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    controller = await tryLock(userId);
  }
  if (!controller) return { acquired: false };
  try {
    return { acquired: true, value: await fn(controller.signal) };
  } finally {
    await unlock(userId);
  }
}

/** Closes the lock session (shutdown), which releases any lock still held. */
export async function closeLockSession(): Promise<void> {
  const sql = globalThis.__lockSql;
  globalThis.__lockSql = undefined;
  await sql?.end({ timeout: 5 });
}
