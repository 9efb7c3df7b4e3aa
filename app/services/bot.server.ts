/**
 * The AI bot of a user: start/stop/status of the loop (PRODUCT.md §7 AI) and one tick, the fixed
 * sequence of DESIGN.md §3: reconcile → account → per instrument: market data → engine decision →
 * risk → (order) → store the decision. Ticks of one bot never overlap: each holds a PostgreSQL
 * advisory lock for the bot while it runs (released by PostgreSQL if the process dies).
 */
import { createHash } from "node:crypto";
import type { BrokerPort } from "../../core/broker/port";
import { Decimal } from "../../core/decimal";
import { decide, type Decision } from "../../core/engine/decide";
import { AI_TIMEFRAMES, instrumentSpec } from "../../core/instruments";
import { evaluateRisk, spreadInPips, tradingDayStart, type RiskVerdict, type StopBotReason } from "../../core/risk";
import { resolveInstruments } from "../../core/settings";
import { BrokerError } from "../../core/oanda/errors";
import { ApiError } from "./api.server";
import { getConnection, markConnection, recordMarketTime, requireBroker, type BrokerConnectionRow } from "./broker.server";
import { db } from "./db.server";
import { latestLicence, licenceView } from "./licence.server";
import { logger } from "./logger.server";
import { completeCandles } from "./market-data.server";
import { notify } from "./notifications.server";
import { enqueueTick } from "./queue.server";
import { reconcile } from "./reconcile.server";
import { getSettings } from "./settings.server";

/** Default loop interval (PRODUCT.md §9). */
export const DEFAULT_INTERVAL_SEC = 60;
const LOCK_NAMESPACE = 724_002;

/** Portuguese labels of stop reasons (PRODUCT.md §4 "AI loop"). */
export const STOP_REASON_TEXT: Record<string, string> = {
  manual: "Parado manualmente",
  max_consecutive_losses: "Parado por perdas consecutivas",
  daily_loss_limit: "Parado por limite diário de perdas",
  trading_hours: "Parado fora do horário",
  server_shutdown: "Parado por reinício do servidor",
};
export const stopReasonText = (reason: string | null | undefined) => (reason && STOP_REASON_TEXT[reason]) || "Inativo";

interface BotRow {
  user_id: string;
  is_active: boolean;
  interval_sec: number;
  last_started_at: Date | null;
  last_stopped_at: Date | null;
  last_stop_reason: string | null;
  last_tick_at: Date | null;
  last_tick_error: string | null;
  peak_balance: string | null;
  day_start: Date | null;
  day_start_balance: string | null;
}

async function getBot(userId: string): Promise<BotRow | undefined> {
  const [row] = await db()<BotRow[]>`select * from bots where user_id = ${userId}`;
  return row;
}

async function licenceValid(userId: string): Promise<boolean> {
  const [u] = await db()<{ role: string; subscription_status: string }[]>`select role, subscription_status from users where id = ${userId}`;
  if (!u) return false;
  return licenceView(u.role, u.subscription_status, await latestLicence(db(), userId)).hasValidLicense;
}

/**
 * Activates the loop. @throws ApiError 402 (not 403: §8 logs the user out on 403) without a licence ('Licença necessária'), 400 without a
 * broker connection ('Nenhuma conta Oanda conectada.').
 */
export async function startBot(userId: string, intervalSec = DEFAULT_INTERVAL_SEC) {
  if (!Number.isInteger(intervalSec) || intervalSec < 5 || intervalSec > 3600)
    throw new ApiError(400, "intervalSec deve ser um número inteiro entre 5 e 3600 segundos.");
  if (!(await licenceValid(userId))) throw new ApiError(402, "Licença necessária para ativar a IA.");
  if (!(await getConnection(userId))) throw new ApiError(400, "Nenhuma conta Oanda conectada.");
  await db()`insert into bots (user_id, is_active, interval_sec, last_started_at)
    values (${userId}, true, ${intervalSec}, now())
    on conflict (user_id) do update set is_active = true, interval_sec = excluded.interval_sec,
      last_started_at = now(), last_tick_error = null, updated_at = now()`;
  await enqueueTick(userId);
  return { success: true, message: "IA ativada", isActive: true };
}

/** Deactivates the loop with a stop reason (PRODUCT.md §4). Returns whether it was active. */
export async function stopBot(userId: string, reason = "manual"): Promise<boolean> {
  const rows = await db()`update bots set is_active = false, last_stopped_at = now(), last_stop_reason = ${reason}, updated_at = now()
    where user_id = ${userId} and is_active returning user_id`;
  return rows.length > 0;
}

