/**
 * The AI bot of a user: start/stop/status of the loop (PRODUCT.md §7 AI) and one tick, the fixed
 * sequence of DESIGN.md §3: reconcile → account → per instrument: market data → engine decision →
 * risk → (order) → store the decision. Ticks of one bot never overlap: each holds the user's lock
 * (user-lock.server.ts: a PostgreSQL advisory lock on a session of its own, released by PostgreSQL
 * if the process dies) while it runs. A tick has a deadline (`TICK_TIMEOUT_SEC`): past it, its
 * broker calls are abandoned, the error is stored on the bot and the lock released (ADR 0013).
 *
 * What a tick costs (issue 13, ADR 0025): one context statement (licence, bot, settings, connection,
 * stored account state, the risk counters' trades), the transactions since the cursor (the only
 * broker request of a steady tick), quotes from the environment's shared cache
 * (quote-cache.server.ts), the account from its stored read valued at those quotes while no
 * transaction happened (account-state.server.ts), candles from the shared cache, one decisions
 * insert and one bot update. The lock, its release, the context read, the decisions insert and the
 * bot update of the ticks running at once go as one statement each per batch (ADR 0032,
 * sql-batch.server.ts): a steady tick of a claim batch costs a fraction of a statement of each.
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
import { setMaxListeners } from "node:events";
import type { BrokerInstrument, BrokerPort, ClientPrice } from "../../core/broker/port";
import { conversionInstruments } from "../../core/conversion";
import { DecisionEngine, featureConfig, type Decision } from "../../core/engine/decide";
import { isMsg, msg, type Msg } from "../../core/i18n/message";
import { AI_TIMEFRAMES, instrumentSpec } from "../../core/instruments";
import { manageOnlyMsg, manageOnlyVerdict, type ManageOnlyReason, type StopBotReason } from "../../core/risk";
import { drawdownStopRecord, startRequest, type DrawdownStop } from "../../core/risk/drawdown";
import { resolveTimezone } from "../../core/risk/trading-day";
import type { CounterTrade } from "../../core/trading/counters";
import { marketOrderFor } from "../../core/trading/orders";
import { executeTick, type DecisionRecord, type TickBroker, type TickPorts, type TradeStore } from "../../core/trading/tick";
import { decisionExplainPayload } from "../../core/trading/explain";
import type { Candle } from "../../core/candles";
import { resolveInstruments, type TradingSettings } from "../../core/settings";
import { BrokerError } from "../../core/oanda/errors";
import { translateMsg } from "~/i18n";
import { notices } from "../lib/notifications";
import { ConflictError, PaymentRequiredError, ValidationError } from "./errors.server";
import {
  ACCOUNT_STATE_JSON,
  freshInstruments,
  INSTRUMENTS_MAX_AGE_MS,
  parseAccountState,
  readAccountState,
  saveInstruments,
  storedFor,
  syncDue,
  tickAccount,
  type StoredAccountState,
} from "./account-state.server";
import { brokerNow, clientFor, getConnection, markConnection, recordMarketTime, type BrokerConnectionRow } from "./broker.server";
import { decryptSecret } from "./crypto.server";
import { sharedQuotes } from "./quote-cache.server";
import { config } from "./config.server";
import { crashPoint } from "./crash-point.server";
import { countStatementsIn, db } from "./db.server";
import { joinedLicence, LICENCE_JOIN_COLUMNS, licenceView, type JoinedLicenceColumns } from "./licence.server";
import { logger } from "./logger.server";
import { completeCandleSets, seriesKey } from "./market-data.server";
import { notify } from "./notifications.server";
import { sendMarketOrder } from "./order-send.server";
import { enqueueTick } from "./queue.server";
import { reconcile } from "./reconcile.server";
import { recheckAfterSync, storedSkips } from "./broker-rules.server";
import { newsCalendarFor } from "./calendar.server";
import { settingsFromRow } from "./settings.server";
import { StatementBatcher } from "./sql-batch.server";
import { withUserLock } from "./user-lock.server";
import { closedAllHolds } from "./kill-switch-state.server";

/** Default loop interval (PRODUCT.md §9). */
export const DEFAULT_INTERVAL_SEC = 60;

/** Stop reasons with a label of their own (PRODUCT.md §4 "AI loop"); any other reads 'Inativo'. */
export const LABELLED_STOP_REASONS = ["manual", "max_consecutive_losses", "daily_loss_limit", "max_drawdown", "trading_hours", "server_shutdown"] as const;
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
  /** When the high-water mark was last raised, on the broker's clock (issue 21); null until a tick raises it. */
  peak_at: Date | null;
  /** Set by a max-drawdown stop until the user re-arms (core/risk/drawdown.ts; a row stopped before issue 21 has only `at`). */
  drawdown_stop: Partial<DrawdownStop> | null;
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
  return (await tickContext(userId)).valid;
}

type TickBotRow = Pick<BotRow, "is_active" | "peak_balance" | "peak_at" | "last_started_at" | "manage_only_since" | "manage_only_reason"> & { drawdown_stopped: boolean };

interface TickContextRow extends TickBotRow, JoinedLicenceColumns {
  role: string;
  subscription_status: string;
  timezone: string | null;
  has_bot: boolean;
  settings: unknown;
  has_connection: boolean;
  c_environment: BrokerConnectionRow["environment"];
  c_account_id: string;
  c_account_alias: string | null;
  c_account_currency: string | null;
  c_token_encrypted: string;
  c_last_transaction_id: string | null;
  c_market_clock_offset_ms: string;
  c_status: string;
  c_connected_at: Date;
  account_state: unknown;
  counter_since: Date | null;
  counter_trades: { id: string; open_time: string; close_time: string | null; realized_pl: string | null; status: string }[] | null;
}

