/**
 * DecisionEngine.entrySide (the signal stage on numbers, no text) says exactly when `decide` opens:
 * the research builds a whole decision only where entrySide names a side (docs/BENCHMARKS.md
 * "Research"), so a mismatch would change what the study measures. Checked on real EUR_USD candles
 * (M5–H1 streamed in time order) for every style, manual timeframes, the scalper without the M5
 * fallback, and Bollinger/Stochastic switched on.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseCandleCsv } from "../../../core/backtest/csv";
import { DecisionEngine, featureConfig } from "../../../core/engine/decide";
import type { Candle } from "../../../core/candles";
import type { Timeframe } from "../../../core/instruments";
import { defaultSettings, parseSettingsUpdate, TRADING_STYLES } from "../../../core/settings";
import type { TradingSettings } from "../../../core/settings";

const DATA = "/work/shared/data/fx";
const TF_MS: Record<string, number> = { M5: 300_000, M15: 900_000, M30: 1_800_000, H1: 3_600_000 };

function settings(update: Record<string, unknown>): TradingSettings {
  const r = parseSettingsUpdate(update, defaultSettings());
  if (!r.ok) throw new Error(r.message);
  return r.settings;
}

const variants: [string, TradingSettings][] = [
  ...TRADING_STYLES.map((s) => [s, settings({ aiSettings: { tradingStyle: s } })] as [string, TradingSettings]),
  ["swing H1 manual", settings({ aiSettings: { tradingStyle: "swing", autoTimeframeSelection: false }, timeframe: "H1" })],
  ["scalper without the M5 fallback", settings({ aiSettings: { tradingStyle: "scalper", scalper: { m1FallbackToM5: false } } })],
  ["day with Bollinger and Stochastic", settings({ aiSettings: { tradingStyle: "day", indicators: { bollinger: true, stochastic: true } } })],
];

describe("DecisionEngine.entrySide", () => {
  it("names a side exactly when decide opens on it (real candles, every style)", () => {
    const events: { close: number; tf: Timeframe; c: Candle }[] = [];
    for (const tf of ["M5", "M15", "M30", "H1"] as Timeframe[]) {
      for (const c of parseCandleCsv(readFileSync(`${DATA}/EUR_USD_${tf}.csv`, "utf8")).slice(0, tf === "M5" ? 6000 : 2000)) events.push({ close: c.time + TF_MS[tf]!, tf, c });
    }
    events.sort((a, b) => a.close - b.close);
    for (const [name, s] of variants) {
      const engine = new DecisionEngine(featureConfig(s));
      let opens = 0;
      let sides = 0;
      for (const e of events) {
        engine.push(e.tf, e.c);
        if (e.tf !== "M5") continue;
        const side = engine.entrySide(e.close, s);
        const px = String(e.c.close);
        const d = engine.decide({ now: new Date(e.close), instrument: "EUR_USD", price: { bid: px, ask: px, tradeable: true }, settings: s, account: { balance: "10000", currency: "USD" } });
        if (side) sides++;
        if (d.action === "open") opens++;
        expect(d.action === "open" ? d.side : null, `${name} at ${new Date(e.close).toISOString()}`).toBe(side);
      }
      expect(opens, name).toBeGreaterThan(0);
      expect(sides, name).toBe(opens);
    }
  });
});
