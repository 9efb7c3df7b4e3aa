import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseCandleCsv } from "../../../core/backtest/csv";
import { decide, DecisionEngine, featureConfig, MIN_CONFIDENCE } from "../../../core/engine/decide";
import type { EngineInput } from "../../../core/engine/decide";
import { defaultSettings } from "../../../core/settings";
import { linearCandles, wavyCandles } from "./helpers";

const DATA = "/work/shared/data/fx";
const load = (f: string) => parseCandleCsv(readFileSync(`${DATA}/${f}`, "utf8"));
const until = Date.parse("2026-01-20T12:00:00Z");
const real = {
  M5: load("EUR_USD_M5.csv").filter((c) => c.time + 300_000 <= until),
  M15: load("EUR_USD_M15.csv").filter((c) => c.time + 900_000 <= until),
  M30: load("EUR_USD_M30.csv").filter((c) => c.time + 1_800_000 <= until),
  H1: load("EUR_USD_H1.csv").filter((c) => c.time + 3_600_000 <= until),
};

function input(over: Partial<EngineInput> = {}): EngineInput {
  return {
    now: new Date(until),
    instrument: "EUR_USD",
    candles: real,
    price: { bid: "1.16000", ask: "1.16010", tradeable: true },
    settings: defaultSettings(),
    account: { balance: "10000", currency: "USD" },
    ...over,
  };
}

