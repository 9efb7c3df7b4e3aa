import { describe, expect, it } from "vitest";
import type { Candle } from "../../../core/candles";
import { Decimal } from "../../../core/decimal";
import { bucketCandles } from "../../../core/backtest/csv";
import { loadCsvCandles } from "../../../app/services/backtest/candle-files";
import { runBacktest } from "../../../core/backtest/run";
import type { BacktestResult } from "../../../core/backtest/run";
import { renderMsg } from "../../../core/i18n";
import { defaultSettings } from "../../../core/settings";
import { edgeEverywhere } from "../../support/edge-tables";

const DATA = "/work/shared/data/fx";

function consistent(r: BacktestResult, initial: string): void {
  const s = r.stats;
  expect(s.wins + s.losses + s.breakeven).toBe(s.trades);
  expect(s.trades).toBe(r.trades.length);
  const sum = r.trades.reduce((a, t) => a.add(t.pnl), new Decimal(0));
  expect(new Decimal(s.netPnl).eq(sum)).toBe(true);
  expect(new Decimal(s.finalBalance!).eq(sum.add(initial))).toBe(true);
  expect(Number(s.netPips)).toBeCloseTo(r.trades.reduce((a, t) => a + t.pips, 0), 6);
  for (let i = 0; i < r.trades.length; i++) {
    const t = r.trades[i]!;
    expect(t.exitTime >= t.entryTime).toBe(true);
    expect(t.result).toBe(new Decimal(t.pnl).gt(0) ? "WIN" : new Decimal(t.pnl).lt(0) ? "LOSS" : "BE");
    // one position per instrument at a time (the instrument_busy rule), several instruments at once
    const prev = r.trades.slice(0, i).filter((x) => x.instrument === t.instrument).pop();
    if (prev) expect(t.entryTime >= prev.exitTime).toBe(true);
    if (t.rMultiple !== null) expect(new Decimal(t.rMultiple).eq(new Decimal(t.pnl).div(t.risk).toDecimalPlaces(2))).toBe(true);
    expect(Number(t.units)).not.toBe(0);
    expect(Math.sign(Number(t.units))).toBe(t.side === "buy" ? 1 : -1);
  }
  const wins = r.trades.filter((t) => t.result === "WIN");
  const losses = r.trades.filter((t) => t.result === "LOSS");
  if (wins.length && losses.length) {
    // the field's profit factor (gross profit / gross loss, ADR 0008) and the payoff ratio beside it
    const gross = wins.reduce((a, t) => a.add(t.pnl), new Decimal(0));
    const grossLoss = losses.reduce((a, t) => a.add(new Decimal(t.pnl).abs()), new Decimal(0));
    expect(s.profitFactor).toBe(gross.div(grossLoss).toFixed(2));
    expect(s.payoffRatio).toBe(gross.div(wins.length).div(grossLoss.div(losses.length)).toFixed(2));
    // a losing record never reads as a profit factor above 1
    if (sum.lt(0)) expect(Number(s.profitFactor)).toBeLessThan(1);
  }
  expect(Number(s.winRatePct)).toBe(Math.round((s.wins / s.trades) * 1000) / 10);
}

