import { describe, expect, it } from "vitest";
import { computeStops } from "../../../core/engine/stops";
import { computeUnits, MAX_LEVERAGE_PER_TRADE, RISK_PER_TRADE_PCT } from "../../../core/engine/sizing";
import { effectiveLotMode } from "../../../core/settings";

describe("stops", () => {
  it("EUR_USD: ATR × ratios from the entry, 5 decimals", () => {
    const s = computeStops({ instrument: "EUR_USD", side: "buy", entry: "1.10000", atr: 0.0012345, slRatio: 1, tpRatio: 1.5 });
    expect(s.stopLoss).toBe("1.09877");
    expect(s.takeProfit).toBe("1.10185");
    expect(s.stopPips).toBe(12.3);
    expect(s.trailingStopDistance).toBeUndefined();
    const sell = computeStops({ instrument: "EUR_USD", side: "sell", entry: "1.10000", atr: 0.0012345, slRatio: 1, tpRatio: 1.5 });
    expect(sell.stopLoss).toBe("1.10123");
    expect(sell.takeProfit).toBe("1.09815");
  });
  it("USD_JPY: 3 decimals; scalper trailing distance = micro ATR × mult, at least 5 pips", () => {
    const s = computeStops({ instrument: "USD_JPY", side: "buy", entry: "150.123", atr: 0.12345, slRatio: 1, tpRatio: 1.5, trailing: { microAtr: 0.1, mult: 1.2 } });
    expect(s.stopLoss).toBe("150.000");
    expect(s.takeProfit).toBe("150.308");
    expect(s.trailingStopDistance).toBe("0.120");
    const tiny = computeStops({ instrument: "USD_JPY", side: "sell", entry: "150.000", atr: 0, slRatio: 1, tpRatio: 1, trailing: { microAtr: 0.01, mult: 1 } });
    expect(tiny.stopLoss).toBe("150.010"); // never a zero distance: 1 pip minimum
    expect(tiny.trailingStopDistance).toBe("0.050");
  });
});

describe("sizing", () => {
  it("auto, EUR_USD on a USD account: 1 % of balance over the stop", () => {
    expect(RISK_PER_TRADE_PCT).toBe(1);
    const r = computeUnits({ instrument: "EUR_USD", side: "buy", mode: "auto", fixedLot: 0.01, balance: "10000", accountCurrency: "USD", price: "1.1", stopDistance: "0.0025" });
    expect(r).toEqual({ ok: true, units: "40000" });
    const s = computeUnits({ instrument: "EUR_USD", side: "sell", mode: "auto", fixedLot: 0.01, balance: "10000", accountCurrency: "USD", price: "1.1", stopDistance: "0.0030" });
    expect(s).toEqual({ ok: true, units: "-33333" });
  });
  it("auto, USD_JPY on a USD account converts JPY with 1/price", () => {
    const r = computeUnits({ instrument: "USD_JPY", side: "buy", mode: "auto", fixedLot: 0.01, balance: "10000", accountCurrency: "USD", price: "150", stopDistance: "0.5" });
    expect(r).toEqual({ ok: true, units: "30000" });
  });
  it("auto is capped by margin available / margin rate", () => {
    const r = computeUnits({ instrument: "EUR_USD", side: "buy", mode: "auto", fixedLot: 0.01, balance: "10000", accountCurrency: "USD", price: "1.1", stopDistance: "0.0025", marginAvailable: "1000", marginRate: "0.0333" });
    expect(r).toEqual({ ok: true, units: "27300" });
  });
  it("auto is capped at MAX_LEVERAGE_PER_TRADE × balance of notional when the stop is tight", () => {
    expect(MAX_LEVERAGE_PER_TRADE).toBe(5);
    // 1 % over a 5-pip stop would be 200 000 units (22:1); the cap allows 10 000 × 5 / 1.1.
    const r = computeUnits({ instrument: "EUR_USD", side: "buy", mode: "auto", fixedLot: 0.01, balance: "10000", accountCurrency: "USD", price: "1.1", stopDistance: "0.0005" });
    expect(r).toEqual({ ok: true, units: "45454" });
  });
  it("a cross needs a quote→account rate", () => {
    const r = computeUnits({ instrument: "EUR_GBP", side: "buy", mode: "auto", fixedLot: 0.01, balance: "10000", accountCurrency: "USD", price: "0.85", stopDistance: "0.001" });
    expect(r.ok).toBe(false);
    const ok = computeUnits({ instrument: "EUR_GBP", side: "buy", mode: "auto", fixedLot: 0.01, balance: "10000", accountCurrency: "USD", price: "0.85", stopDistance: "0.002", quoteToAccountRate: "1.25" });
    expect(ok).toEqual({ ok: true, units: "40000" });
  });
  it("fixed: fixedLot × 100 000, signed", () => {
    expect(computeUnits({ instrument: "USD_JPY", side: "sell", mode: "fixed", fixedLot: 0.05, balance: "10000", accountCurrency: "USD", price: "150", stopDistance: "0.1" })).toEqual({ ok: true, units: "-5000" });
    expect(computeUnits({ instrument: "EUR_USD", side: "buy", mode: "fixed", fixedLot: 1.23, balance: "100000", accountCurrency: "USD", price: "1.1", stopDistance: "0.1" })).toEqual({ ok: true, units: "123000" });
  });
  it("fixed: refused, not shrunk, above the leverage or margin cap (issue 8)", () => {
    // 10 000 USD × 5 = 50 000 USD of notional: 0.45 lot of EUR_USD at 1.1 fits, 0.46 does not
    const base = { instrument: "EUR_USD", side: "buy" as const, mode: "fixed" as const, balance: "10000", accountCurrency: "USD", price: "1.1", stopDistance: "0.001" };
    expect(computeUnits({ ...base, fixedLot: 0.45 })).toEqual({ ok: true, units: "45000" });
    const big = computeUnits({ ...base, fixedLot: 0.46 });
    expect(big).toMatchObject({ ok: false, reason: "Lote fixo 0.46 acima do máximo de 0.45 lotes para o saldo e a margem (alavancagem máxima por trade)" });
    // margin: 100 USD available at 3.33 % carries 100 / (1.1 × 0.0333) = 2 730 units
    expect(computeUnits({ ...base, fixedLot: 0.03, marginAvailable: "100" })).toMatchObject({ ok: false, reason: expect.stringContaining("máximo de 0.02 lotes") });
  });
  it("fixed-lot rule: fixed only with lotMode fixed and a finite fixedLot > 0", () => {
    expect(effectiveLotMode({ lotMode: "fixed", fixedLot: 0.01 })).toBe("fixed");
    expect(effectiveLotMode({ lotMode: "fixed", fixedLot: 0 })).toBe("auto");
    expect(effectiveLotMode({ lotMode: "fixed", fixedLot: Number.NaN })).toBe("auto");
    expect(effectiveLotMode({ lotMode: "fixed", fixedLot: Infinity })).toBe("auto");
    expect(effectiveLotMode({ lotMode: "auto", fixedLot: 1 })).toBe("auto");
  });
});
