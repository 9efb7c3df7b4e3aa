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

function mulberry(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random entries with today's engine's exits and sizing (F7's null), the settings of the year's set. */
class EngineRandomSource {
  private readonly engines = new Map<string, DecisionEngine>();
  private readonly pointers = new Map<string, number>();
  private readonly pending = new Map<string, "buy" | "sell">();
  readonly flatSlots = new Map<number, number>();
  constructor(
    private readonly instruments: string[],
    private readonly bars: Record<string, Candle[]>,
    private readonly settingsOf: (year: number) => TradingSettings,
    private readonly probability: (year: number) => number,
    private readonly rng: () => number,
  ) {
    for (const i of instruments) {
      this.engines.set(i, new DecisionEngine(featureConfig(settingsOf(0))));
      this.pointers.set(i, 0);
    }
  }
  wants(now: number, open: ReadonlySet<string>): boolean {
    this.pending.clear();
    const year = new Date(now).getUTCFullYear();
    for (const i of this.instruments) {
      const bars = this.bars[i] ?? [];
      let p = this.pointers.get(i)!;
      let last: number | undefined;
      while (p < bars.length && bars[p]!.time + 3_600_000 <= now) last = bars[p++]!.time;
      for (let k = this.pointers.get(i)!; k < p; k++) this.engines.get(i)!.push("H1", bars[k]!);
      this.pointers.set(i, p);
      const newest = p > 0 ? bars[p - 1]!.time : last;
      if (newest === undefined || now - newest > 4 * 86_400_000 || open.has(i)) continue;
      this.flatSlots.set(year, (this.flatSlots.get(year) ?? 0) + 1);
      if (this.rng() < this.probability(year)) this.pending.set(i, this.rng() < 0.5 ? "buy" : "sell");
    }
    return this.pending.size > 0;
  }
  decide(input: StreamInput): Decision {
    const year = input.now.getUTCFullYear();
    const engine = this.engines.get(input.instrument)!;
    const side = this.pending.get(input.instrument);
    const settings = this.settingsOf(year);
    return side ? engine.decideForced({ ...input, settings }, side) : { ...engine.decide({ ...input, settings }), action: "none" };
  }
}

/** Runs one trial. @throws Error when an instrument has no H1 candles in the span. */
export async function runTrial(spec: TrialSpec, data: StudyCandles, clock: () => number): Promise<TrialRun> {
  const { family, instruments, from, to } = spec;
  const started = clock();
  const h1: Record<string, { H1: Candle[] }> = {};
  for (const i of instruments) h1[i] = { H1: slice(data.H1[i], from, to) };
  const settingsOf = (year: number) => studySettings(family, spec.sets[spec.activeSet(year)]);
  const base: BacktestOptions = {
    instruments,
    candles: h1,
    settings: settingsOf(spec.firstTestYear),
    initialBalance: STUDY_BALANCE,
    accountCurrency: "USD",
    costs: { financingPctPerYear: STUDY_FINANCING_PCT },
    equityCurve: { maxPoints: Number.MAX_SAFE_INTEGER },
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
      ...(spec.random ? { random: { probability: spec.random.probability, rng: mulberry(spec.random.seed) } } : {}),
    });
    flat = source.flatSlots;
    opts = { ...base, steps, decisionSource: source };
  } else if (spec.random) {
    const source = new EngineRandomSource(instruments, Object.fromEntries(instruments.map((i) => [i, h1[i]!.H1])), settingsOf, spec.random.probability, mulberry(spec.random.seed));
    flat = source.flatSlots;
    opts = { ...base, decisionSource: source };
  } else {
    // Today's engine: one set per run (its slRatio in the settings), the fresh-signal filter when asked.
    const set = spec.sets[0]!;
    const counter = new Map<number, number>();
    flat = counter;
    const fresh = set.params.fresh === true ? freshSignalFilter() : undefined;
    opts = { ...base, settings: studySettings(family, set), ...(fresh ? { entryFilter: fresh } : {}) };
  }
  const result = await runBacktest(opts);
  if (!family.model && !spec.random) {
    // The engine decides at every H1 close: its flat slots are the H1 closes with no trade of the pair open.
    for (const i of instruments) {
      const open = result.trades.filter((t) => t.instrument === i).map((t) => [Date.parse(t.entryTime), Date.parse(t.exitTime)] as const);
      let k = 0;
      for (const b of h1[i]!.H1) {
        const close = b.time + 3_600_000;
        while (k < open.length && open[k]![1] < close) k++;
        if (k < open.length && open[k]![0] < close) continue;
        const y = new Date(close).getUTCFullYear();
        flat.set(y, (flat.get(y) ?? 0) + 1);
      }
    }
  }
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
