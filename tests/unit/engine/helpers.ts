/** Test helpers: synthetic candle series. */
import type { Candle } from "../../../core/candles";

/** Linear series: close = start + i·slope, high/low = close ± halfRange, open = previous close. */
export function linearCandles(n: number, opts: { start?: number; slope?: number; halfRange?: number; t0?: number; stepSec?: number } = {}): Candle[] {
  const { start = 1.1, slope = 0.0001, halfRange = 0.0005, t0 = Date.UTC(2026, 0, 5, 0, 0), stepSec = 300 } = opts;
  const out: Candle[] = [];
  for (let i = 0; i < n; i++) {
    const close = start + i * slope;
    const open = i === 0 ? close : start + (i - 1) * slope;
    out.push({ time: t0 + i * stepSec * 1000, open, high: close + halfRange, low: close - halfRange, close, volume: 1, complete: true });
  }
  return out;
}

/** Trend with a sine wiggle: RSI stays away from the extremes. */
export function wavyCandles(n: number, opts: { start?: number; slope?: number; amp?: number; t0?: number; stepSec?: number } = {}): Candle[] {
  const { start = 1.1, slope = 0.00005, amp = 0.0006, t0 = Date.UTC(2026, 0, 5, 0, 0), stepSec = 300 } = opts;
  const out: Candle[] = [];
  let prev = start;
  for (let i = 0; i < n; i++) {
    const close = start + i * slope + amp * Math.sin(i / 3);
    out.push({ time: t0 + i * stepSec * 1000, open: prev, high: Math.max(prev, close) + 0.0002, low: Math.min(prev, close) - 0.0002, close, volume: 1, complete: true });
    prev = close;
  }
  return out;
}