/** Trades read with the tick's context for the risk counters: those opened or closed since `since`, plus the newest closed and opened. */
interface CounterPreRead {
  since: Date;
  rows: { id: string; openTime: Date; closeTime: Date | null; realizedPL: string | null; status: string }[];
}

/** What a tick needs from our tables before the broker (`tickContext`). */
interface TickContext {
  valid: boolean;
  timezone?: string;
  bot?: TickBotRow;
  settings: TradingSettings;
  conn?: BrokerConnectionRow;
  stored?: StoredAccountState;
  counters?: CounterPreRead;
}

/** How far back (before the broker's "now") the context read takes the trades of the risk counters: a trading day starts within 24 h of now. */
const COUNTER_WINDOW_HOURS = 48;

/**
 * What a tick needs from our tables before the broker, in ONE statement (issue 13: ≤ 10 SQL per
 * tick): licence validity (wall clock: a subscription is real time; the newest licence, as
 * latestLicence reads it), the user's timezone, the bot's row (absent when it has none), the trading
 * settings (defaults filled in), the broker connection, the stored account state
 * (account-state.server.ts) and the trades the risk counters need over the last
 * COUNTER_WINDOW_HOURS of the broker's clock (used when this tick's sync records nothing; see
 * counterTrades).
 */
async function tickContext(userId: string): Promise<TickContext> {
  const [u] = await tickContextRows([userId]);
  return contextFromRow(userId, u);
}

/**
 * The tick contexts of the ticks running at once, one statement per batch (ADR 0032): the ticks a
 * claim starts read their contexts together, each after taking its own lock. Same read as
 * `tickContext`.
 */
const contextBatcher = new StatementBatcher<string, TickContext>({
  many: async (userIds) => {
    const rows = new Map((await tickContextRows(userIds)).map((r) => [r.user_id, r]));
    return userIds.map((id) => contextFromRow(id, rows.get(id)));
  },
  one: tickContext,
  maxBatch: 200,
});

/** The context rows of `userIds` (absent: no such user); see `tickContext`. */
function tickContextRows(userIds: string[]) {
  return db()<(TickContextRow & { user_id: string })[]>`
    select u.id::text as user_id, u.role, u.subscription_status, u.preferences->>'timezone' as timezone, b.user_id is not null as has_bot,
      b.is_active, b.peak_balance::text as peak_balance, b.peak_at, b.drawdown_stop is not null as drawdown_stopped, b.last_started_at, b.manage_only_since, b.manage_only_reason, s.settings,
      ${db().unsafe(LICENCE_JOIN_COLUMNS)},
      c.user_id is not null as has_connection, c.environment as c_environment, c.account_id as c_account_id,
      c.account_alias as c_account_alias, c.account_currency as c_account_currency, c.token_encrypted as c_token_encrypted,
      c.last_transaction_id as c_last_transaction_id, c.market_clock_offset_ms::text as c_market_clock_offset_ms,
      c.status as c_status, c.connected_at as c_connected_at,
      ${db().unsafe(ACCOUNT_STATE_JSON)} as account_state,
      ct.since as counter_since, ct.rows as counter_trades
    from users u
      left join bots b on b.user_id = u.id
      left join trading_settings s on s.user_id = u.id
      left join lateral (select * from licenses where user_id = u.id order by end_date desc limit 1) l on true
      left join broker_connections c on c.user_id = u.id
      left join lateral (
        select w.since, (
          select json_agg(json_build_object('id', t.id, 'open_time', t.open_time, 'close_time', t.close_time, 'realized_pl', t.realized_pl::text, 'status', t.status))
          from (
            (select id, open_time, close_time, realized_pl, status from trades
              where user_id = u.id and account_id = c.account_id and (open_time >= w.since or close_time >= w.since))
            union
            (select id, open_time, close_time, realized_pl, status from trades
              where user_id = u.id and account_id = c.account_id and status = 'closed' order by close_time desc limit 50)
            union
            (select id, open_time, close_time, realized_pl, status from trades
              where user_id = u.id and account_id = c.account_id order by open_time desc limit 1)
          ) t
        ) as rows
        from (select now() + make_interval(secs => c.market_clock_offset_ms / 1000.0) - make_interval(hours => ${COUNTER_WINDOW_HOURS}) as since) w
        where c.user_id is not null
      ) ct on true
    where u.id = any(${userIds}::uuid[])`;
}

/** A tick's context from its row (`tickContextRows`). */
function contextFromRow(userId: string, u: TickContextRow | undefined): TickContext {
  if (!u) return { valid: false, settings: settingsFromRow(undefined) };
  const valid = licenceView(u.role, u.subscription_status, joinedLicence(u)).hasValidLicense;
  const bot = u.has_bot
    ? {
        is_active: u.is_active,
        peak_balance: u.peak_balance,
        peak_at: u.peak_at,
        drawdown_stopped: u.drawdown_stopped === true,
        last_started_at: u.last_started_at,
        manage_only_since: u.manage_only_since,
        manage_only_reason: u.manage_only_reason,
      }
    : undefined;
  const conn: BrokerConnectionRow | undefined = u.has_connection
    ? {
        user_id: userId,
        environment: u.c_environment,
        account_id: u.c_account_id,
        account_alias: u.c_account_alias,
        account_currency: u.c_account_currency,
        token_encrypted: u.c_token_encrypted,
        last_transaction_id: u.c_last_transaction_id,
        market_clock_offset_ms: u.c_market_clock_offset_ms,
        status: u.c_status,
        connected_at: u.c_connected_at,
      }
    : undefined;
  const stored = parseAccountState(u.account_state);
  const counters: CounterPreRead | undefined =
    conn && u.counter_since
      ? {
          since: u.counter_since,
          rows: (u.counter_trades ?? []).map((r) => ({
            id: String(r.id),
            openTime: new Date(r.open_time),
            closeTime: r.close_time ? new Date(r.close_time) : null,
            realizedPL: r.realized_pl,
            status: r.status,
          })),
        }
      : undefined;
  return {
    valid,
    ...(u.timezone ? { timezone: u.timezone } : {}),
    ...(bot ? { bot } : {}),
    settings: settingsFromRow(u.settings),
    ...(conn ? { conn } : {}),
    ...(stored ? { stored } : {}),
    ...(counters ? { counters } : {}),
  };
}

