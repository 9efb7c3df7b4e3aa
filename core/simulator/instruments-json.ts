/**
 * `Instrument` JSON (GET A/instruments, PROTOCOL.md §6) for the simulated pairs, from
 * core/instruments.ts facts: tradeUnitsPrecision 0, minimumTradeSize "1" (or the account's, set
 * through the control API), maximumOrderUnits
 * "100000000", trailing stop distance 5 pips .. 10000 pips, marginRate 0.0333.
 */
import { Decimal } from "../decimal";
import { instrumentSpec } from "../instruments";

/** Wire object for one instrument name (e.g. "EUR_USD"); `minimumTradeSize` in units (default "1"). */
export function instrumentJSON(name: string, minimumTradeSize = "1"): Record<string, unknown> {
  const s = instrumentSpec(name);
  const pip = new Decimal(10).pow(s.pipLocation);
  return {
    name, type: "CURRENCY", displayName: `${s.base}/${s.quote}`, pipLocation: s.pipLocation, displayPrecision: s.displayPrecision,
    tradeUnitsPrecision: 0, minimumTradeSize, maximumTrailingStopDistance: pip.mul(10_000).toFixed(s.displayPrecision),
    minimumTrailingStopDistance: pip.mul(5).toFixed(s.displayPrecision), maximumPositionSize: "0", maximumOrderUnits: "100000000",
    marginRate: s.marginRate, guaranteedStopLossOrderMode: "DISABLED", tags: [{ type: "ASSET_CLASS", name: "CURRENCY" }],
    financing: {
      longRate: "0.0000", shortRate: "0.0000",
      financingDaysOfWeek: ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"].map((d) => ({ dayOfWeek: d, daysCharged: d === "WEDNESDAY" ? 3 : d === "SATURDAY" || d === "SUNDAY" ? 0 : 1 })),
    },
  };
}
