/**
 * Backtest: the live bot's executor (core/trading/tick.ts `executeTick`) driven over history, on
 * one in-process simulator account (core/backtest/sim-account.ts) whose fills, spread, stops,
 * targets and trailing stops are the simulator's own code, so backtest and live share one fill
 * model and one tick. Several instruments trade together in that account, with concurrent
 * positions, exactly as live (settings.maxConcurrentTrades and the other limits decide).
 *
 * Steps: one tick at every close of the finest AI timeframe bar (M5 normally) of any instrument,
 * as a live bot with a 300 s interval aligned to the candles would. Before each tick the account
 * clock moves to the bar close (stops and targets act along the simulator's price path), and the
 * candles closed by then are pushed to each instrument's streaming engine (DecisionEngine ≡
 * `decide`, core/engine/decide.ts). Bars before `from` only warm the indicators up. A risk rule
 * that stops the bot is recorded in `stops`; the bot stays off until the next trading day, or for the rest of the run after a max-drawdown stop (as if
 * the user restarted it then: the losing streak counts from there; the high-water mark is never
 * reset). Open trades are closed at the end ("END"). Statistics: core/stats (profit factor =
 * gross profit / gross loss, ADR 0008). Wall-clock speed needs a clock (core never reads time
 * itself): pass `clock: () => performance.now()`.
 */
import type { Candle } from "../candles";
import { Decimal, formatMoney } from "../decimal";
import { DecisionEngine, featureConfig } from "../engine/decide";
import type { CandlesByTimeframe, Decision, StreamInput } from "../engine/decide";
import type { Msg } from "../i18n/message";
import type { EdgeTable } from "../research/edge-table";
import { AI_TIMEFRAMES, formatPrice, instrumentSpec, pipSize } from "../instruments";
import type { Timeframe } from "../instruments";
import { resumeAfterStop } from "../risk/drawdown";
import { DEFAULT_TIMEZONE } from "../risk/trading-day";
import type { TradingSettings } from "../settings";
import { MarketData } from "../simulator/market-data";
import type { Series } from "../simulator/market-data";
import { BASE_SPREAD_PIPS, Pricing } from "../simulator/pricing";
import { getTx } from "../simulator/transactions";
import { computeTradeStats, tradeResult } from "../stats";
import type { TradeStats } from "../stats";
import { executeTick } from "../trading/tick";
import type { NewsCalendar, TickPorts } from "../trading/tick";
import { BacktestAccount } from "./sim-account";
import type { TradingCosts } from "./sim-account";

export type ExitReason = "STOP_LOSS" | "TAKE_PROFIT" | "TRAILING_STOP" | "MAX_HOLD" | "WEEKEND_FLAT" | "END";

export interface BacktestOptions {
  /** Instruments traded together in one account (replaces settings.instruments). */
  instruments: string[];
  /** The market replayed: the simulator's MarketData, or candles per instrument (MarketData.fromCandles). */
  market?: MarketData;
  candles?: Record<string, CandlesByTimeframe>;
  settings: TradingSettings;
  /** Trade only bars whose open time is ≥ from (earlier bars warm up indicators). */
  from?: Date | string;
  /** Stop before bars whose open time is ≥ to. */
  to?: Date | string;
  /** Account currency amount. */
  initialBalance: Decimal.Value;
  accountCurrency: string;
  /** Timezone of the trading day for daily limits (default America/Sao_Paulo). */
  timezone?: string;
  /** Commission and financing, which the simulator does not charge (default none: OANDA's spread-only pricing). */
  costs?: TradingCosts;
  /** Monotonic milliseconds (e.g. performance.now) to measure candles per second. */
  clock?: () => number;
  /**
   * Entry policy: the strategy (default) or random entries (the baseline): at each tick and
   * instrument, enter with `probability` on a side drawn by `random` (uniform in [0, 1)), with the
   * strategy's timeframe, stops, sizing, risk gate and costs.
   */
  entry?: { kind: "random"; probability: number; random: () => number };
  /**
   * Economic calendar (core/calendar newsCalendar): entries inside a news blackout are refused by the
   * same risk rule as live and counted in `newsBlocked`. Without it nothing is blacked out.
   */
  calendar?: NewsCalendar;
  /** Edge gate (core/trading/edge-gate.ts, as live): absent = the shipped table, a table = that one, false = off (research only). */
  edgeGate?: false | EdgeTable;
  /**
   * Research candidates (core/research/candidates.ts): an extra entry rule, called with every
   * strategy decision (not the random baseline's) in tick order; an "open" it rejects becomes
   * "none". Without it (the default, and the live bot) every decision passes unchanged.
   */
  entryFilter?: (d: Decision, ctx: { now: Date; engine: DecisionEngine }) => boolean;
  /**
   * Progress of the run: called with the share (0 < fraction ≤ 1) of the steps inside [from, to)
   * done, at most PROGRESS_CALLS times per run (the backtest page's progress bar). When it returns
   * a promise the run waits for it (a job writes its progress, and lets its process serve other
   * work meanwhile). Without it nothing is called.
   */
  onProgress?: (fraction: number) => void | Promise<void>;
  /**
   * Equity curve: the account's NAV and balance sampled on the step grid, at most `maxPoints`
   * points (every ⌈steps / maxPoints⌉-th step inside [from, to), plus the last after the final
   * close), in `result.equity`. The grid depends on the market only (never on the entries), so runs
   * over the same options share it (the random baseline's band). Without it no curve is kept.
   */
  equityCurve?: { maxPoints: number };
  /**
   * Research (issue 21): tick instants (UTC ms, ascending) instead of the finest AI timeframe's bar
   * closes — a strategy steps at its own timeframe (H4, D1) while stops and targets still act on the
   * finest candles' price path between two ticks.
   */
  steps?: readonly number[];
  /**
   * Research (issue 21, core/research/strategy-source.ts): decides instead of the engine (no
   * DecisionEngine is fed). `wants(now)` false = no instrument can open at this step: the tick is
   * skipped (exits act at the broker meanwhile; the risk gate is evaluated at every tick that may
   * enter, so entries see the same rules).
   */
  decisionSource?: { wants(now: number, openInstruments: ReadonlySet<string>): boolean; decide(input: StreamInput): Decision };
}

