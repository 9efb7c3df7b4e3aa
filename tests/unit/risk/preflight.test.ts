/**
 * Pre-flight check (core/risk/preflight.ts) with hand-computed figures. Prices: EUR_USD mid 1.1000,
 * GBP_USD 1.2600, USD_JPY 150.00, EUR_GBP 0.8600. Default swing settings trade M15/M30/H1, so the
 * widest stop is H1: REFERENCE_ATR_PIPS.H1 (50) × slRatio 1 = 50 pips.
 */
import { describe, expect, it } from "vitest";
import { renderMsg } from "../../../core/i18n";
import { needsConfirmation, preflight, widestStop } from "../../../core/risk/preflight";
import { defaultSettings, type TradingSettings } from "../../../core/settings";

const prices = [
  { instrument: "EUR_USD", bid: "1.09990", ask: "1.10010" },
  { instrument: "GBP_USD", bid: "1.25990", ask: "1.26010" },
  { instrument: "USD_JPY", bid: "149.990", ask: "150.010" },
  { instrument: "EUR_GBP", bid: "0.85990", ask: "0.86010" },
];
const majors = ["EUR_USD", "GBP_USD", "USD_JPY"];
const settings = (patch: Partial<TradingSettings> = {}): TradingSettings => ({ ...defaultSettings(), ...patch });

describe("widestStop", () => {
  it("takes the slowest timeframe the style may pick, × slRatio", () => {
    expect(widestStop(settings())).toEqual({ timeframe: "H1", pips: 50 });
    const scalper = settings();
    scalper.aiSettings.tradingStyle = "scalper";
    expect(widestStop({ ...scalper, slRatio: 1.5 })).toEqual({ timeframe: "M15", pips: 40.5 }); // 27 × 1.5
    const manual = settings({ timeframe: "M5" });
    manual.aiSettings.autoTimeframeSelection = false;
    expect(widestStop(manual)).toEqual({ timeframe: "M5", pips: 15 });
  });
});

