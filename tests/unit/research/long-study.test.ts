/**
 * The long-history study's parts (issue 21, docs/research/PREREGISTRATION.md): the signal models'
 * entries, the strategy source's sizing and random entries, a trial through the live executor on
 * synthetic candles, and the walk-forward arithmetic (pick on train only, records, rates, the rule).
 */
import { describe, expect, it } from "vitest";
import type { Candle } from "../../../core/candles";
import { FAMILIES, family } from "../../../core/research/families";
import { halfNormalSpread, parseLongHistoryCsv } from "../../../core/research/long-history";
import { DonchianModel, MaCrossModel, SessionBreakoutModel, TsmomModel } from "../../../core/research/signal-models";
import { StrategySource } from "../../../core/research/strategy-source";
import { checkRule, compounded, entryRates, maxDrawdownPct, navAtDay, pairFigures, pickedRecord, profitFactor, recordFigures, totalReturn, walkForwardPicks } from "../../../core/research/study";
import { runTrial } from "../../../core/research/trial";
import type { StudyCandles, TrialRun } from "../../../core/research/trial";

const DAY = 86_400_000;
const HOUR = 3_600_000;

function bar(time: number, close: number, spread = 0.002): Candle {
  return { time, open: close, high: close + spread, low: close - spread, close, volume: 0, complete: true };
}

describe("pre-registered grid", () => {
  it("has the 33 parameter sets of the pre-registration, F1…F8 in order, F8's candidate fixed at θ = 0.55", () => {
    expect(FAMILIES.map((f) => f.code)).toEqual(["F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8"]);
    expect(FAMILIES.reduce((n, f) => n + f.sets.length, 0)).toBe(33);
    expect(family("macross").sets.map((s) => [s.params.fast, s.params.slow])).toEqual([[20, 100], [20, 100], [50, 200], [50, 200]]);
    expect(family("logit").fixedCandidate).toBe("logit theta=0.55");
    expect(family("engine").sets[0]!.params).toEqual({ fresh: false, slRatio: 1 });
  });
});

describe("long-history candles", () => {
  it("shifts BID prices to mid by half the pair's normal spread (EUR_USD 1.0 pip → +0.00005)", () => {
    const c = parseLongHistoryCsv("time,open,high,low,close,volume\n2016-01-04T00:00:00Z,1.0850,1.0860,1.0840,1.0855,0\n", "EUR_USD");
    expect(halfNormalSpread("EUR_USD")).toBeCloseTo(0.00005, 10);
    expect(c[0]!.close).toBeCloseTo(1.08555, 10);
    expect(c[0]!.time).toBe(Date.parse("2016-01-04T00:00:00Z"));
  });
});

describe("signal models", () => {
  it("F1 time-series momentum buys after a rise over the lookback and sells after a fall", () => {
    const up = new TsmomModel(5, 3);
    for (let i = 0; i < 30; i++) up.push(bar(i * DAY, 1 + i * 0.001));
    expect(up.signal()?.side).toBe("buy");
    const down = new TsmomModel(5, 3);
    for (let i = 0; i < 30; i++) down.push(bar(i * DAY, 1 - i * 0.001));
    const s = down.signal()!;
    expect(s.side).toBe("sell");
    expect(s.trailing).toBeCloseTo(s.stop, 12); // stop and trailing stop both k × ATR
    expect(s.target).toBeGreaterThan(6 * s.stop); // "no target": 20 ATR
  });

  it("F3 Donchian signals only on the bar that closes beyond the previous N bars' range", () => {
    const m = new DonchianModel(5, 2);
    for (let i = 0; i < 25; i++) m.push(bar(i * DAY, 1 + (i % 2) * 0.001));
    expect(m.signal()).toBeNull(); // inside the range
    m.push(bar(25 * DAY, 1.01));
    expect(m.signal()?.side).toBe("buy");
    m.push(bar(26 * DAY, 1.0105, 0.0001));
    expect(m.signal()).toBeNull(); // the next bar is not a new breakout of the previous 5 highs (1.012)
  });

  it("F2 follows SMA(fast) against SMA(slow)", () => {
    const m = new MaCrossModel(3, 10, 2);
    for (let i = 0; i < 40; i++) m.push(bar(i * DAY, 1 + i * 0.002));
    expect(m.signal()?.side).toBe("buy");
  });

  it("F5 enters once a day on the London-hours break of the 00:00–07:00 UTC range, stop at its other side", () => {
    const m = new SessionBreakoutModel(2, false);
    const day0 = Date.UTC(2020, 0, 6);
    for (let d = 0; d < 22; d++) for (let h = 0; h < 24; h++) m.push(bar(day0 + d * DAY + h * HOUR, 1.1, 0.001));
    const t = day0 + 22 * DAY;
    for (let h = 0; h < 7; h++) m.push(bar(t + h * HOUR, 1.1, 0.001)); // Asian range 1.099–1.101
    m.push(bar(t + 7 * HOUR, 1.1015, 0.0002));
    const s = m.signal()!;
    expect(s.side).toBe("buy");
    expect(s.stop).toBeCloseTo(1.1015 - 1.099, 10);
    expect(s.target).toBeCloseTo(2 * 0.002, 10);
    m.push(bar(t + 8 * HOUR, 1.102, 0.0002));
    expect(m.signal()).toBeNull(); // one entry a day
  });
});

