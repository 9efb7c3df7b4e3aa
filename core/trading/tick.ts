/**
 * The one executor (DESIGN.md §3): one bot tick as pure orchestration over ports, in the fixed
 * order sync → manage exits → decide → risk gate → size → place. Both the live bot
 * (app/services/trading/live-tick.server.ts: OANDA or the simulator over HTTP, books in PostgreSQL, under the
 * bot's advisory lock) and the backtest (core/backtest/run.ts: the simulator's own order and
 * trigger code in process, books in memory) call `executeTick`, so they cannot disagree on the
 * order of the steps, the exits, the risk counters (core/trading/counters.ts) or the risk gate.
 *
 * One clock per tick: `now` is the broker's price time (the newest quote's time), else
 * `ports.clock()` when no price came back. Sizing is the engine's (core/engine/sizing.ts, inside
 * the decision); stop loss, take profit and the trailing stop are attached on fill and run at the
 * broker; the scalper's max hold and the weekend "flat" window are closed here.
 *
 * Manage-only (issue 9): with an invalid licence (core/risk manageOnlyVerdict) the tick runs sync,
 * the account read and the AI's exits as usual, then stops before the engine: no candles are
 * prepared, nothing is decided, no decision is recorded (a row per instrument per tick saying
 * "licence" would only be noise) and no order is sent. The report carries the verdict in
 * `manageOnly`; the caller shows it (live: the bot's manage-only state, its notification, the hero).
 *
 * Ports may answer synchronously or with promises; errors they throw (broker failures) propagate
 * to the caller, which decides what a failed tick means (live: stored on the bot, pg-boss retries).
 */
import type { AccountSummary, ClientPrice, Trade } from "../broker/port";
import type { Decision, StreamInput } from "../engine/decide";
import { conversionInstruments } from "../conversion";
import { unavailableDecision } from "../engine/decide";
import { instrumentSpec, SUPPORTED_INSTRUMENTS } from "../instruments";
import { manageOnlyVerdict, tradingDayStart } from "../risk";
import type { ManageOnlyReason, RiskVerdict, StopBotReason } from "../risk";
import { resolveInstruments } from "../settings";
import type { TradingSettings } from "../settings";
import { deriveRiskCounters } from "./counters";
import type { CounterTrade } from "./counters";
import { edgeAllows, noEdgeRefusal, SHIPPED_EDGE_TABLE } from "./edge-gate";
import { entryVerdict } from "./entry-risk";
import type { EdgeTable } from "../research/edge-table";
import { exitReason, isAiTrade } from "./exits";
import type { AiExitReason } from "./exits";
import { quoteToAccountRate } from "./orders";
import { minimumSizeVerdict } from "../risk/min-trade-size";

type MaybePromise<T> = T | Promise<T>;

/** The broker, as the executor needs it (one account). Money and prices are decimal strings. */
export interface TickBroker {
  accountSummary(): MaybePromise<AccountSummary>;
  openTrades(): MaybePromise<Trade[]>;
  prices(instruments: string[]): MaybePromise<ClientPrice[]>;
  /**
   * Names of the instruments the account offers (live: GET A/instruments, cached). Absent: every
   * instrument asked for is taken as offered (the backtest, whose market was checked beforehand).
   */
  instruments?(): MaybePromise<readonly string[]>;
  /** Closes one of the AI's trades at market; false when the broker did not fill (e.g. market halted). */
  closeTrade(trade: Trade, reason: AiExitReason): MaybePromise<boolean>;
  /**
   * Sends the decision's market order (core/trading/orders.ts marketOrderFor); true when a trade
   * opened. Must be idempotent per decision id (live: the order intent row and the client id).
   */
  placeOrder(decision: Decision): MaybePromise<boolean>;
}

/** One decision of the tick with the risk gate's verdict; `execute` = an "open" the gate allowed. */
export interface DecisionRecord {
  decision: Decision;
  verdict: RiskVerdict;
  execute: boolean;
}

