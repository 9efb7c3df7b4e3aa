/**
 * The trades of an account that feed the risk counters (core/trading/counters.ts), live: ONE SQL
 * query (db/queries/trades.ts `counterTradeRowsSql`, read standalone or inside the tick's context
 * statement) and the one rule of core/trading/counters.ts `selectCounterTrades` over its rows, shared
 * with the backtest.
 */
import { selectCounterTrades, type CounterTrade } from "../../../core/trading/counters";
import { db } from "../platform/db.server";
import { counterTradeRows } from "../../../db/queries/trades";

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
 * (reconciled just before), in one query (db/queries/trades.ts `counterTradeRows` from the trading day's start).
 */
export async function counterTrades(userId: string, accountId: string, dayStart: Date): Promise<CounterTrade[]> {
  const rows = await counterTradeRows(db(), userId, accountId, dayStart);
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