/** Most onProgress calls per run. */
export const PROGRESS_CALLS = 50;

/** One point of an equity curve: UTC seconds, account currency as numbers (for plotting only). */
export interface EquityPoint {
  time: number;
  nav: number;
  balance: number;
}

export interface BacktestTrade {
  /** Decision id (the order's client id). */
  id: string;
  instrument: string;
  side: "buy" | "sell";
  /** Signed integer string. */
  units: string;
  timeframe: Timeframe;
  confidence: number;
  /** The decision's reason in Portuguese (printed by the CLI). */
  reason: string;
  /** The same reason as a translatable message (ADR 0007). */
  reasonMsg: Msg;
  /** UTC ISO. */
  entryTime: string;
  entryPrice: string;
  stopLoss: string;
  takeProfit: string;
  trailingStopDistance?: string;
  exitTime: string;
  exitPrice: string;
  exitReason: ExitReason;
  /** Pips, 1 decimal. */
  pips: number;
  /** Account currency, 4 decimals: the broker's realized P&L minus `costs`. */
  pnl: string;
  /** Commission and financing charged on the trade (account currency, 4 decimals; "0.0000" without costs). */
  costs: string;
  /** Account currency at risk at entry: |entry − stop loss| × |units| × quote→account rate (4 decimals). */
  risk: string;
  /** `risk` as % of the account's NAV when the order was placed, 2 decimals (issue 21: the real risk). */
  riskPct: string | null;
  /** pnl / risk, 2 decimals. */
  rMultiple: string | null;
  result: "WIN" | "LOSS" | "BE";
}

export interface BacktestResult {
  instruments: string[];
  /** Timeframe the ticks are stepped on. */
  stepTimeframe: Timeframe;
  /** Finest bars processed inside [from, to), summed over instruments. */
  candles: number;
  /** Ticks run (bar closes at which the bot was on). */
  ticks: number;
  trades: BacktestTrade[];
  stats: TradeStats;
  /** The simulator's normal full spread per instrument, in pips (core/simulator/pricing.ts). */
  spreadPips: Record<string, string>;
  /** Bot stops from risk rules, with their reasons in Portuguese and as messages. */
  stops: { time: string; code: string; reason: string; reasonMsg: Msg }[];
  /** How often each risk rule blocked an "open" decision (order_not_filled: the broker refused). */
  blocked: Record<string, number>;
  /** Entries the news blackout refused (with a calendar): when, which instrument, the event named. */
  newsBlocked: { time: string; instrument: string; event: string }[];
  /** Wall time and speed, when a clock was given. */
  durationMs?: number;
  candlesPerSecond?: number;
  /** Executor ticks per second (each decides every instrument): the speed when the bot is never halted. */
  ticksPerSecond?: number;
  /** NAV and balance along the run (only with `equityCurve`). */
  equity?: EquityPoint[];
  /** Median and largest `riskPct` over the trades (% of NAV at entry, 2 decimals); null without trades. */
  riskPct: { median: string; max: string } | null;
}

