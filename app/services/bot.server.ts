/**
 * The AI bot of a user: start/stop/status of the loop (PRODUCT.md §7 AI) and one tick, the fixed
 * sequence of DESIGN.md §3: reconcile → account → per instrument: market data → engine decision →
 * risk → (order) → store the decision. Ticks of one bot never overlap: each holds the user's lock
 * (user-lock.server.ts: a PostgreSQL advisory lock on a session of its own, released by PostgreSQL
 * if the process dies) while it runs. A tick has a deadline (`TICK_TIMEOUT_SEC`): past it, its
 * broker calls are abandoned, the error is stored on the bot and the lock released (ADR 0013).
 *
 * Manage-only (issue 9): when the licence lapses while the loop is on, the bot stays on and its
 * ticks only manage (sync, the executor's max-hold / weekend-flat exits; stop loss and take profit
 * stay at the broker): nothing is decided, recorded or opened. The tick enters the mode
 * (`bots.manage_only_since`/`manage_only_reason`, one notification) and leaves it as soon as the
 * licence is valid again (one notification), the same tick resuming entries. Starting the loop still
 * needs a licence (402).
 *
 * Texts it makes are translatable messages of the `bot` namespace (ADR 0007): API errors render in
 * the caller's language, stored texts (decisions, tick errors, notifications) keep the Portuguese
 * text next to the message and are rendered in the reader's language when read.
 */
import { createHash } from "node:crypto";
import type { BrokerInstrument, BrokerPort } from "../../core/broker/port";
import { decide, type Decision } from "../../core/engine/decide";
import { isMsg, msg, type Msg } from "../../core/i18n/message";
import { AI_TIMEFRAMES } from "../../core/instruments";
import { manageOnlyMsg, manageOnlyVerdict, type ManageOnlyReason, type StopBotReason } from "../../core/risk";
import { resolveTimezone } from "../../core/risk/trading-day";
import type { CounterTrade } from "../../core/trading/counters";
import { marketOrderFor } from "../../core/trading/orders";
import { executeTick, type DecisionRecord, type TickBroker, type TickPorts, type TradeStore } from "../../core/trading/tick";
import { decisionExplainPayload } from "../../core/trading/explain";
import type { Candle } from "../../core/candles";
import type { TradingSettings } from "../../core/settings";
import { BrokerError } from "../../core/oanda/errors";
import { translateMsg } from "~/i18n";
import { notices } from "../lib/notifications";
import { PaymentRequiredError, ValidationError } from "./errors.server";
import { brokerNow, getConnection, markConnection, recordMarketTime, requireBroker, type BrokerConnectionRow } from "./broker.server";
import { config } from "./config.server";
import { crashPoint } from "./crash-point.server";
import { db, sqlQueryCount } from "./db.server";
import { joinedLicence, LICENCE_JOIN_COLUMNS, licenceView, type JoinedLicenceColumns } from "./licence.server";
import { logger } from "./logger.server";
import { completeCandleSets, seriesKey } from "./market-data.server";
import { notify } from "./notifications.server";
import { enqueueTick } from "./queue.server";
import { reconcile } from "./reconcile.server";
import { newsCalendarFor } from "./calendar.server";
import { settingsFromRow } from "./settings.server";
import { withUserLock } from "./user-lock.server";

/** Default loop interval (PRODUCT.md §9). */
export const DEFAULT_INTERVAL_SEC = 60;

/** Stop reasons with a label of their own (PRODUCT.md §4 "AI loop"); any other reads 'Inativo'. */
export const LABELLED_STOP_REASONS = ["manual", "max_consecutive_losses", "daily_loss_limit", "trading_hours", "server_shutdown"] as const;
const hasLabel = (reason: string | null | undefined): reason is (typeof LABELLED_STOP_REASONS)[number] =>
  LABELLED_STOP_REASONS.includes(reason as (typeof LABELLED_STOP_REASONS)[number]);

/** The label of a stop reason as a message ('Parado manualmente' … or 'Inativo'). */
export const stopReasonMsg = (reason: string | null | undefined): Msg => msg(`bot:stopReason.${hasLabel(reason) ? reason : "other"}`);
/** The label of a stop reason in a language (Portuguese by default). */
export const stopReasonText = (reason: string | null | undefined, language: unknown = "pt") => translateMsg(stopReasonMsg(reason), language);

