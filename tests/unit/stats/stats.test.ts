/** core/stats: the one statistics module (ADR 0008). Every expected figure is computed by hand in the comments. */
import { describe, expect, it } from "vitest";
import { computeTradeStats, tradeResult, type StatsTrade } from "../../../core/stats";

const HOUR = 3_600_000;
/** UTC instant of 2024-01-dd hh:00 (2024-01-01 is a Monday). */
const jan = (day: number, hour = 12) => Date.UTC(2024, 0, day, hour);
/** Closed trades with the given P&L, closing one hour apart from 2024-01-01 12:00 UTC. */
const closed = (...pnls: string[]): StatsTrade[] => pnls.map((pnl, i) => ({ pnl, closeTime: jan(1) + i * HOUR }));

describe("computeTradeStats: counts, profit factor and payoff ratio", () => {
  it("a losing record has payoff ratio > 1 but profit factor < 1", () => {
    // 3 wins of +150, 7 losses of −100.
    const s = computeTradeStats(closed(...Array<string>(3).fill("150"), ...Array<string>(7).fill("-100")));
    expect(s).toMatchObject({ trades: 10, wins: 3, losses: 7, breakeven: 0 });
    expect(s.winRatePct).toBe("30.0"); // 3 / 10 × 100
    expect(s.grossProfit).toBe("450.0000"); // 3 × 150
    expect(s.grossLoss).toBe("700.0000"); // 7 × 100, positive
    expect(s.profitFactor).toBe("0.64"); // 450 / 700 = 0.642857…
    expect(s.averageWin).toBe("150.0000"); // 450 / 3
    expect(s.averageLoss).toBe("100.0000"); // 700 / 7
    expect(s.payoffRatio).toBe("1.50"); // 150 / 100: what PRODUCT.md §9 calls "profit factor"
    expect(s.netPnl).toBe("-250.0000"); // 450 − 700
    expect(s.expectancy).toBe("-25.0000"); // −250 / 10
    // Without an initial balance: drawdown of the cumulative P&L, no percentage, no Sharpe.
    expect(s.initialBalance).toBeNull();
    expect(s.finalBalance).toBeNull();
    expect(s.maxDrawdownPct).toBeNull();
    expect(s.sharpe).toBeNull();
    // Cumulative P&L 150, 300, 450, then 7 × −100 → −250: the fall from 450 to −250 is 700.
    expect(s.maxDrawdown).toBe("700.0000");
  });

  it("a winning record with payoff ratio < 1 has profit factor > 1", () => {
    // 3 wins of +10, 1 loss of −15: payoff 10 / 15 = 0.67, profit factor 30 / 15 = 2.00, net +15.
    const s = computeTradeStats(closed("10", "10", "10", "-15"));
    expect(s.payoffRatio).toBe("0.67");
    expect(s.profitFactor).toBe("2.00");
    expect(s.winRatePct).toBe("75.0");
    expect(s.expectancy).toBe("3.7500"); // 15 / 4
  });

  it("a record without losses: profit factor and payoff ratio are null, not infinite", () => {
    // +10, +20, 0: 2 wins, 1 breakeven; gross loss 0.
    const s = computeTradeStats(closed("10", "20", "0"));
    expect(s).toMatchObject({ trades: 3, wins: 2, losses: 0, breakeven: 1 });
    expect(s.winRatePct).toBe("66.7"); // 2 / 3 × 100 = 66.666…
    expect(s.grossLoss).toBe("0.0000");
    expect(s.profitFactor).toBeNull();
    expect(s.payoffRatio).toBeNull();
    expect(s.averageWin).toBe("15.0000"); // 30 / 2
    expect(s.averageLoss).toBeNull();
    expect(s.expectancy).toBe("10.0000"); // 30 / 3
  });

  it("a record without wins: profit factor 0.00, payoff ratio null", () => {
    // −5, −15: 0 / 20 = 0; average win undefined.
    const s = computeTradeStats(closed("-5", "-15"));
    expect(s.profitFactor).toBe("0.00");
    expect(s.payoffRatio).toBeNull();
    expect(s.averageWin).toBeNull();
    expect(s.averageLoss).toBe("10.0000");
    expect(s.winRatePct).toBe("0.0");
  });

  it("an empty list", () => {
    const s = computeTradeStats([]);
    expect(s).toEqual({
      trades: 0,
      wins: 0,
      losses: 0,
      breakeven: 0,
      winRatePct: null,
      grossProfit: "0.0000",
      grossLoss: "0.0000",
      profitFactor: null,
      payoffRatio: null,
      averageWin: null,
      averageLoss: null,
      expectancy: null,
      expectancyR: null,
      expectancyPips: null,
      netPnl: "0.0000",
      netPips: null,
      initialBalance: null,
      finalBalance: null,
      maxDrawdown: "0.0000",
      maxDrawdownPct: null,
      sharpe: null,
      exposurePct: null,
    });
    // With an initial balance and a window: the balance stays, nothing fell, nothing was open.
    const w = computeTradeStats([], { initialBalance: "1000", window: { from: jan(1), to: jan(2) } });
    expect(w).toMatchObject({ initialBalance: "1000.0000", finalBalance: "1000.0000", maxDrawdownPct: "0.00", sharpe: null, exposurePct: "0.00" });
  });

  it("breakeven trades: P&L exactly 0 in any spelling; any sign is a win or a loss (PRODUCT.md §4)", () => {
    // 0, 0.0000, -0 → BE; +0.0001 → WIN; −0.0001 → LOSS.
    const s = computeTradeStats(closed("0", "0.0000", "-0", "0.0001", "-0.0001"));
    expect(s).toMatchObject({ trades: 5, wins: 1, losses: 1, breakeven: 3, winRatePct: "20.0" });
    expect(s.profitFactor).toBe("1.00"); // 0.0001 / 0.0001
    expect(s.netPnl).toBe("0.0000");
    expect(s.expectancy).toBe("0.0000"); // never "-0.0000"
    expect([tradeResult("0"), tradeResult("-0"), tradeResult("1.5"), tradeResult("-0.01")]).toEqual(["BE", "BE", "WIN", "LOSS"]);
  });

  it("money in decimals, not floats", () => {
    // 0.1 + 0.2 = 0.3 exactly (a float sum would be 0.30000000000000004).
    const s = computeTradeStats(closed("0.1", "0.2"), { initialBalance: "100" });
    expect(s.netPnl).toBe("0.3000");
    expect(s.finalBalance).toBe("100.3000");
  });
});

