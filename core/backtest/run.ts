/**
 * Backtest of one instrument: the same engine (DecisionEngine ≡ decide) and the same risk gate
 * (evaluateRisk) as live, run bar by bar on the finest available AI timeframe (M5 normally).
 *
 * Per finest bar, in order: (1) an open position is checked against the bar (fill.ts: SL/TP on the
 * bid/ask side, SL first, trailing update, scalper max hold at bar close); (2) the bar and every
 * coarser candle closed by the bar's close are pushed to the engine; (3) when flat and not halted,
 * the engine decides at the bar close (now = bar close, price = close ± half spread); an "open"
 * decision passes evaluateRisk and, if allowed, is filled at its entry price. A decision whose id
 * equals the last opened trade's is skipped: live, that id is the order's client id (DESIGN.md §3).
 * Bars before `from` only warm the indicators up. A risk rule that stops the bot is recorded in
 * `stops` and the run resumes at the next trading day (as if the user restarted the bot). The risk
 * counters come from core/trading/counters.ts, the same derivation as the live bot: the losing
 * streak counts from the restart, the drawdown high-water mark is never reset (so after a max
 * drawdown stop the run stays blocked, as the live bot would), and a trade closing on the first
 * bar of a trading day counts in that day's loss. The weekend window (settings.weekend) blocks
 * entries and, in mode "flat", closes the position at the bar close ("WEEKEND_FLAT").
 * Statistics: core/stats (profit factor = gross profit / gross loss, ADR 0008).
 * Wall-clock speed needs a clock (core never reads time itself): pass `clock: () => performance.now()`.
 */
import type { Candle } from "../candles";
import type { Msg } from "../i18n/message";
import { Decimal, formatMoney } from "../decimal";
import { AI_TIMEFRAMES, formatPrice, GRANULARITY_SECONDS, instrumentSpec, pipSize } from "../instruments";
import type { Timeframe } from "../instruments";
import type { TradingSettings } from "../settings";
import { DecisionEngine, featureConfig } from "../engine/decide";
import type { CandlesByTimeframe } from "../engine/decide";
import { quoteToAccount } from "../engine/sizing";
import { evaluateRisk } from "../risk/evaluate";
import { marketCloseWindow } from "../risk/market-hours";
import { DEFAULT_TIMEZONE, nextTradingDayStart } from "../risk/trading-day";
import { BASE_SPREAD_PIPS } from "../simulator/pricing";
import { computeTradeStats } from "../stats";
import type { TradeStats } from "../stats";
import { deriveRiskCounters } from "../trading/counters";
import type { CounterTrade } from "../trading/counters";
import { checkBar, closeAtBarClose } from "./fill";
import type { ExitReason, OpenPosition } from "./fill";

export interface BacktestOptions {
  instrument: string;
  candlesByTf: CandlesByTimeframe;
  settings: TradingSettings;
  /** Trade only bars whose open time is ≥ from (earlier bars warm up indicators). */
  from?: Date | string;
  /** Stop before bars whose open time is ≥ to. */
  to?: Date | string;
  /** Constant spread in pips applied around the (mid) candle prices; default the simulator's per-instrument table (BASE_SPREAD_PIPS). */
  spreadPips?: number;
  /** Account currency amount. */
  initialBalance: Decimal.Value;
  accountCurrency: string;
  /** Quote → account rate when neither side of the pair is the account currency. */
  quoteToAccountRate?: string;
  /** Timezone of the trading day for daily limits (default America/Sao_Paulo). */
  timezone?: string;
  /** Monotonic milliseconds (e.g. performance.now) to measure candles per second. */
  clock?: () => number;
  /**
   * Entry policy: the strategy (default) or random entries (the baseline): at each bar where the
   * strategy could act, enter with `probability` on a side drawn by `random` (uniform in [0, 1)),
   * with the strategy's timeframe, stops, sizing, risk gate and costs.
   */
  entry?: { kind: "random"; probability: number; random: () => number };
}

export interface BacktestTrade {
  /** Decision id (client order id). */
  id: string;
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
  /** Account currency, 4 decimals. */
  pnl: string;
  /** Account currency at risk at entry: |entry − stop loss| × |units| × quote→account rate (4 decimals). */
  risk: string;
  /** pnl / risk, 2 decimals. */
  rMultiple: string | null;
  result: "WIN" | "LOSS" | "BE";
}

export interface BacktestResult {
  instrument: string;
  /** Timeframe the bars are stepped on. */
  stepTimeframe: Timeframe;
  /** Finest bars processed inside [from, to). */
  candles: number;
  trades: BacktestTrade[];
  stats: TradeStats;
  /** Spread used, in pips. */
  spreadPips: number;
  /** Bot stops from risk rules, with their reasons in Portuguese and as messages. */
  stops: { time: string; code: string; reason: string; reasonMsg: Msg }[];
  /** How often each risk rule blocked an "open" decision. */
  blocked: Record<string, number>;
  /** Wall time and speed, when a clock was given. */
  durationMs?: number;
  candlesPerSecond?: number;
}

