/** Research candidates of issue 12 (core/research): regime-dependent entries, mean-reversion flip, volatility targeting, and the time-filtered random baseline. */
import { describe, expect, it } from "vitest";
import { runBacktest } from "../../../core/backtest/run";
import type { Decision, DecisionEngine } from "../../../core/engine/decide";
import type { Features } from "../../../core/engine/features";
import { allowedShare, researchBaseline, timeBlackoutCalendar } from "../../../core/research/baseline";
import { CANDIDATES, flipDecision, inOverlapSession, regimeFilter, sessionFilter, trendOnlyFilter, volTargetFilter } from "../../../core/research/candidates";
import { defaultSettings } from "../../../core/settings";
import { loadCsvCandles } from "../../../app/services/backtest/candle-files";
import { bestPooled } from "../../../server/cli/research-short";

const NOON = new Date("2026-02-17T12:00:00Z"); // a Tuesday, normal spread (EUR_USD 1.0 pip)

function open(side: "buy" | "sell", over: Partial<Decision> = {}, rsi = 50): Decision {
  return {
    id: "x",
    instrument: "EUR_USD",
    action: "open",
    side,
    confidence: 0.8,
    timeframe: "M30",
    regime: { volatility: "normal", trend: "ranging", reason: "", reasonMsg: { key: "x" } },
    reason: "",
    reasonMsg: { key: "x" },
    entryPrice: side === "buy" ? "1.10010" : "1.10000",
    stopLoss: side === "buy" ? "1.09910" : "1.10100",
    takeProfit: side === "buy" ? "1.10160" : "1.09850",
    units: side === "buy" ? "50000" : "-50000",
    features: { rsi } as Features,
    ...over,
  } as Decision;
}

/** An engine whose anchor timeframe (H1 for swing) has EMA20 above (up) or below EMA50. */
const engine = (up: boolean) => ({ features: () => ({ emaFast: up ? 2 : 1, emaSlow: up ? 1 : 2 }) }) as unknown as DecisionEngine;

describe("flipDecision", () => {
  it("turns a buy into a sell at the bid (entry − the full spread), with the same stop and target distances and size", () => {
    const d = flipDecision(open("buy"), NOON);
    expect(d).toMatchObject({ side: "sell", entryPrice: "1.10000", stopLoss: "1.10100", takeProfit: "1.09850", units: "-50000" });
  });

  it("uses the simulator's wider spread around the rollover (×3 at 21:00 UTC)", () => {
    const d = flipDecision(open("sell"), new Date("2026-02-17T21:00:00Z"));
    expect(d).toMatchObject({ side: "buy", entryPrice: "1.10030", stopLoss: "1.09930", takeProfit: "1.10180", units: "50000" });
  });

  it("refuses a decision without an entry", () => {
    expect(() => flipDecision({ ...open("buy"), action: "none" }, NOON)).toThrow();
  });
});

describe("regimeFilter (swing: regime on H1)", () => {
  const f = regimeFilter(defaultSettings());
  const trending = { regime: { volatility: "normal", trend: "trending", reason: "", reasonMsg: { key: "x" } } } as Partial<Decision>;

  it("in a trend follows it: keeps an entry on the side of the anchor EMA trend, drops one against it", () => {
    expect(f(open("buy", trending), { now: NOON, engine: engine(true) })).toBe(true);
    expect(f(open("sell", trending), { now: NOON, engine: engine(true) })).toBe(false);
    expect(f(open("sell", trending), { now: NOON, engine: engine(false) })).toBe(true);
  });

  it("does nothing in chop (ranging with high volatility)", () => {
    const chop = { regime: { volatility: "high", trend: "ranging", reason: "", reasonMsg: { key: "x" } } } as Partial<Decision>;
    expect(f(open("buy", chop, 75), { now: NOON, engine: engine(true) })).toBe(false);
  });

  it("in a range reverts to the mean: sells a stretched buy (RSI ≥ 60), keeps a buy at RSI ≤ 40, skips the middle", () => {
    const stretched = open("buy", {}, 65);
    expect(f(stretched, { now: NOON, engine: engine(true) })).toBe(true);
    expect(stretched).toMatchObject({ side: "sell", units: "-50000", entryPrice: "1.10000" });
    const low = open("buy", {}, 35);
    expect(f(low, { now: NOON, engine: engine(true) })).toBe(true);
    expect(low.side).toBe("buy");
    expect(f(open("buy", {}, 50), { now: NOON, engine: engine(true) })).toBe(false);
  });

  it("trendonly keeps only entries in a trend and with the anchor EMA", () => {
    const t = trendOnlyFilter(defaultSettings());
    expect(t(open("buy", trending), { now: NOON, engine: engine(true) })).toBe(true);
    expect(t(open("buy"), { now: NOON, engine: engine(true) })).toBe(false);
  });
});

