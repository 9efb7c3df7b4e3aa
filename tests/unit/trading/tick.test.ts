/**
 * The executor's fixed order (DESIGN.md §3) on recording ports: sync → exits → decide → gate →
 * record → place → sync; only the AI's trades are closed by it; every decision is recorded before
 * any order; a rule that stops the bot ends the instrument loop; an allowed opening counts for the
 * instruments after it; a refused order is reported as not executed; with a lapsed licence the
 * tick is manage-only: sync and the AI's exits run, nothing is prepared, decided, recorded or placed.
 */
import { describe, expect, it } from "vitest";
import type { AccountSummary, ClientPrice, Trade } from "../../../core/broker/port";
import type { Decision } from "../../../core/engine/decide";
import { msg } from "../../../core/i18n/message";
import { defaultSettings } from "../../../core/settings";
import type { TradingSettings } from "../../../core/settings";
import { AI_TRADE_TAG } from "../../../core/trading/exits";
import { executeTick } from "../../../core/trading/tick";
import type { TickPorts } from "../../../core/trading/tick";

const NOW = "2026-01-14T15:00:00.000000000Z"; // a Wednesday, 12:00 in São Paulo

function openDecision(instrument: string): Decision {
  return {
    id: `ia-${instrument}-M5-x`,
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
  };
}

function harness(opts: { settings?: TradingSettings; open?: Trade[]; fillOrders?: boolean; losses?: number; licenceValid?: boolean } = {}) {
  const log: string[] = [];
  const summary: AccountSummary = {
    id: "A", currency: "USD", balance: "10000.0000", NAV: "10000.0000", unrealizedPL: "0.0000", pl: "0", marginUsed: "0",
    marginAvailable: "10000", openTradeCount: 0, openPositionCount: 0, pendingOrderCount: 0, lastTransactionID: "1",
  };
  const settings = opts.settings ?? { ...defaultSettings(), instruments: ["EUR_USD", "GBP_USD"] };
  const price = (instrument: string): ClientPrice => ({ instrument, time: NOW, tradeable: true, bid: "1.10000", ask: "1.10010" });
  const closedLosses = Array.from({ length: opts.losses ?? 0 }, (_, i) => ({
    openTime: new Date(Date.parse(NOW) - (i + 2) * 3_600_000),
    closeTime: new Date(Date.parse(NOW) - (i + 1) * 3_600_000),
    realizedPL: "-1.0000",
  }));
  const ports: TickPorts = {
    broker: {
      accountSummary: () => (log.push("summary"), summary),
      openTrades: () => (log.push("openTrades"), opts.open ?? []),
      prices: (instruments) => (log.push("prices"), instruments.map(price)),
      closeTrade: (t, reason) => (log.push(`close ${t.id} ${reason}`), true),
      placeOrder: (d) => (log.push(`order ${d.instrument}`), opts.fillOrders ?? true),
    },
    store: {
      sync: () => void log.push("sync"),
      counterTrades: () => (log.push("counters"), closedLosses),
      recordDecisions: (records) => void log.push(`record ${records.map((r) => `${r.decision.instrument}:${r.execute ? "go" : r.verdict.code}`).join(",")}`),
      orderNotPlaced: (d) => void log.push(`notPlaced ${d.instrument}`),
    },
    decisions: { prepare: () => (log.push("prepare"), (input) => openDecision(input.instrument)) },
    clock: () => new Date(0),
  };
  const ctx = { settings, timezone: "America/Sao_Paulo", licenceValid: opts.licenceValid ?? true, highWaterMark: null, runStartedAt: null };
  return { log, run: () => executeTick(ports, ctx) };
}

const trade = (id: string, tag?: string): Trade => ({
  id, instrument: "EUR_USD", price: "1.1", openTime: "2026-01-14T14:00:00.000000000Z", state: "OPEN", initialUnits: "1000", currentUnits: "1000", realizedPL: "0",
  ...(tag ? { clientExtensions: { tag } } : {}),
});

