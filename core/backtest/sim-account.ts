/**
 * The backtest's broker and books: one simulator account driven in process, with the simulator's
 * own code for everything a fill depends on (core/simulator: Pricing.quote for bid/ask and the
 * spread table, createMarketOrder / closeTrade for fills and margin, evaluateTriggers for stop
 * loss, take profit and trailing stops along the price path, accountTotals for NAV), so the
 * backtest and the live bot on the simulator share one fill model. It implements the executor's
 * TickBroker and TradeStore (core/trading/tick.ts); the books are the account's own trades.
 *
 * Time is set by the driver (`advanceTo`): triggers are evaluated on the path up to it, then the
 * tick runs at it. Money is in the account currency, decimal strings; times UTC.
 */
import type { AccountSummary, ClientPrice, Trade } from "../broker/port";
import { Decimal, formatMoney } from "../decimal";
import type { Decision } from "../engine/decide";
import { marketOrderBody } from "../oanda/order-body";
import { createUser, accountTotals } from "../simulator/accounts";
import { instrumentSpec, UNITS_PER_LOT } from "../instruments";
import { localParts, NEW_YORK, nextTradingDayStart } from "../risk/trading-day";
import { closeTrade, createMarketOrder } from "../simulator/orders";
import type { Pricing } from "../simulator/pricing";
import { emptyState } from "../simulator/state";
import type { AccountState, TradeState } from "../simulator/state";
import { rfc3339 } from "../simulator/time";
import { evaluateTriggers } from "../simulator/triggers";
import { selectCounterTrades, type CounterTrade } from "../trading/counters";
import type { AiExitReason } from "../trading/exits";
import { NO_EDGE_CODE } from "../trading/edge-gate";
import { marketOrderFor } from "../trading/orders";
import type { DecisionRecord, TickBroker, TradeStore } from "../trading/tick";

/**
 * Trading costs the simulator does not charge, as backtest options (account currency):
 * - commissionPerLot: per 100,000 units (one standard lot) on every fill, opening and closing
 *   (e.g. "3.50" for an ECN-style account; OANDA's standard pricing is spread-only, "0");
 * - financingPctPerYear: overnight financing on each open trade's notional (|units| × mid ×
 *   quote→account) at every 17:00 New York rollover, one day's worth (pct / 365), three on
 *   Wednesdays (the weekend's), the FX convention.
 * Both lower the balance the risk gate and the sizing read, and each trade's P&L in the results;
 * the broker's own realized P&L (and so the daily-loss counter, as live) excludes them.
 */
export interface TradingCosts {
  commissionPerLot?: string;
  financingPctPerYear?: string;
}

/**
 * The first 17:00 New York rollover strictly after `ms` (UTC ms): the end of the "ny_close" trading
 * day containing `ms` (core/risk/trading-day.ts, the one home of the New York close rule).
 */
function nextRollover(ms: number): number {
  return nextTradingDayStart(new Date(ms), NEW_YORK, "ny_close").getTime();
}

interface Booked {
  trade: TradeState;
  counter: CounterTrade;
}

export class BacktestAccount implements TickBroker, TradeStore {
  readonly account: AccountState;
  private now: number;
  private lastEval: number;
  /** Trades in open order, and the closed ones in close order (the counters' two windows). */
  private readonly booked: Booked[] = [];
  private readonly closed: CounterTrade[] = [];
  private readonly opened: CounterTrade[] = [];
  private readonly open = new Map<string, Booked>();
  /** Index of the oldest trade of the account that may still be open. */
  private firstOpen = 0;
  /** The last list handed to the risk counters, and what it was made from. */
  private countersKey = "";
  private countersList: CounterTrade[] = [];
  /** Why the AI closed a trade itself (the broker only says MARKET_ORDER_TRADE_CLOSE). */
  readonly closeReasons = new Map<string, AiExitReason | "end">();
  /** Decisions that opened a trade, by client id (= decision id), and the gate's refusals by rule. */
  readonly decisions = new Map<string, Decision>();
  /** The account's NAV when each of those decisions' orders was placed, by decision id (issue 21: risk % at entry). */
  readonly navAtEntry = new Map<string, string>();
  readonly blocked: Record<string, number> = {};
  /** Commission and financing charged per trade id (account currency, positive = paid). */
  readonly costs = new Map<string, Decimal>();
  private readonly commission: Decimal;
  private readonly financing: Decimal;
  private rollover: number;

