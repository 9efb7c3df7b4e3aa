/**
 * Trades as the API returns them (PRODUCT.md §3 Trade): open trades live from the broker, enriched
 * with the AI's reasons from our records; closed-trade history from our reconciled records; the
 * manual close of one trade. Everything is read through the user's own connection.
 */
import type { ClientPrice, Trade } from "../../../core/broker/port";
import { Decimal } from "../../../core/decimal";
import { isMsg, msg } from "../../../core/i18n/message";
import { BrokerError } from "../../../core/oanda/errors";
import { translateMsg } from "~/i18n";
import type { BrokerConnectionRow } from "../broker/broker-connection";
import { brokerFailure, brokerNow, requireBroker } from "../broker/broker.server";
import { crashPoint } from "../platform/crash-point.server";
import { db } from "../platform/db.server";
import { connectionClock } from "../../../db/queries/broker-connections";
import { reconcile } from "./reconcile.server";
import { DomainError, NotFoundError, ValidationError } from "../platform/errors.server";
import { closedTradesSince, openTradeRows, type TradeRow } from "../../../db/queries/trades";

// A row of the `trades` table, the one row type of every service that reads trades: db/queries/trades.ts.
export type { TradeRow } from "../../../db/queries/trades";

function aiFields(r: Pick<TradeRow, "ai_timeframe" | "ai_confidence" | "ai_reason" | "ai_reason_msg" | "strategy" | "trading_style" | "origin"> | undefined) {
  return {
    origin: r?.origin ?? null,
    aiTimeframe: r?.ai_timeframe ?? null,
    aiSelectedTimeframe: r?.ai_timeframe ?? null,
    aiConfidence: r?.ai_confidence === null || r?.ai_confidence === undefined ? null : Number(r.ai_confidence),
    aiReason: r?.ai_reason ?? null,
    aiReasonMsg: isMsg(r?.ai_reason_msg) ? r.ai_reason_msg : null,
    strategy: r?.strategy ?? null,
    meta: { timeframe: r?.ai_timeframe ?? null, strategy: r?.strategy ?? null, tradingStyle: r?.trading_style ?? null },
  };
}

/** Open trades of the connected account, with current price and unrealized P&L, read from the broker now. */
export async function openTrades(userId: string) {
  const { conn, client } = await requireBroker(userId);
  try {
    const trades = await client.listOpenTrades(conn.account_id);
    const instruments = [...new Set(trades.map((t) => t.instrument))];
    const prices = instruments.length ? await client.getPricing(conn.account_id, instruments) : [];
    return await openTradeViews(userId, conn.account_id, trades, prices);
  } catch (err) {
    throw brokerFailure(err);
  }
}

/**
 * Broker open trades as the API and the screens show them (PRODUCT.md §3 Trade): `currentPrice` the
 * price that would close each (bid for a buy, ask for a sell) from `prices`, `unrealizedPL` the
 * trade's own (a decimal string), with the AI's reasons from our records of the account (one
 * statement, none without trades).
 */
export async function openTradeViews(userId: string, accountId: string, trades: readonly Trade[], prices: readonly ClientPrice[]) {
  const rows = trades.length
    ? await openTradeRows(db(), userId, accountId)
    : [];
  return trades.map((t) => {
    const side = new Decimal(t.currentUnits).gte(0) ? "buy" : "sell";
    const p = prices.find((x) => x.instrument === t.instrument);
    const row = rows.find((r) => r.broker_trade_id === t.id);
    return {
      id: t.id,
      tradeId: t.id,
      accountId,
      oandaAccountId: accountId,
      instrument: t.instrument,
      side,
      units: new Decimal(t.currentUnits).abs().toString(),
      openPrice: t.price,
      entryPrice: t.price,
      currentPrice: p ? (side === "buy" ? p.bid : p.ask) : null,
      stopLoss: t.stopLossOrder?.price ?? row?.stop_loss ?? null,
      takeProfit: t.takeProfitOrder?.price ?? row?.take_profit ?? null,
      trailingStopDistance: t.trailingStopLossOrder?.distance ?? null,
      unrealizedPL: t.unrealizedPL ?? "0",
      openTime: t.openTime,
      status: "open" as const,
      state: "OPEN" as const,
      ...aiFields(row),
    };
  });
}

/**
 * Closed trades of the last `days` days (PRODUCT.md §9: 30 by default), newest first, for the
 * connected account. Days are counted on the broker's clock (`brokerNow`: the simulator replays history).
 * `known.conn`: the connection the caller already read (saves a statement).
 */
export async function tradeHistory(userId: string, days = 30, known?: { conn: Pick<BrokerConnectionRow, "account_id" | "market_clock_offset_ms"> | undefined }) {
  const sql = db();
  const [conn] = known
    ? [known.conn]
    : [await connectionClock(sql, userId)];
  if (!conn) return [];
  const since = new Date(brokerNow(conn) - days * 86_400_000);
  const rows = await closedTradesSince(sql, userId, conn.account_id, since);
  return rows.map((r) => ({
    id: r.broker_trade_id,
    tradeId: r.broker_trade_id,
    accountId: r.account_id,
    oandaAccountId: r.account_id,
    instrument: r.instrument,
    side: r.side,
    units: r.units,
    openPrice: r.open_price,
    entryPrice: r.open_price,
    closePrice: r.close_price,
    exitPrice: r.close_price,
    stopLoss: r.stop_loss,
    takeProfit: r.take_profit,
    pnl: r.realized_pl ?? "0",
    realizedPL: r.realized_pl ?? "0",
    result: r.result,
    closeReason: r.close_reason,
    openTime: r.open_time.toISOString(),
    closeTime: r.close_time?.toISOString() ?? null,
    status: "closed" as const,
    state: "CLOSED" as const,
    ...aiFields(r),
  }));
}

/**
 * Closes (all or part of) one open trade of the user's connected account; the success message is in
 * `language` (Portuguese by default).
 * @throws NotFoundError when the trade is not an open trade of that account; ValidationError when the
 *   market is closed or the broker refuses.
 */
export async function closeTrade(userId: string, tradeId: string, units: string, language: unknown = "pt") {
  const { conn, client } = await requireBroker(userId);
  if (!/^\d+$/.test(tradeId)) throw new ValidationError(msg("api:trades.invalidId"));
  try {
    const open = await client.listOpenTrades(conn.account_id);
    if (!open.some((t) => t.id === tradeId)) throw new NotFoundError(msg("api:trades.notFound"));
    crashPoint("before-close");
    const result = await client.closeTrade(conn.account_id, tradeId, units);
    crashPoint("after-close"); // the broker answered; our books not updated yet
    if (!result.filled)
      throw new ValidationError(
        result.cancelReason === "MARKET_HALTED"
          ? msg("api:trades.marketHalted")
          : msg("api:trades.closeCancelled", { reason: result.cancelReason ?? msg("api:trades.unknownReason") }),
      );
    await reconcile(userId, conn, client);
    return { success: true, message: translateMsg(msg("api:trades.closed"), language) };
  } catch (err) {
    if (err instanceof DomainError) throw err;
    if (err instanceof BrokerError) throw brokerFailure(err);
    throw err;
  }
}