describe("executeTick", () => {
  it("runs the steps in DESIGN.md §3 order and records every decision before the first order", async () => {
    const settings = { ...defaultSettings(), instruments: ["EUR_USD", "GBP_USD"] };
    settings.aiSettings.cooldownSec = 0; // else the first opening's cooldown blocks the second (next test)
    const h = harness({ settings });
    const report = await h.run();
    expect(h.log).toEqual([
      "sync", "summary", "prices", "openTrades", "counters", "prepare",
      "record EUR_USD:go,GBP_USD:go",
      "order EUR_USD", "order GBP_USD",
      "sync",
    ]);
    expect(report.now.toISOString()).toBe("2026-01-14T15:00:00.000Z"); // the broker's price time, not the fallback clock
    expect(report.decisions.map((d) => d.execute)).toEqual([true, true]);
  });

  it("closes only the AI's trades past the scalper's max hold, then syncs and re-reads the account", async () => {
    const settings = { ...defaultSettings(), instruments: ["EUR_USD"] };
    settings.aiSettings.tradingStyle = "scalper";
    const h = harness({ settings, open: [trade("7", AI_TRADE_TAG), trade("8")] });
    const report = await h.run();
    expect(h.log.slice(0, 8)).toEqual(["sync", "summary", "prices", "openTrades", "close 7 max_hold", "sync", "openTrades", "summary"]);
    expect(report.exits.map((e) => e.trade.id)).toEqual(["7"]);
  });

  it("an allowed opening counts for the next instrument (cooldown, max concurrent trades)", async () => {
    const cooled = harness();
    expect((await cooled.run()).decisions.map((d) => (d.execute ? "go" : d.verdict.code))).toEqual(["go", "cooldown"]);
    const h = harness({ settings: { ...defaultSettings(), instruments: ["EUR_USD", "GBP_USD"], maxTrades: 1 } });
    const report = await h.run();
    expect(report.decisions.map((d) => (d.execute ? "go" : d.verdict.code))).toEqual(["go", "max_trades"]);
    expect(h.log.filter((l) => l.startsWith("order"))).toEqual(["order EUR_USD"]);
  });

  it("a rule that stops the bot ends the tick's decisions and places nothing", async () => {
    const h = harness({ losses: 5 });
    const report = await h.run();
    expect(report.stopped?.stopBot).toBe("max_consecutive_losses");
    expect(report.decisions).toHaveLength(1);
    expect(h.log.some((l) => l.startsWith("order"))).toBe(false);
  });

  it("a refused order is reported as not executed and marked in the store", async () => {
    const h = harness({ fillOrders: false, settings: { ...defaultSettings(), instruments: ["EUR_USD"] } });
    const report = await h.run();
    expect(report.decisions[0]!.execute).toBe(false);
    expect(h.log.slice(-2)).toEqual(["order EUR_USD", "notPlaced EUR_USD"]);
  });

  it("manage-only (lapsed licence): sync, account and the AI's exits run; nothing is decided, recorded or placed", async () => {
    const settings = { ...defaultSettings(), instruments: ["EUR_USD", "GBP_USD"] };
    settings.aiSettings.tradingStyle = "scalper";
    const h = harness({ settings, licenceValid: false, open: [trade("7", AI_TRADE_TAG), trade("8")] });
    const report = await h.run();
    expect(h.log).toEqual(["sync", "summary", "prices", "openTrades", "close 7 max_hold", "sync", "openTrades", "summary", "counters"]);
    expect(report.exits.map((e) => e.trade.id)).toEqual(["7"]);
    expect(report.decisions).toEqual([]);
    expect(report.stopped).toBeUndefined();
    expect(report.manageOnly).toMatchObject({ allowed: false, code: "licence_invalid", manageOnly: "licence", reasonMsg: { key: "risk:licenceInvalid" } });
    expect(Number(report.highWaterMark)).toBe(10000); // still raised from the NAV read
  });

  it("manage-only even when a stop rule would trip: the bot is neither stopped nor trading", async () => {
    const h = harness({ licenceValid: false, losses: 5 });
    const report = await h.run();
    expect(report.stopped).toBeUndefined();
    expect(report.manageOnly?.manageOnly).toBe("licence");
    expect(h.log.some((l) => l.startsWith("order") || l.startsWith("record") || l === "prepare")).toBe(false);
  });
});
