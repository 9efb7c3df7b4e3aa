/**
 * The engine's and risk gate's reasons as translatable messages (ADR 0007): the Portuguese text kept
 * in `reason` is the pt rendering of `reasonMsg`, en and es render fully, and the catalogs agree.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseCandleCsv } from "../../../core/backtest/csv";
import type { Candle } from "../../../core/candles";
import { DecisionEngine, featureConfig } from "../../../core/engine/decide";
import type { Decision } from "../../../core/engine/decide";
import { computeUnits } from "../../../core/engine/sizing";
import { say, sayList } from "../../../core/engine/text";
import { CORE_RESOURCES, renderMsg } from "../../../core/i18n";
import type { Msg } from "../../../core/i18n";
import { evaluateRisk } from "../../../core/risk";
import type { RiskContext } from "../../../core/risk";
import { defaultSettings } from "../../../core/settings";
import type { TradingSettings } from "../../../core/settings";
import { linearCandles } from "../engine/helpers";
import { NOW, riskContext } from "../risk/context";

const DATA = "/work/shared/data/fx";
const STEP = { M5: 300_000, M15: 900_000, M30: 1_800_000, H1: 3_600_000 } as const;
const LANGS = ["en", "es"] as const;

/** Leaf keys of a catalog ("a.b.c") with their text. */
function leaves(node: unknown, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(node as Record<string, unknown>)) {
    if (typeof v === "string") out.set(prefix + k, v);
    else for (const [kk, vv] of leaves(v, `${prefix}${k}.`)) out.set(kk, vv);
  }
  return out;
}