/**
 * Activates the loop; the answer's message is in `language`. @throws PaymentRequiredError (402, not 403: §8 logs
 * the user out on 403) without a licence ('Licença necessária para ativar a IA.'), 400 without a
 * broker connection ('Nenhuma conta Oanda conectada.'), ConflictError (409) while a max-drawdown stop
 * waits for the re-arm and `opts.rearm` is not set (issue 21, core/risk/drawdown.ts). With
 * `opts.rearm` the re-arm resets the high-water mark (the next tick sets it to the NAV it reads) and
 * clears the drawdown stop, in the statement that starts the loop.
 */
export async function startBot(userId: string, intervalSec = DEFAULT_INTERVAL_SEC, language: unknown = "pt", opts: { rearm?: boolean } = {}) {
  if (!Number.isInteger(intervalSec) || intervalSec < 5 || intervalSec > 3600) throw new ValidationError(msg("bot:errors.interval"));
  if (!(await licenceValid(userId))) throw new PaymentRequiredError(msg("bot:errors.licenceRequired"));
  if (!(await getConnection(userId))) throw new ValidationError(msg("bot:errors.noBroker"));
  const [state] = await db()<Pick<BotRow, "drawdown_stop" | "peak_balance">[]>`select drawdown_stop, peak_balance::text as peak_balance from bots where user_id = ${userId}`;
  const refusal = () => new ConflictError(msg("bot:errors.drawdownRearm", { drawdown: state?.drawdown_stop?.drawdownPct ?? "0" }));
  const request = startRequest(state?.drawdown_stop != null, opts.rearm === true);
  if (request === "refuse") throw refusal();
  const rearm = request === "rearm";
  // A stop the tick records between the read above and this statement is not overridden by a plain start.
  const started = await db()`insert into bots (user_id, is_active, interval_sec, last_started_at)
    values (${userId}, true, ${intervalSec}, now())
    on conflict (user_id) do update set is_active = true, interval_sec = excluded.interval_sec,
      last_started_at = now(), last_tick_error = null, last_tick_error_msg = null,
      manage_only_since = null, manage_only_reason = null, updated_at = now(),
      peak_balance = case when ${rearm} then null else bots.peak_balance end,
      peak_at = case when ${rearm} then null else bots.peak_at end,
      drawdown_stop = case when ${rearm} then null else bots.drawdown_stop end
    where ${rearm} or bots.drawdown_stop is null
    returning user_id`;
  if (started.length === 0) throw refusal();
  if (rearm) logger().info({ userId, highWaterMark: state?.peak_balance ?? null }, "IA reativada após drawdown máximo: máxima zerada");
  await enqueueTick(userId);
  return { success: true, message: translateMsg(msg("bot:started"), language), isActive: true };
}

