import { describe, expect, it } from "vitest";
import { accountRules, skippedInstruments } from "../../../core/broker/account-rules";
import { renderMsg } from "../../../core/i18n";
import { evaluateRisk } from "../../../core/risk";
import { defaultSettings, type TradingSettings } from "../../../core/settings";

const offered = (min: Record<string, string> = {}) =>
  ["EUR_USD", "GBP_USD", "USD_JPY"].map((name) => ({ name, minimumTradeSize: min[name] ?? "1", marginRate: "0.0333" }));
const prices = [
  { instrument: "EUR_USD", bid: "1.08490", ask: "1.08510" },
  { instrument: "GBP_USD", bid: "1.26490", ask: "1.26510" },
  { instrument: "USD_JPY", bid: "149.990", ask: "150.010" },
];
const settings = (over: Partial<TradingSettings> = {}): TradingSettings => ({ ...defaultSettings(), instruments: ["EUR_USD", "GBP_USD", "USD_JPY"], ...over });
const text = (r: ReturnType<typeof accountRules>, lang = "pt") => r.lines.map((l) => renderMsg(l.message, lang));

describe("accountRules (broker-rule check at connect)", () => {
  it("a FIFO account (hedgingEnabled false or absent) says the AI never holds two opposite trades and closes oldest first", () => {
    for (const hedgingEnabled of [false, undefined]) {
      const r = accountRules({ summary: { currency: "USD", balance: "10000", ...(hedgingEnabled === undefined ? {} : { hedgingEnabled }) }, instruments: offered(), settings: settings(), prices });
      expect(r.mode).toBe("fifo");
      expect(text(r)[0]).toContain("nunca mantém duas operações opostas no mesmo par");
      expect(text(r)[0]).toContain("a mais antiga primeiro");
    }
  });

  it("a hedging account says opposite trades are allowed by the broker but the AI keeps one trade per pair", () => {
    const r = accountRules({ summary: { currency: "USD", balance: "10000", hedgingEnabled: true }, instruments: offered(), settings: settings(), prices });
    expect(r.mode).toBe("hedging");
    expect(text(r)[0]).toContain("Conta com hedge");
    expect(text(r, "en")[0]).toContain("Hedging account");
    expect(r.signature).not.toBe(accountRules({ summary: { currency: "USD", balance: "10000", hedgingEnabled: false }, instruments: offered(), settings: settings(), prices }).signature);
  });

  it("states the account currency in pt, en and es", () => {
    const r = accountRules({ summary: { currency: "EUR", balance: "5000" }, instruments: offered(), settings: settings(), prices: [...prices, { instrument: "EUR_USD", bid: "1.08490", ask: "1.08510" }] });
    expect(r.currency).toBe("EUR");
    expect(text(r, "pt")).toContain("Moeda da conta: EUR. Saldo, lucro e prejuízo, margem e risco são calculados em EUR.");
    expect(text(r, "en")).toContain("Account currency: EUR. Balance, profit and loss, margin and risk are computed in EUR.");
    expect(text(r, "es").some((l) => l.startsWith("Moneda de la cuenta: EUR."))).toBe(true);
  });

  it("skips a pair whose minimumTradeSize is above the units the 1 % risk gives on this balance, and the gate refuses it with that reason", () => {
    const r = accountRules({ summary: { currency: "USD", balance: "10000" }, instruments: offered({ EUR_USD: "100000" }), settings: settings(), prices });
    const eur = r.instruments.find((i) => i.instrument === "EUR_USD")!;
    const gbp = r.instruments.find((i) => i.instrument === "GBP_USD")!;
    expect(eur.skipped).toBe(true);
    expect(Number(eur.units)).toBeGreaterThan(0);
    expect(Number(eur.units)).toBeLessThan(100000);
    expect(gbp.skipped).toBe(false);
    expect(gbp.maxLeverage).toBe(30);
    const wont = r.lines.filter((l) => l.kind === "wont").map((l) => renderMsg(l.message));
    expect(wont).toEqual([`EUR_USD: a IA não opera este par — o tamanho mínimo da corretora (100000 unidades) está acima das ${eur.units} unidades que o risco de 1% permite neste saldo.`]);

    // A larger balance gives more units: the same minimum no longer skips the pair.
    const rich = accountRules({ summary: { currency: "USD", balance: "1000000" }, instruments: offered({ EUR_USD: "100000" }), settings: settings(), prices });
    expect(rich.instruments.find((i) => i.instrument === "EUR_USD")!.skipped).toBe(false);

    const skip = skippedInstruments(r);
    expect(Object.keys(skip)).toEqual(["EUR_USD"]);
    const base = {
      now: new Date("2026-02-04T14:00:00Z"), settings: { ...settings(), tradingHours: { ...settings().tradingHours, enabled: false } }, licenceValid: true, brokerConnected: true, priceTradeable: true,
      spreadPips: 0.5, openTrades: 0, openTradesOnInstrument: 0, tradesToday: 0, realizedPLToday: "0", dayStartBalance: "10000", equity: "10000", highWaterMark: "10000", consecutiveLosses: 0,
    };
    const refused = evaluateRisk({ ...base, instrument: "EUR_USD", minimumSizeAboveRisk: skip.EUR_USD });
    expect(refused.allowed).toBe(false);
    expect(refused.code).toBe("minimum_trade_size");
    expect(refused.reason).toContain("tamanho mínimo da corretora (100000 unidades)");
    expect(evaluateRisk({ ...base, instrument: "GBP_USD" }).code).not.toBe("minimum_trade_size");
  });

  it("says which listed pairs the account does not offer; an unpriced pair is not judged", () => {
    const r = accountRules({ summary: { currency: "USD", balance: "10000" }, instruments: offered().filter((i) => i.name !== "USD_JPY"), settings: settings(), prices: prices.filter((p) => p.instrument !== "GBP_USD") });
    expect(r.instruments.find((i) => i.instrument === "USD_JPY")).toMatchObject({ offered: false, skipped: false });
    expect(r.instruments.find((i) => i.instrument === "GBP_USD")).toMatchObject({ offered: true, units: null, skipped: false });
    expect(text(r)).toContain("USD_JPY: a conta não oferece este par; a IA não o opera.");
  });
});