describe("backtest on real data", () => {
  it("EUR_USD 2026 slice: same engine and risk gate, consistent stats", { timeout: 60_000 }, async () => {
    const candlesByTf = loadCsvCandles(DATA, "EUR_USD");
    const opts = { instruments: ["EUR_USD"], candles: { EUR_USD: candlesByTf }, settings: defaultSettings(), from: "2026-01-12T00:00:00Z", to: "2026-02-07T00:00:00Z", initialBalance: "10000", accountCurrency: "USD", edgeGate: edgeEverywhere() };
    const r = await runBacktest(opts);
    expect(r.stepTimeframe).toBe("M5");
    expect(r.candles).toBeGreaterThan(5000);
    expect(r.trades.length).toBeGreaterThan(10);
    consistent(r, "10000");
    expect(r.trades[0]!.entryTime >= "2026-01-12").toBe(true);
    expect(r.trades[0]!.entryPrice).toMatch(/^1\.\d{5}$/);
    // reasons travel as messages too (ADR 0007), the Portuguese text being their rendering
    for (const x of [...r.trades, ...r.stops]) expect(renderMsg(x.reasonMsg)).toBe(x.reason);
    expect(r.stops.length).toBeGreaterThan(0);
    // deterministic
    const again = await runBacktest(opts);
    expect(again.trades).toEqual(r.trades);
  });

  it("commission and financing as options: charged per fill and per rollover, in each trade's P&L", { timeout: 60_000 }, async () => {
    const opts = { instruments: ["EUR_USD"], candles: { EUR_USD: loadCsvCandles(DATA, "EUR_USD") }, settings: defaultSettings(), from: "2026-01-12T00:00:00Z", to: "2026-01-24T00:00:00Z", initialBalance: "10000", accountCurrency: "USD", edgeGate: edgeEverywhere() };
    const free = await runBacktest(opts);
    expect(free.trades.every((t) => t.costs === "0.0000")).toBe(true);
    const r = await runBacktest({ ...opts, costs: { commissionPerLot: "3.5", financingPctPerYear: "2" } });
    consistent(r, "10000");
    let financed = 0;
    for (const t of r.trades) {
      const commission = new Decimal(t.units).abs().div(100_000).mul("3.5").toDecimalPlaces(4).mul(2);
      expect(new Decimal(t.costs).gte(commission), t.entryTime).toBe(true);
      if (new Decimal(t.costs).gt(commission)) financed++;
    }
    expect(financed).toBeGreaterThan(0); // some trades were held through a 17:00 New York rollover
    expect(Number(r.stats.netPnl)).toBeLessThan(Number(free.stats.netPnl));
  });

  it("USD_JPY histdata 2016 (bid M1 → M5 file present), 3-decimal prices", { timeout: 60_000 }, async () => {
    const candlesByTf = loadCsvCandles(`${DATA}/histdata_2016`, "USD_JPY");
    const s = defaultSettings();
    s.aiSettings.tradingStyle = "day";
    const r = await runBacktest({ instruments: ["USD_JPY"], candles: { USD_JPY: candlesByTf }, settings: s, to: "2016-03-01T00:00:00Z", initialBalance: "10000", accountCurrency: "USD", edgeGate: edgeEverywhere() });
    expect(r.trades.length).toBeGreaterThan(10);
    consistent(r, "10000");
    expect(r.trades[0]!.stopLoss).toMatch(/^1\d\d\.\d{3}$/);
  });

  it("builds USD_JPY M5 from the 2026 M3 file by bucketing", () => {
    const c = loadCsvCandles(DATA, "USD_JPY");
    expect(c.M5!.length).toBeGreaterThan(18000);
    expect(c.M5!.every((x) => x.time % 300_000 === 0)).toBe(true);
    expect(c.M15!.length).toBe(6236); // native file preferred
  });

  it("fails clearly on a missing folder or instrument", () => {
    expect(() => loadCsvCandles("/nonexistent", "EUR_USD")).toThrow(/Pasta de dados não encontrada/);
    expect(() => loadCsvCandles(DATA, "AUD_NZD")).toThrow(/Nenhum arquivo AUD_NZD/);
  });
});

describe("hand-built series", () => {
  it("a take profit hit gives a WIN of the expected pips", async () => {
    // EUR_USD M5: +1 pip per bar, high/low = close ± 2 pips → ATR = 4 pips; SL 4 pips, TP 6 pips
    const t0 = Date.UTC(2026, 0, 5, 9, 0);
    const m5: Candle[] = [];
    for (let i = 0; i < 90; i++) {
      const close = 1.1 + i * 0.0001;
      m5.push({ time: t0 + i * 300_000, open: close - 0.0001, high: close + 0.0002, low: close - 0.0002, close, volume: 1, complete: true });
    }
    const s = defaultSettings();
    s.aiSettings.autoTimeframeSelection = false;
    s.timeframe = "M5";
    s.aiSettings.indicators = { ema: true, macd: true, rsi: false, bollinger: false, stochastic: false };
    const r = await runBacktest({ instruments: ["EUR_USD"], candles: { EUR_USD: { M5: m5 } }, settings: s, initialBalance: "10000", accountCurrency: "USD", edgeGate: edgeEverywhere() });
    const t = r.trades[0]!;
    expect(t.side).toBe("buy");
    expect(t.exitReason).toBe("TAKE_PROFIT");
    expect(t.result).toBe("WIN");
    // entry = close + 0.5 pip (ask); TP = entry + round(ATR × 1.5) = entry + 6 pips
    expect(new Decimal(t.takeProfit).sub(t.entryPrice).toNumber()).toBeCloseTo(0.0006, 10);
    expect(new Decimal(t.entryPrice).sub(t.stopLoss).toNumber()).toBeCloseTo(0.0004, 10);
    expect(t.pips).toBe(6);
    expect(t.pnl).toBe(new Decimal(t.units).mul("0.0006").toFixed(4));
    // TP reached inside the 5th bar after entry, on the simulator's price path (open → low → high →
    // close, a third of the bar per leg: core/simulator/pricing.ts): the bid crosses the TP on the way to the high
    const held = Date.parse(t.exitTime) - Date.parse(t.entryTime);
    expect(held).toBeGreaterThan(4 * 300_000);
    expect(held).toBeLessThanOrEqual(4 * 300_000 + 200_000);
  });

  it("bucketCandles aggregates OHLCV on epoch-aligned buckets", () => {
    const mk = (min: number, o: number, h: number, l: number, c: number): Candle => ({ time: min * 60_000, open: o, high: h, low: l, close: c, volume: 1, complete: true });
    const out = bucketCandles([mk(0, 1, 2, 0.5, 1.5), mk(3, 1.5, 3, 1, 2), mk(6, 2, 2.5, 1.8, 2.2)], 300);
    expect(out).toEqual([
      { time: 0, open: 1, high: 3, low: 0.5, close: 2, volume: 2, complete: true },
      { time: 300_000, open: 2, high: 2.5, low: 1.8, close: 2.2, volume: 1, complete: true },
    ]);
  });
});