describe("computeTradeStats: expectancy in R and in pips", () => {
  it("means over the trades that carry risk / pips", () => {
    const trades: StatsTrade[] = [
      { pnl: "200", closeTime: jan(1), risk: "100", pips: 20 }, // +2 R
      { pnl: "-100", closeTime: jan(2), risk: "100", pips: "-10" }, // −1 R
      { pnl: "-50", closeTime: jan(3), risk: "100", pips: -5 }, // −0.5 R
      { pnl: "30", closeTime: jan(4) }, // no stop loss, no pips: left out of both means
      { pnl: "10", closeTime: jan(5), risk: "0" }, // risk 0: no R multiple
    ];
    const s = computeTradeStats(trades);
    expect(s.expectancyR).toBe("0.17"); // (2 − 1 − 0.5) / 3 = 0.1666…
    expect(s.netPips).toBe("5.0"); // 20 − 10 − 5
    expect(s.expectancyPips).toBe("1.7"); // 5 / 3 = 1.666…
    expect(s.expectancy).toBe("18.0000"); // (200 − 100 − 50 + 30 + 10) / 5 = 90 / 5
  });

  it("null without any risk or pips; a negative risk is an error", () => {
    const s = computeTradeStats(closed("5", "-5"));
    expect(s.expectancyR).toBeNull();
    expect(s.expectancyPips).toBeNull();
    expect(s.netPips).toBeNull();
    expect(() => computeTradeStats([{ pnl: "5", closeTime: jan(1), risk: "-1" }])).toThrow(RangeError);
  });
});

