/**
 * Trade events for the SSE streams (PRODUCT.md §7 Streaming: `order_fill`, `trade_close`; ADR 0017):
 * published with `pg_notify` inside the reconcile's transaction, next to the 'Trade aberto' /
 * 'Trade fechado' notices it writes, so they are delivered when (and only if) it commits. The
 * payload names the user and the broker trade only; every process's price hub hears it and sends it
 * to that user's `/api/stream/prices` connections.
 */
import type postgres from "postgres";
import type { NewNotification } from "./notifications.server";
import { HUB_CHANNEL } from "../platform/sse";

/** The trade events told by reconcile's notices: a close notice carries `result`, an open notice `units`. */
export function tradeEventsOf(notes: readonly NewNotification[]): { ev: "order_fill" | "trade_close"; t: string }[] {
  const out: { ev: "order_fill" | "trade_close"; t: string }[] = [];
  for (const n of notes) {
    const m = n.metadata ?? {};
    if (typeof m.tradeId !== "string") continue;
    if (m.result !== undefined) out.push({ ev: "trade_close", t: m.tradeId });
    else if (m.units !== undefined) out.push({ ev: "order_fill", t: m.tradeId });
  }
  return out;
}

/** NOTIFYs the trade events of `notes` for `userId` in the transaction `sql` (one statement, none when there are none). */
export async function publishTradeEvents(sql: postgres.TransactionSql, userId: string, notes: readonly NewNotification[]): Promise<void> {
  const events = tradeEventsOf(notes).map((e) => JSON.stringify({ k: "t", ev: e.ev, u: userId, t: e.t }));
  if (events.length === 0) return;
  await sql`select pg_notify(${HUB_CHANNEL}, p) from unnest(${sql.array(events)}::text[]) as p`;
}
