/**
 * One run of the long-history study (docs/research/PREREGISTRATION.md) through the live executor
 * (core/backtest/run.ts → core/trading/tick.ts) with the simulator's fill model on the H1 price
 * path: a family's parameter set (or a walk-forward schedule of sets, one per calendar year), as the
 * strategy or as random entries with its exits and sizing. Pure: the candles are given.
 *
 * Output, compact for the study: the NAV at the end of each trading day (days cut at 21:00 UTC, the
 * 17:00 New York close give or take daylight saving), the trades (entry time, P&L and risk in USD as
 * numbers, for statistics only) and the flat slots per year (the random baseline's rate denominator).
 */
import type { Candle } from "../candles";
import { runBacktest } from "../backtest/run";
import type { BacktestOptions } from "../backtest/run";
import { DecisionEngine, featureConfig } from "../engine/decide";
import type { Decision, StreamInput } from "../engine/decide";
import { instrumentSpec } from "../instruments";
import { mulberry32 } from "../random";
import { quoteToAccountRate } from "../trading/orders";
import { defaultSettings, parseSettingsUpdate } from "../settings";
import type { TradingSettings } from "../settings";
import { freshSignalFilter } from "./candidates";
import { RESEARCH_MAX_LEVERAGE, RESEARCH_RISK_PCT } from "./families";
import type { Family, ParamSet, StepGranularity } from "./families";
import { StrategySource } from "./strategy-source";

/** Start balance of every run (USD). */
export const STUDY_BALANCE = "10000";
/** Financing charged at each 17:00 New York rollover, % a year of the notional (PREREGISTRATION). */
export const STUDY_FINANCING_PCT = "2";

export interface StudyCandles {
  /** H1 (the price path and the H1 families), H4 and D1 bars per instrument, mid prices. */
  H1: Record<string, Candle[]>;
  H4: Record<string, Candle[]>;
  D1: Record<string, Candle[]>;
}

export interface TrialTrade {
  instrument: string;
  /** Entry, UTC ms. */
  entry: number;
  pnl: number;
  risk: number;
}

export interface TrialRun {
  /** Trading days (UTC ms of the day's 21:00 UTC cut) and the NAV at each (USD). */
  days: number[];
  nav: number[];
  trades: TrialTrade[];
  /** Flat (tick, instrument) slots per UTC year. */
  flatSlots: Record<number, number>;
  ticks: number;
  candles: number;
  durationMs: number;
  /** Entries the risk gate refused, by rule code (BacktestResult.blocked). */
  blocked: Record<string, number>;
}

export interface TrialSpec {
  family: Family;
  instruments: string[];
  /** The sets the run may use and which is active in a year (one set: always 0). */
  sets: ParamSet[];
  activeSet: (year: number) => number;
  firstTestYear: number;
  /** Random entries: probability per flat slot by year, and the seed. */
  random?: { probability: (year: number) => number; seed: number };
  /** UTC ms bounds of the run (bars before `from` are not read). */
  from: number;
  to: number;
}

const BAR_MS: Record<StepGranularity, number> = { H1: 3_600_000, H4: 4 * 3_600_000, D1: 86_400_000 };
/** D1 families decide 2 h after the daily close, outside the rollover's wide spread. */
const D1_DECISION_DELAY_MS = 2 * 3_600_000;
const DAY_CUT_SHIFT_MS = 3 * 3_600_000;

/** The settings of a study run: swing defaults, drawdown stop off, H1, maxTrades 8 (3 for the engine family). */
export function studySettings(family: Family, set?: ParamSet): TradingSettings {
  const engine = family.id === "engine";
  const r = parseSettingsUpdate(
    { aiSettings: { tradingStyle: "swing", autoTimeframeSelection: false }, timeframe: "H1", maxTrades: engine ? 3 : 8 },
    defaultSettings(),
  );
  if (!r.ok) throw new Error(r.message);
  const s: TradingSettings = { ...r.settings, maxDrawdownPct: 100 };
  if (engine && set) {
    const sl = Number(set.params.slRatio);
    return { ...s, slRatio: sl, tpRatio: Math.round(sl * 1.5 * 10) / 10 };
  }
  return s;
}

function slice(c: readonly Candle[] | undefined, from: number, to: number): Candle[] {
  return (c ?? []).filter((x) => x.time >= from && x.time < to);
}