/** Our books of the account. */
export interface TradeStore {
  /** Brings the books in line with the broker (fills, stop loss / take profit closes). */
  sync(): MaybePromise<void>;
  /**
   * Live only (ADR 0027): true when this tick may start from the stored account state without
   * syncing (it was confirmed by a sync within the sync age). The tick then skips its first `sync`
   * and syncs before any consequence — an AI exit, an order, a rule that stops the bot — and
   * decides that consequence again on the fresh state. Absent (the backtest): always sync first.
   */
  deferSync?(): MaybePromise<boolean>;
  /**
   * Live only (issue 24, ADR 0042): the sync after orders that opened trades. The live store books
   * a fill from its order's response when that response is the whole story since the cursor, and
   * reads the transactions only for a fill it could not book so. Absent (the backtest): `sync`.
   */
  syncAfterOrders?(): MaybePromise<void>;
  /**
   * Trades for the risk counters (core/trading/counters.ts): every trade opened or closed at or
   * after `dayStart`, plus the newest closed ones (enough for the losing streak).
   */
  counterTrades(dayStart: Date): MaybePromise<readonly CounterTrade[]>;
  /** Stores every decision of the tick (also "none" and blocked ones) before any order is sent. */
  recordDecisions(records: DecisionRecord[], now: Date): MaybePromise<void>;
  /** A decision whose order did not open a trade (refused, cancelled, or already acted on). */
  orderNotPlaced(decision: Decision): MaybePromise<void>;
}

/** The engine at a tick: `prepare` reads what the decisions need once (live: the candles of every instrument). */
export interface DecisionSource {
  prepare(instruments: string[], now: Date): MaybePromise<(input: StreamInput) => Decision>;
}

/**
 * Economic calendar: whether `instrument` is inside a news blackout at `now` (the tick's market time),
 * the event to name in the reason and when the blackout ends (core/calendar/blackout.ts).
 */
export interface NewsCalendar {
  blackout(instrument: string, now: Date): { active: boolean; event?: string; until?: Date } | undefined;
}

export interface TickPorts {
  broker: TickBroker;
  store: TradeStore;
  decisions: DecisionSource;
  /** Fallback clock (UTC) when the broker returned no price. */
  clock: () => Date;
  calendar?: NewsCalendar;
}

export interface TickContext {
  settings: TradingSettings;
  /** IANA timezone of the trading day and trading hours (user preference). */
  timezone: string;
  /**
   * Licence validity, decided by the caller on the wall clock (a subscription is real time). False
   * makes the tick manage-only: exits and sync run, no entry is decided or placed.
   */
  licenceValid: boolean;
  /**
   * The user stopped new entries (issue 22 kill switch 'Parar novas entradas'): manage-only like an
   * invalid licence, whatever the licence says. Absent: false.
   */
  entriesStopped?: boolean;
  /**
   * Pairs the account's rules skip (core/broker/account-rules.ts skippedInstruments: the broker's
   * minimum trade size above the units the risk gives): no entry, with that reason. Absent: none.
   */
  minimumSizeSkips?: Readonly<Record<string, { minimum: string; units: string }>>;
  /** Persisted high-water mark of equity (never reset), or null before the first tick. */
  highWaterMark: string | null;
  /** When the bot's current run started, on the broker's clock (the losing streak counts from it). */
  runStartedAt: Date | null;
  /**
   * The edge gate's table (core/trading/edge-gate.ts): an "open" for a pair without an edge in the
   * settings' style, and not in `aiSettings.edgeOverrides`, becomes "none" (code no_edge). Absent:
   * the shipped table; null: no gate (only the research runner, which measures the strategy itself).
   */
  edgeTable?: EdgeTable | null;
}

export interface TickReport {
  /** The tick's clock (UTC). */
  now: Date;
  /** Account NAV and balance read by the tick (account currency). */
  nav: string;
  balance: string;
  /** max(persisted mark, NAV): the caller persists it. */
  highWaterMark: string;
  /** Trades the AI closed, with why and whether the broker filled the close. */
  exits: { trade: Trade; reason: AiExitReason; filled: boolean }[];
  /** One per instrument decided, in settings order, `execute` updated to whether a trade opened. */
  decisions: DecisionRecord[];
  /** The rule that stopped the bot, when one did (no instrument after it was decided). */
  stopped?: RiskVerdict & { stopBot: StopBotReason };
  /** Why the tick only managed the open trades (then `decisions` is empty and nothing was placed). */
  manageOnly?: RiskVerdict & { manageOnly: ManageOnlyReason };
}

/**
 * The instruments of a tick: the settings' list ('*' = every supported pair) split into those the
 * broker offers (`instruments`, in settings order) and those it does not (`skipped`: only for an
 * explicit list; '*' means "every supported pair this account offers", so nothing is reported for
 * it), plus the extra pairs whose prices convert a quote currency into the account currency
 * (`extra`, core/conversion.ts: e.g. GBP_USD for EUR_GBP on a USD account).
 */