  /** @param balance initial deposit (decimal string) in `currency`; `startMs` the account's creation time. */
  constructor(
    private readonly pricing: Pricing,
    currency: string,
    balance: string,
    startMs: number,
    costs: TradingCosts = {},
  ) {
    this.commission = new Decimal(costs.commissionPerLot ?? 0);
    this.financing = new Decimal(costs.financingPctPerYear ?? 0);
    if (this.commission.isNeg() || this.financing.isNeg()) throw new Error("Custos de negociação não podem ser negativos");
    this.rollover = nextRollover(startMs);
    const state = emptyState();
    createUser(state, pricing, startMs, "practice", [{ currency, balance }]);
    this.account = state.accounts[0]!;
    this.now = startMs;
    this.lastEval = startMs;
  }

  /** Moves the clock to `ms`, letting the broker's stops, targets and trailing stops act on the path first. */
  advanceTo(ms: number): void {
    if (ms <= this.now) return;
    while (this.rollover <= ms) {
      this.evaluate(this.rollover);
      if (!this.financing.isZero()) this.chargeFinancing(this.rollover);
      this.rollover = nextRollover(this.rollover);
    }
    this.evaluate(ms);
    this.now = ms;
  }

  /** The broker's stops, targets and trailing stops up to `ms`; the closing commission of what they closed. */
  private evaluate(ms: number): void {
    if (ms <= this.lastEval) return;
    const before = this.commission.isZero() ? [] : this.openStates().map((t) => ({ t, units: t.currentUnits }));
    evaluateTriggers(this.pricing, [this.account], this.lastEval, ms);
    this.lastEval = ms;
    for (const { t, units } of before) if (t.state === "CLOSED") this.chargeCommission(t.id, units);
  }

  /** Charges an amount to the balance and to a trade's costs. */
  private charge(tradeId: string, amount: Decimal): void {
    if (amount.isZero()) return;
    this.account.balance = formatMoney(new Decimal(this.account.balance).sub(amount));
    this.costs.set(tradeId, (this.costs.get(tradeId) ?? new Decimal(0)).add(amount));
  }

  private chargeCommission(tradeId: string, units: string): void {
    if (!this.commission.isZero()) this.charge(tradeId, new Decimal(units).abs().div(UNITS_PER_LOT).mul(this.commission).toDecimalPlaces(4));
  }

  private chargeFinancing(at: number): void {
    const l = localParts(at, NEW_YORK);
    const weekday = new Date(Date.UTC(l.y, l.m - 1, l.d)).getUTCDay();
    if (weekday === 0 || weekday === 6) return; // no rollover on a closed market; Wednesday's carries the weekend
    const days = weekday === 3 ? 3 : 1;
    for (const t of this.openTrades()) {
      const q = this.pricing.quote(t.instrument, at);
      const rate = this.pricing.rate(instrumentSpec(t.instrument).quote, this.account.currency, at);
      const notional = new Decimal(t.currentUnits).abs().mul(q.mid).mul(rate);
      this.charge(t.id, notional.mul(this.financing).div(100).div(365).mul(days).toDecimalPlaces(4));
    }
  }

  accountSummary(): AccountSummary {
    const open = this.openStates();
    if (open.length === 0) {
      // Flat: NAV = balance and nothing is used (the same figures accountTotals gives, without its decimals).
      const zero = formatMoney(0);
      const balance = this.account.balance;
      return {
        id: this.account.id, currency: this.account.currency, balance, NAV: balance, unrealizedPL: zero, pl: this.account.pl,
        marginUsed: zero, marginAvailable: balance, openTradeCount: 0, openPositionCount: 0, pendingOrderCount: 0,
        lastTransactionID: String(this.account.lastTransactionID),
      };
    }
    const t = accountTotals(this.pricing, this.account, this.now);
    return {
      id: this.account.id,
      currency: this.account.currency,
      balance: this.account.balance,
      NAV: formatMoney(t.NAV),
      unrealizedPL: formatMoney(t.unrealizedPL),
      pl: this.account.pl,
      marginUsed: formatMoney(t.marginUsed),
      marginAvailable: formatMoney(t.marginAvailable),
      openTradeCount: open.length,
      openPositionCount: new Set(open.map((x) => x.instrument)).size,
      pendingOrderCount: 0,
      lastTransactionID: String(this.account.lastTransactionID),
    };
  }

  /** The broker's open trades (not our books: a stop may have closed one since the last sync). */
  openTrades(): Trade[] {
    return this.openStates().map((trade) => ({
      id: trade.id,
      instrument: trade.instrument,
      price: trade.price,
      openTime: trade.openTime,
      state: "OPEN",
      initialUnits: trade.initialUnits,
      currentUnits: trade.currentUnits,
      realizedPL: trade.realizedPL,
      ...(trade.clientExtensions ? { clientExtensions: trade.clientExtensions } : {}),
    }));
  }