/** The user-facing error of a broker failure, as a message (core/oanda/errors.ts). */
function brokerErrorMsg(err: BrokerError): Msg {
  return err.messageMsg;
}

/** A jsonb parameter for a message, or SQL null. */
const jsonMsg = (m: Msg | string | null | undefined) => (isMsg(m) ? db().json(m as never) : null);

interface BotRow {
  user_id: string;
  is_active: boolean;
  interval_sec: number;
  last_started_at: Date | null;
  last_stopped_at: Date | null;
  last_stop_reason: string | null;
  last_tick_at: Date | null;
  last_tick_error: string | null;
  last_tick_error_msg: unknown;
  peak_balance: string | null;
  day_start: Date | null;
  day_start_balance: string | null;
  /** Set while the bot only manages its open trades (issue 9); meaningful only while is_active. */
  manage_only_since: Date | null;
  manage_only_reason: string | null;
}

async function getBot(userId: string): Promise<BotRow | undefined> {
  const [row] = await db()<BotRow[]>`select * from bots where user_id = ${userId}`;
  return row;
}

async function licenceValid(userId: string): Promise<boolean> {
  return (await licenceAndTimezone(userId)).valid;
}

type TickBotRow = Pick<BotRow, "is_active" | "peak_balance" | "last_started_at" | "manage_only_since" | "manage_only_reason">;

interface TickContextRow extends TickBotRow, JoinedLicenceColumns {
  role: string;
  subscription_status: string;
  timezone: string | null;
  has_bot: boolean;
  settings: unknown;
}

/**
 * What a tick needs from our tables before the broker, in ONE statement: licence validity (wall
 * clock: a subscription is real time; the newest licence, as latestLicence reads it), the user's
 * timezone, the bot's row (absent when it has none) and the trading settings (defaults filled in).
 */
async function licenceAndTimezone(userId: string): Promise<{ valid: boolean; timezone?: string; bot?: TickBotRow; settings: TradingSettings }> {
  const [u] = await db()<TickContextRow[]>`
    select u.role, u.subscription_status, u.preferences->>'timezone' as timezone, b.user_id is not null as has_bot,
      b.is_active, b.peak_balance::text as peak_balance, b.last_started_at, b.manage_only_since, b.manage_only_reason, s.settings,
      ${db().unsafe(LICENCE_JOIN_COLUMNS)}
    from users u
      left join bots b on b.user_id = u.id
      left join trading_settings s on s.user_id = u.id
      left join lateral (select * from licenses where user_id = u.id order by end_date desc limit 1) l on true
    where u.id = ${userId}`;
  if (!u) return { valid: false, settings: settingsFromRow(undefined) };
  const valid = licenceView(u.role, u.subscription_status, joinedLicence(u)).hasValidLicense;
  const bot = u.has_bot
    ? {
        is_active: u.is_active,
        peak_balance: u.peak_balance,
        last_started_at: u.last_started_at,
        manage_only_since: u.manage_only_since,
        manage_only_reason: u.manage_only_reason,
      }
    : undefined;
  return { valid, ...(u.timezone ? { timezone: u.timezone } : {}), ...(bot ? { bot } : {}), settings: settingsFromRow(u.settings) };
}

/**
 * Activates the loop; the answer's message is in `language`. @throws PaymentRequiredError (402, not 403: §8 logs
 * the user out on 403) without a licence ('Licença necessária para ativar a IA.'), 400 without a
 * broker connection ('Nenhuma conta Oanda conectada.').
 */
export async function startBot(userId: string, intervalSec = DEFAULT_INTERVAL_SEC, language: unknown = "pt") {
  if (!Number.isInteger(intervalSec) || intervalSec < 5 || intervalSec > 3600) throw new ValidationError(msg("bot:errors.interval"));
  if (!(await licenceValid(userId))) throw new PaymentRequiredError(msg("bot:errors.licenceRequired"));
  if (!(await getConnection(userId))) throw new ValidationError(msg("bot:errors.noBroker"));
  await db()`insert into bots (user_id, is_active, interval_sec, last_started_at)
    values (${userId}, true, ${intervalSec}, now())
    on conflict (user_id) do update set is_active = true, interval_sec = excluded.interval_sec,
      last_started_at = now(), last_tick_error = null, last_tick_error_msg = null,
      manage_only_since = null, manage_only_reason = null, updated_at = now()`;
  await enqueueTick(userId);
  return { success: true, message: translateMsg(msg("bot:started"), language), isActive: true };
}

