/**
 * One trade of the user with the decision that opened it and the candles around it (issue 12: trade detail,
 * "Por que a IA entrou?"). The trade is read from our reconciled books THROUGH ITS OWNER (user_id = the
 * session's user); an id of another user's trade is "not found", exactly like an id that does not exist.
 * Ids are the broker's trade ids (what the history list and the dashboard show); when the user has the same
 * broker id on two accounts (a reconnect), the connected account's trade wins, then the newest.
 *
 * The decision is the `decisions` row of the same user with the trade's `decision_id`, preferring the row
 * that executed (ticks on the same candle share a decision id). Candles come from the user's broker (one
 * call per detail view, never on the list pages) on the trade's AI timeframe, 40 bars before the entry and
 * 20 after the exit (open trades: up to now), coarser granularity when the trade spans more than 440 bars.
 *
 * Risk at entry (issue 21): |entry − stop loss| × |units| × quote→account rate (core/engine/sizing.ts
 * positionRisk) with the trade's fill price and units, the decision's stop loss (the one placed at entry;
 * a trailing stop moves the trade's own later) and the balance and rate the decision stored when it sized
 * the trade. Trades whose decision predates that (or has no row) show null: the page says "—".
 *
 * Filled distances (issue 22): beside the decision's planned stop/target distances (planned entry → planned
 * SL/TP), the trade carries the filled ones: |fill price − stop loss / take profit set on the trade| in pips,
 * from the trade's own SL/TP orders as our books hold them (reconcile.server.ts keeps `trades.stop_loss` /
 * `take_profit` at the trade's latest orders). A slipped fill makes them differ.
 */
import { Decimal } from "../../../core/decimal";
import { isMsg, msg, type Msg } from "../../../core/i18n/message";
import { positionRisk } from "../../../core/engine/sizing";
import { GRANULARITY_SECONDS, pipSize } from "../../../core/instruments";
import { pipsBetween, readDecision, type DecisionExplanation } from "../../../core/trading/explain";
import { translateMsg } from "~/i18n";
import { brokerNow, requireBroker } from "../broker/broker.server";
import { db } from "../platform/db.server";
import { NotFoundError } from "../platform/errors.server";
import type { TradeRow } from "./trades.server";
import { tradeDecision } from "../../../db/queries/decisions";
import { tradeByBrokerId } from "../../../db/queries/trades";

/** Bars shown before the entry and after the exit. */
export const BARS_BEFORE = 40;
export const BARS_AFTER = 20;
/** Most bars fetched for one chart (OANDA allows 5000; 500 keeps the page light). */
const MAX_BARS = 500;
/** Granularities tried from the AI timeframe upwards when the trade is too long for MAX_BARS. */
const LADDER = ["M1", "M5", "M15", "M30", "H1", "H4", "D"];

/** 'Trade não encontrado.' (404): unknown id, malformed id or another user's trade. */
export const TRADE_NOT_FOUND: Msg = msg("trade:errors.notFound");

/** A trade as the detail shows it: prices and money as decimal strings, times ISO (UTC). */
export interface TradeDetailView {
  id: string;
  accountId: string;
  instrument: string;
  side: "buy" | "sell";
  units: string;
  lots: string;
  entryPrice: string;
  exitPrice: string | null;
  stopLoss: string | null;
  takeProfit: string | null;
  /** Distance in pips (one decimal) from the fill price to the stop loss set on the trade; null without one (issue 22). */
  filledStopPips: string | null;
  /** Distance in pips (one decimal) from the fill price to the take profit set on the trade; null without one (issue 22). */
  filledTargetPips: string | null;
  /** Signed pips in the trade's favour (exit − entry for a buy), one decimal; null while open. */
  pips: string | null;
  realizedPL: string | null;
  financing: string | null;
  status: "open" | "closed";
  result: "WIN" | "LOSS" | "BE" | null;
  closeReason: string | null;
  openTime: string;
  closeTime: string | null;
  aiTimeframe: string | null;
  aiConfidence: number | null;
  aiReason: Msg | string | null;
  tradingStyle: string | null;
  /** Who opened it (issue 22, migration 0022): the AI, or the user ('manual'). */
  origin: "ai" | "manual";
  decisionId: string | null;
  /** Risk at entry (see the module doc); every figure null when the balance at entry is not stored. */
  riskAtEntry: RiskAtEntry;
}