describe("computeTradeStats: maximum drawdown", () => {
  it("from the closed-trade balance curve, in close order", () => {
    // Initial 1000; by close time: +200, −300, +50, −100, +400 → 1000, 1200, 900, 950, 850, 1250.
    // Peak 1200, trough 850: 350, and 350 / 1200 × 100 = 29.1666…%. Final 1250.
    const trades: StatsTrade[] = [
      { pnl: "400", closeTime: "2024-01-05T10:00:00Z" },
      { pnl: "-300", closeTime: "2024-01-02T10:00:00Z" },
      { pnl: "200", closeTime: "2024-01-01T10:00:00Z" },
      { pnl: "-100", closeTime: new Date("2024-01-04T10:00:00Z") },
      { pnl: "50", closeTime: jan(3) },
    ];
    const s = computeTradeStats(trades, { initialBalance: "1000" });
    expect(s.maxDrawdown).toBe("350.0000");
    expect(s.maxDrawdownPct).toBe("29.17");
    expect(s.initialBalance).toBe("1000.0000");
    expect(s.finalBalance).toBe("1250.0000");
  });

  it("the largest amount and the largest percentage are each the largest of their own", () => {
    // Initial 100: −50 → 50 (fall 50 = 50 % of 100); +950 → 1000; −200 → 800 (fall 200 = 20 % of 1000).
    const s = computeTradeStats(closed("-50", "950", "-200"), { initialBalance: "100" });
    expect(s.maxDrawdown).toBe("200.0000");
    expect(s.maxDrawdownPct).toBe("50.00");
  });

  it("the initial balance is the first peak", () => {
    // Initial 1000, −100 → 900: 100 / 1000 = 10 %.
    expect(computeTradeStats(closed("-100"), { initialBalance: "1000" })).toMatchObject({ maxDrawdown: "100.0000", maxDrawdownPct: "10.00" });
  });

  it("from the equity curve when given (mark-to-market falls the closed balance never shows)", () => {
    // Equity 1000, 1100, 990 (−110 = 10 % of 1100), 1200, 1020 (−180 = 15 % of 1200); samples in any order.
    const equityCurve = [
      { time: jan(2), equity: "1100" },
      { time: jan(1), equity: "1000" },
      { time: jan(5), equity: "1020" },
      { time: jan(3), equity: "990" },
      { time: jan(4), equity: "1200" },
    ];
    // The one closed trade (+30) never lowers the balance curve: its drawdown would be 0.
    const trades = closed("30");
    expect(computeTradeStats(trades, { initialBalance: "1000" })).toMatchObject({ maxDrawdown: "0.0000", maxDrawdownPct: "0.00" });
    const s = computeTradeStats(trades, { initialBalance: "1000", equityCurve });
    expect(s.maxDrawdown).toBe("180.0000");
    expect(s.maxDrawdownPct).toBe("15.00");
    expect(s.finalBalance).toBe("1030.0000"); // 1000 + 30: the closed-trade balance, not the last equity sample
    // An equity curve works without an initial balance too.
    expect(computeTradeStats(trades, { equityCurve }).maxDrawdownPct).toBe("15.00");
  });
});

describe("computeTradeStats: Sharpe ratio of daily returns", () => {
  it("equity curve over Mon–Fri, a day without samples carried forward", () => {
    // End of day: Mon 1000, Tue 1100, Wed — (1100), Thu 1045, Fri 1149.5.
    // Returns: +0.10, 0, −0.05, +0.10. Mean 0.15 / 4 = 0.0375.
    // Deviations +0.0625, −0.0375, −0.0875, +0.0625; squares 0.00390625 + 0.00140625 + 0.00765625 + 0.00390625 = 0.016875.
    // Sample variance 0.016875 / 3 = 0.005625; sd 0.075. 0.0375 / 0.075 = 0.5; × √252 (15.8745…) = 7.937… → 7.94.
    const equityCurve = [
      { time: jan(1, 9), equity: "990" }, // earlier sample of Monday: the end of day is the last one
      { time: jan(1, 20), equity: "1000" },
      { time: jan(2, 15), equity: "1100" },
      { time: jan(4, 23), equity: "1045" },
      { time: jan(5, 10), equity: "1149.5" },
    ];
    expect(computeTradeStats([], { equityCurve }).sharpe).toBe("7.94");
  });

  it("balance curve: the initial balance opens the first day; a weekend close counts on the next Monday", () => {
    // Initial 1000 (end of Sunday 31 Dec). Closes: Mon 1 +100 → 1100; Thu 4 −55 → 1045;
    // Sun 7 23:00 UTC +104.5 → 1149.5, which belongs to Mon 8 (no Saturday or Sunday observations).
    // End of day Mon 1 … Fri 5, Mon 8: 1100, 1100, 1100, 1045, 1045, 1149.5.
    // Returns: 1100/1000 − 1 = 0.10, 0, 0, −0.05, 0, 1149.5/1045 − 1 = 0.10. Mean 0.15 / 6 = 0.025.
    // Deviations 0.075, −0.025, −0.025, −0.075, −0.025, 0.075; squares sum 3 × 0.005625 + 3 × 0.000625 = 0.01875.
    // Sample variance 0.01875 / 5 = 0.00375; 0.025 / √0.00375 = 1/√6; × √252 = √42 = 6.4807… → 6.48.
    const trades: StatsTrade[] = [
      { pnl: "100", closeTime: jan(1, 14) },
      { pnl: "-55", closeTime: jan(4, 14) },
      { pnl: "104.5", closeTime: jan(7, 23) },
    ];
    expect(computeTradeStats(trades, { initialBalance: "1000" }).sharpe).toBe("6.48");
  });

  it("the day boundary is the time zone's midnight", () => {
    // Initial 1000; +100 on Mon 1 12:00 UTC, −55 on Tue 2 02:00 UTC.
    // UTC: returns 0.10 and 1045/1100 − 1 = −0.05; mean 0.025, deviations ±0.075, variance 2 × 0.005625 / 1 = 0.01125,
    //   sd 0.10607; 0.025 / 0.10607 × √252 = 3.7417 → 3.74.
    // São Paulo (UTC−3): both close on Monday 1 → one return (0.045) → null.
    const trades: StatsTrade[] = [
      { pnl: "100", closeTime: jan(1, 12) },
      { pnl: "-55", closeTime: jan(2, 2) },
    ];
    expect(computeTradeStats(trades, { initialBalance: "1000" }).sharpe).toBe("3.74");
    expect(computeTradeStats(trades, { initialBalance: "1000", timezone: "America/Sao_Paulo" }).sharpe).toBeNull();
    expect(() => computeTradeStats(trades, { timezone: "Mars/Olympus" })).toThrow(RangeError);
  });

  it("null without an equity level, with < 2 returns, or with zero dispersion", () => {
    const trades: StatsTrade[] = [
      { pnl: "100", closeTime: jan(1) },
      { pnl: "-50", closeTime: jan(2) },
      { pnl: "70", closeTime: jan(3) },
    ];
    expect(computeTradeStats(trades).sharpe).toBeNull(); // no initial balance, no equity curve
    expect(computeTradeStats(trades.slice(0, 1), { initialBalance: "1000" }).sharpe).toBeNull(); // one return
    // Equity 100, 110, 121: two returns of exactly +10 % → standard deviation 0.
    const flat = [
      { time: jan(1), equity: "100" },
      { time: jan(2), equity: "110" },
      { time: jan(3), equity: "121" },
    ];
    expect(computeTradeStats([], { equityCurve: flat }).sharpe).toBeNull();
    // Equity at 0 on a day: no return from it.
    const blown = [
      { time: jan(1), equity: "100" },
      { time: jan(2), equity: "0" },
      { time: jan(3), equity: "10" },
    ];
    expect(computeTradeStats([], { equityCurve: blown }).sharpe).toBeNull();
  });
});