/** Deactivates the loop with a stop reason (PRODUCT.md §4), leaving manage-only too. Returns whether it was active. */
export async function stopBot(userId: string, reason = "manual"): Promise<boolean> {
  const rows = await db()`update bots set is_active = false, last_stopped_at = now(), last_stop_reason = ${reason},
      manage_only_since = null, manage_only_reason = null, updated_at = now()
    where user_id = ${userId} and is_active returning user_id`;
  return rows.length > 0;
}

/** A stored decision as the status views read it (also the admin support view's, app/services/admin/users.server.ts). */
export interface DecisionRow {
  instrument: string;
  action: string;
  side: string | null;
  confidence: string | null;
  timeframe: string | null;
  reason: string;
  reason_msg: unknown;
  risk_reason: string | null;
  risk_reason_msg: unknown;
  created_at: Date;
}

/**
 * The reason shown for a stored decision: the engine's reason, followed by the risk gate's when it
 * blocked an opening ('… — …'). A message when any part is one, else the stored text.
 */
export function decisionReason(d: Pick<DecisionRow, "action" | "reason" | "reason_msg" | "risk_reason" | "risk_reason_msg">): Msg | string {
  const reason = isMsg(d.reason_msg) ? d.reason_msg : d.reason;
  if (!(d.risk_reason && d.action === "open")) return reason;
  const risk = isMsg(d.risk_reason_msg) ? d.risk_reason_msg : d.risk_reason;
  return isMsg(reason) || isMsg(risk) ? msg("bot:decision.withRisk", { reason, risk }) : `${d.reason} — ${d.risk_reason}`;
}

/**
 * Loop status (PRODUCT.md §3 AI loop): isActive, loopState {lastStopReason…}, last start/stop times,
 * last decisions; and manage-only (issue 9): `manageOnly` (the loop is on but opens no new trades),
 * `manageOnlyReason` (why, as text) with its message `manageOnlyReasonMsg`, and in loopState the
 * reason's code and since when. Texts are in `language`; the stored messages ride along
 * (`reasonMsg`, `lastTickErrorMsg`, null for texts without one) so a screen can render them itself.
 */
export async function botStatus(userId: string, language: unknown = "pt") {
  const bot = await getBot(userId);
  const decisions = await db()<DecisionRow[]>`
    select instrument, action, side, confidence, timeframe, reason, reason_msg, risk_reason, payload->'riskReasonMsg' as risk_reason_msg, created_at
    from decisions where user_id = ${userId} order by id desc limit 3`;
  const tickErrorMsg = isMsg(bot?.last_tick_error_msg) ? bot.last_tick_error_msg : null;
  const manageOnly = bot?.is_active && bot.manage_only_reason ? { reason: bot.manage_only_reason, since: bot.manage_only_since, msg: manageOnlyMsg(bot.manage_only_reason) } : null;
  return {
    success: true,
    isActive: bot?.is_active ?? false,
    manageOnly: manageOnly !== null,
    manageOnlyReason: manageOnly ? translateMsg(manageOnly.msg, language) : null,
    manageOnlyReasonMsg: manageOnly?.msg ?? null,
    intervalSec: bot?.interval_sec ?? DEFAULT_INTERVAL_SEC,
    loopState: {
      manageOnlyCode: manageOnly?.reason ?? null,
      manageOnlySince: manageOnly?.since?.toISOString() ?? null,
      lastStopReason: bot?.last_stop_reason ?? null,
      lastStopReasonText: bot?.is_active ? null : stopReasonText(bot?.last_stop_reason, language),
      lastStartedAt: bot?.last_started_at?.toISOString() ?? null,
      lastStoppedAt: bot?.last_stopped_at?.toISOString() ?? null,
      lastTickAt: bot?.last_tick_at?.toISOString() ?? null,
      lastTickError: tickErrorMsg && bot?.last_tick_error ? translateMsg(tickErrorMsg, language) : (bot?.last_tick_error ?? null),
      lastTickErrorMsg: bot?.last_tick_error ? tickErrorMsg : null,
    },
    lastDecisions: decisions.map((d) => {
      const reason = decisionReason(d);
      return {
        instrument: d.instrument,
        action: d.action,
        side: d.side,
        confidence: d.confidence === null ? null : Number(d.confidence),
        timeframe: d.timeframe,
        reason: translateMsg(reason, language),
        reasonMsg: isMsg(reason) ? reason : null,
        at: d.created_at.toISOString(),
      };
    }),
  };
}