async function tradableInstruments(broker: TickBroker, settings: TradingSettings, accountCurrency: string) {
  const wanted = resolveInstruments(settings);
  const offered = broker.instruments ? await broker.instruments() : undefined;
  const instruments = offered ? wanted.filter((i) => offered.includes(i)) : wanted;
  const skipped = offered && settings.instruments !== "*" ? wanted.filter((i) => !offered.includes(i)) : [];
  const extra = new Set<string>();
  for (const i of instruments) {
    for (const c of conversionInstruments(instrumentSpec(i).quote, accountCurrency, offered ?? SUPPORTED_INSTRUMENTS)) {
      if (!instruments.includes(c)) extra.add(c);
    }
  }
  return { instruments, skipped, extra: [...extra] };
}

/** A "none" decision for an instrument the tick cannot trade (not offered, no price), allowed by no rule. */
function skipRecord(instrument: string, settings: TradingSettings, key: string): DecisionRecord {
  const decision = unavailableDecision(instrument, settings, key);
  return { decision, verdict: { allowed: true, code: "ok", reason: decision.reason, reasonMsg: decision.reasonMsg }, execute: false };
}

/**
 * Runs one tick. Steps: (1) store.sync — skipped when `store.deferSync` says the stored state is
 * fresh (ADR 0027); (2) account, prices, open trades; (3) close the AI's trades past their max hold
 * or inside the weekend "flat" window (after a sync and a re-read if the first was skipped), then
 * sync again; (4) counters from the store's trades; in manage-only (an invalid licence) the tick
 * ends here; (5) per instrument: decide, gate (evaluateRisk; then the edge gate turns an "open" for a
 * pair without an edge and without the user's override into "none", core/trading/edge-gate.ts), count
 * an allowed opening for the next instruments; stop at a rule that stops the bot; when an order or a stop comes out of a tick whose
 * first sync was skipped, sync, re-read the account and run (4)–(5) again on the fresh state, so
 * every order and stop is gated on the broker's truth; (6) record every decision; (7) place the
 * allowed orders; (8) sync when a trade opened (live: only for a fill not booked from its order's response, `syncAfterOrders`).
 * @throws whatever a port throws (broker errors)
 */