interface LivePosition extends OpenPosition {
  trade: Omit<BacktestTrade, "exitTime" | "exitPrice" | "exitReason" | "pips" | "pnl" | "result" | "rMultiple">;
  units: Decimal;
}

function toMs(v: Date | string | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  const t = typeof v === "string" ? Date.parse(v) : v.getTime();
  if (!Number.isFinite(t)) throw new Error(`Data inválida: ${String(v)}`);
  return t;
}

/**
 * Runs the backtest. Throws Error (Portuguese) when there are no AI-timeframe candles, when a
 * date is invalid, or when the account currency needs a conversion rate that was not given.
 */
export function runBacktest(opts: BacktestOptions): BacktestResult {
  const { instrument, settings } = opts;
  const stepTf = AI_TIMEFRAMES.find((tf) => (opts.candlesByTf[tf]?.length ?? 0) > 0);
  if (!stepTf) throw new Error(`Sem candles M5/M15/M30/H1 para ${instrument}`);
  const spec = instrumentSpec(instrument);
  if (spec.quote !== opts.accountCurrency && spec.base !== opts.accountCurrency && !opts.quoteToAccountRate) {
    throw new Error(`Conta em ${opts.accountCurrency} precisa de quoteToAccountRate para ${instrument}`);
  }
  const tz = opts.timezone ?? DEFAULT_TIMEZONE;
  const pip = pipSize(instrument);
  const pipNum = pip.toNumber();
  const dp = spec.displayPrecision;
  const spreadPips = opts.spreadPips ?? Number(BASE_SPREAD_PIPS[instrument] ?? "2");
  const half = (spreadPips * pipNum) / 2;
  const from = toMs(opts.from, -Infinity);
  const to = toMs(opts.to, Infinity);
  const started = opts.clock?.();

  const engine = new DecisionEngine(featureConfig(settings));
  const bars = (opts.candlesByTf[stepTf] ?? []).filter((c) => c.complete);
  const stepMs = GRANULARITY_SECONDS[stepTf]! * 1000;
  const coarse = AI_TIMEFRAMES.filter((tf) => tf !== stepTf).map((tf) => ({
    tf,
    candles: (opts.candlesByTf[tf] ?? []).filter((c) => c.complete),
    ms: GRANULARITY_SECONDS[tf]! * 1000,
    i: 0,
  }));

  let balance = new Decimal(opts.initialBalance);
  let highWaterMark: string | null = null;
  let runStartedAt: Date | null = null;
  const counterTrades: CounterTrade[] = [];
  let lastDecisionId = "";
  let haltedUntil = -Infinity;
  let position: LivePosition | null = null;
  let processed = 0;
  let lastBar: Candle | undefined;
  const trades: BacktestTrade[] = [];
  const stops: BacktestResult["stops"] = [];
  const blocked: Record<string, number> = {};

  const close = (p: LivePosition, exitPrice: number, reason: ExitReason, at: number): void => {
    const exit = new Decimal(formatPrice(instrument, exitPrice));
    const entry = new Decimal(p.trade.entryPrice);
    const diff = exit.sub(entry);
    const rate = quoteToAccount(instrument, opts.accountCurrency, exit, opts.quoteToAccountRate)!;
    const pnl = new Decimal(formatMoney(diff.mul(p.units).mul(rate)));
    const pips = diff.div(pip).mul(p.side === "buy" ? 1 : -1).toDecimalPlaces(1).toNumber();
    const result = pnl.gt(0) ? "WIN" : pnl.lt(0) ? "LOSS" : "BE";
    const risk = new Decimal(p.trade.risk);
    trades.push({
      ...p.trade,
      exitTime: new Date(at).toISOString(),
      exitPrice: exit.toFixed(dp),
      exitReason: reason,
      pips,
      pnl: formatMoney(pnl),
      rMultiple: risk.gt(0) ? pnl.div(risk).toFixed(2) : null,
      result,
    });
    balance = balance.add(pnl);
    const ct = counterTrades[counterTrades.length - 1]!;
    ct.closeTime = new Date(at);
    ct.realizedPL = pnl.toString();
    position = null;
  };

  for (const bar of bars) {
    if (bar.time >= to) break;
    const barClose = bar.time + stepMs;
    // (1) exits on this bar
    const pos: LivePosition | null = position;
    if (pos && bar.time >= pos.openTime) {
      const exit = checkBar(pos, bar, half);
      if (exit) close(pos, exit.price, exit.reason, barClose);
      else if (pos.maxHoldSec !== undefined && barClose - pos.openTime >= pos.maxHoldSec * 1000) {
        close(pos, closeAtBarClose(pos, bar, half), "MAX_HOLD", barClose);
      } else if (marketCloseWindow(new Date(barClose), settings).flatten) {
        close(pos, closeAtBarClose(pos, bar, half), "WEEKEND_FLAT", barClose);
      }
    }
    // (2) feed the engine with everything closed by this bar's close
    engine.push(stepTf, bar);
    for (const c of coarse) {
      while (c.i < c.candles.length && c.candles[c.i]!.time + c.ms <= barClose) engine.push(c.tf, c.candles[c.i++]!);
    }
    if (bar.time < from) continue;
    processed++;
    lastBar = bar;
    if (position || barClose < haltedUntil) continue;
    // (3) decide, gate, fill
    const now = new Date(barClose);
    const bid = (bar.close - half).toFixed(dp);
    const ask = (bar.close + half).toFixed(dp);
    const input = {
      now,
      instrument,
      price: { bid, ask, tradeable: true },
      settings,
      account: { balance: balance.toString(), currency: opts.accountCurrency },
      ...(opts.quoteToAccountRate ? { quoteToAccountRate: opts.quoteToAccountRate } : {}),
    };
    const random = opts.entry;
    if (random && random.random() >= random.probability) continue;
    const decision = random ? engine.decideForced(input, random.random() < 0.5 ? "buy" : "sell") : engine.decide(input);
    if (decision.action !== "open") continue;
    if (decision.id === lastDecisionId) {
      // live: the decision id is the order's client id, so the same market state never opens twice
      blocked.duplicate_decision = (blocked.duplicate_decision ?? 0) + 1;
      continue;
    }
    // Flat here (one position at a time), so equity = balance.
    const counters = deriveRiskCounters({ trades: counterTrades, now, timezone: tz, balance: balance.toString(), highWaterMark, runStartedAt });
    highWaterMark = counters.highWaterMark;
    const verdict = evaluateRisk({
      now,
      settings,
      instrument,
      timezone: tz,
      licenceValid: true,
      brokerConnected: true,
      priceTradeable: true,
      spreadPips,
      openTrades: 0,
      openTradesOnInstrument: 0,
      tradesToday: counters.tradesToday,
      realizedPLToday: counters.realizedPLToday,
      unrealizedPL: "0",
      dayStartBalance: counters.dayStartBalance,
      balance: balance.toString(),
      peakBalance: counters.highWaterMark,
      consecutiveLosses: counters.consecutiveLosses,
      ...(counters.lastTradeAt ? { lastTradeAt: counters.lastTradeAt } : {}),
    });
    if (!verdict.allowed) {
      blocked[verdict.code] = (blocked[verdict.code] ?? 0) + 1;
      if (verdict.stopBot) {
        stops.push({ time: now.toISOString(), code: verdict.code, reason: verdict.reason, reasonMsg: verdict.reasonMsg });
        haltedUntil = nextTradingDayStart(now, tz).getTime();
        runStartedAt = new Date(haltedUntil); // the user restarts the bot the next trading day
      }
      continue;
    }
    const side = decision.side!;
    const rate = quoteToAccount(instrument, opts.accountCurrency, new Decimal(decision.entryPrice!), opts.quoteToAccountRate)!;
    const risk = new Decimal(decision.entryPrice!).sub(decision.stopLoss!).abs().mul(new Decimal(decision.units!).abs()).mul(rate);
    const p: LivePosition = {
      side,
      entry: Number(decision.entryPrice),
      stopLoss: Number(decision.stopLoss),
      takeProfit: Number(decision.takeProfit),
      openTime: barClose,
      units: new Decimal(decision.units!),
      trade: {
        id: decision.id,
        side,
        units: decision.units!,
        timeframe: decision.timeframe,
        confidence: decision.confidence,
        reason: decision.reason,
        reasonMsg: decision.reasonMsg,
        entryTime: now.toISOString(),
        entryPrice: decision.entryPrice!,
        stopLoss: decision.stopLoss!,
        takeProfit: decision.takeProfit!,
        risk: formatMoney(risk),
        ...(decision.trailingStopDistance ? { trailingStopDistance: decision.trailingStopDistance } : {}),
      },
    };
    if (decision.trailingStopDistance) p.trailDistance = Number(decision.trailingStopDistance);
    if (decision.maxHoldSec !== undefined) p.maxHoldSec = decision.maxHoldSec;
    position = p;
    counterTrades.push({ openTime: now });
    lastDecisionId = decision.id;
  }
  const firstBar = bars.find((b) => b.time >= from);
  const window = firstBar && lastBar ? { from: firstBar.time, to: lastBar.time + stepMs } : undefined;
  const open: LivePosition | null = position;
  if (open && lastBar) close(open, closeAtBarClose(open, lastBar, half), "END", lastBar.time + stepMs);

  const result: BacktestResult = {
    instrument,
    stepTimeframe: stepTf,
    candles: processed,
    trades,
    stats: computeTradeStats(
      trades.map((t) => ({ pnl: t.pnl, openTime: t.entryTime, closeTime: t.exitTime, pips: t.pips, risk: t.risk })),
      { initialBalance: new Decimal(opts.initialBalance).toString(), timezone: tz, ...(window ? { window } : {}) },
    ),
    spreadPips,
    stops,
    blocked,
  };
  if (opts.clock && started !== undefined) {
    const ms = opts.clock() - started;
    result.durationMs = Math.round(ms * 10) / 10;
    result.candlesPerSecond = ms > 0 ? Math.round((processed / ms) * 1000) : undefined;
  }
  return result;
}