/** Active bots (for resuming after a restart and the per-minute scheduler). */
export async function activeBotIds(): Promise<string[]> {
  return (await db()<{ user_id: string }[]>`select user_id from bots where is_active`).map((r) => r.user_id);
}

/** Interval of an active bot, or null when inactive. */
export async function activeInterval(userId: string): Promise<number | null> {
  const bot = await getBot(userId);
  return bot?.is_active ? bot.interval_sec : null;
}

/** One instrument's result in a tick: Portuguese texts, and their messages when the engine/risk made them. */
export interface TickDecision {
  instrument: string;
  action: string;
  reason: string;
  reasonMsg?: Msg;
  risk?: string;
  riskMsg?: Msg;
  executed: boolean;
}

/** A tick that only managed the open trades (issue 9): why, in Portuguese, and its message. */
export interface TickManageOnly {
  manageOnly: ManageOnlyReason;
  manageOnlyReason: string;
  manageOnlyReasonMsg: Msg;
}

export type TickOutcome =
  | { status: "skipped"; reason: string; reasonMsg?: Msg }
  | ({ status: "done"; decisions: TickDecision[]; stopped?: string } & (TickManageOnly | { manageOnly?: undefined }));

/** A skipped tick: the Portuguese reason and its message. */
function skipped(reason: Msg | string): TickOutcome {
  return isMsg(reason) ? { status: "skipped", reason: translateMsg(reason, "pt"), reasonMsg: reason } : { status: "skipped", reason };
}

/** A tick outcome with its texts in a language (the messages kept alongside). */
export function localizeOutcome(outcome: TickOutcome, language: unknown): TickOutcome {
  if (outcome.status === "skipped") return { ...outcome, reason: translateMsg(outcome.reasonMsg ?? outcome.reason, language) };
  return {
    ...outcome,
    ...(outcome.manageOnly ? { manageOnlyReason: translateMsg(outcome.manageOnlyReasonMsg, language) } : {}),
    decisions: outcome.decisions.map((d) => ({
      ...d,
      reason: translateMsg(d.reasonMsg ?? d.reason, language),
      ...(d.risk !== undefined ? { risk: translateMsg(d.riskMsg ?? d.risk, language) } : {}),
    })),
  };
}

/**
 * Runs one tick under the bot's advisory lock. `force` runs it even when the loop is off (run-once).
 * Never throws for broker trouble: the error is stored on the bot and returned as skipped.
 */
export async function runTick(userId: string, opts: { force?: boolean } = {}): Promise<TickOutcome> {
  const before = sqlQueryCount();
  const started = Date.now();
  try {
    return await runTickLocked(userId, opts);
  } finally {
    logger().debug({ userId, sqlRoundTrips: sqlQueryCount() - before, ms: Date.now() - started }, "tick");
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
      return await tickLocked(userId, opts.force ?? false, AbortSignal.any([deadline.signal, lockLost]));
    } finally {
      clearTimeout(timer);
    }
  });
  return result.acquired ? result.value : skipped(msg("bot:skip.busy"));
}

/** A tick ran past its deadline (`TICK_TIMEOUT_SEC`) and was abandoned. */
export class TickDeadlineError extends Error {
  readonly messageMsg: Msg;
  constructor(readonly seconds: number) {
    const m = msg("bot:errors.deadline", { seconds });
    super(translateMsg(m, "pt"));
    this.name = "TickDeadlineError";
    this.messageMsg = m;
  }
}

/** The abort reason of a tick's signal, as an Error (a TickDeadlineError or a LockLostError). */
function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason));
}

/**
 * The user's broker client bound to a tick's signal: every call first checks the signal, and a call
 * in flight when it aborts is abandoned (its promise rejects with the abort reason at once; its
 * result, if any, is ignored). So nothing reaches the broker for this tick after its deadline.
 * An order abandoned in flight is like one whose answer was lost: its intent stays pending and the
 * next reconcile settles it from the broker's transactions (by client id).
 */
