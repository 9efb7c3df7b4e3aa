/**
 * Issue 21 "risk the user can read": the leverage cap of automatic sizing is the user's
 * `maxLeveragePerTrade` setting (default 5, bounds 1–30 ×, never above the pair's broker limit), and
 * the real risk it leaves is shown — in the pre-flight check (at the typical and the reference stop)
 * and in the backtest (risk % of NAV at entry per trade, median and maximum).
 */
import { describe, expect, it } from "vitest";
import { riskPctSummary, runBacktest } from "../../../core/backtest/run";
import { brokerMaxLeverage, computeUnits, effectiveLeverage, positionRisk } from "../../../core/engine/sizing";
import { decodeIssueMessage } from "../../../core/i18n/zod-message";
import { renderMsg } from "../../../core/i18n";
import { preflight, typicalStop } from "../../../core/risk/preflight";
import { defaultSettings, MAX_LEVERAGE_LIMIT, normaliseLoadedSettings, parseSettingsUpdate, type TradingSettings } from "../../../core/settings";
import { loadCsvCandles } from "../../../app/services/backtest/candle-files";
import { edgeEverywhere } from "../../support/edge-tables";

const eur = { instrument: "EUR_USD", side: "buy" as const, mode: "auto" as const, fixedLot: 0.01, balance: "10000", accountCurrency: "USD", price: "1.1" };

describe("sizing with the maxLeveragePerTrade setting", () => {
  it("a 10-pip stop: 1 % would be 100 000 units; the cap allows 5× (default), 10× or the full 1 % at 30×", () => {
    const at = (maxLeverage?: number) => computeUnits({ ...eur, stopDistance: "0.0010", ...(maxLeverage === undefined ? {} : { maxLeverage }) });
    expect(at()).toEqual({ ok: true, units: "45454" }); // 10 000 × 5 / 1.1
    expect(at(10)).toEqual({ ok: true, units: "90909" });
    expect(at(30)).toEqual({ ok: true, units: "100000" }); // 272 727 allowed, the 1 % rule binds
    expect(at(1)).toEqual({ ok: true, units: "9090" });
  });
  it("never above the pair's broker limit: AUD_USD (5 % margin) stops at 20× even when 30× is chosen", () => {
    expect(brokerMaxLeverage("0.0333")).toBe(30);
    expect(brokerMaxLeverage("0.05")).toBe(20);
    expect(effectiveLeverage(30, "0.05")).toBe(20);
    expect(effectiveLeverage(undefined, "0.0333")).toBe(5);
    const r = computeUnits({ ...eur, instrument: "AUD_USD", price: "0.65", stopDistance: "0.0002", maxLeverage: 30 });
    expect(r).toEqual({ ok: true, units: "307692" }); // 10 000 × 20 / 0.65; 1 % would be 500 000
  });
  it("a fixed lot above the chosen cap is refused (0.3 lot = 33 000 USD: fine at 5×, refused at 2×)", () => {
    const fixed = { ...eur, mode: "fixed" as const, fixedLot: 0.3, stopDistance: "0.0010" };
    expect(computeUnits(fixed)).toEqual({ ok: true, units: "30000" });
    expect(computeUnits({ ...fixed, maxLeverage: 2 })).toMatchObject({ ok: false, reason: "Lote fixo 0.30 acima do máximo de 0.18 lotes para o saldo e a margem (alavancagem máxima por trade)" });
  });
  it("positionRisk: |units| × stop × rate, and % of the balance", () => {
    expect(positionRisk({ units: "-45454", stopDistance: "0.0010", rate: "1", balance: "10000" })).toEqual({ amount: "45.46", pct: "0.45" });
    expect(positionRisk({ units: "30000", stopDistance: "0.50", rate: "0.0066666667", balance: "0" })).toEqual({ amount: "100.01", pct: null });
  });
});

