/**
 * The `trades` table (migrations 0001, 0004, 0022): our reconciled books of each broker account, one row
 * per broker trade (`broker_trade_id`, unique per user and account), written only by the reconcile. Its
 * statements live here (issue 23 item 2); the manual order's intent read joins it in order-intents.ts.
 * Prices, units and money are numeric (decimal text; units unsigned, the side says the direction), the id
 * a bigserial (text), times timestamptz. Every read goes through the owner (`user_id`).
 */
import type postgres from "postgres";
import type { Msg } from "../../core/i18n/message";
import { STREAK_WINDOW } from "../../core/trading/counters";
import type { Sql } from "./sql";

/**
 * A row of the `trades` table as postgres.js returns it for `select *`: numerics as decimal strings, the
 * bigserial id as a string, timestamps as Dates. The one row type of every service that reads trades.
 */
export interface TradeRow {
  id: string;
  user_id: string;
  account_id: string;
  environment: string;
  broker_trade_id: string;
  client_order_id: string | null;
  decision_id: string | null;
  instrument: string;
  side: "buy" | "sell";
  units: string;
  open_price: string;
  close_price: string | null;
  stop_loss: string | null;
  take_profit: string | null;
  realized_pl: string | null;
  financing: string | null;
  status: "open" | "closed";
  result: "WIN" | "LOSS" | "BE" | null;
  close_reason: string | null;
  open_time: Date;
  close_time: Date | null;
  ai_timeframe: string | null;
  ai_confidence: string | null;
  ai_reason: string | null;
  /** The same reason as a translatable message (ADR 0007), when the decision stored one (jsonb: check with isMsg). */
  ai_reason_msg: Msg | null;
  strategy: string | null;
  trading_style: string | null;
  /** Who opened the trade (migration 0022): the AI's tick, or the user (a manual order, or outside the app). */
  origin: "ai" | "manual";
  created_at: Date;
}

/** A value, or an SQL fragment naming a column of the enclosing statement. */
type ValueOrFragment = postgres.ParameterOrFragment<never>;

/**
 * The risk counters' trades of an account since `since` as a parenthesized SQL subquery (columns id,
 * open_time, close_time, realized_pl as text, status): those opened or closed since `since`, the
 * STREAK_WINDOW newest closed and the newest opened — core/trading/counters.ts `selectCounterTrades` in
 * SQL. Each argument is a value or an SQL fragment (the tick context's statement passes its own columns).
 */
export function counterTradeRowsSql(sql: Sql, userId: ValueOrFragment, accountId: ValueOrFragment, since: ValueOrFragment) {
  const window = sql.unsafe(String(STREAK_WINDOW));
  return sql`((select id, open_time, close_time, realized_pl::text as realized_pl, status from trades
      where user_id = ${userId} and account_id = ${accountId} and (open_time >= ${since} or close_time >= ${since}))
    union
    (select id, open_time, close_time, realized_pl::text as realized_pl, status from trades
      where user_id = ${userId} and account_id = ${accountId} and status = 'closed' order by close_time desc limit ${window})
    union
    (select id, open_time, close_time, realized_pl::text as realized_pl, status from trades
      where user_id = ${userId} and account_id = ${accountId} order by open_time desc limit 1))`;
}

/** A row of `counterTradeRowsSql` (realized P&L as decimal text). */
export interface CounterTradeSqlRow {
  id: string;
  open_time: Date;
  close_time: Date | null;
  realized_pl: string | null;
  status: string;
}

/** The risk counters' trades of an account since `dayStart` (`counterTradeRowsSql` on its own). */
export async function counterTradeRows(sql: Sql, userId: string, accountId: string, dayStart: Date): Promise<CounterTradeSqlRow[]> {
  return sql<CounterTradeSqlRow[]>`
    select * from ${counterTradeRowsSql(sql, userId, accountId, dayStart)} t`;
}

/** The newest `limit` closed trades of the user's connected account: P&L (decimal text) and times. */
export async function closedTradesOfConnection(sql: Sql, userId: string, limit: number) {
  return sql<{ realized_pl: string | null; open_time: Date; close_time: Date }[]>`
    select t.realized_pl, t.open_time, t.close_time from trades t
    join broker_connections c on c.user_id = t.user_id and c.account_id = t.account_id
    where t.user_id = ${userId} and t.status = 'closed' and t.close_time is not null
    order by t.close_time desc limit ${limit}`;
}