export function brokerWithSignal(client: BrokerPort, signal: AbortSignal): BrokerPort {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (signal.aborted) return Promise.reject(abortReason(signal));
        const call = Promise.resolve((value as (...a: unknown[]) => unknown).apply(target, args));
        return new Promise((resolve, reject) => {
          const onAbort = () => reject(abortReason(signal));
          signal.addEventListener("abort", onAbort, { once: true });
          call.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
        });
      };
    },
  });
}

async function tickLocked(userId: string, force: boolean, signal: AbortSignal): Promise<TickOutcome> {
  const sql = db();
  const { valid: licensed, timezone: userTimezone, bot, settings } = await licenceAndTimezone(userId);
  if (!force && !bot?.is_active) return skipped(msg("bot:skip.inactive"));
  // Without a licence only a running loop ticks (manage-only); a run-once with the loop off is refused.
  if (!licensed && !bot?.is_active) return skipped(msg("bot:skip.licence"));
  if (bot?.is_active) await switchManageOnly(userId, bot, licensed);
  let broker;
  try {
    // The client itself is bound to the deadline too: its retries and backoff waits stop with the tick.
    broker = await requireBroker(userId, signal);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err; // only "no connection" is expected here
    if (bot?.is_active) await stopWithNotice(userId, "broker", msg("bot:stopDetail.noBroker"));
    return skipped(msg("bot:errors.noBroker"));
  }
  const { conn } = broker;
  const client = brokerWithSignal(broker.client, signal);
  try {
    const seen: { nav?: string } = {};
    const outcome = await tradeOnce(userId, conn, client, settings, { valid: licensed, ...(userTimezone ? { timezone: userTimezone } : {}) }, bot, seen);
    // The high-water mark only rises and is never reset by a stop (core/trading/counters.ts).
    const nav = seen.nav ?? null;
    await sql`update bots set last_tick_at = now(), last_tick_error = null, last_tick_error_msg = null,
      peak_balance = greatest(peak_balance, ${nav}::numeric) where user_id = ${userId}`;
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
    await sql`update bots set last_tick_at = now(), last_tick_error = ${message}, last_tick_error_msg = ${jsonMsg(errorMsg)} where user_id = ${userId}`;
    if (err instanceof BrokerError) {
      const prev = await getConnection(userId);
      await markConnection(userId, "error", message);
      if (prev?.status !== "error") await notify(userId, { type: "error", ...notices.connectionLost(errorMsg) });
      if (err.kind === "auth" || err.kind === "forbidden") await stopWithNotice(userId, "broker", errorMsg);
      if (err.retryable) throw err; // the worker runs the next tick sooner (jobs/handlers.ts); run-once answers 502
    }
    return isMsg(errorMsg) ? { status: "skipped", reason: message, reasonMsg: errorMsg } : { status: "skipped", reason: message };
  }
}

/**
 * Enters or leaves manage-only as the licence says, before the broker is called (the mode follows
 * the licence, not the broker's health): each change is one conditional update, so it notifies once
 * however many ticks see it. Nothing is written while the mode does not change.
 */
async function switchManageOnly(userId: string, bot: TickBotRow, licensed: boolean) {
  const verdict = manageOnlyVerdict(licensed);
  if (verdict?.manageOnly && !bot.manage_only_since) {
    const rows = await db()`update bots set manage_only_since = now(), manage_only_reason = ${verdict.manageOnly}, updated_at = now()
      where user_id = ${userId} and is_active and manage_only_since is null returning user_id`;
    if (rows.length)
      await notify(userId, {
        type: "warning",
        title: msg("notices:manageOnly.title"),
        message: msg("notices:manageOnly.message"),
        metadata: { mode: "manage_only", reason: verdict.manageOnly },
      });
  } else if (!verdict && bot.manage_only_since) {
    const rows = await db()`update bots set manage_only_since = null, manage_only_reason = null, updated_at = now()
      where user_id = ${userId} and manage_only_since is not null returning user_id`;
    if (rows.length)
      await notify(userId, {
        type: "success",
        title: msg("notices:manageOnlyEnded.title"),
        message: msg("notices:manageOnlyEnded.message"),
        metadata: { mode: "trading", reason: bot.manage_only_reason },
      });
  }
}

/** An error carrying its translatable message (TickDeadlineError, LockLostError). */
const hasMsg = (err: unknown): err is Error & { messageMsg: Msg } => err instanceof Error && isMsg((err as { messageMsg?: unknown }).messageMsg);