  /** The simulator's open trades, oldest first, scanning from the oldest that may still be open. */
  private openStates(): TradeState[] {
    const trades = this.account.trades;
    while (this.firstOpen < trades.length && trades[this.firstOpen]!.state !== "OPEN") this.firstOpen++;
    const open: TradeState[] = [];
    for (let i = this.firstOpen; i < trades.length; i++) if (trades[i]!.state === "OPEN") open.push(trades[i]!);
    return open;
  }

  prices(instruments: string[]): ClientPrice[] {
    return instruments
      .filter((i) => this.pricing.md.has(i))
      .map((instrument) => {
        const q = this.pricing.quote(instrument, this.now);
        return { instrument, time: rfc3339(q.time), tradeable: q.tradeable, bid: q.bid.toFixed(), ask: q.ask.toFixed() };
      });
  }

  closeTrade(trade: Pick<Trade, "id">, reason: AiExitReason | "end"): boolean {
    const units = this.openStates().find((t) => t.id === trade.id)?.currentUnits ?? "0";
    const r = closeTrade(this.pricing, this.account, trade.id, { units: "ALL" }, this.now, "backtest");
    const filled = r.body.orderFillTransaction !== undefined;
    if (filled) {
      this.closeReasons.set(trade.id, reason);
      this.chargeCommission(trade.id, units);
    }
    return filled;
  }

  placeOrder(decision: Decision): boolean {
    const body = marketOrderBody(marketOrderFor(decision, decision.id));
    const nav = this.accountSummary().NAV;
    const r = createMarketOrder(this.pricing, this.account, body, this.now, "backtest");
    const fill = r.body.orderFillTransaction as { tradeOpened?: { tradeID: string; units: string } } | undefined;
    if (fill) this.decisions.set(decision.id, decision);
    if (fill) this.navAtEntry.set(decision.id, nav);
    if (fill?.tradeOpened) this.chargeCommission(fill.tradeOpened.tradeID, fill.tradeOpened.units);
    return fill !== undefined;
  }

  /** Books new trades and the closes the broker made since the last sync. */
  sync(): void {
    const trades = this.account.trades;
    for (let i = this.booked.length; i < trades.length; i++) {
      const b = { trade: trades[i]!, counter: { openTime: new Date(trades[i]!.openTime) } as CounterTrade };
      this.booked.push(b);
      this.opened.push(b.counter);
      this.open.set(b.trade.id, b);
    }
    const closedNow: CounterTrade[] = [];
    for (const [id, b] of this.open) {
      if (b.trade.state !== "CLOSED") continue;
      b.counter.closeTime = new Date(b.trade.closeTime!);
      b.counter.realizedPL = b.trade.realizedPL;
      closedNow.push(b.counter);
      this.open.delete(id);
    }
    this.closed.push(...closedNow.sort((a, b) => a.closeTime!.getTime() - b.closeTime!.getTime()));
  }

  /**
   * Closes every open trade at the run's end `ms`; when the market is already closed there (the
   * data ends with that bar), at the last instant inside the last bar (a trade opened at `ms`
   * cannot exist then: its order would have been halted too).
   */
  closeAll(ms: number, reason: AiExitReason | "end"): void {
    this.advanceTo(ms);
    for (const t of this.openTrades()) {
      if (this.closeTrade(t, reason)) continue;
      this.now = ms - 1;
      this.closeTrade(t, reason);
      this.now = ms;
    }
    this.sync();
  }

  counterTrades(dayStart: Date): CounterTrade[] {
    // Unchanged books and trading day: the same list as the last tick's (most ticks trade nothing).
    const key = `${dayStart.getTime()}|${this.booked.length}|${this.closed.length}`;
    if (key === this.countersKey) return this.countersList;
    // Which trades: the one rule of core/trading/counters.ts, shared with the live bot.
    this.countersKey = key;
    this.countersList = selectCounterTrades(this.opened, this.closed, dayStart);
    return this.countersList;
  }

  recordDecisions(records: DecisionRecord[]): void {
    for (const r of records) {
      // An "open" the risk gate refused, or one the edge gate turned into "none" (code no_edge, core/trading/edge-gate.ts).
      if ((r.decision.action === "open" || r.verdict.code === NO_EDGE_CODE) && !r.verdict.allowed) this.blocked[r.verdict.code] = (this.blocked[r.verdict.code] ?? 0) + 1;
    }
  }

  orderNotPlaced(decision: Decision): void {
    this.blocked.order_not_filled = (this.blocked.order_not_filled ?? 0) + 1;
    void decision;
  }
}
