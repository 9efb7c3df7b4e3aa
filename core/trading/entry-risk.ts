/**
 * The risk gate's verdict on opening one trade now (DESIGN.md §3 step 3), from what the caller has
 * read: the account, the instrument's quote, the open trades, the risk counters and the news
 * blackout. The one place that builds the gate's context: the AI's tick (core/trading/tick.ts) and
 * the user's manual market order (app/services/trading/manual-order.server.ts) ask the same question with it,
 * so a manual order meets exactly the AI's protections (issue 22, PRODUCT.md §7 Orders).
 */
import type { AccountSummary } from "../broker/port";
import { evaluateRisk, spreadInPips } from "../risk";
import type { RiskVerdict } from "../risk";
import type { TradingSettings } from "../settings";
import type { RiskCounters } from "./counters";

/** What the gate is asked about one opening. Money is in the account currency, decimal strings. */
export interface EntryRiskInput {
  /** The decision instant (the broker's price time). */
  now: Date;
  settings: TradingSettings;
  instrument: string;
  /** IANA timezone of the trading day and trading hours (user preference). */
  timezone: string;
  licenceValid: boolean;
  /** The instrument's current quote (tradeable = the market is open for it). */
  price: { bid: string; ask: string; tradeable: boolean };
  /** The news blackout at `now` for the instrument, when a calendar answered. */
  news?: { active: boolean; event?: string } | undefined;
  /** Open trades on the account, and per instrument. */
  open: { all: number; by: ReadonlyMap<string, number> };
  counters: Pick<RiskCounters, "tradesToday" | "realizedPLToday" | "dayStartBalance" | "highWaterMark" | "consecutiveLosses" | "lastTradeAt">;
  account: Pick<AccountSummary, "NAV" | "unrealizedPL">;
}

/** The gate's verdict (core/risk/evaluate.ts: the first blocking protection wins, else allowed). Pure. */
export function entryVerdict(input: EntryRiskInput): RiskVerdict {
  const { now, settings, instrument, timezone, price, news, open, counters: c, account } = input;
  return evaluateRisk({
    now,
    settings,
    instrument,
    timezone,
    licenceValid: input.licenceValid,
    brokerConnected: true,
    priceTradeable: price.tradeable,
    spreadPips: spreadInPips(instrument, price.bid, price.ask),
    ...(news ? { newsBlackout: news } : {}),
    openTrades: open.all,
    openTradesOnInstrument: open.by.get(instrument) ?? 0,
    tradesToday: c.tradesToday,
    realizedPLToday: c.realizedPLToday,
    unrealizedPL: account.unrealizedPL,
    dayStartBalance: c.dayStartBalance,
    equity: account.NAV,
    highWaterMark: c.highWaterMark,
    consecutiveLosses: c.consecutiveLosses,
    ...(c.lastTradeAt ? { lastTradeAt: c.lastTradeAt } : {}),
  });
}