function trendingMarket(instrument: string, days: number, start: number, slope: number): StudyCandles {
  const h1: Candle[] = [];
  for (let d = 0; d < days; d++) {
    const wd = new Date(start + d * DAY).getUTCDay();
    if (wd === 6) continue; // no Saturday bars
    for (let h = 0; h < 24; h++) {
      if (wd === 5 && h >= 21) continue;
      if (wd === 0 && h < 22) continue;
      const t = start + d * DAY + h * HOUR;
      const px = 1.1 + slope * (d + h / 24) + 0.0004 * Math.sin(h);
      h1.push({ time: t, open: px, high: px + 0.0008, low: px - 0.0008, close: px + slope / 48, volume: 0, complete: true });
    }
  }
  const d1: Candle[] = [];
  for (const c of h1) {
    const key = Math.floor((c.time + 2 * HOUR) / DAY) * DAY - 2 * HOUR;
    const last = d1.at(-1);
    if (last && last.time === key) {
      last.high = Math.max(last.high, c.high);
      last.low = Math.min(last.low, c.low);
      last.close = c.close;
    } else d1.push({ ...c, time: key });
  }
  return { H1: { [instrument]: h1 }, H4: { [instrument]: [] }, D1: { [instrument]: d1 } };
}

describe("a trial through the live executor", () => {
  const start = Date.UTC(2019, 0, 1);
  const data = trendingMarket("EUR_USD", 400, start, 0.0008);
  const f = family("tsmom");
  const spec = { family: f, instruments: ["EUR_USD"], sets: [f.sets[0]!], activeSet: () => 0, firstTestYear: 2020, from: start, to: start + 400 * DAY };

  it("trades the trend with stops sized to 0.5 % of the balance, books daily NAV and counts flat slots", async () => {
    const run = await runTrial(spec, data, () => performance.now());
    expect(run.trades.length).toBeGreaterThan(0);
    const peak = Math.max(...run.nav);
    for (const t of run.trades) {
      expect(t.risk).toBeGreaterThan(40); // ≈ 0.5 % of the balance
      expect(t.risk).toBeLessThanOrEqual(peak * 0.0051);
    }
    expect(run.nav.at(-1)).toBeGreaterThan(10_000); // a steady rise pays a trend follower
    expect(run.days.length).toBeGreaterThan(250); // one NAV per trading day (D1 steps)
    expect(Object.values(run.flatSlots).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(run.blocked.no_edge ?? 0).toBe(0); // the research runs without the product's edge gate
  });

  it("today's engine enters a cross too (EUR_GBP in a USD account, its GBP→USD rate from GBP_USD's closes)", async () => {
    const eg = trendingMarket("EUR_GBP", 60, start, 0.0008);
    const gu = trendingMarket("GBP_USD", 60, start, 0.0004);
    const both = { H1: { ...eg.H1, ...gu.H1 }, H4: { ...eg.H4, ...gu.H4 }, D1: { ...eg.D1, ...gu.D1 } };
    const engine = family("engine");
    const run = await runTrial({ family: engine, instruments: ["EUR_GBP", "GBP_USD"], sets: [engine.sets[0]!], activeSet: () => 0, firstTestYear: 2019, from: start, to: start + 60 * DAY }, both, () => performance.now());
    expect(run.trades.filter((t) => t.instrument === "EUR_GBP").length).toBeGreaterThan(0);
    expect(run.trades.filter((t) => t.instrument === "GBP_USD").length).toBeGreaterThan(0);
  });

  it("random entries use the same exits and sizing at the given rate, and are reproducible by seed", async () => {
    const random = { probability: () => 0.5, seed: 7 };
    const a = await runTrial({ ...spec, random }, data, () => performance.now());
    const b = await runTrial({ ...spec, random }, data, () => performance.now());
    const none = await runTrial({ ...spec, random: { probability: () => 0, seed: 7 } }, data, () => performance.now());
    expect(a.trades.length).toBeGreaterThan(0);
    expect(a.trades.map((t) => [t.entry, t.pnl])).toEqual(b.trades.map((t) => [t.entry, t.pnl]));
    expect(none.trades).toHaveLength(0);
    for (const t of a.trades) expect(t.risk).toBeLessThanOrEqual(Math.max(...a.nav) * 0.0051);
  });
});

describe("strategy source sizing", () => {
  it("caps the notional at maxLeverage × the balance when the stop is tight", () => {
    const m = new TsmomModel(2, 3);
    const bars = Array.from({ length: 40 }, (_, i) => bar(i * DAY, 1 + i * 0.0001, 0.00001));
    const src = new StrategySource({ instruments: ["EUR_USD"], bars: { EUR_USD: bars }, barMs: DAY, models: () => [m], activeSet: () => 0, riskPct: 0.5, maxLeverage: 10 });
    expect(src.wants(41 * DAY, new Set())).toBe(true);
    const d = src.decide({ now: new Date(41 * DAY), instrument: "EUR_USD", price: { bid: "1.00390", ask: "1.00400", tradeable: true }, settings: undefined as never, account: { balance: "10000", currency: "USD" } });
    expect(d.action).toBe("open");
    expect(Number(d.units)).toBe(Math.floor((10_000 * 10) / 1.004)); // 0.5 % over a ~0.1-pip stop would be millions of units
    expect(src.wants(41 * DAY, new Set(["EUR_USD"]))).toBe(false); // a pair with an open trade does not enter
  });
});

function fakeRun(daily: Record<number, number>, tradesPerYear: Record<number, number>): TrialRun {
  const days: number[] = [];
  const nav: number[] = [];
  let v = 10_000;
  const trades: TrialRun["trades"] = [];
  for (const [ys, r] of Object.entries(daily)) {
    const y = Number(ys);
    for (let d = 0; d < 250; d++) {
      v *= 1 + r + (d % 2 ? 0.001 : -0.001);
      days.push(Date.UTC(y, 0, 1) + d * DAY + 21 * HOUR);
      nav.push(v);
    }
    for (let k = 0; k < (tradesPerYear[y] ?? 0); k++) trades.push({ instrument: "EUR_USD", entry: Date.UTC(y, 1, 1) + k * DAY, pnl: r >= 0 ? 10 : -10, risk: 50 });
  }
  return { days, nav, trades, flatSlots: Object.fromEntries(Object.keys(daily).map((y) => [y, 1000])), ticks: 0, candles: 0, durationMs: 0, blocked: {} };
}

describe("walk-forward arithmetic", () => {
  const years = { 2013: 0.0004, 2014: 0.0004, 2015: 0.0004, 2016: -0.0004, 2017: 0.0004 };
  const good = fakeRun(years, { 2013: 40, 2014: 40, 2015: 40, 2016: 40, 2017: 40 });
  const bad = fakeRun({ 2013: -0.0004, 2014: -0.0004, 2015: -0.0004, 2016: 0.0004, 2017: 0.0004 }, { 2013: 40, 2014: 40, 2015: 40, 2016: 40, 2017: 40 });
  const thin = fakeRun({ 2013: 0.002, 2014: 0.002, 2015: 0.002, 2016: 0.002, 2017: 0.002 }, { 2013: 5, 2014: 5, 2015: 5 });

  it("picks on the three train years only (never on the test year) and skips sets with < 30 train trades", () => {
    const picks = walkForwardPicks([bad, good, thin], [2016]);
    expect(picks[2016]).toBe(1); // good on 2013–2015, though bad wins 2016
  });

  it("builds the out-of-sample record from each year's pick, and the random rate from its trades per flat slot", () => {
    const rec = pickedRecord([bad, good], { 2016: 1, 2017: 0 });
    expect(rec.trades.every((t) => [2016, 2017].includes(new Date(t.entry).getUTCFullYear()))).toBe(true);
    expect(Object.keys(rec.byYear)).toEqual(["2016", "2017"]);
    expect(entryRates([bad, good], { 2016: 1 })[2016]).toBeCloseTo(40 / 1000, 10);
  });

  it("returns compound: a losing year never reads below −100 %, the annual return is the CAGR", () => {
    const rec = { byYear: { 2016: Array(250).fill(-0.01), 2017: Array(250).fill(0.002) }, trades: [] };
    const f = recordFigures(rec);
    expect(Number(f.worstYear!.returnPct)).toBeCloseTo((0.99 ** 250 - 1) * 100, 2); // −91.9 %, where a sum would say −250 %
    expect(f.worstYear!.year).toBe(2016);
    expect(Number(f.annualReturnPct)).toBeCloseTo((Math.sqrt(0.99 ** 250 * 1.002 ** 250) - 1) * 100, 2);
    expect(totalReturn(rec)).toBeCloseTo(0.99 ** 250 * 1.002 ** 250 - 1, 12);
    expect(compounded([0.1, -0.1])).toBeCloseTo(-0.01, 12);
  });

  it("a pair's figures are its trades' P&L over the account's NAV at entry, not over the start balance", () => {
    const run = { days: [Date.UTC(2016, 0, 1), Date.UTC(2017, 0, 1)], nav: [10_000, 100] }; // the account lost 99 % in 2016
    const trades = [
      { instrument: "EUR_USD", entry: Date.UTC(2016, 5, 1), pnl: -5_000, risk: 100 },
      { instrument: "EUR_USD", entry: Date.UTC(2017, 5, 1), pnl: -50, risk: 1 },
      { instrument: "GBP_USD", entry: Date.UTC(2017, 5, 1), pnl: 50, risk: 1 },
    ];
    const f = pairFigures({ byYear: { 2016: [], 2017: [] }, trades }, "EUR_USD", navAtDay(run));
    expect(f.trades).toBe(2);
    expect(f.worstYear).toEqual({ year: 2016, returnPct: "-50.00" });
    expect(Number(f.maxDrawdownPct)).toBeCloseTo(75, 6); // −50 % of 10 000, then −50 % of what was left (100), not −0.5 % of the start
    expect(f.yearsPositive).toBe(0);
    expect(navAtDay(run)(Date.UTC(2015, 0, 1))).toBe(10_000);
  });

  it("profit factor is gross profit / gross loss, drawdown compounds, and the rule needs every criterion", () => {
    expect(profitFactor([{ instrument: "X", entry: 0, pnl: 30, risk: 10 }, { instrument: "X", entry: 0, pnl: -20, risk: 10 }])).toBe(1.5);
    expect(maxDrawdownPct([0.1, -0.5, 0.2])).toBeCloseTo(50, 10);
    const f = recordFigures(pickedRecord([good], { 2017: 0 }));
    expect(checkRule({ ...f, profitFactor: "1.50", yearsPositive: 1, years: 1, maxDrawdownPct: "2.00" }, 0.97, 0.1, 0.05).passed).toBe(true);
    expect(checkRule({ ...f, profitFactor: "1.50", yearsPositive: 1, years: 1, maxDrawdownPct: "2.00" }, 0.94, 0.1, 0.05).deflatedSharpe).toBe(false);
    expect(checkRule({ ...f, profitFactor: "1.09", yearsPositive: 1, years: 1, maxDrawdownPct: "2.00" }, 0.97, 0.1, 0.05).passed).toBe(false);
    expect(checkRule({ ...f, profitFactor: "1.50", yearsPositive: 1, years: 1, maxDrawdownPct: "5.10" }, 0.97, 0.1, 0.05).passed).toBe(false);
    expect(checkRule({ ...f, profitFactor: "1.50", yearsPositive: 1, years: 1, maxDrawdownPct: "2.00" }, 0.97, 0.04, 0.05).random).toBe(false);
  });
});