/** True while a max-drawdown stop waits for the user's re-arm (issue 21): a plain start is refused. */
export async function rearmRequired(userId: string): Promise<boolean> {
  const [row] = await db()<{ required: boolean }[]>`select (not is_active and drawdown_stop is not null) as required from bots where user_id = ${userId}`;
  return row?.required === true;
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
  /** Whether the order went out (false for "none", closes, refused entries and orders the broker did not take). */
  executed?: boolean;
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
 * last decisions; `rearmRequired` and `drawdownStop` (issue 21: the record of a max-drawdown stop —
 * drawdown %, amount, high-water mark, NAV, currency, the trades behind it — plus `highWaterMarkNow`,
 * the persisted mark; null unless stopped so and not yet re-armed); and manage-only (issue 9): `manageOnly` (the loop is on but opens no new trades),
 * `manageOnlyReason` (why, as text) with its message `manageOnlyReasonMsg`, and in loopState the
 * reason's code and since when. Texts are in `language`; the stored messages ride along
 * (`reasonMsg`, `lastTickErrorMsg`, null for texts without one) so a screen can render them itself.
 */
export async function botStatus(userId: string, language: unknown = "pt") {
  const bot = await getBot(userId);
  const decisions = await db()<DecisionRow[]>`
    select instrument, action, side, confidence, timeframe, reason, reason_msg, risk_reason, payload->'riskReasonMsg' as risk_reason_msg, created_at, executed
    from decisions where user_id = ${userId} order by id desc limit 3`;
  const tickErrorMsg = isMsg(bot?.last_tick_error_msg) ? bot.last_tick_error_msg : null;
  const manageOnly = bot?.is_active && bot.manage_only_reason ? { reason: bot.manage_only_reason, since: bot.manage_only_since, msg: manageOnlyMsg(bot.manage_only_reason) } : null;
  // Issue 21: stopped by the max drawdown, waiting for the re-arm (the record of the stop, and the mark kept since).
  const drawdownStop = bot && !bot.is_active && bot.drawdown_stop ? { ...bot.drawdown_stop, highWaterMarkNow: bot.peak_balance } : null;
  return {
    success: true,
    isActive: bot?.is_active ?? false,
    rearmRequired: drawdownStop !== null,
    drawdownStop,
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
    lastDecisions: decisions.map((d) => decisionStatusRow(d, language)),
  };
}

/**
 * A stored decision as the loop status shows it, texts in `language` with their messages: `reason`
 * (the engine's, then the risk gate's refusal of an opening: '… — …'), and apart (issue 22)
 * `executed`, `refusal` (the risk gate's refusal of an opening, else null) and `signal` (the engine's reason alone).
 */
export function decisionStatusRow(d: DecisionRow, language: unknown) {
  const reason = decisionReason(d);
  // Issue 22: an entry the risk gate refused carries its refusal apart, so the hero shows it first.
  const refusal = d.action === "open" && d.risk_reason ? (isMsg(d.risk_reason_msg) ? d.risk_reason_msg : d.risk_reason) : null;
  const signal = isMsg(d.reason_msg) ? d.reason_msg : d.reason;
  return {
    instrument: d.instrument,
    action: d.action,
    side: d.side,
    confidence: d.confidence === null ? null : Number(d.confidence),
    timeframe: d.timeframe,
    reason: translateMsg(reason, language),
    reasonMsg: isMsg(reason) ? reason : null,
    executed: d.executed ?? false,
    refusal: refusal === null ? null : translateMsg(refusal, language),
    refusalMsg: isMsg(refusal) ? refusal : null,
    signal: translateMsg(signal, language),
    signalMsg: isMsg(signal) ? signal : null,
    at: d.created_at.toISOString(),
  };
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
  const started = Date.now();
  // The tick's own statements (not those of ticks running beside it): the issue 7/13 budget.
  const scope = { statements: 0 };
  try {
    return await countStatementsIn(scope, () => runTickLocked(userId, opts));
  } finally {
    logger().debug({ userId, sqlRoundTrips: scope.statements, ms: Date.now() - started }, "tick");
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
    const seen: { nav?: string; at?: Date; syncedAt?: Date } = {};
    // A forced tick (run-once) works on the broker's current state: it syncs first (ADR 0027).
    const run = { stored: context.stored, counters: context.counters, forced: force };
    const outcome = await tradeOnce(userId, conn, client, settings, { valid: licensed, ...(userTimezone ? { timezone: userTimezone } : {}) }, bot, seen, run, signal);
    // The high-water mark only rises and is never reset by a stop (core/trading/counters.ts).
    // A sync of this tick that found the stored account state current moves its synced_at (ADR 0027),
    // in the same statement, which also carries the other ticks ending now (ADR 0032).
    await tickDoneBatcher.submit({ userId, nav: seen.nav ?? null, at: seen.at ?? null, syncedAt: seen.syncedAt ?? null });
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
      await markConnection(userId, "error", message);
      if (conn.status !== "error") await notify(userId, { type: "error", ...notices.connectionLost(errorMsg) });
      if (err.kind === "auth" || err.kind === "forbidden") await stopWithNotice(userId, "broker", errorMsg);
      if (err.retryable) throw err; // the worker runs the next tick sooner (jobs/handlers.ts); run-once answers 502
    }
    return isMsg(errorMsg) ? { status: "skipped", reason: message, reasonMsg: errorMsg } : { status: "skipped", reason: message };
  }
}

/** A tick that ended without error: its bot and the NAV it read (`null`: none), and when its sync confirmed the stored account state. */
interface TickDone {
  userId: string;
  nav: string | null;
  /** The tick's instant on the broker's clock: when the mark was raised, if the NAV raised it. */
  at: Date | null;
  syncedAt: Date | null;
}

/**
 * The end of the ticks ending at once, one statement per batch (ADR 0032): each bot's last tick time
 * and cleared error, its high-water mark raised with the tick's NAV (never lowered), and the stored
 * account state's `synced_at` moved for the ticks that synced (ADR 0027). `peak_at` takes the tick's
 * broker-clock instant when its NAV sets or raises the mark (issue 21: the trades behind a drawdown).
 */