describe("volTargetFilter", () => {
  it("cuts the size so the ATR stop risks the target amount (EUR_USD: 10 USD / 0.0010 = 10 000 units), keeping the sign", () => {
    const d = open("sell");
    expect(volTargetFilter("10")(d, { now: NOON, engine: engine(true) })).toBe(true);
    expect(d.units).toBe("-10000");
  });

  it("converts the risk of a USD-based pair at 1/entry (USD_JPY 150.000, stop 0.150: 10 000 units) and never enlarges a smaller size", () => {
    const d = open("buy", { instrument: "USD_JPY", entryPrice: "150.000", stopLoss: "149.850", takeProfit: "150.225", units: "60000" });
    volTargetFilter("10")(d, { now: NOON, engine: engine(true) });
    expect(d.units).toBe("10000");
    const small = open("buy", { units: "3000" });
    volTargetFilter("10")(small, { now: NOON, engine: engine(true) });
    expect(small.units).toBe("3000");
  });
});

describe("time-filtered random baseline", () => {
  it("the calendar blacks out exactly the hours the condition refuses; the share counts allowed decision times", () => {
    const cal = timeBlackoutCalendar(inOverlapSession);
    expect(cal.blackout("EUR_USD", NOON)).toBeUndefined();
    expect(cal.blackout("EUR_USD", new Date("2026-02-17T09:00:00Z"))?.active).toBe(true);
    const hours = Array.from({ length: 24 }, (_, h) => Date.parse("2026-02-17T00:00:00Z") + h * 3_600_000);
    expect(allowedShare(hours, inOverlapSession)).toBeCloseTo(4 / 24);
    expect(allowedShare([], inOverlapSession)).toBe(0);
  });

  it("the session candidate's random entries all fall in 12:00–16:00 UTC, at a rate near the strategy's", async () => {
    const candles = { EUR_USD: loadCsvCandles("data", "EUR_USD") };
    const from = "2026-02-16T00:00:00Z";
    const to = "2026-02-21T00:00:00Z";
    const opts = { instruments: ["EUR_USD"], candles, settings: { ...defaultSettings(), maxDrawdownPct: 100 }, initialBalance: "10000", accountCurrency: "USD", from, to, entryFilter: sessionFilter(), edgeGate: false as const };
    const strategy = await runBacktest(opts);
    const times = candles.EUR_USD.M5!.filter((c) => c.time >= Date.parse(from) && c.time < Date.parse(to)).map((c) => c.time + 300_000);
    const b = await researchBaseline(opts, strategy, 2, inOverlapSession, times);
    expect(b.probability).toBeGreaterThan(strategy.trades.length / strategy.ticks); // scaled up by 1 / allowed share
    const random = await runBacktest({ ...opts, entryFilter: undefined, calendar: timeBlackoutCalendar(inOverlapSession), entry: { kind: "random", probability: b.probability, random: () => 0.01 } });
    expect(random.trades.length).toBeGreaterThan(0);
    for (const t of random.trades) expect(inOverlapSession(new Date(t.entryTime))).toBe(true);
  }, 60_000);
});

describe("bestPooled", () => {
  it("picks the candidate with the best pooled expectancy in R over the pairs' out-of-sample trades", () => {
    const oos = new Map([
      ["default", [{ pnl: "-5", risk: "10" }]],
      ["session", [{ pnl: "2", risk: "10" }, { pnl: "-1", risk: "10" }]],
      ["wide", [{ pnl: "1", risk: "10" }]],
    ]);
    expect(bestPooled(oos, CANDIDATES).name).toBe("wide"); // wide +0.1 R, session +0.05 R, default −0.5 R
    expect(bestPooled(new Map(), CANDIDATES).name).toBe("default"); // no trades: today's default
  });
});
