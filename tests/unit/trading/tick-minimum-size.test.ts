/**
 * The executor and the account's rules (issue 22, broker-rule check): a pair the stored verdict skips
 * (the broker's minimum trade size above the units the 1 % risk gives) gets no order — its "open" is
 * recorded as refused with code minimum_trade_size and the reason in plain Portuguese — while the
 * other pairs trade as usual.
 */
import { describe, expect, it } from "vitest";
import type { AccountSummary, ClientPrice } from "../../../core/broker/port";
import type { Decision } from "../../../core/engine/decide";
import { msg } from "../../../core/i18n/message";
import { defaultSettings } from "../../../core/settings";
import { executeTick, type TickPorts } from "../../../core/trading/tick";
import { edgeEverywhere } from "../../support/edge-tables";

const NOW = "2026-01-14T15:00:00.000000000Z"; // a Wednesday, 12:00 in São Paulo

const openDecision = (instrument: string): Decision => ({
  id: `ia-${instrument}-M5-x`, instrument, action: "open", side: "buy", confidence: 1, timeframe: "M5",
  regime: { volatility: "normal", trend: "trending", reason: "r", reasonMsg: msg("engine:decision.marketClosed") },
  reason: "compra", reasonMsg: msg("engine:decision.marketClosed"), entryPrice: "1.10010", stopLoss: "1.09900", takeProfit: "1.10200", units: "1000",
});

describe("executeTick with the account's rules", () => {
  it("places no order on a pair whose minimum trade size is above the risk's units, and says why", async () => {
    const orders: string[] = [];
    const summary: AccountSummary = {
      id: "A", currency: "USD", balance: "10000.0000", NAV: "10000.0000", unrealizedPL: "0.0000", pl: "0", marginUsed: "0",
      marginAvailable: "10000", openTradeCount: 0, openPositionCount: 0, pendingOrderCount: 0, lastTransactionID: "1",
    };
    const price = (instrument: string): ClientPrice => ({ instrument, time: NOW, tradeable: true, bid: "1.10000", ask: "1.10010" });
    const ports: TickPorts = {
      broker: { accountSummary: () => summary, openTrades: () => [], prices: (list) => list.map(price), closeTrade: () => true, placeOrder: (d) => (orders.push(d.instrument), true) },
      store: { sync: () => {}, counterTrades: () => [], recordDecisions: () => {}, orderNotPlaced: () => {} },
      decisions: { prepare: () => (input) => openDecision(input.instrument) },
      clock: () => new Date(0),
    };
    const settings = { ...defaultSettings(), instruments: ["EUR_USD", "GBP_USD"] };
    settings.aiSettings.cooldownSec = 0;
    const base = { settings, timezone: "America/Sao_Paulo", licenceValid: true, highWaterMark: null, runStartedAt: null, edgeTable: edgeEverywhere() };

    const report = await executeTick(ports, { ...base, minimumSizeSkips: { EUR_USD: { minimum: "100000", units: "45454" } } });
    expect(orders).toEqual(["GBP_USD"]);
    const eur = report.decisions.find((d) => d.decision.instrument === "EUR_USD")!;
    expect(eur.execute).toBe(false);
    expect(eur.verdict.code).toBe("minimum_trade_size");
    expect(eur.verdict.reason).toBe("EUR_USD ignorado: o tamanho mínimo da corretora (100000 unidades) está acima das 45454 unidades que o risco permite neste saldo.");

    // Without a skip both pairs trade (the rule comes from the stored verdict only).
    orders.length = 0;
    await executeTick(ports, base);
    expect(orders).toEqual(["EUR_USD", "GBP_USD"]);
  });
});
