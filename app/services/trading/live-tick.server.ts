/**
 * One tick's trading steps, live (DESIGN.md §3, ADR 0012: the thin adapter): the shared executor
 * (core/trading/tick.ts) over this user's broker (OANDA or the simulator over HTTP,
 * live-broker.server.ts) and PostgreSQL books (live-store.server.ts), deciding with engines loaded
 * from the shared candles (market-data.server.ts). What a tick reads and produces travels in one
 * `LiveTick` object (live-tick.ts); the runner (tick-runner.server.ts) stores what it produced.
 */
import type { BrokerInstrument, BrokerPort, Environment } from "../../../core/broker/port";
import type { Candle } from "../../../core/candles";
import { conversionInstruments } from "../../../core/conversion";
import { AI_TIMEFRAMES, instrumentSpec } from "../../../core/instruments";
import { resolveTimezone } from "../../../core/risk/trading-day";
import { resolveInstruments, type TradingSettings } from "../../../core/settings";
import { executeTick, type TickPorts } from "../../../core/trading/tick";
import { offeredInstrumentList, tickAccount } from "../broker/account-state.server";
import { brokerNow } from "../broker/broker.server";
import { recheckAfterSync, storedSkips } from "./broker-rules.server";
import { newsCalendarFor } from "./calendar.server";
import { logger } from "../platform/logger.server";
import { completeCandleSets, loadedEngine, seriesKey } from "../broker/market-data.server";
import { sharedQuotes } from "../broker/quote-cache.server";
import { liveBroker } from "./live-broker.server";
import { liveStore, type Books } from "./live-store.server";
import { drawdownStopWithNotice, stopWithNotice } from "./stop-notices.server";
import type { LiveTick } from "./live-tick";
import type { TickDecision, TickOutcome } from "./tick-outcome";

/**
 * The executor's decision source (core/trading/tick.ts TickPorts.decisions): the complete candles of
 * the tick's instruments from the shared cache, and per instrument the shared loaded engine.
 */
function liveDecisionSource(client: BrokerPort, environment: Environment, settings: TradingSettings): TickPorts["decisions"] {
  return {
    prepare: async (instruments, now) => {
      const sets = await completeCandleSets(client, environment, instruments, AI_TIMEFRAMES, now);
      return (input) => {
        const candles: Record<string, Candle[]> = {};
        for (const tf of AI_TIMEFRAMES) candles[tf] = sets.get(seriesKey(input.instrument, tf)) ?? [];
        return loadedEngine(environment, input.instrument, settings, candles).decide(input);
      };
    },
  };
}

/**
 * Runs the trading steps of one tick (see the module doc) and answers its outcome; fills the tick's
 * produced fields. Stops the loop on a risk stop (notified once). @throws the broker's errors (the
 * runner's error policy handles them).
 */
export async function tradeOnce(tick: LiveTick): Promise<TickOutcome> {
  const { userId, conn, client, settings, licence, bot, signal } = tick;
  // The offered instruments (stored per account, ADR 0025), read once per tick at most.
  let offeredList: Promise<readonly BrokerInstrument[]> | undefined;
  const offered = () => (offeredList ??= offeredInstrumentList(conn, client, { stored: tick.stored }));
  const names = async () => (await offered()).map((i) => i.name);
  // Quotes from the environment's shared cache (quote-cache.server.ts); the tick's own instruments
  // (and their conversion pairs) ride along in any read, so one read serves the whole tick.
  const currency = tick.stored?.summary?.currency ?? conn.account_currency ?? "USD";
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
    stored: tick.stored,
    quotes,
    // Margin rates for the valuation: the broker's, from the offered list.
    marginRates: async () => new Map((await offered()).map((i) => [i.name, i.marginRate])),
    offered: names,
    marketNow: () => brokerNow(conn),
  });
  const books: Books = { changed: false };
  const ports: TickPorts = {
    broker: liveBroker(tick, { quotes, account, instruments: names, books }),
    store: liveStore(tick, books, account),
    decisions: liveDecisionSource(client, conn.environment, settings),
    clock: () => new Date(brokerNow(conn)),
    // The news blackout, asked with the tick's market time (the simulator's replay meets its own events).
    calendar: await newsCalendarFor(settings),
  };
  // The bot's start is a wall-clock instant; trades carry the broker's clock (the simulator replays
  // history): the run start is moved onto the broker's clock with the recorded offset.
  const runStartedAt = bot?.last_started_at ? new Date(brokerNow(conn, bot.last_started_at.getTime())) : null;
  // The timeframe notices of a tick that orders are written once its orders left (or failed), never before them.
  const report = await executeTick(ports, {
    settings,
    timezone: resolveTimezone(licence.timezone),
    licenceValid: licence.valid,
    // Pairs the account's rules skip (issue 22: the broker's minimum size above the risk's units).
    minimumSizeSkips: storedSkips(tick.stored?.account_rules, conn),
    // The user's 'Parar novas entradas' (issue 22): manage-only whatever the licence says.
    entriesStopped: bot?.manage_only_reason === "user",
    highWaterMark: bot?.peak_balance ?? null,
    runStartedAt,
  }).finally(() => books.afterOrders?.());
  tick.nav = report.nav;
  tick.at = report.now;
  if (books.syncedAt) tick.syncedAt = books.syncedAt;
  if (books.syncedAt) {
    // The broker-rule check follows the sync window (issue 22): a tick that synced checks the account's rules again.
    const read = tick.stored?.summary && tick.stored.account_id === conn.account_id && tick.stored.environment === conn.environment ? tick.stored.summary : undefined;
    await recheckAfterSync(userId, conn, client, {
      settings,
      ...(tick.stored ? { stored: tick.stored } : {}),
      ...(read ? { summary: { currency: read.currency, hedgingEnabled: read.hedgingEnabled, balance: report.balance } } : {}),
    });
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