/**
 * Today's engine (F7) as a decision source: DecisionEngines fed with the H1 bars; at each tick the
 * engine's decision for every pair (the fresh-signal filter sees each one, busy pairs included, as in
 * the live executor's order), then `wants` says whether a flat pair has an "open" — else the tick is
 * skipped (ADR 0035). `decide` re-decides with the executor's real input (price, balance, rate).
 * Random mode: per flat slot an entry with probability p on a random side, the engine's forced
 * decision (its exits and sizing), with the settings of the year's set.
 */
class EngineSource {
  private readonly engines = new Map<string, DecisionEngine>();
  private readonly pointers = new Map<string, number>();
  private readonly pending = new Map<string, "buy" | "sell" | "strategy">();
  readonly flatSlots = new Map<number, number>();
  constructor(
    private readonly instruments: string[],
    private readonly bars: Record<string, Candle[]>,
    private readonly settingsOf: (year: number) => TradingSettings,
    private readonly random: { probability: (year: number) => number; rng: () => number } | null,
    private readonly filter?: (d: Pick<Decision, "instrument" | "action" | "side">) => boolean,
  ) {
    for (const i of instruments) {
      this.engines.set(i, new DecisionEngine(featureConfig(settingsOf(0))));
      this.pointers.set(i, 0);
    }
  }
  wants(now: number, open: ReadonlySet<string>): boolean {
    this.pending.clear();
    const year = new Date(now).getUTCFullYear();
    const settings = this.settingsOf(year);
    const newestClose = new Map<string, string>();
    for (const i of this.instruments) {
      const bars = this.bars[i] ?? [];
      const engine = this.engines.get(i)!;
      let p = this.pointers.get(i)!;
      while (p < bars.length && bars[p]!.time + 3_600_000 <= now) engine.push("H1", bars[p++]!);
      this.pointers.set(i, p);
      if (p > 0) newestClose.set(i, String(bars[p - 1]!.close));
    }
    // The crosses' quote → USD rate from the other pairs' closes, as the executor derives it from its prices.
    const prices = [...newestClose].map(([instrument, px]) => ({ instrument, bid: px, ask: px }));
    for (const i of this.instruments) {
      const bars = this.bars[i] ?? [];
      const engine = this.engines.get(i)!;
      const p = this.pointers.get(i)!;
      const newest = p > 0 ? bars[p - 1]! : undefined;
      if (newest === undefined || now - newest.time > 4 * 86_400_000) continue;
      if (this.random) {
        if (open.has(i)) continue;
        this.flatSlots.set(year, (this.flatSlots.get(year) ?? 0) + 1);
        if (this.random.rng() < this.random.probability(year)) this.pending.set(i, this.random.rng() < 0.5 ? "buy" : "sell");
        continue;
      }
      // The whole decision (text, stops, size) only where the signal stage names a side: elsewhere it is "none".
      const px = String(newest.close);
      const d: Pick<Decision, "instrument" | "action" | "side"> = engine.entrySide(now, settings)
        ? engine.decide({ now: new Date(now), instrument: i, price: { bid: px, ask: px, tradeable: true }, settings, account: { balance: STUDY_BALANCE, currency: "USD" }, ...rateOf(i, prices) })
        : { instrument: i, action: "none" };
      const keep = this.filter ? this.filter(d) : true;
      if (!open.has(i)) this.flatSlots.set(year, (this.flatSlots.get(year) ?? 0) + 1);
      if (d.action === "open" && keep && !open.has(i)) this.pending.set(i, "strategy");
    }
    return this.pending.size > 0;
  }
  decide(input: StreamInput): Decision {
    const engine = this.engines.get(input.instrument)!;
    const settings = this.settingsOf(input.now.getUTCFullYear());
    const what = this.pending.get(input.instrument);
    if (what === "buy" || what === "sell") return engine.decideForced({ ...input, settings }, what);
    const d = engine.decide({ ...input, settings });
    return what === "strategy" ? d : { ...d, action: "none" };
  }
}

/** The quote → USD rate of an instrument from mid closes (core/trading/orders.ts), as engine input. */
function rateOf(instrument: string, prices: { instrument: string; bid: string; ask: string }[]): { quoteToAccountRate?: string } {
  const rate = quoteToAccountRate(instrumentSpec(instrument).quote, "USD", prices);
  return rate === undefined ? {} : { quoteToAccountRate: rate };
}