/**
 * Stops the loop and, when it was on, notifies 'IA desativada' with the stop reason's label (when it
 * has one) and the detail.
 */
async function stopWithNotice(userId: string, reason: StopBotReason | string, detail: Msg | string) {
  if (await stopBot(userId, reason)) {
    const labelled = hasLabel(reason);
    await notify(userId, {
      type: reason === "broker" ? "error" : "limit",
      ...notices.botStopped(labelled ? stopReasonMsg(reason) : null, detail),
      metadata: { reason, reasonText: labelled ? stopReasonText(reason) : translateMsg(detail, "pt") },
    });
  }
}

/**
 * One tick's trading steps: the shared executor (core/trading/tick.ts) over this user's broker
 * (OANDA or the simulator over HTTP) and PostgreSQL books. `seen.nav` receives the account NAV
 * read (the caller raises the persisted high-water mark with it).
 */
async function tradeOnce(
  userId: string,
  conn: BrokerConnectionRow,
  client: BrokerPort,
  settings: TradingSettings,
  licence: { valid: boolean; timezone?: string },
  bot: Pick<BotRow, "peak_balance" | "last_started_at"> | undefined,
  seen: { nav?: string },
): Promise<TickOutcome> {
  const ports: TickPorts = {
    broker: liveBroker(userId, conn, client),
    store: liveStore(userId, conn, client, settings),
    decisions: {
      prepare: async (instruments, now) => {
        const sets = await completeCandleSets(client, conn.environment, instruments, AI_TIMEFRAMES, now);
        return (input) => {
          const candles: Record<string, Candle[]> = {};
          for (const tf of AI_TIMEFRAMES) candles[tf] = sets.get(seriesKey(input.instrument, tf)) ?? [];
          return decide({ ...input, candles });
        };
      },
    },
    clock: () => new Date(brokerNow(conn)),
    // The news blackout, asked with the tick's market time (the simulator's replay meets its own events).
    calendar: await newsCalendarFor(settings),
  };
  // The bot's start is a wall-clock instant; trades carry the broker's clock (the simulator replays
  // history): the run start is moved onto the broker's clock with the recorded offset.
  const runStartedAt = bot?.last_started_at ? new Date(brokerNow(conn, bot.last_started_at.getTime())) : null;
  const report = await executeTick(ports, {
    settings,
    timezone: resolveTimezone(licence.timezone),
    licenceValid: licence.valid,
    highWaterMark: bot?.peak_balance ?? null,
    runStartedAt,
  });
  seen.nav = report.nav;
  if (report.manageOnly) {
    const m = report.manageOnly;
    return { status: "done", decisions: [], manageOnly: m.manageOnly, manageOnlyReason: m.reason, manageOnlyReasonMsg: m.reasonMsg };
  }
  if (report.stopped) await stopWithNotice(userId, report.stopped.stopBot, report.stopped.reasonMsg ?? report.stopped.reason);
  const decisions: TickDecision[] = report.decisions.map(({ decision, verdict, execute }) => ({
    instrument: decision.instrument,
    action: decision.action,
    reason: decision.reason,
    ...(decision.reasonMsg ? { reasonMsg: decision.reasonMsg } : {}),
    ...(verdict.allowed ? {} : { risk: verdict.reason, riskMsg: verdict.reasonMsg }),
    executed: execute,
  }));
  return { status: "done", decisions, ...(report.stopped ? { stopped: report.stopped.stopBot } : {}) };
}

/** How long the list of instruments an account offers is reused (it changes on the broker's side only). */
const OFFERED_TTL_MS = 60 * 60_000;
const offered = new Map<string, { at: number; list: readonly BrokerInstrument[] }>();

/**
 * The instruments the connected account offers (GET A/instruments: names, precision, margin rates),
 * read at most once per OFFERED_TTL_MS per account: the tick skips the user's instruments that are
 * not in it and the pre-flight check uses the broker's margin rates (issue 12).
 * @throws the broker's error when the list cannot be read
 */