function toMs(v: Date | string | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  const t = typeof v === "string" ? Date.parse(v) : v.getTime();
  if (!Number.isFinite(t)) throw new Error(`Data inválida: ${String(v)}`);
  return t;
}

/** One instrument's candles of one timeframe, pushed to its engine as they close. */
interface Feed {
  tf: Timeframe;
  candles: Candle[];
  durMs: number;
  i: number;
}

/**
 * The series' candles as the broker serves them (core/simulator/candles.ts): mid prices at the
 * instrument's displayPrecision, so the engine reads what the live bot reads (the data files carry
 * up to 9 decimals).
 */
function servedCandles(instrument: string, s: Series): Candle[] {
  // Half-up rounding to displayPrecision (formatPrice) on floats: the data have ≤ 10 significant
  // digits, so a tie sits exactly at .5 units of the last place and the 1e-9 nudge only breaks ties;
  // k / 10^dp is then the double nearest to the decimal, as Number(formatPrice(x)) would give.
  const scale = 10 ** instrumentSpec(instrument).displayPrecision;
  const px = (x: number) => Math.round(x * scale + 1e-9) / scale;
  const out: Candle[] = new Array(s.n);
  for (let i = 0; i < s.n; i++) {
    out[i] = { time: s.t[i]!, open: px(s.o[i]!), high: px(s.h[i]!), low: px(s.l[i]!), close: px(s.c[i]!), volume: s.v[i]!, complete: true };
  }
  return out;
}

/** Sorted distinct bar closes (ms) of the step series of every instrument. */
function stepTimes(series: Series[]): number[] {
  const set = new Set<number>();
  for (const s of series) for (let i = 0; i < s.n; i++) set.add(s.t[i]! + s.durMs);
  return [...set].sort((a, b) => a - b);
}

const EXIT_REASON: Record<string, ExitReason> = {
  STOP_LOSS_ORDER: "STOP_LOSS",
  TAKE_PROFIT_ORDER: "TAKE_PROFIT",
  TRAILING_STOP_LOSS_ORDER: "TRAILING_STOP",
  max_hold: "MAX_HOLD",
  weekend_flat: "WEEKEND_FLAT",
  end: "END",
};

/**
 * Runs the backtest. Throws Error (Portuguese) when an instrument has no AI-timeframe candles or a
 * date is invalid.
 */
