/**
 * Issue 22: the daily trade count and the daily loss limit reset at the trading-day boundary the user
 * chose (settings.tradingDayBoundary): at 17:00 New York with "ny_close", at local midnight (São Paulo)
 * with the default. Through the executor (core/trading/tick.ts), the path of the live bot and the backtest.
 */
import { describe, expect, it } from "vitest";
import type { AccountSummary, ClientPrice } from "../../../core/broker/port";
import type { Decision } from "../../../core/engine/decide";
import { msg } from "../../../core/i18n/message";
import { defaultSettings, type TradingSettings } from "../../../core/settings";
import type { CounterTrade } from "../../../core/trading/counters";
import { executeTick, type TickPorts } from "../../../core/trading/tick";
import { edgeEverywhere } from "../../support/edge-tables";

const openDecision = (instrument: string): Decision => ({
  id: `ia-${instrument}`,
  instrument,
  action: "open",
  side: "buy",
  confidence: 1,
  timeframe: "M5",
  regime: { volatility: "normal", trend: "trending", reason: "r", reasonMsg: msg("engine:decision.marketClosed") },
  reason: "compra",
  reasonMsg: msg("engine:decision.marketClosed"),
  entryPrice: "1.10010",
  stopLoss: "1.09900",
  takeProfit: "1.10200",
  units: "1000",
});

/** One tick at `at` (the price time) for a São Paulo user with these books; the verdict code of EUR_USD ("allowed" when it opened). */
async function verdictAt(at: string, settings: TradingSettings, books: CounterTrade[]): Promise<string> {
  const summary: AccountSummary = {
    id: "A", currency: "USD", balance: "10000.0000", NAV: "10000.0000", unrealizedPL: "0.0000", pl: "0", marginUsed: "0",
    marginAvailable: "10000", openTradeCount: 0, openPositionCount: 0, pendingOrderCount: 0, lastTransactionID: "1",
  };
  const price: ClientPrice = { instrument: "EUR_USD", time: at, tradeable: true, bid: "1.10000", ask: "1.10010" };
  const ports: TickPorts = {
    broker: { accountSummary: () => summary, openTrades: () => [], prices: () => [price], closeTrade: () => true, placeOrder: () => true },
    store: { sync: () => {}, counterTrades: () => books, recordDecisions: () => {}, orderNotPlaced: () => {} },
    decisions: { prepare: () => (input) => openDecision(input.instrument) },
    clock: () => new Date(at),
  };
  const report = await executeTick(ports, { settings, timezone: "America/Sao_Paulo", licenceValid: true, highWaterMark: null, runStartedAt: null, edgeTable: edgeEverywhere() });
  const d = report.decisions.find((r) => r.decision.instrument === "EUR_USD")!;
  return d.execute ? "allowed" : d.verdict.code;
}

function settingsWith(boundary?: "local_midnight" | "ny_close"): TradingSettings {
  const s = { ...defaultSettings(), instruments: ["EUR_USD"], maxDailyTrades: 2 };
  if (boundary) s.tradingDayBoundary = boundary;
  return s;
}

// Wednesday 2026-01-14 (New York UTC−5, São Paulo UTC−3): 17:00 New York = 22:00 UTC = 19:00 São Paulo.
const BEFORE_NY_CLOSE = "2026-01-14T21:59:00Z"; // 16:59 New York, 18:59 São Paulo
const AFTER_NY_CLOSE = "2026-01-14T22:01:00Z"; // 17:01 New York, 19:01 São Paulo
const BEFORE_MIDNIGHT = "2026-01-15T02:59:00Z"; // 23:59 São Paulo
const AFTER_MIDNIGHT = "2026-01-15T03:01:00Z"; // 00:01 São Paulo

// Two trades opened (and closed) that morning: 10:00 and 11:00 in São Paulo.
const twoTrades: CounterTrade[] = [
  { openTime: new Date("2026-01-14T13:00:00Z"), closeTime: new Date("2026-01-14T13:30:00Z"), realizedPL: "1.0000" },
  { openTime: new Date("2026-01-14T14:00:00Z"), closeTime: new Date("2026-01-14T14:30:00Z"), realizedPL: "1.0000" },
];
// A loss of 4 % of the day's starting balance that morning (limit 3 %).
const bigLoss: CounterTrade[] = [{ openTime: new Date("2026-01-14T13:00:00Z"), closeTime: new Date("2026-01-14T15:00:00Z"), realizedPL: "-400.0000" }];

describe("maxDailyTrades counts the trades of the chosen trading day", () => {
  it("ny_close: refused until 17:00 New York, allowed from it", async () => {
    expect(await verdictAt(BEFORE_NY_CLOSE, settingsWith("ny_close"), twoTrades)).toBe("max_daily_trades");
    expect(await verdictAt(AFTER_NY_CLOSE, settingsWith("ny_close"), twoTrades)).toBe("allowed");
  });
  it("default (local midnight): still refused after 17:00 New York, allowed from São Paulo midnight", async () => {
    expect(await verdictAt(AFTER_NY_CLOSE, settingsWith(), twoTrades)).toBe("max_daily_trades");
    expect(await verdictAt(BEFORE_MIDNIGHT, settingsWith("local_midnight"), twoTrades)).toBe("max_daily_trades");
    expect(await verdictAt(AFTER_MIDNIGHT, settingsWith(), twoTrades)).toBe("allowed");
  });
});

describe("the daily loss limit counts the losses of the chosen trading day", () => {
  it("ny_close: the bot stops until 17:00 New York and may trade from it", async () => {
    expect(await verdictAt(BEFORE_NY_CLOSE, settingsWith("ny_close"), bigLoss)).toBe("daily_loss_limit");
    expect(await verdictAt(AFTER_NY_CLOSE, settingsWith("ny_close"), bigLoss)).toBe("allowed");
  });
  it("default (local midnight): the loss still counts after 17:00 New York, not after São Paulo midnight", async () => {
    expect(await verdictAt(AFTER_NY_CLOSE, settingsWith(), bigLoss)).toBe("daily_loss_limit");
    expect(await verdictAt(AFTER_MIDNIGHT, settingsWith(), bigLoss)).toBe("allowed");
  });
});