describe("maxLeveragePerTrade bounds (core/settings.ts)", () => {
  const cur = defaultSettings();
  it.each([
    [31, "maxLeveragePerTrade deve estar entre 1 e 30"],
    [0.5, "maxLeveragePerTrade deve estar entre 1 e 30"],
    [2.25, "maxLeveragePerTrade deve variar em passos de 0,5"],
    ["muito", "maxLeveragePerTrade deve ser um número"],
  ])("%s is refused with a Portuguese message", (value, message) => {
    const r = parseSettingsUpdate({ maxLeveragePerTrade: value }, cur);
    expect(r).toEqual({ ok: false, message, field: "maxLeveragePerTrade" });
    if (!r.ok) expect(renderMsg(decodeIssueMessage(r.message), "en")).toMatch(/maxLeveragePerTrade/);
  });
  it("accepts 1–30 in steps of 0.5 (form strings with a decimal comma too); default 5", () => {
    expect(MAX_LEVERAGE_LIMIT).toBe(30);
    expect(cur.maxLeveragePerTrade).toBe(5);
    for (const [v, want] of [[1, 1], ["2,5", 2.5], ["30", 30]] as const) {
      const r = parseSettingsUpdate({ maxLeveragePerTrade: v }, cur);
      expect(r.ok && r.settings.maxLeveragePerTrade).toBe(want);
    }
  });
  it("on load, a stored value out of bounds or missing falls back to the default 5", () => {
    expect(normaliseLoadedSettings({ maxLeveragePerTrade: 99 }).maxLeveragePerTrade).toBe(5);
    expect(normaliseLoadedSettings({ lotMode: "auto" }).maxLeveragePerTrade).toBe(5);
    expect(normaliseLoadedSettings({ maxLeveragePerTrade: 12.5 }).maxLeveragePerTrade).toBe(12.5);
  });
});

const prices = [
  { instrument: "EUR_USD", bid: "1.09990", ask: "1.10010" },
  { instrument: "GBP_USD", bid: "1.25990", ask: "1.26010" },
  { instrument: "USD_JPY", bid: "149.990", ask: "150.010" },
];
const majors = ["EUR_USD", "GBP_USD", "USD_JPY"];
const settings = (patch: Partial<TradingSettings> = {}): TradingSettings => ({ ...defaultSettings(), ...patch });