describe("computeTradeStats: exposure", () => {
  const window = { from: 0, to: 100 * HOUR };
  it("union of overlapping open intervals, clipped to the window", () => {
    // [10 h, 30 h] ∪ [20 h, 40 h] = [10 h, 40 h] → 30 h; [25 h, 35 h] inside it adds nothing;
    // [90 h, 120 h] clipped to [90 h, 100 h] → 10 h; [−5 h, 2 h] clipped to [0, 2 h] → 2 h.
    // (30 + 10 + 2) / 100 × 100 = 42.00 %.
    const trades: StatsTrade[] = [
      { pnl: "1", openTime: 10 * HOUR, closeTime: 30 * HOUR },
      { pnl: "1", openTime: 20 * HOUR, closeTime: 40 * HOUR },
      { pnl: "1", openTime: 25 * HOUR, closeTime: 35 * HOUR },
      { pnl: "1", openTime: 90 * HOUR, closeTime: 120 * HOUR },
      { pnl: "1", openTime: -5 * HOUR, closeTime: 2 * HOUR },
    ];
    expect(computeTradeStats(trades, { window }).exposurePct).toBe("42.00");
    // 1 h of 3 h: 33.333… → 33.33.
    expect(computeTradeStats([{ pnl: "1", openTime: new Date(HOUR), closeTime: new Date(2 * HOUR) }], { window: { from: 0, to: 3 * HOUR } }).exposurePct).toBe("33.33");
  });

  it("null without a window or without open times; a close before the open is an error", () => {
    const trades: StatsTrade[] = [
      { pnl: "1", openTime: 10 * HOUR, closeTime: 30 * HOUR },
      { pnl: "1", closeTime: 50 * HOUR },
    ];
    expect(computeTradeStats(trades).exposurePct).toBeNull();
    expect(computeTradeStats(trades, { window }).exposurePct).toBeNull();
    expect(() => computeTradeStats([{ pnl: "1", openTime: 2 * HOUR, closeTime: HOUR }])).toThrow(RangeError);
    expect(() => computeTradeStats([{ pnl: "1", closeTime: "not a date" }])).toThrow(RangeError);
  });
});
