/**
 * The closed trades behind the dashboard's balance curve (issue 12): P&L and times of the connected account's
 * closed trades, read through the owner (user_id) from our reconciled books; no broker call (the curve is
 * anchored on the balance the dashboard already read). At most the newest EQUITY_TRADES trades.
 */
import { db } from "../platform/db.server";
import { closedTradesOfConnection } from "../../../db/queries/trades";
import type { EquityTrade } from "~/lib/equity-curve";

/** Most trades drawn on the curve (the newest ones). */
export const EQUITY_TRADES = 2000;

/** Closed trades of the user's connected account, oldest first: P&L (decimal string) and ISO times. */
export async function equityTrades(userId: string): Promise<EquityTrade[]> {
  const rows = await closedTradesOfConnection(db(), userId, EQUITY_TRADES);
  return rows.reverse().map((r) => ({ pnl: r.realized_pl ?? "0", openTime: r.open_time.toISOString(), closeTime: r.close_time.toISOString() }));
}