export async function offeredInstrumentList(conn: Pick<BrokerConnectionRow, "environment" | "account_id">, client: BrokerPort): Promise<readonly BrokerInstrument[]> {
  const key = `${conn.environment}:${conn.account_id}`;
  const hit = offered.get(key);
  if (hit && Date.now() - hit.at < OFFERED_TTL_MS) return hit.list;
  const list = await client.getInstruments(conn.account_id);
  offered.set(key, { at: Date.now(), list });
  return list;
}

/** Names of the instruments the account offers (offeredInstrumentList). */
async function offeredInstruments(conn: BrokerConnectionRow, client: BrokerPort): Promise<readonly string[]> {
  return (await offeredInstrumentList(conn, client)).map((i) => i.name);
}

/** The executor's broker port over the user's broker client (core/trading/tick.ts TickBroker). */
function liveBroker(userId: string, conn: BrokerConnectionRow, client: BrokerPort): TickBroker {
  return {
    accountSummary: () => client.getAccountSummary(conn.account_id),
    openTrades: () => client.listOpenTrades(conn.account_id),
    prices: async (instruments) => {
      const prices = await client.getPricing(conn.account_id, instruments);
      // The broker clock's offset is stored when it moves (the simulator replays history; ≈0 on OANDA).
      const market = prices.reduce((t, p) => Math.max(t, Date.parse(p.time)), 0);
      if (market > 0 && Math.abs(market - brokerNow(conn)) > 1000) await recordMarketTime(userId, market);
      return prices;
    },
    instruments: () => offeredInstruments(conn, client),
    closeTrade: async (trade, reason) => {
      crashPoint("before-exit-close");
      const r = await client.closeTrade(conn.account_id, trade.id);
      crashPoint("after-exit-close");
      if (!r.filled) logger().warn({ userId, tradeId: trade.id, reason, cancelReason: r.cancelReason }, "fechamento não executado");
      return r.filled;
    },
    placeOrder: (decision) => placeOrder(userId, conn, client, decision),
  };
}

/** The executor's trade store over our PostgreSQL books of the account (core/trading/tick.ts TradeStore). */
function liveStore(userId: string, conn: BrokerConnectionRow, client: BrokerPort, settings: TradingSettings): TradeStore {
  const sql = db();
  return {
    sync: async () => {
      await reconcile(userId, conn, client);
    },
    counterTrades: (dayStart) => counterTrades(userId, conn.account_id, dayStart),
    recordDecisions: async (records, now) => {
      // Every decision (including "no trade") is stored before any order is sent (the reconcile that
      // records a fill reads the decision by its id, even after a crash), in the same statement that
      // reads each instrument's previous timeframe (the CTE sees the table before the insert).
      if (records.length === 0) return;
      const decisions = records.map((r) => r.decision);
      crashPoint("before-decisions");
      const prev = await sql<{ instrument: string; timeframe: string | null }[]>`
        with prev as (
          select distinct on (instrument) instrument, timeframe from decisions
          where user_id = ${userId} and instrument = any(${decisions.map((d) => d.instrument)}) order by instrument, id desc
        ), inserted as (
          insert into decisions ${sql(records.map((r) => decisionRow(userId, r, settings, now)))}
        )
        select instrument, timeframe from prev`;
      crashPoint("after-decisions");
      await noteTimeframeChanges(userId, decisions, prev);
    },
    orderNotPlaced: async (decision) => {
      await sql`update decisions set executed = false where user_id = ${userId} and decision_id = ${decision.id} and executed`;
    },
  };
}

/** The `decisions` row of one tick decision. reason_msg is the engine's; the risk gate's message rides in the payload. */
function decisionRow(userId: string, { decision, verdict, execute }: DecisionRecord, settings: TradingSettings, now: Date) {
  const riskMsg = verdict.allowed ? undefined : verdict.reasonMsg;
  return {
    user_id: userId,
    decision_id: decision.id,
    instrument: decision.instrument,
    action: decision.action,
    side: decision.side ?? null,
    confidence: decision.confidence,
    timeframe: decision.timeframe,
    reason: decision.reason,
    reason_msg: jsonMsg(decision.reasonMsg),
    risk_code: verdict.code,
    risk_reason: verdict.allowed ? null : verdict.reason,
    executed: execute,
    payload: db().json({
      regime: decision.regime,
      stopLoss: decision.stopLoss,
      takeProfit: decision.takeProfit,
      units: decision.units,
      tradingStyle: settings.aiSettings.tradingStyle,
      marketTime: now.toISOString(),
      // Entry, stop/target distances in pips and indicator values, for "Por que a IA entrou?" (issue 12).
      ...decisionExplainPayload(decision),
      ...(riskMsg ? { riskReasonMsg: riskMsg } : {}),
    } as never),
  };
}