export async function runBacktest(opts: BacktestOptions): Promise<BacktestResult> {
  const instruments = [...new Set(opts.instruments)];
  if (instruments.length === 0) throw new Error("Informe ao menos um instrumento");
  const market = opts.market ?? MarketData.fromCandles(opts.candles ?? {});
  for (const i of instruments) if (!market.has(i)) throw new Error(`Sem candles para ${i}`);
  const stepTf = AI_TIMEFRAMES.find((tf) => instruments.every((i) => (market.series(i, tf)?.n ?? 0) > 0));
  if (!stepTf) throw new Error(`Sem candles M5/M15/M30/H1 para ${instruments.join(", ")}`);
  const settings: TradingSettings = { ...opts.settings, instruments };
  const tz = opts.timezone ?? DEFAULT_TIMEZONE;
  const from = toMs(opts.from, -Infinity);
  const to = toMs(opts.to, Infinity);
  const started = opts.clock?.();

  const pricing = new Pricing(market);
  const engines = new Map<string, DecisionEngine>();
  const feeds = new Map<string, Feed[]>();
  const stepSeries: Series[] = [];
  for (const instrument of instruments) {
    engines.set(instrument, new DecisionEngine(featureConfig(settings)));
    const own: Feed[] = [];
    for (const tf of AI_TIMEFRAMES) {
      const series = market.series(instrument, tf);
      if (series?.n) own.push({ tf, candles: servedCandles(instrument, series), durMs: series.durMs, i: 0 });
    }
    feeds.set(instrument, own);
    stepSeries.push(market.series(instrument, stepTf)!);
  }
  const steps = opts.steps ? [...opts.steps] : stepTimes(stepSeries);
  const stepMs = stepSeries[0]!.durMs;
  const account = new BacktestAccount(pricing, opts.accountCurrency, new Decimal(opts.initialBalance).toString(), steps[0]!, opts.costs);

  let clockMs = steps[0]!;
  const random = opts.entry;
  const noEntry = (d: Decision): Decision => ({ ...d, action: "none" });
  const source = opts.decisionSource;
  const decideWith = (engine: DecisionEngine, input: StreamInput): Decision => {
    if (source) return source.decide(input);
    if (!random) {
      const d = engine.decide(input);
      const keep = opts.entryFilter ? opts.entryFilter(d, { now: input.now, engine }) : true;
      return keep || d.action !== "open" ? d : noEntry(d);
    }
    if (random.random() >= random.probability) return noEntry(engine.decide(input));
    return engine.decideForced(input, random.random() < 0.5 ? "buy" : "sell");
  };
  const ports: TickPorts = {
    broker: account,
    store: account,
    decisions: { prepare: () => (input) => decideWith(engines.get(input.instrument)!, input) },
    clock: () => new Date(clockMs),
    ...(opts.calendar ? { calendar: opts.calendar } : {}),
  };
  const newsBlocked: BacktestResult["newsBlocked"] = [];

  let highWaterMark: string | null = null;
  let runStartedAt: Date | null = null;
  let haltedUntil = -Infinity;
  let processed = 0;
  let ticks = 0;
  let firstTraded: number | undefined;
  let lastStep: number | undefined;
  const stops: BacktestResult["stops"] = [];

  // Progress and the equity curve count the steps inside [from, to) (only when asked for).
  const tracked = opts.onProgress || opts.equityCurve ? steps.filter((t) => t - stepMs >= from && t - stepMs < to).length : 0;
  const stride = opts.equityCurve ? Math.max(1, Math.ceil(tracked / Math.max(1, opts.equityCurve.maxPoints))) : 0;
  const equity: EquityPoint[] | undefined = opts.equityCurve ? [] : undefined;
  let done = 0;
  let reported = 0;
  const sample = (ms: number) => {
    const a = account.accountSummary();
    equity!.push({ time: Math.floor(ms / 1000), nav: Number(a.NAV), balance: Number(a.balance) });
  };

  for (const t of steps) {
    if (t - stepMs >= to) break;
    clockMs = t;
    account.advanceTo(t);
    for (const instrument of instruments) {
      const engine = engines.get(instrument)!;
      for (const f of feeds.get(instrument)!) {
        while (f.i < f.candles.length && f.candles[f.i]!.time + f.durMs <= t) {
          const c = f.candles[f.i++]!;
          if (!source) engine.push(f.tf, c);
          if (f.tf === stepTf && c.time >= from) processed++;
        }
      }
    }
    if (t - stepMs < from) continue;
    firstTraded ??= t - stepMs;
    lastStep = t;
    if (tracked > 0) {
      done++;
      if (equity && (done - 1) % stride === 0) sample(t);
      if (opts.onProgress && Math.floor((done / tracked) * PROGRESS_CALLS) > reported) {
        reported = Math.floor((done / tracked) * PROGRESS_CALLS);
        const wait = opts.onProgress(done / tracked);
        if (wait) await wait;
      }
    }
    if (t < haltedUntil) continue;
    if (source && !source.wants(t, new Set(account.openTrades().map((o) => o.instrument)))) continue;
    ticks++;
    const report = await executeTick(ports, { settings, timezone: tz, licenceValid: true, highWaterMark, runStartedAt, ...(opts.edgeGate !== undefined ? { edgeTable: opts.edgeGate || null } : {}) });
    highWaterMark = report.highWaterMark;
    for (const { decision, verdict } of report.decisions) {
      if (decision.action !== "open" || verdict.code !== "news_blackout") continue;
      const event = opts.calendar?.blackout(decision.instrument, report.now)?.event ?? "";
      newsBlocked.push({ time: report.now.toISOString(), instrument: decision.instrument, event });
    }
    if (report.stopped) {
      const v = report.stopped;
      stops.push({ time: report.now.toISOString(), code: v.code, reason: v.reason, reasonMsg: v.reasonMsg });
      haltedUntil = resumeAfterStop(v.stopBot, report.now, tz, settings.tradingDayBoundary)?.getTime() ?? Infinity; // a max-drawdown stop is final: no re-arm in a backtest
      runStartedAt = new Date(haltedUntil); // the user restarts the bot the next trading day
    }
  }
  if (lastStep !== undefined) account.closeAll(lastStep, "end");
  if (equity && lastStep !== undefined) {
    // The last point: after the final close (replaces a sample taken at the same step).
    if (equity.at(-1)?.time === Math.floor(lastStep / 1000)) equity.pop();
    sample(lastStep);
  }

  const trades = closedTrades(account, pricing);
  const window = firstTraded !== undefined && lastStep !== undefined ? { from: firstTraded, to: lastStep } : undefined;
  const result: BacktestResult = {
    instruments,
    stepTimeframe: stepTf,
    candles: processed,
    ticks,
    trades,
    stats: computeTradeStats(
      trades.map((t) => ({ pnl: t.pnl, openTime: t.entryTime, closeTime: t.exitTime, pips: t.pips, risk: t.risk })),
      { initialBalance: new Decimal(opts.initialBalance).toString(), timezone: tz, tradingDayBoundary: settings.tradingDayBoundary, ...(window ? { window } : {}) },
    ),
    spreadPips: Object.fromEntries(instruments.map((i) => [i, BASE_SPREAD_PIPS[i] ?? "2.0"])),
    stops,
    blocked: account.blocked,
    newsBlocked,
    ...(equity ? { equity } : {}),
    riskPct: riskPctSummary(trades),
  };
  if (opts.clock && started !== undefined) {
    const ms = opts.clock() - started;
    result.durationMs = Math.round(ms * 10) / 10;
    result.candlesPerSecond = ms > 0 ? Math.round((processed / ms) * 1000) : undefined;
    result.ticksPerSecond = ms > 0 ? Math.round((ticks / ms) * 1000) : undefined;
  }
  return result;
}