export async function executeTick(ports: TickPorts, ctx: TickContext): Promise<TickReport> {
  const { broker, store } = ports;
  const { settings, timezone } = ctx;
  const edgeTable = ctx.edgeTable === undefined ? SHIPPED_EDGE_TABLE : ctx.edgeTable;
  let fresh = !(store.deferSync ? await store.deferSync() : false);
  if (fresh) await store.sync();
  /** Syncs when this tick has not yet: true when it did (the caller then reads the account again). */
  const freshen = async () => {
    if (fresh) return false;
    fresh = true;
    await store.sync();
    return true;
  };
  const summary = await broker.accountSummary();
  const { instruments, skipped, extra } = await tradableInstruments(broker, settings, summary.currency);
  const prices = instruments.length + extra.length ? await broker.prices([...instruments, ...extra]) : [];
  const newest = prices.reduce((t, p) => Math.max(t, Date.parse(p.time)), 0);
  const now = newest > 0 ? new Date(newest) : ports.clock();

  let openTrades = await broker.openTrades();
  let account = summary;
  const dueExits = (trades: Trade[]) =>
    trades.flatMap((trade) => {
      const reason = isAiTrade(trade) ? exitReason(trade, settings, now) : null;
      return reason ? [{ trade, reason }] : [];
    });
  let due = dueExits(openTrades);
  // A close is a broker action: decided on the broker's truth (the stop loss may have closed it already).
  if (due.length && (await freshen())) {
    account = await broker.accountSummary();
    openTrades = await broker.openTrades();
    due = dueExits(openTrades);
  }
  const exits: TickReport["exits"] = [];
  for (const { trade, reason } of due) exits.push({ trade, reason, filled: await broker.closeTrade(trade, reason) });
  if (exits.length) {
    await store.sync();
    openTrades = await broker.openTrades();
    account = await broker.accountSummary();
  }

  const dayStart = tradingDayStart(now, timezone, settings.tradingDayBoundary);
  const countersFor = async (acc: AccountSummary) =>
    deriveRiskCounters({
      trades: await store.counterTrades(dayStart),
      now,
      timezone,
      boundary: settings.tradingDayBoundary,
      balance: acc.balance,
      equity: acc.NAV,
      highWaterMark: ctx.highWaterMark,
      runStartedAt: ctx.runStartedAt,
    });
  let counters = await countersFor(account);
  const manageOnly = manageOnlyVerdict(ctx.licenceValid, ctx.entriesStopped === true);
  if (manageOnly?.manageOnly) {
    const base = { now, nav: account.NAV, balance: account.balance, highWaterMark: counters.highWaterMark, exits };
    return { ...base, decisions: [], manageOnly: { ...manageOnly, manageOnly: manageOnly.manageOnly } };
  }

  const decide = await ports.decisions.prepare(instruments, now);
  const gate = (acc: AccountSummary, trades: Trade[], c: typeof counters) => {
    const openCount = { all: trades.length, by: new Map<string, number>() };
    for (const t of trades) openCount.by.set(t.instrument, (openCount.by.get(t.instrument) ?? 0) + 1);
    const decisions: DecisionRecord[] = [];
    // Instruments the user listed that the broker does not offer: a decision saying so, never a failed tick.
    for (const instrument of skipped) decisions.push(skipRecord(instrument, settings, "engine:decision.notOffered"));
    let stopped: TickReport["stopped"];
    for (const instrument of instruments) {
      const price = prices.find((p) => p.instrument === instrument);
      if (!price) {
        decisions.push(skipRecord(instrument, settings, "engine:decision.noPrice"));
        continue;
      }
      const rate = quoteToAccountRate(instrumentSpec(instrument).quote, acc.currency, prices);
      const decision = decide({
        now,
        instrument,
        price: { bid: price.bid, ask: price.ask, tradeable: price.tradeable },
        settings,
        account: { balance: acc.balance, currency: acc.currency, marginAvailable: acc.marginAvailable },
        ...(rate !== undefined ? { quoteToAccountRate: rate } : {}),
      });
      const news = ports.calendar?.blackout(instrument, now);
      // The gate's context is built in one place, shared with the manual orders (core/trading/entry-risk.ts).
      const verdict = entryVerdict({ now, settings, instrument, timezone, licenceValid: ctx.licenceValid, price, news, open: openCount, counters: c, account: acc });
      if (verdict.stopBot) {
        decisions.push({ decision, verdict, execute: false });
        stopped = { ...verdict, stopBot: verdict.stopBot };
        break;
      }
      if (decision.action === "open" && !edgeAllows(edgeTable, instrument, settings)) {
        // The edge gate (issue 21): no proven edge for the pair in this style and no override: stay flat, say why.
        decisions.push({ ...noEdgeRefusal(decision, settings), execute: false });
        continue;
      }
      // A pair the account's rules skip (core/broker/account-rules.ts) meets the minimum-size protection (core/risk/min-trade-size.ts).
      const gated = verdict.allowed ? (minimumSizeVerdict(instrument, ctx.minimumSizeSkips?.[instrument]) ?? verdict) : verdict;
      const execute = decision.action === "open" && gated.allowed;
      decisions.push({ decision, verdict: gated, execute });
      if (execute) {
        // Counted as opened for the instruments after this one (a refused order only errs on the safe side).
        c.tradesToday += 1;
        c.lastTradeAt = now;
        openCount.all += 1;
        openCount.by.set(instrument, (openCount.by.get(instrument) ?? 0) + 1);
      }
    }
    return { decisions, stopped };
  };
  let highWaterMark = counters.highWaterMark;
  let { decisions, stopped } = gate(account, openTrades, counters);
  // An order or a stop is a consequence: decided again on the broker's truth when the tick began from the stored state.
  if ((stopped || decisions.some((d) => d.execute)) && (await freshen())) {
    account = await broker.accountSummary();
    openTrades = await broker.openTrades();
    counters = await countersFor(account);
    highWaterMark = counters.highWaterMark;
    ({ decisions, stopped } = gate(account, openTrades, counters));
  }
  const base = { now, nav: account.NAV, balance: account.balance, highWaterMark, exits };

  await store.recordDecisions(decisions, now);
  let opened = false;
  for (const record of decisions) {
    if (!record.execute) continue;
    if (await broker.placeOrder(record.decision)) opened = true;
    else {
      record.execute = false;
      await store.orderNotPlaced(record.decision);
    }
  }
  if (opened) await (store.syncAfterOrders ? store.syncAfterOrders() : store.sync());
  return { ...base, decisions, ...(stopped ? { stopped } : {}) };
}
