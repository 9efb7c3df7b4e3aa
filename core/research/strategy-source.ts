/**
 * A research strategy as the executor's decision source (core/backtest/run.ts `decisionSource`):
 * per instrument, the family's bars (H1, H4 or D1) are pushed into its signal models
 * (core/research/signal-models.ts) as they close, and at each tick an instrument with no open trade
 * gets the active model's entry — or, in a random-entry run (the null distribution of the
 * pre-registration), an entry drawn at random (side 50/50) with probability p per flat
 * (tick, instrument) slot, with the active model's exits. The active parameter set can change with
 * the calendar year (walk-forward: the set picked for that test year).
 *
 * Sizing (PREREGISTRATION "The executor, costs and sizing"): `riskPct` of the balance at the stop,
 * the notional capped at `maxLeverage` × the balance; decimals (DESIGN §6), rounded down to whole units.
 */
import type { Candle } from "../candles";
import { Decimal } from "../decimal";
import type { Decision, StreamInput } from "../engine/decide";
import { decisionId } from "../engine/decide";
import { msg } from "../i18n/message";
import { formatPrice, instrumentSpec } from "../instruments";
import { quoteToAccount } from "../engine/sizing";
import type { EntrySignal, SignalModel, Side } from "./signal-models";

export interface StrategySourceOptions {
  instruments: readonly string[];
  /** The family's bars per instrument (ascending, complete). */
  bars: Record<string, readonly Candle[]>;
  /** Bar length of `bars`, ms. */
  barMs: number;
  /** Models of every parameter set the run may use, per instrument: `models(instrument)[set]`. */
  models: (instrument: string) => SignalModel[];
  /** Index of the parameter set active in a UTC calendar year. */
  activeSet: (year: number) => number;
  riskPct: number;
  maxLeverage: number;
  /** Random entries instead of the model's: probability per flat slot in a year, and a uniform [0, 1) generator. */
  random?: { probability: (year: number) => number; rng: () => number };
  /** An instrument whose last bar closed longer ago than this is treated as without data (ms; default 4 days). */
  staleMs?: number;
}

/** Flat (tick, instrument) slots per year: the denominator of the random baseline's entry rate. */
export type FlatSlots = Map<number, number>;

const DEFAULT_STALE_MS = 4 * 86_400_000;

export class StrategySource {
  private readonly pointers = new Map<string, number>();
  private readonly models = new Map<string, SignalModel[]>();
  private readonly pending = new Map<string, EntrySignal>();
  private readonly lastClose = new Map<string, number>();
  /** Flat slots counted per UTC year (every tick where an instrument had data and no open trade). */
  readonly flatSlots: FlatSlots = new Map();

  constructor(private readonly o: StrategySourceOptions) {
    for (const i of o.instruments) {
      this.pointers.set(i, 0);
      this.models.set(i, o.models(i));
    }
  }

  /** Pushes the bars closed by `now`; true when some flat instrument wants an entry (the tick must run). */
  wants(now: number, open: ReadonlySet<string>): boolean {
    this.pending.clear();
    const year = new Date(now).getUTCFullYear();
    const set = this.o.activeSet(year);
    const stale = this.o.staleMs ?? DEFAULT_STALE_MS;
    for (const instrument of this.o.instruments) {
      const bars = this.o.bars[instrument] ?? [];
      const models = this.models.get(instrument)!;
      let p = this.pointers.get(instrument)!;
      while (p < bars.length && bars[p]!.time + this.o.barMs <= now) {
        const bar = bars[p++]!;
        for (const m of models) m.push(bar);
        this.lastClose.set(instrument, bar.time + this.o.barMs);
      }
      this.pointers.set(instrument, p);
      const last = this.lastClose.get(instrument);
      if (last === undefined || now - last > stale || open.has(instrument)) continue;
      this.flatSlots.set(year, (this.flatSlots.get(year) ?? 0) + 1);
      const model = models[set]!;
      let entry: EntrySignal | null = null;
      if (this.o.random) {
        if (this.o.random.rng() < this.o.random.probability(year)) {
          const side: Side = this.o.random.rng() < 0.5 ? "buy" : "sell";
          const x = model.exits(side);
          entry = x ? { side, ...x } : null;
        }
      } else {
        entry = model.signal();
      }
      if (entry) this.pending.set(instrument, entry);
    }
    return this.pending.size > 0;
  }

  /** The decision for an instrument at this tick (the executor's risk gate decides whether it runs). */
  decide(input: StreamInput): Decision {
    const { instrument } = input;
    const entry = this.pending.get(instrument);
    const id = decisionId(instrument, "H1", input.now.getTime());
    const none = (why: string): Decision => ({
      id, instrument, action: "none", confidence: 0, timeframe: "H1",
      regime: { volatility: "normal", trend: "ranging", reason: why, reasonMsg: msg("research:none", { why }) },
      reason: why, reasonMsg: msg("research:none", { why }),
    });
    if (!entry) return none("no signal");
    if (!input.price.tradeable) return none("not tradeable");
    const spec = instrumentSpec(instrument);
    const entryPrice = new Decimal(entry.side === "buy" ? input.price.ask : input.price.bid);
    const sign = entry.side === "buy" ? 1 : -1;
    const stop = new Decimal(formatPrice(instrument, new Decimal(entry.stop)));
    if (!stop.gt(0)) return none("no stop distance");
    const rate = quoteToAccount(instrument, input.account.currency, entryPrice, input.quoteToAccountRate);
    if (!rate) return none("no conversion rate");
    const balance = new Decimal(input.account.balance);
    let units = balance.mul(this.o.riskPct).div(100).div(stop.mul(rate)).toDecimalPlaces(6).floor();
    const cap = balance.mul(this.o.maxLeverage).div(entryPrice.mul(rate)).floor();
    units = Decimal.min(units, cap);
    if (units.lte(0)) return none("zero units");
    const why = `${entry.side} stop ${stop.toString()} target ${entry.target.toPrecision(6)}`;
    return {
      ...none(why),
      action: "open",
      side: entry.side,
      confidence: 1,
      entryPrice: entryPrice.toFixed(spec.displayPrecision),
      stopLoss: formatPrice(instrument, entryPrice.sub(stop.mul(sign))),
      takeProfit: formatPrice(instrument, entryPrice.add(new Decimal(entry.target).mul(sign))),
      ...(entry.trailing ? { trailingStopDistance: formatPrice(instrument, new Decimal(entry.trailing)) } : {}),
      units: units.mul(sign).toFixed(0),
    };
  }
}