/** What the trade risked on its stop when it opened: account currency and % of the balance it was sized on. */
export interface RiskAtEntry {
  /** Account currency, 2 decimals. */
  amount: string | null;
  /** % of `balance`, 2 decimals. */
  pct: string | null;
  currency: string | null;
  /** Balance at entry (account currency). */
  balance: string | null;
  /** The leverage cap (× balance) the size was computed with, and whether it (or the margin) cut the 1 % size. */
  maxLeverage: number | null;
  capped: boolean;
}

const NO_RISK: RiskAtEntry = { amount: null, pct: null, currency: null, balance: null, maxLeverage: null, capped: false };

/** The trade's risk at entry from its decision's stored sizing (null figures when there is none). */
function riskAtEntry(r: TradeRow, decision: DecisionExplanation | null): RiskAtEntry {
  const on = decision?.sizedOn;
  const stop = decision?.stopLoss ?? r.stop_loss;
  if (!on || !stop) return NO_RISK;
  const risk = positionRisk({ units: r.units, stopDistance: new Decimal(r.open_price).minus(stop), rate: on.rate, balance: on.balance });
  return { amount: risk.amount, pct: risk.pct, currency: on.currency, balance: on.balance, maxLeverage: on.maxLeverage, capped: on.capped };
}

/** The trade and its decision (null: opened outside the AI, or the decision row is gone). */
export interface TradeDetail {
  trade: TradeDetailView;
  decision: DecisionExplanation | null;
}

/** Signed pips of a closed trade in its favour. */
function signedPips(r: TradeRow): string | null {
  if (!r.close_price) return null;
  const move = new Decimal(r.close_price).minus(r.open_price);
  return (r.side === "buy" ? move : move.neg()).div(pipSize(r.instrument)).toDecimalPlaces(1).toFixed(1);
}

function view(r: TradeRow): TradeDetailView {
  const confidence = r.ai_confidence === null ? null : Number(r.ai_confidence);
  return {
    id: r.broker_trade_id,
    accountId: r.account_id,
    instrument: r.instrument,
    side: r.side,
    units: new Decimal(r.units).abs().toString(),
    lots: new Decimal(r.units).abs().div(100_000).toDecimalPlaces(2).toFixed(2),
    origin: r.origin ?? "ai",
    entryPrice: r.open_price,
    exitPrice: r.close_price,
    stopLoss: r.stop_loss,
    takeProfit: r.take_profit,
    filledStopPips: pipsBetween(r.instrument, r.open_price, r.stop_loss),
    filledTargetPips: pipsBetween(r.instrument, r.open_price, r.take_profit),
    pips: signedPips(r),
    realizedPL: r.realized_pl,
    financing: r.financing,
    status: r.status,
    result: r.result,
    closeReason: r.close_reason,
    openTime: r.open_time.toISOString(),
    closeTime: r.close_time?.toISOString() ?? null,
    aiTimeframe: r.ai_timeframe,
    aiConfidence: confidence !== null && Number.isFinite(confidence) ? confidence : null,
    aiReason: isMsg(r.ai_reason_msg) ? r.ai_reason_msg : r.ai_reason,
    tradingStyle: r.trading_style,
    decisionId: r.decision_id,
    riskAtEntry: NO_RISK,
  };
}

/**
 * The user's trade `id` (broker trade id) with its decision.
 * @throws NotFoundError 'Trade não encontrado.' for a malformed id, an unknown one or another user's trade
 */