const tickDoneBatcher = new StatementBatcher<TickDone, void>({
  many: async (done) => {
    await db()`with v as (
        select * from unnest(${done.map((d) => d.userId)}::uuid[], ${done.map((d) => d.nav)}::numeric[], ${done.map((d) => d.syncedAt?.toISOString() ?? null)}::timestamptz[],
          ${done.map((d) => d.at?.toISOString() ?? null)}::timestamptz[])
          as v(user_id, nav, synced_at, at)
      ), synced as (
        update account_states a set synced_at = v.synced_at from v where a.user_id = v.user_id and v.synced_at is not null
      )
      update bots b set last_tick_at = now(), last_tick_error = null, last_tick_error_msg = null,
        peak_at = case when v.nav is not null and (b.peak_balance is null or v.nav > b.peak_balance) then coalesce(v.at, now()) else b.peak_at end,
        peak_balance = greatest(b.peak_balance, v.nav) from v where b.user_id = v.user_id`;
    return done.map(() => undefined);
  },
  one: async (d) => {
    const sql = db();
    const synced = d.syncedAt ? sql`with synced as (update account_states set synced_at = ${d.syncedAt} where user_id = ${d.userId}) ` : sql``;
    await sql`${synced}update bots set last_tick_at = now(), last_tick_error = null, last_tick_error_msg = null,
      peak_at = case when ${d.nav}::numeric is not null and (peak_balance is null or ${d.nav}::numeric > peak_balance) then coalesce(${d.at}::timestamptz, now()) else peak_at end,
      peak_balance = greatest(peak_balance, ${d.nav}::numeric) where user_id = ${d.userId}`;
  },
});

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
  } else if (!verdict && bot.manage_only_since && bot.manage_only_reason !== "user") {
    // The user's own 'Parar novas entradas' (issue 22) outlives the licence: only "Retomar entradas" ends it.
    const rows = await db()`update bots set manage_only_since = null, manage_only_reason = null, updated_at = now()
      where user_id = ${userId} and manage_only_since is not null and manage_only_reason is distinct from 'user' returning user_id`;
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

/** Most trades a drawdown notification lists by name (the rest are counted: "mais N"); the status keeps them all up to DRAWDOWN_TRADES_KEPT. */
const DRAWDOWN_TRADES_LISTED = 10;
const DRAWDOWN_TRADES_KEPT = 200;

/**
 * The max-drawdown stop (issue 21): stops the loop, records the stop on the bot (drawdown, mark, NAV,
 * the trades closed since the mark was set) so it stays stopped until the user re-arms, and — only
 * when this call stopped a running loop, so once per stop — notifies it ('IA parada: drawdown
 * máximo', with the figures and the trades; web push as every notification).
 */
async function drawdownStopWithNotice(
  userId: string,
  conn: BrokerConnectionRow,
  stop: { at: Date; limitPct: number; highWaterMark: string; nav: string; currency: string; since: Date | null },
) {
  const sql = db();
  const rows = await sql<{ broker_trade_id: string; instrument: string; close_time: Date; realized_pl: string }[]>`
    select broker_trade_id, instrument, close_time, realized_pl::text as realized_pl from trades
    where user_id = ${userId} and account_id = ${conn.account_id} and status = 'closed' and realized_pl is not null
      and close_time > ${stop.since ?? new Date(0)} and close_time <= ${stop.at}
    order by close_time desc limit ${DRAWDOWN_TRADES_KEPT}`;
  const record = drawdownStopRecord({
    ...stop,
    trades: rows.map((r) => ({ id: r.broker_trade_id, instrument: r.instrument, closeTime: r.close_time.toISOString(), pl: r.realized_pl })),
  });
  const stopped = await sql`update bots set is_active = false, last_stopped_at = now(), last_stop_reason = 'max_drawdown',
      manage_only_since = null, manage_only_reason = null, drawdown_stop = ${sql.json(record as never)}, updated_at = now()
    where user_id = ${userId} and is_active returning user_id`;
  if (stopped.length === 0) return;
  await notify(userId, {
    type: "limit",
    ...notices.drawdownStop(record, DRAWDOWN_TRADES_LISTED),
    metadata: { reason: "max_drawdown", reasonText: stopReasonText("max_drawdown"), drawdownStop: record },
  });
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
  bot: Pick<BotRow, "peak_balance" | "peak_at" | "last_started_at" | "manage_only_reason"> | undefined,
  seen: { nav?: string; at?: Date; syncedAt?: Date },
  context: TickRun,
  signal: AbortSignal,
): Promise<TickOutcome> {
  // The offered instruments (stored per account, ADR 0025), read once per tick at most.
  let offeredList: Promise<readonly BrokerInstrument[]> | undefined;
  const offered = () => (offeredList ??= offeredInstrumentList(conn, client, { stored: context.stored }));
  const names = async () => (await offered()).map((i) => i.name);
  // Quotes from the environment's shared cache (quote-cache.server.ts); the tick's own instruments
  // (and their conversion pairs) ride along in any read, so one read serves the whole tick.
  const currency = context.stored?.summary?.currency ?? conn.account_currency ?? "USD";
  const quotes = async (instruments: string[]) => {
    const list = await names();
    const also = resolveInstruments(settings).filter((i) => list.includes(i));
    for (const i of [...also]) for (const c of conversionInstruments(instrumentSpec(i).quote, currency, list)) also.push(c);
    return sharedQuotes(conn.environment, instruments, { accountId: conn.account_id, client, offered: list }, { also, signal });
  };
  const account = tickAccount({
    userId,
    conn,
    client,
    stored: context.stored,
    quotes,
    // Margin rates for the valuation: the broker's, from the offered list.
    marginRates: async () => new Map((await offered()).map((i) => [i.name, i.marginRate])),
    offered: names,
    marketNow: () => brokerNow(conn),
  });
  const books: Books = { changed: false };
  const ports: TickPorts = {
    broker: liveBroker(userId, conn, client, { quotes, account, instruments: names }),
    store: liveStore(userId, conn, client, settings, context, books),
    decisions: {
      prepare: async (instruments, now) => {
        const sets = await completeCandleSets(client, conn.environment, instruments, AI_TIMEFRAMES, now);
        return (input) => {
          const candles: Record<string, Candle[]> = {};
          for (const tf of AI_TIMEFRAMES) candles[tf] = sets.get(seriesKey(input.instrument, tf)) ?? [];
          return loadedEngine(conn.environment, input.instrument, settings, candles).decide(input);
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
    // Pairs the account's rules skip (issue 22: the broker's minimum size above the risk's units).
    minimumSizeSkips: storedSkips(context.stored?.account_rules, conn),
    // The user's 'Parar novas entradas' (issue 22): manage-only whatever the licence says.
    entriesStopped: bot?.manage_only_reason === "user",
    highWaterMark: bot?.peak_balance ?? null,
    runStartedAt,
  });
  seen.nav = report.nav;
  seen.at = report.now;
  if (books.syncedAt) seen.syncedAt = books.syncedAt;
  if (books.syncedAt) {
    // The broker-rule check follows the sync window (issue 22): a tick that synced checks the account's rules again.
    const read = context.stored?.summary && context.stored.account_id === conn.account_id && context.stored.environment === conn.environment ? context.stored.summary : undefined;
    await recheckAfterSync(userId, conn, client, { settings, ...(read ? { summary: { currency: read.currency, hedgingEnabled: read.hedgingEnabled, balance: report.balance } } : {}) });
  }
  logger().debug({ userId, nav: report.nav, balance: report.balance, accountSource: account.lastSource(), deferred: books.deferred === true, synced: books.syncedAt !== undefined }, "tick account");
  if (report.manageOnly) {
    const m = report.manageOnly;
    return { status: "done", decisions: [], manageOnly: m.manageOnly, manageOnlyReason: m.reason, manageOnlyReasonMsg: m.reasonMsg };
  }
  if (report.stopped?.stopBot === "max_drawdown") {
    const since = bot?.peak_at ?? runStartedAt;
    await drawdownStopWithNotice(userId, conn, { at: report.now, limitPct: settings.maxDrawdownPct, highWaterMark: report.highWaterMark, nav: report.nav, currency, since });
  } else if (report.stopped) await stopWithNotice(userId, report.stopped.stopBot, report.stopped.reasonMsg ?? report.stopped.reason);
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

/**
 * Engines loaded with the candles of an instrument, shared by every tick of this process that decides
 * on the same candles with the same indicator parameters (issue 13: loading 250 candles × 4
 * timeframes into the indicators was the largest CPU cost of a tick, the same work for every bot).
 * `DecisionEngine.decide` is pure given the pushed candles (core/engine/decide.ts), so a shared engine
 * decides exactly as `decide(input)` would. Keyed by environment, instrument, FeatureConfig and each
 * timeframe's candle span (count, first and last open time, whether the last is complete: an
 * incomplete candle is not pushed, its completion is). At most ENGINE_CACHE_MAX entries, then cleared.
 */
const engines = new Map<string, DecisionEngine>();
const ENGINE_CACHE_MAX = 2000;

function loadedEngine(environment: string, instrument: string, settings: TradingSettings, candles: Record<string, Candle[]>): DecisionEngine {
  const config = featureConfig(settings);
  let key = `${environment}|${instrument}|${JSON.stringify(config)}`;
  for (const tf of AI_TIMEFRAMES) {
    const list = candles[tf] ?? [];
    const last = list[list.length - 1];
    key += `|${list.length}:${list[0]?.time ?? ""}:${last?.time ?? ""}:${last?.complete ? 1 : 0}`;
  }
  let engine = engines.get(key);
  if (!engine) {
    engine = new DecisionEngine(config).load(candles);
    if (engines.size >= ENGINE_CACHE_MAX) engines.clear();
    engines.set(key, engine);
  }
  return engine;
}

/** Offered-instrument lists read in this process, by `environment:account`, with when the broker gave them (the tick reads the stored one from its context row). */
const offered = new Map<string, { at: number; list: readonly BrokerInstrument[] }>();
/** Equal lists are kept once (most accounts of an environment offer the same instruments). */
const internedLists = new Map<string, readonly BrokerInstrument[]>();

function intern(list: readonly BrokerInstrument[]): readonly BrokerInstrument[] {
  const key = JSON.stringify(list);
  const hit = internedLists.get(key);
  if (hit) return hit;
  if (internedLists.size > 1000) internedLists.clear();
  internedLists.set(key, list);
  return list;
}

/**
 * The instruments the connected account offers (GET A/instruments: names, precision, margin rates),
 * read from the broker at most once per INSTRUMENTS_MAX_AGE_MS per account: from this process's
 * memory, else the account's stored list (`account_states`, ADR 0025; `known.stored` when the
 * caller already read it, else one statement), else the broker — then stored for every process.
 * The tick skips the user's instruments that are not in it and the pre-flight check uses the
 * broker's margin rates (issue 12).
 * @throws the broker's error when the list cannot be read
 */
export async function offeredInstrumentList(
  conn: Pick<BrokerConnectionRow, "environment" | "account_id"> & { user_id?: string },
  client: BrokerPort,
  known?: { stored: StoredAccountState | undefined },
): Promise<readonly BrokerInstrument[]> {
  const key = `${conn.environment}:${conn.account_id}`;
  const now = Date.now();
  const hit = offered.get(key);
  if (hit && now - hit.at < INSTRUMENTS_MAX_AGE_MS) return hit.list;
  const stored = known ? known.stored : conn.user_id ? await readAccountState(conn.user_id) : undefined;
  const fromDb = freshInstruments(stored, conn, now);
  if (fromDb) {
    const list = intern(fromDb);
    offered.set(key, { at: storedFor(stored, conn)!.instruments_read_at!.getTime(), list });
    return list;
  }
  const list = intern(await client.getInstruments(conn.account_id));
  offered.set(key, { at: now, list });
  if (conn.user_id) await saveInstruments(conn.user_id, conn, list);
  return list;
}

/** The executor's broker port over the user's broker client (core/trading/tick.ts TickBroker). */
function liveBroker(
  userId: string,
  conn: BrokerConnectionRow,
  client: BrokerPort,
  via: { quotes: (instruments: string[]) => Promise<ClientPrice[]>; account: ReturnType<typeof tickAccount>; instruments: () => Promise<readonly string[]> },
): TickBroker {
  return {
    // Summary and open trades: the stored state valued at current quotes while no transaction happened (ADR 0025).
    accountSummary: async () => (await via.account.snapshot()).summary,
    openTrades: async () => (await via.account.snapshot()).trades,
    prices: async (instruments) => {
      const prices = await via.quotes(instruments);
      // The broker clock's offset is stored when it moves (the simulator replays history; ≈0 on OANDA).
      const market = prices.reduce((t, p) => Math.max(t, Date.parse(p.time)), 0);
      if (market > 0 && Math.abs(market - brokerNow(conn)) > 1000) await recordMarketTime(userId, market);
      return prices;
    },
    instruments: via.instruments,
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

/**
 * What a tick's syncs did: whether one recorded transactions (`changed`), when the first ran
 * (`syncedAt`, broker clock), and whether the tick began from the stored state without one (`deferred`).
 */
interface Books {
  changed: boolean;
  syncedAt?: Date;
  deferred?: boolean;
}

/** What a tick runs on besides its connection and settings: the context read's stored state and counters, and whether it was forced (run-once). */
type TickRun = Pick<TickContext, "stored" | "counters"> & { forced: boolean };

/**
 * The executor's trade store over our PostgreSQL books of the account (core/trading/tick.ts
 * TradeStore). `context.counters` are the counter trades read with the tick's context: used while
 * no sync of this tick recorded anything (`books.changed`). The first sync is deferred while the
 * stored account state is within its sync window (account-state.server.ts `syncDue`, ADR 0027),
 * never for a forced tick (run-once: the user expects a tick on the broker's current state).
 */
function liveStore(
  userId: string,
  conn: BrokerConnectionRow,
  client: BrokerPort,
  settings: TradingSettings,
  context: TickRun,
  books: Books,
): TradeStore {
  const sql = db();
  const pre = context.counters;
  return {
    deferSync: () => (books.deferred = !context.forced && !syncDue(context.stored, conn, config().ACCOUNT_SYNC_MAX_AGE_SEC * 1000, brokerNow(conn))),
    sync: async () => {
      books.syncedAt ??= new Date(brokerNow(conn));
      const before = conn.last_transaction_id;
      await reconcile(userId, conn, client);
      if (conn.last_transaction_id !== before) books.changed = true;
    },
    counterTrades: (dayStart) => (pre && !books.changed && dayStart >= pre.since ? countersFromPreRead(pre, dayStart) : counterTrades(userId, conn.account_id, dayStart)),
    recordDecisions: async (records, now) => {
      // Every decision (including "no trade") is stored before any order is sent (the reconcile that
      // records a fill reads the decision by its id, even after a crash), in the same statement that
      // reads each instrument's previous timeframe (the CTE sees the table before the insert).
      if (records.length === 0) return;
      const decisions = records.map((r) => r.decision);
      crashPoint("before-decisions");
      const prev = await decisionsBatcher.submit({
        userId,
        instruments: decisions.map((d) => d.instrument),
        rows: records.map((r) => decisionRow(userId, r, settings, now)),
      });
      crashPoint("after-decisions");
      await noteTimeframeChanges(userId, decisions, prev);
    },
    orderNotPlaced: async (decision) => {
      await sql`update decisions set executed = false where user_id = ${userId} and decision_id = ${decision.id} and executed`;
    },
  };
}

/** One tick's decisions to store: its rows, and the instruments whose previous timeframe it needs. */
interface DecisionsInsert {
  userId: string;
  instruments: string[];
  rows: DecisionInsertRow[];
}

/** A `decisions` row as the insert sends it: text for every column (cast in the statement), jsonb columns as JSON text. */
interface DecisionInsertRow {
  user_id: string;
  decision_id: string;
  instrument: string;
  action: string;
  side: string | null;
  confidence: string | null;
  timeframe: string | null;
  reason: string;
  reason_msg: string | null;
  risk_code: string | null;
  risk_reason: string | null;
  executed: "true" | "false";
  payload: string;
}

/**
 * Stores the decisions of the ticks deciding at once in one statement (ADR 0032), which also reads
 * each tick's previous timeframe per instrument (the newest stored decision of that user and
 * instrument: the CTE sees the table before the insert). Answers, per tick, the previous timeframes.
 */
async function insertDecisions(items: DecisionsInsert[]): Promise<{ instrument: string; timeframe: string | null }[][]> {
  const keyUsers = items.flatMap((i) => i.instruments.map(() => i.userId));
  const keyInstruments = items.flatMap((i) => i.instruments);
  const rows = items.flatMap((i) => i.rows);
  const col = <K extends keyof DecisionInsertRow>(k: K) => rows.map((r) => r[k]);
  // One statement text whatever the number of rows (arrays, not a VALUES list): one prepared statement.
  const prev = await db()<{ user_id: string; instrument: string; timeframe: string | null }[]>`
    with prev as (
      select k.user_id::text as user_id, k.instrument, p.timeframe
      from unnest(${keyUsers}::uuid[], ${keyInstruments}::text[]) as k(user_id, instrument)
        cross join lateral (select timeframe from decisions d where d.user_id = k.user_id and d.instrument = k.instrument order by d.id desc limit 1) p
    ), inserted as (
      insert into decisions (user_id, decision_id, instrument, action, side, confidence, timeframe, reason, reason_msg, risk_code, risk_reason, executed, payload)
      select user_id, decision_id, instrument, action, side, confidence::numeric, timeframe, reason, reason_msg::jsonb, risk_code, risk_reason, executed::boolean, payload::jsonb
      from unnest(${col("user_id")}::uuid[], ${col("decision_id")}::text[], ${col("instrument")}::text[], ${col("action")}::text[], ${col("side")}::text[],
        ${col("confidence")}::text[], ${col("timeframe")}::text[], ${col("reason")}::text[], ${col("reason_msg")}::text[], ${col("risk_code")}::text[],
        ${col("risk_reason")}::text[], ${col("executed")}::text[], ${col("payload")}::text[])
        as r(user_id, decision_id, instrument, action, side, confidence, timeframe, reason, reason_msg, risk_code, risk_reason, executed, payload)
    )
    select user_id, instrument, timeframe from prev`;
  const byUser = new Map<string, { instrument: string; timeframe: string | null }[]>();
  for (const p of prev) byUser.set(p.user_id, [...(byUser.get(p.user_id) ?? []), { instrument: p.instrument, timeframe: p.timeframe }]);
  return items.map((i) => byUser.get(i.userId.toLowerCase()) ?? []);
}

const decisionsBatcher = new StatementBatcher<DecisionsInsert, { instrument: string; timeframe: string | null }[]>({
  many: insertDecisions,
  one: async (item) => (await insertDecisions([item]))[0]!,
  maxBatch: 300,
});

/** The `decisions` row of one tick decision. reason_msg is the engine's; the risk gate's message rides in the payload. */
function decisionRow(userId: string, { decision, verdict, execute }: DecisionRecord, settings: TradingSettings, now: Date): DecisionInsertRow {
  const riskMsg = verdict.allowed ? undefined : verdict.reasonMsg;
  return {
    user_id: userId,
    decision_id: decision.id,
    instrument: decision.instrument,
    action: decision.action,
    side: decision.side ?? null,
    confidence: decision.confidence === null || decision.confidence === undefined ? null : String(decision.confidence),
    timeframe: decision.timeframe ?? null,
    reason: decision.reason,
    reason_msg: isMsg(decision.reasonMsg) ? JSON.stringify(decision.reasonMsg) : null,
    risk_code: verdict.code ?? null,
    risk_reason: verdict.allowed ? null : verdict.reason,
    executed: execute ? "true" : "false",
    payload: JSON.stringify({
      regime: decision.regime,
      stopLoss: decision.stopLoss,
      takeProfit: decision.takeProfit,
      units: decision.units,
      tradingStyle: settings.aiSettings.tradingStyle,
      marketTime: now.toISOString(),
      // Entry, stop/target distances in pips and indicator values, for "Por que a IA entrou?" (issue 12).
      ...decisionExplainPayload(decision),
      ...(riskMsg ? { riskReasonMsg: riskMsg } : {}),
    }),
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

/** A trade row as the risk counters take it. */
const counterTrade = (r: { closeTime: Date | null; openTime: Date; realizedPL: string | null; status: string }): CounterTrade => ({
  openTime: r.openTime,
  closeTime: r.status === "closed" ? r.closeTime : null,
  realizedPL: r.status === "closed" ? r.realizedPL : null,
});

/**
 * Trades of the account for the risk counters (core/trading/counters.ts), from our books
 * (reconciled just before), in one query: those opened or closed since the trading day started,
 * plus the newest closed ones for the losing streak and the newest opened for the cooldown.
 */
export async function counterTrades(userId: string, accountId: string, dayStart: Date): Promise<CounterTrade[]> {
  const rows = await db()<{ id: string; open_time: Date; close_time: Date | null; realized_pl: string | null; status: string }[]>`
    (select id, open_time, close_time, realized_pl::text, status from trades
      where user_id = ${userId} and account_id = ${accountId} and (open_time >= ${dayStart} or close_time >= ${dayStart}))
    union
    (select id, open_time, close_time, realized_pl::text, status from trades
      where user_id = ${userId} and account_id = ${accountId} and status = 'closed' order by close_time desc limit 50)
    union
    (select id, open_time, close_time, realized_pl::text, status from trades
      where user_id = ${userId} and account_id = ${accountId} order by open_time desc limit 1)`;
  return rows.map((r) => counterTrade({ openTime: r.open_time, closeTime: r.close_time, realizedPL: r.realized_pl, status: r.status }));
}

/**
 * The same trades as `counterTrades`, taken from the context's read (which holds every trade opened
 * or closed since `pre.since` ≤ dayStart, the newest 50 closed and the newest opened): no statement.
 */
function countersFromPreRead(pre: CounterPreRead, dayStart: Date): CounterTrade[] {
  const t0 = dayStart.getTime();
  const keep = new Set<string>();
  for (const r of pre.rows) if (r.openTime.getTime() >= t0 || (r.closeTime && r.closeTime.getTime() >= t0)) keep.add(r.id);
  const closed = pre.rows.filter((r) => r.status === "closed" && r.closeTime).sort((a, b) => b.closeTime!.getTime() - a.closeTime!.getTime());
  for (const r of closed.slice(0, 50)) keep.add(r.id);
  const newest = pre.rows.reduce<(typeof pre.rows)[number] | undefined>((n, r) => (!n || r.openTime > n.openTime ? r : n), undefined);
  if (newest) keep.add(newest.id);
  return pre.rows.filter((r) => keep.has(r.id)).map(counterTrade);
}

/** The order's client id: derived from the user and the decision id, so a repeated tick can never open a second trade. */
export function clientOrderId(userId: string, decisionId: string): string {
  return `ia-${createHash("sha256").update(`${userId}:${decisionId}`).digest("hex").slice(0, 24)}`;
}

/**
 * Sends the market order of an "open" decision with SL/TP (and trailing stop) attached on fill.
 * The order intent row is written first (order-send.server.ts, shared with the manual orders); if it
 * already exists this decision was already acted on (maybe by a tick that crashed after sending) and
 * nothing is sent. Returns whether a trade opened.
 */
async function placeOrder(userId: string, conn: BrokerConnectionRow, client: BrokerPort, decision: Decision): Promise<boolean> {
  const id = clientOrderId(userId, decision.id);
  const order = marketOrderFor(decision, id);
  const intent = { clientOrderId: id, decisionId: decision.id, instrument: decision.instrument, units: decision.units!, origin: "ai" as const };
  return (await sendMarketOrder(userId, conn, client, intent, order)).status === "filled";
}
