/**
 * The eight supported pairs (issue 12): specs against OANDA's recorded instrument list
 * (oanda/fixtures/async_v20/account_instruments.json), pip sizes, price formatting, and the
 * quote → account conversion of crosses (core/conversion.ts, core/trading/orders.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Decimal } from "../../../core/decimal";
import { conversionInstruments, conversionRate, midsOf } from "../../../core/conversion";
import { computeUnits, quoteToAccount } from "../../../core/engine/sizing";
import { formatPrice, instrumentSpec, isSupportedInstrument, pipSize, SUPPORTED_INSTRUMENTS } from "../../../core/instruments";
import { quoteToAccountRate } from "../../../core/trading/orders";

const recorded = (
  JSON.parse(readFileSync(join(process.cwd(), "../shared/oanda/fixtures/async_v20/account_instruments.json"), "utf8")) as {
    instruments: { name: string; pipLocation: number; displayPrecision: number; tradeUnitsPrecision: number }[];
  }
).instruments;

describe("supported instruments", () => {
  it("lists the eight pairs people trade, majors first", () => {
    expect(SUPPORTED_INSTRUMENTS).toEqual(["EUR_USD", "GBP_USD", "USD_JPY", "AUD_USD", "USD_CAD", "USD_CHF", "EUR_GBP", "EUR_JPY"]);
    expect(isSupportedInstrument("EUR_GBP")).toBe(true);
    expect(isSupportedInstrument("USD_TRY")).toBe(false);
  });

  it.each(SUPPORTED_INSTRUMENTS.map((n) => [n]))("%s matches OANDA's recorded pipLocation, displayPrecision and tradeUnitsPrecision", (name) => {
    const r = recorded.find((i) => i.name === name)!;
    const s = instrumentSpec(name);
    expect(r).toBeDefined();
    expect([s.pipLocation, s.displayPrecision, s.tradeUnitsPrecision]).toEqual([r.pipLocation, r.displayPrecision, r.tradeUnitsPrecision]);
  });

  it("pip sizes and price formats", () => {
    const rows = SUPPORTED_INSTRUMENTS.map((n) => [n, pipSize(n).toString(), formatPrice(n, "1.2345678")]);
    expect(rows).toEqual([
      ["EUR_USD", "0.0001", "1.23457"],
      ["GBP_USD", "0.0001", "1.23457"],
      ["USD_JPY", "0.01", "1.235"],
      ["AUD_USD", "0.0001", "1.23457"],
      ["USD_CAD", "0.0001", "1.23457"],
      ["USD_CHF", "0.0001", "1.23457"],
      ["EUR_GBP", "0.0001", "1.23457"],
      ["EUR_JPY", "0.01", "1.235"],
    ]);
    expect(formatPrice("EUR_JPY", "162.4355")).toBe("162.436");
  });

  it("margin rates: 30:1 for pairs of ESMA major currencies, 20:1 for AUD_USD", () => {
    expect(SUPPORTED_INSTRUMENTS.map((n) => instrumentSpec(n).marginRate)).toEqual(["0.0333", "0.0333", "0.0333", "0.05", "0.0333", "0.0333", "0.0333", "0.0333"]);
  });
});

describe("quote → account conversion", () => {
  const prices = [
    { instrument: "EUR_USD", bid: "1.08000", ask: "1.08020" }, // mid 1.0801
    { instrument: "GBP_USD", bid: "1.26000", ask: "1.26020" }, // mid 1.2601
    { instrument: "USD_JPY", bid: "150.000", ask: "150.020" }, // mid 150.01
    { instrument: "USD_CAD", bid: "1.36000", ask: "1.36020" }, // mid 1.3601
    { instrument: "USD_CHF", bid: "0.88000", ask: "0.88020" }, // mid 0.8801
  ];
  const mid = midsOf(prices);

  it("EUR_GBP on USD: GBP → USD is the GBP_USD mid", () => {
    expect(quoteToAccountRate("GBP", "USD", prices)).toBe("1.2601");
  });
  it("EUR_JPY on USD: JPY → USD is 1 / USD_JPY mid", () => {
    expect(new Decimal(quoteToAccountRate("JPY", "USD", prices)!).toFixed(6)).toBe("0.006666");
  });
  it("USD_CAD and USD_CHF on USD: 1 / their own mid", () => {
    expect(new Decimal(quoteToAccountRate("CAD", "USD", prices)!).toFixed(6)).toBe("0.735240");
    expect(new Decimal(quoteToAccountRate("CHF", "USD", prices)!).toFixed(6)).toBe("1.136235");
  });
  it("through USD when no pair links the currencies: JPY → EUR = (1/150.01) / 1.0801", () => {
    expect(conversionRate("JPY", "EUR", mid)!.toFixed(8)).toBe("0.00617186");
    expect(conversionRate("GBP", "CAD", mid)!.toFixed(6)).toBe("1.713862"); // 1.2601 × 1.3601 = 1.71386201
    expect(conversionRate("AUD", "USD", mid)).toBeUndefined();
  });
  it("names the pairs a conversion needs, among those offered", () => {
    const offered = ["EUR_USD", "GBP_USD", "USD_JPY"];
    expect(conversionInstruments("GBP", "USD", offered)).toEqual(["GBP_USD"]);
    expect(conversionInstruments("JPY", "USD", offered)).toEqual(["USD_JPY"]);
    expect(conversionInstruments("JPY", "EUR", offered)).toEqual(["USD_JPY", "EUR_USD"]);
    expect(conversionInstruments("USD", "USD", offered)).toEqual([]);
  });

  it("sizing of crosses in a USD account: 1 % of 10,000 over a 20-pip stop", () => {
    // EUR_GBP: 100 USD / (0.0020 GBP × 1.2601 USD/GBP) = 39 679.39 → 39 679 units.
    const gbp = quoteToAccountRate("GBP", "USD", prices)!;
    expect(computeUnits({ instrument: "EUR_GBP", side: "buy", mode: "auto", fixedLot: 0.01, balance: "10000", accountCurrency: "USD", price: "0.85", stopDistance: "0.0020", quoteToAccountRate: gbp })).toEqual({ ok: true, units: "39679" });
    // EUR_JPY: 100 USD / (0.40 JPY × (1/150.01)) = 37 502.5 → 37 502 units (a 20-pip stop would be
    // capped by the 5× leverage: 50 000 / (162 × 1/150.01) = 46 299).
    const jpy = quoteToAccountRate("JPY", "USD", prices)!;
    expect(computeUnits({ instrument: "EUR_JPY", side: "sell", mode: "auto", fixedLot: 0.01, balance: "10000", accountCurrency: "USD", price: "162.000", stopDistance: "0.40", quoteToAccountRate: jpy })).toEqual({ ok: true, units: "-37502" });
    // USD_CAD: base = account → rate 1/price; 100 / (0.0020 / 1.36) = 68 000 units, capped by the
    // 5× leverage cap at 10 000 × 5 / (1.36 × 1/1.36) = 50 000 units.
    expect(quoteToAccount("USD_CAD", "USD", "1.36")!.toFixed(6)).toBe("0.735294");
    expect(computeUnits({ instrument: "USD_CAD", side: "buy", mode: "auto", fixedLot: 0.01, balance: "10000", accountCurrency: "USD", price: "1.36", stopDistance: "0.0020" })).toEqual({ ok: true, units: "50000" });
  });
});

