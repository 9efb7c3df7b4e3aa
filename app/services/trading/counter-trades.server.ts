/**
 * The trades of an account that feed the risk counters (core/trading/counters.ts), live: ONE SQL
 * query (`counterTradeRowsSql`, read standalone or inside the tick's context statement) and the one
 * rule of core/trading/counters.ts `selectCounterTrades` over its rows, shared with the backtest.
 */
import type postgres from "postgres";
import { selectCounterTrades, STREAK_WINDOW, type CounterTrade } from "../../../core/trading/counters";
import { db } from "../platform/db.server";

/** A trade row as the counter query reads it (realized P&L as decimal text). */
export interface CounterTradeRow {
  id: string;
  openTime: Date;
  closeTime: Date | null;
  realizedPL: string | null;
  status: string;
}

/** Trades read with the tick's context for the risk counters: those opened or closed since `since`, plus the newest closed and opened. */
export interface CounterPreRead {
  since: Date;
  rows: CounterTradeRow[];
}

/**
 * The counter trades' rows of an account since `since` as a parenthesized SQL subquery (columns id, open_time,
 * close_time, realized_pl as text, status): those opened or closed since `since`, the STREAK_WINDOW
 * newest closed and the newest opened — core/trading/counters.ts `selectCounterTrades` in SQL.
 * Each argument is a value or an SQL fragment (the context statement passes its own columns).
 */
export function counterTradeRowsSql(userId: postgres.ParameterOrFragment<never>, accountId: postgres.ParameterOrFragment<never>, since: postgres.ParameterOrFragment<never>) {
  const sql = db();
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

/** A trade row as the risk counters take it (close and P&L only once closed). */
const counterTrade = (r: CounterTradeRow): CounterTrade => ({
  openTime: r.openTime,
  closeTime: r.status === "closed" ? r.closeTime : null,
  realizedPL: r.status === "closed" ? r.realizedPL : null,
});

/** The counter trades among `rows` for a trading day starting at `dayStart` (core/trading/counters.ts `selectCounterTrades`). */
function selectFromRows(rows: readonly CounterTradeRow[], dayStart: Date): CounterTrade[] {
  const trades = rows.map(counterTrade);
  const byOpen = [...trades].sort((a, b) => a.openTime.getTime() - b.openTime.getTime());
  const byClose = trades.filter((t) => t.closeTime).sort((a, b) => a.closeTime!.getTime() - b.closeTime!.getTime());
  return selectCounterTrades(byOpen, byClose, dayStart);
}

/**
 * Trades of the account for the risk counters (core/trading/counters.ts), from our books
 * (reconciled just before), in one query (`counterTradeRowsSql` from the trading day's start).
 */
export async function counterTrades(userId: string, accountId: string, dayStart: Date): Promise<CounterTrade[]> {
  const rows = await db()<{ id: string; open_time: Date; close_time: Date | null; realized_pl: string | null; status: string }[]>`
    select * from ${counterTradeRowsSql(userId, accountId, dayStart)} t`;
  return selectFromRows(
    rows.map((r) => ({ id: String(r.id), openTime: r.open_time, closeTime: r.close_time, realizedPL: r.realized_pl, status: r.status })),
    dayStart,
  );
}

/**
 * The same trades as `counterTrades`, taken from the context's read (which holds every trade opened
 * or closed since `pre.since` ≤ dayStart, the newest closed and the newest opened): no statement.
 */
export function countersFromPreRead(pre: CounterPreRead, dayStart: Date): CounterTrade[] {
  return selectFromRows(pre.rows, dayStart);
}
