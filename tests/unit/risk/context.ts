/** A passing risk context (defaults, 10 000 balance, nothing open) with overrides, for risk tests. */
import type { RiskContext } from "../../../core/risk";
import { defaultSettings } from "../../../core/settings";

export const NOW = new Date("2026-01-05T15:00:00Z");

export function riskContext(over: Partial<RiskContext> = {}): RiskContext {
  return {
    now: NOW,
    settings: defaultSettings(),
    instrument: "EUR_USD",
    licenceValid: true,
    brokerConnected: true,
    priceTradeable: true,
    spreadPips: 1,
    openTrades: 0,
    openTradesOnInstrument: 0,
    tradesToday: 0,
    realizedPLToday: "0",
    dayStartBalance: "10000",
    equity: "10000",
    highWaterMark: "10000",
    consecutiveLosses: 0,
    ...over,
  };
}