describe("decide", () => {
  it("is deterministic: same input → same decision and id", () => {
    const a = decide(input());
    const b = decide(structuredClone(input()));
    expect(b).toEqual(a);
    expect(a.id).toMatch(/^ia-EUR_USD-(M5|M15|M30|H1)-2026012\dT\d{4}Z$/);
    expect(["M15", "M30", "H1"]).toContain(a.timeframe); // swing ladder
    expect(a.regime.reason).toMatch(/^Volatilidade (alta|normal|baixa)/);
  });

  it("the streaming engine gives the same decision as the batch form", () => {
    const s = defaultSettings();
    const eng = new DecisionEngine(featureConfig(s));
    // push interleaved by close time, as the backtest does
    for (const tf of ["H1", "M30", "M15", "M5"] as const) for (const c of real[tf]) eng.push(tf, c);
    expect(eng.decide(input())).toEqual(decide(input()));
  });

  it("drops incomplete candles defensively", () => {
    const forming = { ...real.M5.at(-1)!, time: real.M5.at(-1)!.time + 300_000, close: 9, high: 9, complete: false };
    const withForming = { ...real, M5: [...real.M5, forming] };
    expect(decide(input({ candles: withForming }))).toEqual(decide(input()));
  });

  it("says which timeframe lacks data", () => {
    const d = decide(input({ candles: { ...real, H1: real.H1.slice(0, 10) } }));
    expect(d.action).toBe("none");
    expect(d.reason).toBe("Dados insuficientes para H1");
  });

  it("opens a buy on a clean uptrend with stops, units and a reason naming the indicators", () => {
    const s = defaultSettings();
    s.aiSettings.autoTimeframeSelection = false;
    s.timeframe = "M5";
    const candles = wavyCandles(180); // at bar 180 EMA, MACD and RSI (66) agree
    const last = candles.at(-1)!;
    const d = decide({ ...input(), settings: s, candles: { M5: candles }, now: new Date(last.time + 300_000), price: { bid: last.close.toFixed(5), ask: (last.close + 0.0001).toFixed(5), tradeable: true } });
    expect(d.action).toBe("open");
    expect(d.side).toBe("buy");
    expect(d.confidence).toBeGreaterThanOrEqual(MIN_CONFIDENCE);
    expect(d.reason).toMatch(/^Compra com confiança \d\.\d\d: EMA20 acima da EMA50, MACD positivo, RSI \d+/);
    expect(d.entryPrice).toBe((last.close + 0.0001).toFixed(5));
    expect(Number(d.stopLoss)).toBeLessThan(Number(d.entryPrice));
    expect(Number(d.takeProfit)).toBeGreaterThan(Number(d.entryPrice));
    expect(d.stopLoss).toMatch(/^\d\.\d{5}$/);
    expect(d.units).toMatch(/^\d+$/);
    expect(d.id).toBe(`ia-EUR_USD-M5-${new Date(last.time).toISOString().replace(/[-:]/g, "").slice(0, 13)}Z`);
    // the same state with the market closed: no trade, Portuguese reason
    const closed = decide({ ...input(), settings: s, candles: { M5: candles }, now: new Date(last.time + 300_000), price: { bid: "1.1", ask: "1.1001", tradeable: false } });
    expect(closed.action).toBe("none");
    expect(closed.reason).toContain("Mercado fechado");
  });

  it("scalper: trailing distance from micro ATR × trailMult, max hold, impulse filter", () => {
    const s = defaultSettings();
    s.aiSettings.autoTimeframeSelection = false;
    s.timeframe = "M5";
    s.aiSettings.tradingStyle = "scalper";
    s.aiSettings.scalper.enabled = true;
    s.aiSettings.scalper.impulseThreshold = 0;
    const candles = wavyCandles(180);
    const last = candles.at(-1)!;
    const base = { ...input(), settings: s, candles: { M5: candles }, now: new Date(last.time + 300_000), price: { bid: last.close.toFixed(5), ask: (last.close + 0.0001).toFixed(5), tradeable: true } };
    const d = decide(base);
    expect(d.action).toBe("open");
    expect(d.maxHoldSec).toBe(180);
    const expected = Math.max(0.0005, Math.round(d.features!.microAtr * 1.2 * 1e5) / 1e5).toFixed(5);
    expect(d.trailingStopDistance).toBe(expected);
    s.aiSettings.scalper.impulseThreshold = 1;
    const n = decide(base);
    expect(n.action).toBe("none");
    expect(n.reason).toMatch(/^Scalper sem impulso: 0\.\d\d abaixo do limiar 1\.00/);
  });

  it("scalper: m1FallbackToM5 off refuses the M5 picks (they stand in for M1), keeps M15 ones", () => {
    const on = defaultSettings();
    on.aiSettings.tradingStyle = "scalper";
    const off = defaultSettings();
    off.aiSettings.tradingStyle = "scalper";
    off.aiSettings.scalper.m1FallbackToM5 = false;
    const engine = new DecisionEngine(featureConfig(on));
    const seen = new Set<string>();
    const ms = { M5: 300_000, M15: 900_000, M30: 1_800_000, H1: 3_600_000 } as const;
    const next = { M5: 0, M15: 0, M30: 0, H1: 0 };
    const feed = (upTo: number) => {
      for (const tf of ["M5", "M15", "M30", "H1"] as const) {
        while (next[tf] < real[tf].length && real[tf][next[tf]]!.time + ms[tf] <= upTo) engine.push(tf, real[tf][next[tf]++]!);
      }
    };
    feed(real.M5[real.M5.length - 400]!.time);
    for (let k = real.M5.length - 400; k < real.M5.length; k++) {
      const bar = real.M5[k]!;
      const close = bar.time + 300_000;
      feed(close);
      const at = { now: new Date(close), instrument: "EUR_USD", price: { bid: bar.close.toFixed(5), ask: (bar.close + 0.0001).toFixed(5), tradeable: true }, account: { balance: "10000", currency: "USD" } };
      const a = engine.decide({ ...at, settings: on });
      const b = engine.decide({ ...at, settings: off });
      seen.add(a.timeframe);
      if (a.timeframe === "M5") {
        expect(b.action).toBe("none");
        expect(b.reason).toBe("O scalper usaria M1, que a IA não lê (timeframes M5 a H1), e “Usar M5 quando faltar M1” está desligado: sem operação");
      } else expect(b).toEqual(a);
    }
    expect(seen).toEqual(new Set(["M5", "M15"])); // both branches were exercised
  });

  it("refuses divergent signals with the confidence and the minimum", () => {
    const s = defaultSettings();
    s.aiSettings.autoTimeframeSelection = false;
    s.timeframe = "M5";
    const candles = linearCandles(200); // RSI 100 (overbought) votes against EMA and MACD
    const d = decide({ ...input(), settings: s, candles: { M5: candles }, now: new Date(candles.at(-1)!.time + 300_000) });
    expect(d.action).toBe("none");
    expect(d.reason).toMatch(/^Sinais divergentes: confiança 0\.33 abaixo do mínimo 0\.60 \(EMA20 acima da EMA50, MACD positivo, RSI 100 \(sobrecomprado\)/);
  });

  it("reports stale data", () => {
    const d = decide(input({ now: new Date(until + 10 * 3_600_000) }));
    expect(d.action).toBe("none");
    expect(d.reason).toMatch(/^Dados desatualizados para/);
  });
});
