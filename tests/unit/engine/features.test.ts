import { describe, expect, it } from "vitest";
import { computeFeatures, FeatureTracker, median, MIN_CANDLES } from "../../../core/engine/features";
import { linearCandles } from "./helpers";

const cfg = { microAtrPeriod: 10, impulseLookback: 8 };

describe("features on a known linear series", () => {
  // close rises 1 pip per bar, high/low = close ± 5 pips → true range = 10 pips every bar
  const candles = linearCandles(600);
  const f = computeFeatures(candles, cfg)!;

  it("ATR and micro ATR equal the constant true range", () => {
    expect(f.atr).toBeCloseTo(0.001, 10);
    expect(f.microAtr).toBeCloseTo(0.001, 10);
    expect(f.atrMedian).toBeCloseTo(0.001, 10);
  });
  it("EMAs lag a linear series by slope·(N−1)/2", () => {
    const last = candles.at(-1)!.close;
    expect(f.emaFast).toBeCloseTo(last - 0.0001 * 9.5, 8);
    expect(f.emaSlow).toBeCloseTo(last - 0.0001 * 24.5, 7);
    expect(f.bbMiddle).toBeCloseTo(last - 0.0001 * 9.5, 10);
  });
  it("momentum indicators read a pure up-move", () => {
    expect(f.rsi).toBeCloseTo(100, 6);
    expect(f.macd).toBeGreaterThan(0);
    expect(f.macdHistogram).toBeCloseTo(0, 8); // constant MACD line → signal converges to it
    // %K = (13 pips + 5) / (13 pips + 10) = 78.26 %
    expect(f.stochK).toBeCloseTo((100 * 18) / 23, 4);
    expect(f.impulse).toBeCloseTo(1, 10);
    expect(f.impulseMove).toBeCloseTo(0.0008, 10);
  });
  it("is null while warming up and ignores incomplete or old candles", () => {
    expect(computeFeatures(candles.slice(0, MIN_CANDLES - 1), cfg)).toBeNull();
    const t = new FeatureTracker(cfg);
    expect(t.push({ ...candles[0]!, complete: false })).toBe(false);
    expect(t.push(candles[1]!)).toBe(true);
    expect(t.push(candles[0]!)).toBe(false);
    expect(t.count).toBe(1);
  });
  it("median", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });
});