/** Notifies each instrument whose timeframe differs from its previous decision's (`prev`: the newest stored per instrument). */
async function noteTimeframeChanges(userId: string, decisions: Decision[], prev: { instrument: string; timeframe: string | null }[]) {
  for (const decision of decisions) {
    const from = prev.find((p) => p.instrument === decision.instrument)?.timeframe;
    if (from && from !== decision.timeframe)
      await notify(userId, {
        type: "info",
        ...notices.timeframeChanged({ instrument: decision.instrument, from, to: decision.timeframe, reason: decision.regime.reasonMsg ?? decision.regime.reason }),
        metadata: { instrument: decision.instrument, from, to: decision.timeframe },
      });
  }
}

/**
 * Trades of the account for the risk counters (core/trading/counters.ts), from our books
 * (reconciled just before), in one query: those opened or closed since the trading day started,
 * plus the newest closed ones for the losing streak and the newest opened for the cooldown.
 */
async function counterTrades(userId: string, accountId: string, dayStart: Date): Promise<CounterTrade[]> {
  const rows = await db()<{ open_time: Date; close_time: Date | null; realized_pl: string | null; status: string }[]>`
    (select open_time, close_time, realized_pl::text, status from trades
      where user_id = ${userId} and account_id = ${accountId} and (open_time >= ${dayStart} or close_time >= ${dayStart}))
    union
    (select open_time, close_time, realized_pl::text, status from trades
      where user_id = ${userId} and account_id = ${accountId} and status = 'closed' order by close_time desc limit 50)
    union
    (select open_time, close_time, realized_pl::text, status from trades
      where user_id = ${userId} and account_id = ${accountId} order by open_time desc limit 1)`;
  return rows.map((r) => ({
    openTime: r.open_time,
    closeTime: r.status === "closed" ? r.close_time : null,
    realizedPL: r.status === "closed" ? r.realized_pl : null,
  }));
}

/** The order's client id: derived from the user and the decision id, so a repeated tick can never open a second trade. */
export function clientOrderId(userId: string, decisionId: string): string {
  return `ia-${createHash("sha256").update(`${userId}:${decisionId}`).digest("hex").slice(0, 24)}`;
}

/**
 * Sends the market order of an "open" decision with SL/TP (and trailing stop) attached on fill.
 * The order intent row is written first; if it already exists this decision was already acted on
 * (maybe by a tick that crashed after sending) and nothing is sent. Returns whether a trade opened.
 */
async function placeOrder(userId: string, conn: BrokerConnectionRow, client: BrokerPort, decision: Decision): Promise<boolean> {
  const sql = db();
  const id = clientOrderId(userId, decision.id);
  crashPoint("before-intent");
  const inserted = await sql`insert into order_intents (user_id, client_order_id, decision_id, account_id, instrument, units)
    values (${userId}, ${id}, ${decision.id}, ${conn.account_id}, ${decision.instrument}, ${decision.units!})
    on conflict do nothing returning client_order_id`;
  if (inserted.length === 0) return false;
  crashPoint("before-order");
  try {
    const result = await client.createMarketOrder(conn.account_id, marketOrderFor(decision, id));
    crashPoint("after-order"); // the broker filled, our bookkeeping has not run yet
    if (result.filled) return true; // recorded by the reconcile that follows
    await sql`update order_intents set status = 'cancelled', detail = ${result.cancelReason ?? null}, updated_at = now()
      where user_id = ${userId} and client_order_id = ${id}`;
    return false;
  } catch (err) {
    // RangeError: the client refused the order locally (nothing reached the broker).
    if ((err instanceof BrokerError && !err.retryable) || err instanceof RangeError) {
      await sql`update order_intents set status = 'rejected', detail = ${err instanceof BrokerError ? (err.errorCode ?? err.message) : err.message}, updated_at = now()
        where user_id = ${userId} and client_order_id = ${id}`;
      logger().warn({ userId, code: err instanceof BrokerError ? err.errorCode : err.message }, "ordem rejeitada");
      return false;
    }
    throw err; // unknown outcome: the intent stays pending and the next reconcile settles it
  }
}