describe("pre-flight real risk", () => {
  it("swing's typical stop is the median M30 ATR (13 pips) × slRatio", () => {
    expect(typicalStop(settings())).toEqual({ timeframe: "M30", pips: 13 });
    expect(typicalStop(settings({ slRatio: 1.5 }))).toEqual({ timeframe: "M30", pips: 19.5 });
  });
  it("default 5× on 10,000 USD: the real risk at the typical stop is 0.59 %, not 1 %, and the card says the cap binds", () => {
    const r = preflight({ settings: settings(), balance: "10000", accountCurrency: "USD", instruments: majors, prices });
    // EUR_USD: 1 % over 13 pips = 76 923 units, the 5× cap 45 454 → 45 454 × 0.0013 = 59.0902 → 59.10 (0.59 %).
    expect(r.instruments.map((i) => [i.instrument, i.typicalStopPips, i.typicalLoss, i.typicalLossPct, i.typicalCapped, i.maxLeverage])).toEqual([
      ["EUR_USD", 13, "59.10", "0.59", true, 5],
      ["GBP_USD", 13, "51.59", "0.52", true, 5], // 39 682 × 0.0013 = 51.5866
      ["USD_JPY", 13, "43.34", "0.43", true, 5], // 50 000 × 0.13 / 150 = 43.333
    ]);
    expect(r.realRisk).toEqual({ instrument: "EUR_USD", timeframe: "M30", stopPips: 13, amount: "59.10", pct: "0.59", capped: true, maxLeverage: 5 });
    expect(r.maxLeveragePerTrade).toBe(5);
    // At the 50-pip reference stop the cap does not bind: the worst loss stays the full 1 %.
    expect(r.worstTradeLoss).toBe("100.00");
    expect(r.instruments.every((i) => !i.capped)).toBe(true);
  });
  it("30× lets automatic sizing reach the 1 %; 1× caps even the reference stop", () => {
    const wide = preflight({ settings: settings({ maxLeveragePerTrade: 30 }), balance: "10000", accountCurrency: "USD", instruments: ["EUR_USD"], prices });
    expect(wide.realRisk).toMatchObject({ pct: "1.00", amount: "100.00", capped: false, maxLeverage: 30 });
    const tight = preflight({ settings: settings({ maxLeveragePerTrade: 1 }), balance: "10000", accountCurrency: "USD", instruments: ["EUR_USD"], prices });
    // 9 090 units × 0.0050 = 45.45 at the reference stop; 9 090 × 0.0013 = 11.817 at the typical one.
    expect([tight.worstTradeLoss, tight.instruments[0]!.lossPct, tight.instruments[0]!.capped]).toEqual(["45.45", "0.45", true]);
    expect(tight.realRisk).toMatchObject({ pct: "0.12", amount: "11.82", capped: true, maxLeverage: 1 });
  });
  it("a fixed lot refused on every pair: allRefused, no real risk (the card shows the refusal, not a zero)", () => {
    const r = preflight({ settings: settings({ lotMode: "fixed", fixedLot: 1 }), balance: "10000", accountCurrency: "USD", instruments: majors, prices });
    expect(r.allRefused).toBe(true);
    expect(r.realRisk).toBeNull();
    expect(r.warnings.map((w) => w.code)).toEqual(["fixedLotRefused", "fixedLotRefused", "fixedLotRefused"]);
    const ok = preflight({ settings: settings({ lotMode: "fixed", fixedLot: 0.1 }), balance: "10000", accountCurrency: "USD", instruments: majors, prices });
    expect(ok.allRefused).toBe(false);
    expect(ok.realRisk).toMatchObject({ instrument: "EUR_USD", amount: "13.00", pct: "0.13", capped: false }); // 10 000 × 0.0013
  });
});

describe("backtest real risk (% of NAV at entry)", () => {
  it("riskPctSummary: median (mean of the middle two) and maximum", () => {
    expect(riskPctSummary([])).toBeNull();
    expect(riskPctSummary([{ riskPct: "0.40" }, { riskPct: "1.00" }, { riskPct: "0.30" }])).toEqual({ median: "0.40", max: "1.00" });
    expect(riskPctSummary([{ riskPct: "0.40" }, { riskPct: "0.51" }, { riskPct: null }])).toEqual({ median: "0.46", max: "0.51" });
  });
  it("EUR_USD January 2026: the 5× default keeps the median below 1 %, 30× lets it reach 1 %", { timeout: 120_000 }, async () => {
    const candles = { EUR_USD: loadCsvCandles("/work/shared/data/fx", "EUR_USD") };
    const run = (maxLeveragePerTrade: number) =>
      runBacktest({ instruments: ["EUR_USD"], candles, settings: settings({ maxLeveragePerTrade }), from: "2026-01-12T00:00:00Z", to: "2026-01-31T00:00:00Z", initialBalance: "10000", accountCurrency: "USD", edgeGate: edgeEverywhere() });
    const [capped, wide] = [await run(5), await run(30)];
    expect(capped.trades.length).toBeGreaterThan(5);
    for (const t of capped.trades) {
      expect(t.riskPct).not.toBeNull();
      expect(Number(t.riskPct)).toBeLessThanOrEqual(1.01);
      // notional at entry ≤ 5 × the balance it was sized on (≤ NAV + the run's drift: generous 10 % slack)
      expect(Math.abs(Number(t.units)) * Number(t.entryPrice)).toBeLessThanOrEqual(5 * 10000 * 1.1);
    }
    expect(Number(capped.riskPct!.median)).toBeLessThan(0.9);
    expect(Number(wide.riskPct!.median)).toBeGreaterThan(0.95);
    expect(Number(wide.riskPct!.max)).toBeLessThanOrEqual(1.01);
  });
});