/** Closed trades with a P&L of an account closed in (`since`, `until`], newest first, at most `limit` (a drawdown stop's record). */
export async function closedTradesBetween(sql: Sql, userId: string, accountId: string, since: Date, until: Date, limit: number) {
  return sql<{ broker_trade_id: string; instrument: string; close_time: Date; realized_pl: string }[]>`
    select broker_trade_id, instrument, close_time, realized_pl::text as realized_pl from trades
    where user_id = ${userId} and account_id = ${accountId} and status = 'closed' and realized_pl is not null
      and close_time > ${since} and close_time <= ${until}
    order by close_time desc limit ${limit}`;
}

/** The account's open trades in our books. */
export async function openTradeRows(sql: Sql, userId: string, accountId: string): Promise<TradeRow[]> {
  return sql<TradeRow[]>`select * from trades where user_id = ${userId} and account_id = ${accountId} and status = 'open'`;
}

/** The account's trades closed since `since`, newest first (at most 1000). */
export async function closedTradesSince(sql: Sql, userId: string, accountId: string, since: Date): Promise<TradeRow[]> {
  return sql<TradeRow[]>`select * from trades where user_id = ${userId} and account_id = ${accountId}
    and status = 'closed' and close_time >= ${since} order by close_time desc limit 1000`;
}

/** The user's trade with broker id `brokerTradeId`: the connected account's first, then the newest (undefined: none). */
export async function tradeByBrokerId(sql: Sql, userId: string, brokerTradeId: string): Promise<TradeRow | undefined> {
  const [row] = await sql<TradeRow[]>`
    select t.* from trades t left join broker_connections c on c.user_id = t.user_id
    where t.user_id = ${userId} and t.broker_trade_id = ${brokerTradeId}
    order by (t.account_id = c.account_id) desc nulls last, t.id desc limit 1`;
  return row;
}

/** Broker ids of the account's trades open in our books (the reconcile's sweep). */
export async function openBrokerTradeIds(sql: Sql, userId: string, accountId: string): Promise<string[]> {
  const rows = await sql<{ broker_trade_id: string }[]>`select broker_trade_id from trades
          where user_id = ${userId} and account_id = ${accountId} and status = 'open'`;
  return rows.map((r) => r.broker_trade_id);
}

/** Sets a trade's take profit or stop loss price (a TAKE_PROFIT_ORDER / STOP_LOSS_ORDER transaction). */
export async function setTradeExitLevel(sql: Sql, userId: string, accountId: string, brokerTradeId: string, level: "take_profit" | "stop_loss", price: string): Promise<void> {
  const column = level === "take_profit" ? sql`take_profit` : sql`stop_loss`;
  await sql`update trades set ${column} = ${price} where user_id = ${userId} and account_id = ${accountId} and broker_trade_id = ${brokerTradeId}`;
}

/** A trade the reconcile records as opened (`insertOpenedTrade`): decimals as text, `openTime` the fill's ISO time. */
export interface OpenedTrade {
  accountId: string;
  environment: string;
  brokerTradeId: string;
  clientOrderId: string | null;
  decisionId: string | null;
  instrument: string;
  side: "buy" | "sell";
  units: string;
  openPrice: string;
  openTime: string;
  aiTimeframe: string | null;
  aiConfidence: string | null;
  aiReason: string | null;
  aiReasonMsg: Msg | null;
  strategy: string;
  tradingStyle: string | null;
  origin: "ai" | "manual";
}

/** Inserts an opened trade unless the account already holds that broker trade id. Returns whether it was inserted. */
export async function insertOpenedTrade(sql: Sql, userId: string, t: OpenedTrade): Promise<boolean> {
  const inserted = await sql`insert into trades (user_id, account_id, environment, broker_trade_id, client_order_id, decision_id,
      instrument, side, units, open_price, open_time, ai_timeframe, ai_confidence, ai_reason, ai_reason_msg, strategy, trading_style, origin)
    values (${userId}, ${t.accountId}, ${t.environment}, ${t.brokerTradeId}, ${t.clientOrderId}, ${t.decisionId},
      ${t.instrument}, ${t.side}, ${t.units}, ${t.openPrice}, ${t.openTime},
      ${t.aiTimeframe}, ${t.aiConfidence}, ${t.aiReason},
      ${t.aiReasonMsg ? sql.json(t.aiReasonMsg as never) : null},
      ${t.strategy}, ${t.tradingStyle}, ${t.origin})
    on conflict (user_id, account_id, broker_trade_id) do nothing returning id`;
  return inserted.length > 0;
}

/** What a close needs of a trade in our books (undefined: not ours). */
export async function tradeForClose(sql: Sql, userId: string, accountId: string, brokerTradeId: string) {
  const [row] = await sql<{ instrument: string; side: string; realized_pl: string | null; status: string }[]>`
    select instrument, side, realized_pl, status from trades
    where user_id = ${userId} and account_id = ${accountId} and broker_trade_id = ${brokerTradeId}`;
  return row;
}