export async function tradeDetail(userId: string, id: string): Promise<TradeDetail> {
  if (!/^[\w-]{1,64}$/.test(id)) throw new NotFoundError(TRADE_NOT_FOUND);
  const sql = db();
  const row = await tradeByBrokerId(sql, userId, id);
  if (!row) throw new NotFoundError(TRADE_NOT_FOUND);
  const trade = view(row);
  let decision: DecisionExplanation | null = null;
  if (row.decision_id) {
    const d = await tradeDecision(sql, userId, row.decision_id);
    if (d) {
      decision = readDecision(d);
      // Rows stored before the entry price was kept: measure from the trade's own fill and orders.
      decision.stopPips ??= pipsBetween(row.instrument, row.open_price, decision.stopLoss ?? row.stop_loss);
      decision.targetPips ??= pipsBetween(row.instrument, row.open_price, decision.takeProfit ?? row.take_profit);
    }
  }
  trade.riskAtEntry = riskAtEntry(row, decision);
  return { trade, decision };
}

/** Candles for the chart: UTC seconds and float mid prices (plotting only), the granularity used. */
export interface TradeCandles {
  granularity: string;
  candles: { time: number; open: number; high: number; low: number; close: number }[];
}

/** The granularity to draw a trade with: its AI timeframe, coarser when the trade needs more than MAX_BARS bars. */
export function chartGranularity(timeframe: string | null, spanSeconds: number): string {
  const at = timeframe ? LADDER.indexOf(timeframe) : -1;
  const from = at === -1 ? LADDER.indexOf("M15") : at;
  for (let i = from; i < LADDER.length; i++) {
    const g = LADDER[i]!;
    if (BARS_BEFORE + Math.ceil(spanSeconds / GRANULARITY_SECONDS[g]!) + BARS_AFTER <= MAX_BARS) return g;
  }
  return "D";
}

/**
 * The candles around a trade from the user's broker, or null when they cannot be read (no connection,
 * broker error, no data for that period); the page then shows its text fallback.
 */
export async function tradeCandles(userId: string, trade: TradeDetailView): Promise<TradeCandles | null> {
  try {
    const { conn, client } = await requireBroker(userId);
    const open = Date.parse(trade.openTime);
    const end = trade.closeTime ? Date.parse(trade.closeTime) : brokerNow(conn);
    const granularity = chartGranularity(trade.aiTimeframe, Math.max(0, (end - open) / 1000));
    const step = GRANULARITY_SECONDS[granularity]! * 1000;
    const from = Math.floor(open / step) * step - BARS_BEFORE * step;
    const count = Math.min(MAX_BARS, BARS_BEFORE + Math.ceil((end - open) / step) + BARS_AFTER + 1);
    const list = await client.getCandles(trade.instrument, { granularity, from: new Date(from).toISOString(), count, price: "M" });
    const candles = list.map((c) => ({ time: Math.floor(c.time / 1000), open: c.open, high: c.high, low: c.low, close: c.close }));
    return candles.length ? { granularity, candles } : null;
  } catch {
    return null;
  }
}

/** A message or stored text in `language` (null stays null). */
const text = (m: Msg | string | null, language: unknown) => (m === null ? null : translateMsg(m, language));

/**
 * The JSON of GET /api/trades/:id: the trade, and the decision with every message rendered in `language`
 * (the message objects are kept alongside as `*Msg` for clients that render themselves).
 */
export function tradeDetailJson(d: TradeDetail, language: unknown) {
  const { trade, decision } = d;
  return {
    trade: { ...trade, aiReason: text(trade.aiReason, language), aiReasonMsg: isMsg(trade.aiReason) ? trade.aiReason : null },
    decision: decision && {
      ...decision,
      reason: text(decision.reason, language),
      reasonMsg: isMsg(decision.reason) ? decision.reason : null,
      regime: {
        volatility: decision.regime.volatility,
        trend: decision.regime.trend,
        label: decision.regime.volatility && decision.regime.trend ? translateMsg(msg(`trade:regime.${decision.regime.volatility}`), language) + " · " + translateMsg(msg(`trade:regime.${decision.regime.trend}`), language) : null,
        reason: text(decision.regime.reason, language),
        reasonMsg: isMsg(decision.regime.reason) ? decision.regime.reason : null,
      },
      risk: { ...decision.risk, reason: text(decision.risk.reason, language), reasonMsg: isMsg(decision.risk.reason) ? decision.risk.reason : null },
    },
    decisionMissing: decision === null ? translateMsg(msg(trade.decisionId ? "trade:why.decisionGone" : "trade:why.noDecision"), language) : null,
  };
}
