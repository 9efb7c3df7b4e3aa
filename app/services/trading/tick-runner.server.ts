/**
 * The tick runner of the AI bot (DESIGN.md §3, ADR 0013): one tick of a user under the user's lock
 * (user-lock.server.ts: a PostgreSQL advisory lock on a session of its own, released by PostgreSQL if
 * the process dies) and its deadline (`TICK_TIMEOUT_SEC`: past it, its broker calls are abandoned,
 * the error is stored on the bot and the lock released). Before the broker it decides from the bot's
 * state whether the tick runs; after it, it stores the tick's end (last tick, high-water mark) or its
 * error, and the error's consequences on the connection and the loop (the error → bot-state policy).
 * The trading steps themselves are live-tick.server.ts.
 *
 * Manage-only (issue 9): when the licence lapses while the loop is on, the bot stays on and its ticks
 * only manage (manage-only.server.ts switches the mode). Texts are messages of the `bot` namespace
 * (ADR 0007): stored texts keep the Portuguese text next to the message.
 */
import { setMaxListeners } from "node:events";
import { isMsg, msg, type Msg } from "../../../core/i18n/message";
import { BrokerError } from "../../../core/oanda/errors";
import { notices } from "../../lib/notifications";
import { clientFor, markConnection } from "../broker/broker.server";
import { config } from "../platform/config.server";
import { decryptSecret } from "../platform/crypto.server";
import { countStatementsIn, db } from "../platform/db.server";
import { closedAllHolds } from "./kill-switch-state.server";
import { logger } from "../platform/logger.server";
import { metrics } from "../platform/metrics.server";
import { notify } from "../notify/notifications.server";
import { StatementBatcher } from "../platform/sql-batch.server";
import { withUserLock } from "../platform/user-lock.server";
import type { LiveTick } from "./live-tick";
import { tradeOnce } from "./live-tick.server";
import { switchManageOnly } from "./manage-only.server";
import { stopWithNotice } from "./stop-notices.server";
import { contextBatcher } from "./tick-context.server";
import { skipped, type TickOutcome } from "./tick-outcome";
import { abortReason, brokerWithSignal, hasMsg, TickDeadlineError } from "./tick-signal.server";
import { recordTickDone, recordTickError, recordTicksDone, type TickDoneRow } from "../../../db/queries/bots";

/** The user-facing error of a broker failure, as a message (core/oanda/errors.ts). */
function brokerErrorMsg(err: BrokerError): Msg {
  return err.messageMsg;
}

/**
 * Runs one tick under the bot's advisory lock. `force` runs it even when the loop is off (run-once).
 * Never throws for broker trouble: the error is stored on the bot and returned as skipped.
 */
export async function runTick(userId: string, opts: { force?: boolean } = {}): Promise<TickOutcome> {
  const started = Date.now();
  // The tick's own statements (not those of ticks running beside it): the issue 7/13 budget.
  const scope = { statements: 0 };
  let outcome = "failed";
  try {
    const result = await countStatementsIn(scope, () => runTickLocked(userId, opts));
    outcome = result.status;
    return result;
  } finally {
    const ms = Date.now() - started;
    metrics().ticks.inc({ outcome });
    metrics().tickDuration.observe({ outcome }, ms / 1000);
    logger().debug({ userId, sqlRoundTrips: scope.statements, ms }, "tick");
  }
}

/**
 * The tick under the user's lock (held on the lock session, not on a pool connection: the tick uses
 * the pool freely) and its deadline. The tick's signal aborts at the deadline or if the lock is lost.
 */
async function runTickLocked(userId: string, opts: { force?: boolean }): Promise<TickOutcome> {
  const result = await withUserLock(userId, async (lockLost) => {
    const seconds = config().TICK_TIMEOUT_SEC;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new TickDeadlineError(seconds)), seconds * 1000);
    try {
      const signal = AbortSignal.any([deadline.signal, lockLost]);
      // Every broker request of the tick listens on this signal; more than Node's default 10 is normal, not a leak.
      setMaxListeners(0, signal);
      return await tickLocked(userId, opts.force ?? false, signal);
    } finally {
      clearTimeout(timer);
    }
  });
  return result.acquired ? result.value : skipped(msg("bot:skip.busy"));
}

/**
 * One tick under the lock: reads its context, applies the bot-state policy (inactive, no licence,
 * drawdown stop, closed-all hold, manage-only switch, no broker), runs the trading steps
 * (live-tick.server.ts) and stores their end; a failure is stored on the bot (see the module doc).
 */