describe("preflight", () => {
  it("default settings on 10,000 USD: 1 % per trade, no warning", () => {
    const r = preflight({ settings: settings(), balance: "10000", accountCurrency: "USD", instruments: majors, prices });
    // EUR_USD: 50 pips = 0.0050 USD/unit; 100 / 0.005 = 20 000 units → 100.00 lost. Largest position =
    // the 5× cap 50 000 / 1.10 = 45 454 units; margin 45 454 × 1.10 × 0.0333 = 1 664.98002 → 1 664.99.
    expect(r.instruments.map((i) => [i.instrument, i.units, i.lossPerTrade, i.margin])).toEqual([
      ["EUR_USD", "45454", "100.00", "1664.99"],
      ["GBP_USD", "39682", "100.00", "1664.98"], // 39 682 × 1.26 × 0.0333 = 1 664.977356
      ["USD_JPY", "50000", "100.00", "1665.00"], // JPY→USD 1/150: 30 000 units at the stop; cap 50 000 × 1 × 0.0333
    ]);
    expect(r.worstTradeLoss).toBe("100.00");
    expect(r.concurrent).toBe(3);
    expect(r.marginNeeded).toBe("4994.96"); // 1 664.98002 + 1 664.977356 + 1 665 = 4 994.957376
    expect(r.dailyLossLimit).toBe("300.00");
    // 15 trades × 100 = 1 500 vs limit 300 + 3 open × 100 = 600 → 600 (6 %), bound by the daily limit.
    expect([r.worstDayLoss, r.worstDayPct, r.binding]).toEqual(["600.00", "6.00", "dailyLossLimit"]);
    expect(r.warnings).toEqual([]);
    expect(needsConfirmation(r)).toBe(false);
  });

  it("fixed 3 lots on 100,000 USD: stop-outs above 1 % and open risk above the daily limit", () => {
    const r = preflight({ settings: settings({ lotMode: "fixed", fixedLot: 3 }), balance: "100000", accountCurrency: "USD", instruments: majors, prices });
    // 300 000 units × 0.0050 = 1 500 (EUR_USD, GBP_USD); USD_JPY 300 000 × 0.50 / 150 = 1 000 (exactly 1 %).
    expect(r.instruments.map((i) => [i.instrument, i.units, i.lossPerTrade, i.lossPct, i.margin])).toEqual([
      ["EUR_USD", "300000", "1500.00", "1.50", "10989.00"],
      ["GBP_USD", "300000", "1500.00", "1.50", "12587.40"],
      ["USD_JPY", "300000", "1000.00", "1.00", "9990.00"],
    ]);
    expect(r.marginNeeded).toBe("33566.40");
    // 15 × 1 500 = 22 500 vs 3 000 + 3 × 1 500 = 7 500.
    expect([r.worstDayLoss, r.binding]).toEqual(["7500.00", "dailyLossLimit"]);
    expect(r.warnings.map((w) => [w.code, w.instrument])).toEqual([
      ["lossAboveRisk", "EUR_USD"],
      ["lossAboveRisk", "GBP_USD"],
      ["openRiskAboveDailyLimit", undefined],
    ]);
    expect(renderMsg(r.warnings[0]!.message, "pt")).toBe(
      "EUR_USD: o lote fixo perde 1500.00 USD (1.50 % do saldo) num stop de 50 pips, acima do risco de 1 % por trade",
    );
    expect(renderMsg(r.warnings[2]!.message, "en")).toBe("3 open trade(s) can lose 4500.00 USD together, more than the 3 % daily loss limit (3000.00 USD)");
    expect(needsConfirmation(r)).toBe(true);
  });

  it("a fixed lot above the leverage cap on a small account is refused by the bot", () => {
    const r = preflight({ settings: settings({ lotMode: "fixed", fixedLot: 1 }), balance: "10000", accountCurrency: "USD", instruments: ["EUR_USD"], prices });
    expect(r.instruments[0]).toMatchObject({ units: "100000", refused: true, lossPerTrade: "500.00" });
    expect(r.warnings.map((w) => w.code)).toEqual(["fixedLotRefused"]);
    expect(renderMsg(r.warnings[0]!.message, "pt")).toBe("EUR_USD: lote fixo de 1.00 acima do máximo de 0.45 lote(s) para este saldo; a IA recusará todas as entradas");
    expect([r.concurrent, r.marginNeeded, r.worstDayLoss]).toEqual([0, "0.00", "0.00"]);
  });

  it("the maxDailyTrades bound binds when it is the smaller", () => {
    const r = preflight({ settings: settings({ maxDailyTrades: 2 }), balance: "10000", accountCurrency: "USD", instruments: majors, prices });
    expect([r.worstDayLoss, r.binding]).toEqual(["200.00", "maxDailyTrades"]); // 2 × 100 < 300 + 300
  });

  it("a cross in a USD account converts GBP → USD; a pair without a conversion price is left out", () => {
    const r = preflight({ settings: settings(), balance: "10000", accountCurrency: "USD", instruments: ["EUR_GBP", "EUR_JPY"], prices });
    // EUR_GBP: 0.0050 GBP × 1.26 = 0.0063 USD/unit; 100 / 0.0063 = 15 873 units → 99.9999 → 100.00.
    // Cap 50 000 / (0.86 × 1.26) = 46 142 units; margin 46 142 × 1.0836 × 0.0333 = 1 664.98239 → 1 664.99.
    expect(r.instruments.map((i) => [i.instrument, i.rate, i.units, i.lossPerTrade, i.margin])).toEqual([["EUR_GBP", "1.26", "46142", "100.00", "1664.99"]]);
    expect(r.unpriced).toEqual(["EUR_JPY"]);
    expect(r.warnings.map((w) => w.code)).toEqual(["noPrice"]);
    expect(needsConfirmation(r)).toBe(false);
  });

  it("margin above the margin available", () => {
    const r = preflight({ settings: settings(), balance: "10000", marginAvailable: "4000", accountCurrency: "USD", instruments: majors, prices });
    expect(r.warnings.map((w) => w.code)).toEqual(["marginAboveBalance"]);
    expect(renderMsg(r.warnings[0]!.message, "es")).toBe("El margen de 3 operación(es) abiertas (4994.96 USD) supera el margen disponible (4000.00 USD)");
  });
});