/** Interpolation variable names of a template ("{{spread, number(…)}}" → "spread"). */
function variables(text: string): string[] {
  return [...text.matchAll(/\{\{([^},]+)/g)].map((m) => m[1]!.trim()).sort();
}

/** Keys used by a message and the messages nested in it. */
function keysOf(m: Msg, into = new Set<string>()): Set<string> {
  into.add(m.key);
  for (const v of Object.values(m.params ?? {})) if (typeof v === "object") keysOf(v, into);
  return into;
}

function expectTranslated(m: Msg, pt: string): void {
  expect(renderMsg(m, "pt")).toBe(pt);
  for (const lang of LANGS) {
    const text = renderMsg(m, lang);
    expect(text, `${lang}: ${text}`).not.toBe(pt);
    expect(text).not.toMatch(/engine:|risk:|\{\{|\}\}/);
  }
}

let real: Record<keyof typeof STEP, Candle[]> | undefined;
function realCandles(): Record<keyof typeof STEP, Candle[]> {
  const load = (tf: keyof typeof STEP): Candle[] => parseCandleCsv(readFileSync(`${DATA}/EUR_USD_${tf}.csv`, "utf8"));
  return (real ??= { M5: load("M5"), M15: load("M15"), M30: load("M30"), H1: load("H1") });
}

/** Streams real EUR_USD candles (M5 steps, coarser timeframes when closed) and decides on each of the last `bars` bars. */
function realDecisions(settings: TradingSettings, bars: number): Decision[] {
  const candles = realCandles();
  const m5 = candles.M5;
  const coarse = (["M15", "M30", "H1"] as const).map((tf) => ({ tf, candles: candles[tf], i: 0 }));
  const engine = new DecisionEngine(featureConfig(settings));
  const out: Decision[] = [];
  const start = m5.length - bars;
  for (let b = 0; b < m5.length; b++) {
    const bar = m5[b]!;
    const close = bar.time + STEP.M5;
    engine.push("M5", bar);
    for (const c of coarse) while (c.i < c.candles.length && c.candles[c.i]!.time + STEP[c.tf] <= close) engine.push(c.tf, c.candles[c.i++]!);
    if (b < start) continue;
    const tradeable = b % 50 !== 0; // now and then a closed market
    out.push(
      engine.decide({
        now: new Date(close),
        instrument: "EUR_USD",
        price: { bid: (bar.close - 0.00005).toFixed(5), ask: (bar.close + 0.00005).toFixed(5), tradeable },
        settings,
        account: { balance: "10000", currency: "USD" },
      }),
    );
  }
  return out;
}

describe("engine reasons as messages", () => {
  it("real decisions: reason is the pt rendering of reasonMsg; en and es render fully", () => {
    const swing = defaultSettings();
    const scalper = defaultSettings();
    scalper.aiSettings.tradingStyle = "scalper";
    scalper.aiSettings.scalper.enabled = true;
    const all = defaultSettings();
    all.aiSettings.indicators = { ema: true, macd: true, rsi: true, bollinger: true, stochastic: true };
    const decisions = [...realDecisions(swing, 600), ...realDecisions(scalper, 300), ...realDecisions(all, 300)];
    const keys = new Set<string>();
    for (const d of decisions) {
      expectTranslated(d.reasonMsg, d.reason);
      expectTranslated(d.regime.reasonMsg, d.regime.reason);
      keysOf(d.reasonMsg, keys);
      keysOf(d.regime.reasonMsg, keys);
    }
    // the run covers trades, refusals and composite reasons
    for (const k of ["engine:decision.divergent", "engine:decision.marketClosed", "engine:decision.noImpulse", "engine:signal.reason", "engine:list.item"]) expect(keys).toContain(k);
    expect(keys.has("engine:decision.buy") || keys.has("engine:decision.sell")).toBe(true);
    expect([...keys].some((k) => k.startsWith("engine:regime."))).toBe(true);
  });

  it("a decision reason nests the signal's message and reads naturally in en and es", () => {
    const s = defaultSettings();
    s.aiSettings.autoTimeframeSelection = false;
    s.timeframe = "M5";
    const candles = linearCandles(200); // RSI 100 (overbought) votes against EMA and MACD
    const engine = new DecisionEngine(featureConfig(s)).load({ M5: candles });
    const d = engine.decide({ now: new Date(candles.at(-1)!.time + 300_000), instrument: "EUR_USD", price: { bid: "1.1", ask: "1.1001", tradeable: true }, settings: s, account: { balance: "10000", currency: "USD" } });
    expect(d.reasonMsg.key).toBe("engine:decision.divergent");
    expect((d.reasonMsg.params!.signal as Msg).key).toBe("engine:signal.reason");
    expect(d.reason).toMatch(/^Sinais divergentes: confiança 0\.33 abaixo do mínimo 0\.60 \(EMA20 acima da EMA50, MACD positivo, RSI 100 \(sobrecomprado\), ADX \d+\)$/);
    expect(renderMsg(d.reasonMsg, "en")).toMatch(/^Mixed signals: confidence 0\.33 below the minimum of 0\.60 \(EMA20 above EMA50, MACD positive, RSI 100 \(overbought\), ADX \d+\)$/);
    expect(renderMsg(d.reasonMsg, "es")).toMatch(/^Señales divergentes: confianza 0\.33 por debajo del mínimo de 0\.60 \(EMA20 por encima de la EMA50, MACD positivo, RSI 100 \(sobrecompra\), ADX \d+\)$/);
    expect(renderMsg(d.regime.reasonMsg, "en")).toBe("Automatic selection off: manual timeframe M5");
  });

  it("sizing failures carry their message", () => {
    const r = computeUnits({ instrument: "EUR_GBP", side: "buy", mode: "auto", fixedLot: 0.01, balance: "10000", accountCurrency: "USD", price: "0.85", stopDistance: "0.001" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.reason).toBe("Sem taxa de conversão de GBP para USD");
    expect(r.reasonMsg).toEqual({ key: "engine:sizing.noConversionRate", params: { from: "GBP", to: "USD" } });
    expect(renderMsg(r.reasonMsg, "en")).toBe("No conversion rate from GBP to USD");
  });

  it("say() gives renderMsg's Portuguese text for every engine key, nested or not", () => {
    for (const [path, text] of leaves(CORE_RESOURCES.pt!.engine)) {
      const params = Object.fromEntries(variables(text).map((v, i) => [v, i % 2 ? i * 1.5 : `v${i}`]));
      const said = say(`engine:${path}`, params);
      expect(said.text).toBe(renderMsg(said.msg));
      expect(said.text).not.toMatch(/\{\{/);
    }
    const list = sayList([say("engine:signal.macd.positive"), say("engine:signal.rsi.value", { value: 58 }), say("engine:signal.bollinger.atMiddle")]);
    const reason = say("engine:decision.buy", { confidence: "0.67", signal: say("engine:signal.reason", { votes: list, adx: 31 }) });
    expect(reason.text).toBe("Compra com confiança 0.67: MACD positivo, RSI 58, preço na média de Bollinger, ADX 31");
    expect(reason.text).toBe(renderMsg(reason.msg));
    expect(renderMsg(reason.msg, "en")).toBe("Buy with confidence 0.67: MACD positive, RSI 58, price at the Bollinger middle band, ADX 31");
    // outside the fast path (formatter, missing parameter, unknown key) i18next renders
    for (const s of [say("risk:spreadTooWide", { spread: 3.5, max: 3, instrument: "EUR_USD" }), say("engine:decision.buy", { confidence: "0.70" }), say("engine:nope")]) {
      expect(s.text).toBe(renderMsg(s.msg));
    }
  });
});

describe("catalogs", () => {
  it("en and es have exactly the pt keys of engine and risk, with the same variables", () => {
    for (const ns of ["engine", "risk"]) {
      const pt = leaves(CORE_RESOURCES.pt![ns]);
      expect(pt.size).toBeGreaterThan(10);
      for (const lang of LANGS) {
        const other = leaves(CORE_RESOURCES[lang]![ns]);
        expect([...other.keys()].sort(), `${lang}/${ns}.json`).toEqual([...pt.keys()].sort());
        for (const [k, text] of pt) expect(variables(other.get(k)!), `${lang} ${ns}:${k}`).toEqual(variables(text));
      }
    }
  });
});

describe("risk verdicts as messages", () => {
  const ctx = riskContext;

  it("max trades per day reached renders in English and Spanish", () => {
    const v = evaluateRisk(ctx({ tradesToday: 15 }));
    expect(v.code).toBe("max_daily_trades");
    expect(v.reason).toBe("Limite diário de 15 trades atingido");
    expect(v.reasonMsg).toEqual({ key: "risk:maxDailyTrades", params: { limit: 15 } });
    expect(renderMsg(v.reasonMsg, "en")).toBe("Daily limit of 15 trades reached");
    expect(renderMsg(v.reasonMsg, "es")).toBe("Límite diario de 15 trades alcanzado");
  });

  it("numbers follow the reader's language; pt keeps today's text", () => {
    const spread = evaluateRisk(ctx({ spreadPips: 3.5 }));
    expect(spread.reason).toBe("Spread de 3,5 pips acima do máximo de 3,0 pips para EUR_USD");
    expect(renderMsg(spread.reasonMsg, "en")).toBe("Spread of 3.5 pips above the maximum of 3.0 pips for EUR_USD");
    expect(renderMsg(spread.reasonMsg, "es")).toBe("Spread de 3,5 pips por encima del máximo de 3,0 pips para EUR_USD");
    const loss = evaluateRisk(ctx({ realizedPLToday: "-301.255", equity: "9700" }));
    expect(loss.reason).toBe("Limite diário de perdas atingido: 3,01% (máximo 3,0%)");
    expect(renderMsg(loss.reasonMsg, "en")).toBe("Daily loss limit reached: 3.01% (maximum 3.0%)");
    const unknown = evaluateRisk(ctx({ spreadPips: Number.NaN }));
    expect(unknown.reason).toBe("Spread de NaN pips acima do máximo de 3,0 pips para EUR_USD");
    expect(renderMsg(unknown.reasonMsg, "en")).toBe("Spread unavailable (NaN); the maximum is 3.0 pips for EUR_USD");
  });

  it("every verdict's reason is the pt rendering of its message; en and es render fully", () => {
    const overs: Partial<RiskContext>[] = [
      {},
      { licenceValid: false },
      { brokerConnected: false },
      { priceTradeable: false },
      { newsBlackout: { active: true } },
      { newsBlackout: { active: true, event: "Payroll (USD)" } },
      { spreadPips: 3.25 },
      { spreadPips: Number.POSITIVE_INFINITY },
      { openTrades: 3 },
      { openTrades: 1, openTradesOnInstrument: 1 },
      { tradesToday: 15 },
      { realizedPLToday: "-2.675", dayStartBalance: "100" },
      { equity: "94.625", highWaterMark: "100" },
      { lastTradeAt: new Date(NOW.getTime() - 25_000) },
      { consecutiveLosses: 5 },
    ];
    const settings = defaultSettings();
    settings.aiSettings.news.enabled = true;
    const codes = new Set<string>();
    for (const o of overs) {
      const v = evaluateRisk(ctx({ settings, ...o }));
      codes.add(v.code);
      expectTranslated(v.reasonMsg, v.reason);
    }
    expect(codes.size).toBe(12);
  });
});