/** Loop status (PRODUCT.md §3 AI loop): isActive, loopState {lastStopReason…}, last start/stop times, last decisions. */
export async function botStatus(userId: string) {
  const bot = await getBot(userId);
  const decisions = await db()<{ instrument: string; action: string; side: string | null; confidence: string | null; timeframe: string | null; reason: string; risk_reason: string | null; created_at: Date }[]>`
    select instrument, action, side, confidence, timeframe, reason, risk_reason, created_at from decisions
    where user_id = ${userId} order by id desc limit 3`;
  return {
    success: true,
    isActive: bot?.is_active ?? false,
    intervalSec: bot?.interval_sec ?? DEFAULT_INTERVAL_SEC,
    loopState: {
      lastStopReason: bot?.last_stop_reason ?? null,
      lastStopReasonText: bot?.is_active ? null : stopReasonText(bot?.last_stop_reason),
      lastStartedAt: bot?.last_started_at?.toISOString() ?? null,
      lastStoppedAt: bot?.last_stopped_at?.toISOString() ?? null,
      lastTickAt: bot?.last_tick_at?.toISOString() ?? null,
      lastTickError: bot?.last_tick_error ?? null,
    },
    lastDecisions: decisions.map((d) => ({
      instrument: d.instrument,
      action: d.action,
      side: d.side,
      confidence: d.confidence === null ? null : Number(d.confidence),
      timeframe: d.timeframe,
      reason: d.risk_reason && d.action === "open" ? `${d.reason} — ${d.risk_reason}` : d.reason,
      at: d.created_at.toISOString(),
    })),
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

export type TickOutcome =
  | { status: "skipped"; reason: string }
  | { status: "done"; decisions: { instrument: string; action: string; reason: string; risk?: string; executed: boolean }[]; stopped?: string };

/**
 * Runs one tick under the bot's advisory lock. `force` runs it even when the loop is off (run-once).
 * Never throws for broker trouble: the error is stored on the bot and returned as skipped.
 */
export async function runTick(userId: string, opts: { force?: boolean } = {}): Promise<TickOutcome> {
  const reserved = await db().reserve();
  try {
    const [lock] = await reserved<{ ok: boolean }[]>`select pg_try_advisory_lock(${LOCK_NAMESPACE}, hashtext(${userId})) as ok`;
    if (!lock?.ok) return { status: "skipped", reason: "Outro ciclo da IA já está em execução." };
    try {
      return await tickLocked(userId, opts.force ?? false);
    } finally {
      await reserved`select pg_advisory_unlock(${LOCK_NAMESPACE}, hashtext(${userId}))`;
    }
  } finally {
    reserved.release();
  }
}

async function tickLocked(userId: string, force: boolean): Promise<TickOutcome> {
  const sql = db();
  const bot = await getBot(userId);
  if (!force && !bot?.is_active) return { status: "skipped", reason: "IA inativa" };
  const licensed = await licenceValid(userId);
  if (!licensed) {
    if (bot?.is_active) await stopWithNotice(userId, "licence", "Licença necessária: a IA foi desativada.");
    return { status: "skipped", reason: "Licença necessária" };
  }
  let broker;
  try {
    broker = await requireBroker(userId);
  } catch {
    if (bot?.is_active) await stopWithNotice(userId, "broker", "Nenhuma conta Oanda conectada: a IA foi desativada.");
    return { status: "skipped", reason: "Nenhuma conta Oanda conectada." };
  }
  const { conn, client } = broker;
  try {
    const outcome = await tradeOnce(userId, conn, client, licensed);
    await sql`update bots set last_tick_at = now(), last_tick_error = null where user_id = ${userId}`;
    if ((await getConnection(userId))?.status === "error") {
      await markConnection(userId, "connected");
      await notify(userId, { type: "success", title: "Conexão restabelecida", message: "A conexão com a Oanda foi restabelecida." });
    }
    return outcome;
  } catch (err) {
    const message = err instanceof BrokerError ? err.messagePt : err instanceof Error ? err.message : String(err);
    logger().warn({ userId, err: err instanceof BrokerError ? { kind: err.kind, status: err.status } : err }, "tick falhou");
    await sql`update bots set last_tick_at = now(), last_tick_error = ${message} where user_id = ${userId}`;
    if (err instanceof BrokerError) {
      const prev = await getConnection(userId);
      await markConnection(userId, "error", message);
      if (prev?.status !== "error")
        await notify(userId, { type: "error", title: "Conexão com a Oanda perdida", message });
      if (err.kind === "auth" || err.kind === "forbidden") await stopWithNotice(userId, "broker", message);
      if (err.retryable) throw err; // let pg-boss retry with backoff
    }
    return { status: "skipped", reason: message };
  }
}

async function stopWithNotice(userId: string, reason: StopBotReason | string, message: string) {
  if (await stopBot(userId, reason))
    await notify(userId, {
      type: reason === "broker" ? "error" : "limit",
      title: "IA desativada",
      message: stopReasonText(reason) === "Inativo" ? message : `${stopReasonText(reason)}. ${message}`,
      metadata: { reason, reasonText: stopReasonText(reason) === "Inativo" ? message : stopReasonText(reason) },
    });
}

async function tradeOnce(userId: string, conn: BrokerConnectionRow, client: BrokerPort, licensed: boolean): Promise<TickOutcome> {
  const sql = db();
  await reconcile(userId, conn, client);
  const settings = await getSettings(userId);
  const summary = await client.getAccountSummary(conn.account_id);
  const instruments = resolveInstruments(settings);
  const prices = await client.getPricing(conn.account_id, instruments);
  // Market time: the broker's price time (the simulator replays history on its own clock).
  const now = new Date(prices.reduce((t, p) => Math.max(t, Date.parse(p.time)), 0) || Date.now());
  await recordMarketTime(userId, now.getTime());
  const [user] = await sql<{ preferences: { timezone?: string } }[]>`select preferences from users where id = ${userId}`;
  const dayStart = tradingDayStart(now, user?.preferences?.timezone || undefined);
  const counters = await riskCounters(userId, conn.account_id, dayStart, summary.balance, summary.NAV);
  const openTrades = await client.listOpenTrades(conn.account_id);
  const results: Extract<TickOutcome, { status: "done" }>["decisions"] = [];

  for (const instrument of instruments) {
    const price = prices.find((p) => p.instrument === instrument);
    if (!price) continue;
    const candles: Record<string, Awaited<ReturnType<typeof completeCandles>>> = {};
    for (const tf of AI_TIMEFRAMES) candles[tf] = await completeCandles(client, conn.environment, instrument, tf, now);
    const decision = decide({
      now,
      instrument,
      candles,
      price: { bid: price.bid, ask: price.ask, tradeable: price.tradeable },
      settings,
      account: { balance: summary.balance, currency: summary.currency, marginAvailable: summary.marginAvailable },
      quoteToAccountRate: quoteToAccountRate(instrument, summary.currency, prices),
    });
    const verdict: RiskVerdict = evaluateRisk({
      now,
      settings,
      instrument,
      licenceValid: licensed,
      brokerConnected: true,
      priceTradeable: price.tradeable,
      spreadPips: spreadInPips(instrument, price.bid, price.ask),
      openTrades: openTrades.length,
      openTradesOnInstrument: openTrades.filter((t) => t.instrument === instrument).length,
      tradesToday: counters.tradesToday,
      realizedPLToday: counters.realizedPLToday,
      dayStartBalance: counters.dayStartBalance,
      balance: summary.NAV,
      peakBalance: counters.peakBalance,
      consecutiveLosses: counters.consecutiveLosses,
      lastTradeAt: counters.lastTradeAt,
    });
    const execute = decision.action === "open" && verdict.allowed;
    await sql`insert into decisions (user_id, decision_id, instrument, action, side, confidence, timeframe, reason, risk_code, risk_reason, executed, payload)
      values (${userId}, ${decision.id}, ${instrument}, ${decision.action}, ${decision.side ?? null}, ${decision.confidence},
        ${decision.timeframe}, ${decision.reason}, ${verdict.code}, ${verdict.allowed ? null : verdict.reason}, ${execute},
        ${sql.json({ regime: decision.regime, stopLoss: decision.stopLoss, takeProfit: decision.takeProfit, units: decision.units, tradingStyle: settings.aiSettings.tradingStyle, marketTime: now.toISOString() } as never)})`;
    await noteTimeframeChange(userId, instrument, decision);
    if (verdict.stopBot) {
      await stopWithNotice(userId, verdict.stopBot, verdict.reason);
      results.push({ instrument, action: decision.action, reason: decision.reason, risk: verdict.reason, executed: false });
      return { status: "done", decisions: results, stopped: verdict.stopBot };
    }
    let executed = false;
    if (execute) {
      executed = await placeOrder(userId, conn, client, decision);
      if (executed) {
        counters.tradesToday += 1;
        counters.lastTradeAt = now;
        openTrades.push({ instrument } as (typeof openTrades)[number]);
      }
    }
    results.push({ instrument, action: decision.action, reason: decision.reason, risk: verdict.allowed ? undefined : verdict.reason, executed });
  }
  if (results.some((r) => r.executed)) await reconcile(userId, conn, client);
  return { status: "done", decisions: results };
}


/** Account-currency value of one unit of the pair's quote currency, from live mid prices, when derivable. */
function quoteToAccountRate(instrument: string, accountCurrency: string, prices: { instrument: string; bid: string; ask: string }[]): string | undefined {
  const { quote } = instrumentSpec(instrument);
  if (quote === accountCurrency) return "1";
  const mid = (name: string) => {
    const p = prices.find((x) => x.instrument === name);
    return p ? new Decimal(p.bid).plus(p.ask).div(2) : undefined;
  };
  const direct = mid(`${quote}_${accountCurrency}`);
  if (direct) return direct.toString();
  const inverse = mid(`${accountCurrency}_${quote}`);
  return inverse ? new Decimal(1).div(inverse).toString() : undefined;
}

async function noteTimeframeChange(userId: string, instrument: string, decision: Decision) {
  const [prev] = await db()<{ timeframe: string | null }[]>`select timeframe from decisions
    where user_id = ${userId} and instrument = ${instrument} order by id desc offset 1 limit 1`;
  if (prev?.timeframe && prev.timeframe !== decision.timeframe)
    await notify(userId, {
      type: "info",
      title: "IA mudou o timeframe",
      message: `${instrument.replace("_", "/")}: ${prev.timeframe} → ${decision.timeframe}. ${decision.regime.reason}`,
      metadata: { instrument, from: prev.timeframe, to: decision.timeframe },
    });
}

/** Counters for the risk rules, from our own records of the account (reconciled just before). */
async function riskCounters(userId: string, accountId: string, dayStart: Date, balance: string, nav: string) {
  const sql = db();
  const [today] = await sql<{ opened: number; realized: string | null }[]>`
    select (select count(*)::int from trades where user_id = ${userId} and account_id = ${accountId} and open_time >= ${dayStart}) as opened,
           (select sum(realized_pl)::text from trades where user_id = ${userId} and account_id = ${accountId} and status = 'closed' and close_time >= ${dayStart}) as realized`;
  const recent = await sql<{ result: string }[]>`select result from trades
    where user_id = ${userId} and account_id = ${accountId} and status = 'closed' order by close_time desc, id desc limit 20`;
  let consecutiveLosses = 0;
  for (const r of recent) {
    if (r.result !== "LOSS") break;
    consecutiveLosses++;
  }
  const [last] = await sql<{ open_time: Date }[]>`select open_time from trades where user_id = ${userId} and account_id = ${accountId}
    order by open_time desc limit 1`;
  const dayKey = dayStart.toISOString().slice(0, 10);
  const [bot] = await sql<{ peak_balance: string | null; day_start_balance: string | null; day: string | null }[]>`
    update bots set
      peak_balance = greatest(coalesce(peak_balance, ${nav}::numeric), ${nav}::numeric),
      day_start_balance = case when day_start is distinct from ${dayKey}::date then ${balance}::numeric else day_start_balance end,
      day_start = ${dayKey}::date
    where user_id = ${userId}
    returning peak_balance::text, day_start_balance::text, day_start::text as day`;
  return {
    tradesToday: today?.opened ?? 0,
    realizedPLToday: today?.realized ?? "0",
    dayStartBalance: bot?.day_start_balance ?? balance,
    peakBalance: bot?.peak_balance ?? nav,
    consecutiveLosses,
    lastTradeAt: last?.open_time,
  };
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
  const inserted = await sql`insert into order_intents (user_id, client_order_id, decision_id, account_id, instrument, units)
    values (${userId}, ${id}, ${decision.id}, ${conn.account_id}, ${decision.instrument}, ${decision.units!})
    on conflict do nothing returning client_order_id`;
  if (inserted.length === 0) return false;
  if (process.env.CRASH_AT === "before-order") process.kill(process.pid, "SIGKILL");
  try {
    const result = await client.createMarketOrder(conn.account_id, {
      instrument: decision.instrument,
      units: decision.units!,
      stopLossOnFill: { price: decision.stopLoss! },
      takeProfitOnFill: { price: decision.takeProfit! },
      ...(decision.trailingStopDistance ? { trailingStopLossOnFill: { distance: decision.trailingStopDistance } } : {}),
      clientExtensions: { id, tag: "forex-ia", comment: `IA ${decision.timeframe}` },
      tradeClientExtensions: { id, tag: "forex-ia", comment: `IA ${decision.timeframe}` },
    });
    // Test-only fault injection: die after the broker filled but before our bookkeeping (tests/integration).
    if (process.env.CRASH_AT === "after-order") process.kill(process.pid, "SIGKILL");
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


/**
 * Whether a tick of the bot is running in some process right now (its advisory lock is held).
 * Used to tell an orphaned pg-boss job (its process died) from a live one.
 */
export async function isTickRunning(userId: string): Promise<boolean> {
  const reserved = await db().reserve();
  try {
    const [lock] = await reserved<{ ok: boolean }[]>`select pg_try_advisory_lock(${LOCK_NAMESPACE}, hashtext(${userId})) as ok`;
    if (lock?.ok) await reserved`select pg_advisory_unlock(${LOCK_NAMESPACE}, hashtext(${userId}))`;
    return !lock?.ok;
  } finally {
    reserved.release();
  }
}