/** An open trade takes the broker's current units and realized P&L when they differ (the sweep; a zero P&L is stored as null). */
export async function syncOpenTrade(sql: Sql, userId: string, accountId: string, brokerTradeId: string, units: string, realizedPL: string): Promise<void> {
  await sql`update trades set units = ${units}, realized_pl = nullif(${realizedPL}::numeric, 0)
        where user_id = ${userId} and account_id = ${accountId} and broker_trade_id = ${brokerTradeId} and status = 'open'
          and (units <> ${units}::numeric or coalesce(realized_pl, 0) <> ${realizedPL}::numeric)`;
}

/** Closes a trade still open in our books with the broker's figures (the sweep). Returns its instrument and side, undefined when it was not open. */
export async function closeSweptTrade(
  sql: Sql,
  userId: string,
  accountId: string,
  brokerTradeId: string,
  close: { price: string | null; time: string; realizedPL: string; result: string; reason: string | null },
): Promise<{ instrument: string; side: string } | undefined> {
  const [row] = await sql<{ instrument: string; side: string }[]>`
      update trades set status = 'closed', close_price = ${close.price}, close_time = ${close.time},
        realized_pl = ${close.realizedPL}, result = ${close.result}, close_reason = ${close.reason}
      where user_id = ${userId} and account_id = ${accountId} and broker_trade_id = ${brokerTradeId} and status = 'open'
      returning instrument, side`;
  return row;
}

/** A partial close with the broker's record of the trade: its realized P&L and current units (decimal text). */
export async function setReducedTrade(sql: Sql, userId: string, accountId: string, brokerTradeId: string, realizedPL: string, units: string): Promise<void> {
  await sql`update trades set realized_pl = ${realizedPL}, units = ${units}
        where user_id = ${userId} and account_id = ${accountId} and broker_trade_id = ${brokerTradeId}`;
}

/** A partial close from the fill alone: the new realized P&L, and `unitsClosed` taken off the units (decimal text). */
export async function reduceTrade(sql: Sql, userId: string, accountId: string, brokerTradeId: string, realizedPL: string, unitsClosed: string): Promise<void> {
  await sql`update trades set realized_pl = ${realizedPL},
          units = units - ${unitsClosed}
        where user_id = ${userId} and account_id = ${accountId} and broker_trade_id = ${brokerTradeId}`;
}

/** Closes a trade with its closing fill: price, time, total realized P&L, units held at the close, financing, result, reason. */
export async function closeTradeRow(
  sql: Sql,
  userId: string,
  accountId: string,
  brokerTradeId: string,
  close: { price: string | null; time: string; realizedPL: string; units: string; financing: string | null; result: string; reason: string | null },
): Promise<void> {
  await sql`update trades set status = 'closed', close_price = ${close.price}, close_time = ${close.time}, realized_pl = ${close.realizedPL},
      units = ${close.units}, financing = ${close.financing}, result = ${close.result}, close_reason = ${close.reason}
    where user_id = ${userId} and account_id = ${accountId} and broker_trade_id = ${brokerTradeId}`;
}

/** Open trades of the whole database, every user (the backup/restore summary, server/backup.ts). */
export async function countOpenTrades(sql: Sql): Promise<number> {
  const [row] = await sql<{ n: number }[]>`select count(*)::int as n from trades where status = 'open'`;
  return row!.n;
}

/** The user's open and closed trade counts and the closed ones' realized P/L sum (decimal text; null: none closed), for the admin support view. */
export async function tradeSummary(sql: Sql, userId: string): Promise<{ open: number; closed: number; realized: string | null } | undefined> {
  const [row] = await sql<{ open: number; closed: number; realized: string | null }[]>`
      select (count(*) filter (where status = 'open'))::int as open, (count(*) filter (where status = 'closed'))::int as closed,
        sum(realized_pl) filter (where status = 'closed')::text as realized
      from trades where user_id = ${userId}`;
  return row;
}

/** How many trades the user has, and how many of them are open (the admin deletion's outcome, in its transaction). */
export async function tradeCounts(sql: Sql, userId: string): Promise<{ total: number; open: number }> {
  const [row] = await sql<{ total: number; open: number }[]>`
        select count(*)::int as total, (count(*) filter (where status = 'open'))::int as open from trades where user_id = ${userId}`;
  return row!;
}

/** The distinct instruments of the user's open trades, sorted (the open-trades stream's snapshot). */
export async function openTradeInstruments(sql: Sql, userId: string): Promise<string[]> {
  const rows = await sql<{ instrument: string }[]>`select distinct instrument from trades where user_id = ${userId} and status = 'open' order by instrument`;
  return rows.map((r) => r.instrument);
}