/**
 * Median and maximum of the trades' risk % of NAV at entry (issue 21: automatic sizing risks 1 % only
 * when the leverage cap does not bind). Median of an even count: the mean of the two middle values.
 */
export function riskPctSummary(trades: readonly Pick<BacktestTrade, "riskPct">[]): { median: string; max: string } | null {
  const list = trades.flatMap((t) => (t.riskPct === null ? [] : [new Decimal(t.riskPct)])).sort((a, b) => a.cmp(b));
  if (list.length === 0) return null;
  const mid = Math.floor(list.length / 2);
  const median = list.length % 2 ? list[mid]! : list[mid - 1]!.add(list[mid]!).div(2);
  return { median: median.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2), max: list.at(-1)!.toFixed(2) };
}

/** The account's closed trades, in open order, with the decisions that opened them. */
function closedTrades(account: BacktestAccount, pricing: Pricing): BacktestTrade[] {
  const out: BacktestTrade[] = [];
  for (const t of account.account.trades) {
    if (t.state !== "CLOSED") continue;
    const decision = account.decisions.get(t.clientExtensions?.id ?? "");
    if (!decision) continue;
    const spec = instrumentSpec(t.instrument);
    const entry = new Decimal(t.price);
    const exit = new Decimal(formatPrice(t.instrument, new Decimal(t.closedValue).div(t.closedUnits)));
    const units = new Decimal(t.initialUnits);
    const side = units.isPositive() ? "buy" : "sell";
    const openMs = Date.parse(t.openTime);
    const rate = pricing.rate(spec.quote, account.account.currency, openMs);
    const risk = new Decimal(formatMoney(entry.sub(decision.stopLoss!).abs().mul(units.abs()).mul(rate)));
    const nav = account.navAtEntry.get(decision.id);
    const costs = account.costs.get(t.id) ?? new Decimal(0);
    const pnl = new Decimal(t.realizedPL).sub(costs);
    const closing = getTx(account.account, t.closingTransactionIDs[t.closingTransactionIDs.length - 1] ?? "");
    const ours = account.closeReasons.get(t.id);
    out.push({
      id: decision.id,
      instrument: t.instrument,
      side,
      units: t.initialUnits,
      timeframe: decision.timeframe,
      confidence: decision.confidence,
      reason: decision.reason,
      reasonMsg: decision.reasonMsg,
      entryTime: new Date(openMs).toISOString(),
      entryPrice: entry.toFixed(spec.displayPrecision),
      stopLoss: decision.stopLoss!,
      takeProfit: decision.takeProfit!,
      ...(decision.trailingStopDistance ? { trailingStopDistance: decision.trailingStopDistance } : {}),
      exitTime: new Date(Date.parse(t.closeTime!)).toISOString(),
      exitPrice: exit.toFixed(spec.displayPrecision),
      exitReason: EXIT_REASON[ours ?? String(closing?.reason ?? "")] ?? "END",
      pips: exit.sub(entry).div(pipSize(t.instrument)).mul(side === "buy" ? 1 : -1).toDecimalPlaces(1).toNumber(),
      pnl: formatMoney(pnl),
      costs: formatMoney(costs),
      risk: formatMoney(risk),
      riskPct: nav && new Decimal(nav).gt(0) ? risk.div(nav).mul(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2) : null,
      rMultiple: risk.gt(0) ? pnl.div(risk).toFixed(2) : null,
      result: tradeResult(pnl),
    });
  }
  return out;
}