async function tickLocked(userId: string, force: boolean, signal: AbortSignal): Promise<TickOutcome> {
  const sql = db();
  const context = await contextBatcher.submit(userId);
  const { valid: licensed, timezone: userTimezone, bot, settings, conn } = context;
  if (!force && !bot?.is_active) return skipped(msg("bot:skip.inactive"));
  // Without a licence only a running loop ticks (manage-only); a run-once with the loop off is refused.
  if (!licensed && !bot?.is_active) return skipped(msg("bot:skip.licence"));
  // A max-drawdown stop holds until the re-arm (issue 21): no run-once trades meanwhile.
  if (!bot?.is_active && bot?.drawdown_stopped) return skipped(msg("bot:skip.drawdownStop"));
  // 'Fechar tudo e pausar' holds until the user starts the AI again (issue 22): no run-once trades meanwhile.
  if (force && !bot?.is_active && (await closedAllHolds(userId))) return skipped(msg("kill-switch:skip.closedAll"));
  if (bot?.is_active) await switchManageOnly(userId, bot, licensed);
  if (!conn) {
    if (bot?.is_active) await stopWithNotice(userId, "broker", msg("bot:stopDetail.noBroker"));
    return skipped(msg("bot:errors.noBroker"));
  }
  // The client itself is bound to the deadline too: its retries and backoff waits stop with the tick.
  const client = brokerWithSignal(clientFor(decryptSecret(conn.token_encrypted), conn.environment, signal), signal);
  try {
    // A forced tick (run-once) works on the broker's current state: it syncs first (ADR 0027).
    const tick: LiveTick = {
      userId,
      conn,
      client,
      settings,
      licence: { valid: licensed, ...(userTimezone ? { timezone: userTimezone } : {}) },
      bot,
      stored: context.stored,
      counters: context.counters,
      forced: force,
      signal,
    };
    const outcome = await tradeOnce(tick);
    // The high-water mark only rises and is never reset by a stop (core/trading/counters.ts).
    // A sync of this tick that found the stored account state current moves its synced_at (ADR 0027),
    // in the same statement, which also carries the other ticks ending now (ADR 0032).
    await tickDoneBatcher.submit({ userId, nav: tick.nav ?? null, at: tick.at ?? null, syncedAt: tick.syncedAt ?? null });
    if (conn.status === "error") {
      await markConnection(userId, "connected");
      await notify(userId, { type: "success", ...notices.connectionRestored() });
    }
    return outcome;
  } catch (thrown) {
    // The Portuguese text stays the broker's own; its message (when it has one) is stored next to it.
    // Past the deadline (or with the lock lost) the abort reason is the tick's error, whatever was thrown.
    const err = signal.aborted ? abortReason(signal) : thrown;
    const message = err instanceof BrokerError ? err.messagePt : err instanceof Error ? err.message : String(err);
    const errorMsg: Msg | string = err instanceof BrokerError ? brokerErrorMsg(err) : hasMsg(err) ? err.messageMsg : message;
    logger().warn({ userId, err: err instanceof BrokerError ? { kind: err.kind, status: err.status } : err }, "tick falhou");
    metrics().ticksFailed.inc({ kind: err instanceof BrokerError ? err.kind : err instanceof TickDeadlineError ? "deadline" : "other" });
    await recordTickError(sql, userId, message, isMsg(errorMsg) ? errorMsg : null);
    if (err instanceof BrokerError) {
      await markConnection(userId, "error", message);
      if (conn.status !== "error") await notify(userId, { type: "error", ...notices.connectionLost(errorMsg) });
      if (err.kind === "auth" || err.kind === "forbidden") await stopWithNotice(userId, "broker", errorMsg);
      if (err.retryable) throw err; // the worker runs the next tick sooner (jobs/handlers.ts); run-once answers 502
    }
    return isMsg(errorMsg) ? { status: "skipped", reason: message, reasonMsg: errorMsg } : { status: "skipped", reason: message };
  }
}

/**
 * The end of the ticks ending at once, one statement per batch (ADR 0032; db/queries/bots.ts
 * `recordTicksDone`): each bot's last tick time and cleared error, its high-water mark raised with the
 * tick's NAV (never lowered), and the stored account state's `synced_at` moved for the ticks that synced
 * (ADR 0027). `peak_at` takes the tick's broker-clock instant when its NAV sets or raises the mark
 * (issue 21: the trades behind a drawdown). A tick's `nav` is null when it read none, `at` its instant
 * on the broker's clock, `syncedAt` when its sync confirmed the stored account state.
 */
const tickDoneBatcher = new StatementBatcher<TickDoneRow, void>({
  many: async (done) => {
    await recordTicksDone(db(), done);
    return done.map(() => undefined);
  },
  one: (d) => recordTickDone(db(), d),
});
