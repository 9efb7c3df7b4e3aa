import { describe, expect, it } from "vitest";
import { classifyRegime, pickTimeframe, regimeTimeframe } from "../../../core/engine/regime";
import { defaultSettings } from "../../../core/settings";

describe("regime", () => {
  it("classifies volatility from ATR / median ATR and trend from ADX", () => {
    expect(classifyRegime({ atr: 1.4, atrMedian: 1, adx: 30 })).toEqual({ volatility: "high", trend: "trending" });
    expect(classifyRegime({ atr: 0.7, atrMedian: 1, adx: 24.9 })).toEqual({ volatility: "low", trend: "ranging" });
    expect(classifyRegime({ atr: 1, atrMedian: 1, adx: 25 })).toEqual({ volatility: "normal", trend: "trending" });
  });

  it("picks the timeframe per style and regime with a reason message and its Portuguese text", () => {
    const s = defaultSettings(); // swing
    expect(pickTimeframe({ volatility: "high", trend: "trending" }, s)).toEqual({
      timeframe: "M15",
      reason: "Volatilidade alta e tendência forte: M15 para entradas rápidas",
      reasonMsg: { key: "engine:regime.high.trending", params: { timeframe: "M15" } },
    });
    expect(pickTimeframe({ volatility: "high", trend: "ranging" }, s).timeframe).toBe("H1");
    expect(pickTimeframe({ volatility: "normal", trend: "trending" }, s).timeframe).toBe("M30");
    expect(pickTimeframe({ volatility: "low", trend: "ranging" }, s).timeframe).toBe("H1");
    s.aiSettings.tradingStyle = "scalper";
    expect(pickTimeframe({ volatility: "normal", trend: "trending" }, s).timeframe).toBe("M5");
    s.aiSettings.tradingStyle = "position";
    expect(pickTimeframe({ volatility: "normal", trend: "ranging" }, s).timeframe).toBe("H1");
    expect(regimeTimeframe("day")).toBe("M30");
  });

  it("uses the manual timeframe when automatic selection is off", () => {
    const s = defaultSettings();
    s.aiSettings.autoTimeframeSelection = false;
    s.timeframe = "M5";
    const r = pickTimeframe({ volatility: "high", trend: "trending" }, s);
    expect(r.timeframe).toBe("M5");
    expect(r.reason).toContain("manual M5");
    expect(r.reasonMsg).toEqual({ key: "engine:regime.autoOff.manual", params: { timeframe: "M5" } });
    s.timeframe = undefined;
    expect(pickTimeframe({ volatility: "high", trend: "trending" }, s).reason).toBe("Seleção automática desligada: timeframe padrão do estilo M30");
  });
});