/** Runs one trial. @throws Error when an instrument has no H1 candles in the span. */
export async function runTrial(spec: TrialSpec, data: StudyCandles, clock: () => number): Promise<TrialRun> {
  const { family, instruments, from, to } = spec;
  const started = clock();
  const h1: Record<string, { H1: Candle[] }> = {};
  for (const i of instruments) h1[i] = { H1: slice(data.H1[i], from, to) };
  // One settings object per year (parsing settings per tick cost a third of an engine run).
  const settingsByYear = new Map<number, TradingSettings>();
  const settingsOf = (year: number): TradingSettings => {
    let s = settingsByYear.get(year);
    if (!s) settingsByYear.set(year, (s = studySettings(family, spec.sets[spec.activeSet(year)])));
    return s;
  };
  const base: BacktestOptions = {
    instruments,
    candles: h1,
    settings: settingsOf(spec.firstTestYear),
    initialBalance: STUDY_BALANCE,
    accountCurrency: "USD",
    costs: { financingPctPerYear: STUDY_FINANCING_PCT },
    // About 4 NAV samples a day whatever the step (H1 steps: every 6th): the study keeps one per day.
    equityCurve: { maxPoints: Math.ceil((to - from) / (6 * 3_600_000)) },
    edgeGate: false,
  };
  let flat: Map<number, number>;
  let opts: BacktestOptions;
  if (family.model) {
    const barMs = BAR_MS[family.step];
    const bars: Record<string, Candle[]> = {};
    for (const i of instruments) bars[i] = slice(data[family.step][i], from, to);
    const delay = family.step === "D1" ? D1_DECISION_DELAY_MS : 0;
    const steps = [...new Set(instruments.flatMap((i) => bars[i]!.map((b) => b.time + barMs + delay)))].sort((a, b) => a - b);
    const source = new StrategySource({
      instruments,
      bars,
      barMs,
      models: () => spec.sets.map((s) => family.model!(s, spec.firstTestYear)),
      activeSet: spec.activeSet,
      riskPct: RESEARCH_RISK_PCT,
      maxLeverage: RESEARCH_MAX_LEVERAGE,
      ...(spec.random ? { random: { probability: spec.random.probability, rng: mulberry32(spec.random.seed) } } : {}),
    });
    flat = source.flatSlots;
    opts = { ...base, steps, decisionSource: source };
  } else {
    // Today's engine: its slRatio per set in the settings, the fresh-signal filter when the set asks.
    const set = spec.sets[spec.activeSet(spec.firstTestYear)]!;
    const fresh = !spec.random && set.params.fresh === true ? freshSignalFilter() : undefined;
    const source = new EngineSource(
      instruments,
      Object.fromEntries(instruments.map((i) => [i, h1[i]!.H1])),
      settingsOf,
      spec.random ? { probability: spec.random.probability, rng: mulberry32(spec.random.seed) } : null,
      // freshSignalFilter reads only the instrument, action and side of a decision.
      fresh ? (d) => fresh(d as Decision, { now: new Date(0), engine: undefined as never }) : undefined,
    );
    flat = source.flatSlots;
    opts = { ...base, decisionSource: source };
  }
  const result = await runBacktest(opts);
  const days: number[] = [];
  const nav: number[] = [];
  for (const p of result.equity ?? []) {
    const ms = p.time * 1000;
    const day = Math.floor((ms + DAY_CUT_SHIFT_MS) / 86_400_000);
    const cut = day * 86_400_000 - DAY_CUT_SHIFT_MS + 86_400_000;
    if (days.length && days[days.length - 1] === cut) nav[nav.length - 1] = p.nav;
    else {
      days.push(cut);
      nav.push(p.nav);
    }
  }
  return {
    days,
    nav,
    trades: result.trades.map((t) => ({ instrument: t.instrument, entry: Date.parse(t.entryTime), pnl: Number(t.pnl), risk: Number(t.risk) })),
    flatSlots: Object.fromEntries(flat),
    ticks: result.ticks,
    candles: result.candles,
    blocked: result.blocked,
    durationMs: clock() - started,
  };
}
