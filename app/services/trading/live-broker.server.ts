/**
 * The live broker port of a tick (core/trading/tick.ts TickBroker) over the user's broker client
 * (OANDA or the simulator over HTTP): the account from its stored state valued at shared quotes
 * (ADR 0025), exits and order placement (the order intent first, order-send.server.ts).
 */
import { createHash } from "node:crypto";
import { ownFill } from "../../../core/broker/own-fill";
import type { BrokerPort, ClientPrice } from "../../../core/broker/port";
import type { Decision } from "../../../core/engine/decide";
import { marketOrderFor } from "../../../core/trading/orders";
import type { TickBroker } from "../../../core/trading/tick";
import type { tickAccount } from "../broker/account-state.server";
import { brokerNow, recordMarketTime, type BrokerConnectionRow } from "../broker/broker.server";
import { crashPoint } from "../platform/crash-point.server";
import { logger } from "../platform/logger.server";
import { noteOrderExpected } from "../platform/metrics.server";
import type { Books } from "./live-store.server";
import { sendMarketOrder, type SendOutcome } from "./order-send.server";
import type { LiveTick } from "./live-tick";

/**
 * The executor's broker port over the user's broker client (core/trading/tick.ts TickBroker). A
 * filled order whose response accounts for every transaction since the books' cursor (or since the
 * previous order of the tick) is kept in `books.ownFills`, booked once the orders left (issue 24,
 * ADR 0042: live-store.server.ts `syncAfterOrders`); otherwise `books.unbookedFills` makes that
 * step read the transactions as before.
 */
export function liveBroker(
  { userId, conn, client }: Pick<LiveTick, "userId" | "conn" | "client">,
  via: { quotes: (instruments: string[]) => Promise<ClientPrice[]>; account: ReturnType<typeof tickAccount>; instruments: () => Promise<readonly string[]>; books: Books },
): TickBroker {
  return {
    // Summary and open trades: the stored state valued at current quotes while no transaction happened (ADR 0025).
    accountSummary: async () => (await via.account.snapshot()).summary,
    openTrades: async () => (await via.account.snapshot()).trades,
    prices: async (instruments) => {
      const prices = await via.quotes(instruments);
      // The broker clock's offset is stored when it moves (the simulator replays history; ≈0 on OANDA).
      const market = prices.reduce((t, p) => Math.max(t, Date.parse(p.time)), 0);
      if (market > 0 && Math.abs(market - brokerNow(conn)) > 1000) await recordMarketTime(userId, market);
      return prices;
    },
    instruments: via.instruments,
    closeTrade: async (trade, reason) => {
      crashPoint("before-exit-close");
      const r = await client.closeTrade(conn.account_id, trade.id);
      crashPoint("after-exit-close");
      if (!r.filled) logger().warn({ userId, tradeId: trade.id, reason, cancelReason: r.cancelReason }, "fechamento não executado");
      return r.filled;
    },
    placeOrder: async (decision) => {
      const books = via.books;
      // The id this order's batch must follow to be the whole story: the cursor, or the previous order's last id.
      const after = books.ownFills?.length ? books.ownFills.at(-1)!.lastTransactionID : conn.last_transaction_id;
      const sent = await placeOrder(userId, conn, client, decision);
      if (sent.outcome.status !== "filled") return false;
      const fill = books.unbookedFills ? undefined : ownFill(after, sent.order, sent.outcome.result);
      // Booked after the tick's orders left (live-store.server.ts syncAfterOrders), so a second order is not kept waiting.
      if (fill) (books.ownFills ??= []).push(fill);
      else books.unbookedFills = true;
      return true;
    },
  };
}

/** The order's client id: derived from the user and the decision id, so a repeated tick can never open a second trade. */
export function clientOrderId(userId: string, decisionId: string): string {
  return `ia-${createHash("sha256").update(`${userId}:${decisionId}`).digest("hex").slice(0, 24)}`;
}

/**
 * Sends the market order of an "open" decision with SL/TP (and trailing stop) attached on fill.
 * The order intent row is written first (order-send.server.ts, shared with the manual orders); if it
 * already exists this decision was already acted on (maybe by a tick that crashed after sending) and
 * nothing is sent. Returns the order as sent and what became of it.
 */
async function placeOrder(userId: string, conn: BrokerConnectionRow, client: BrokerPort, decision: Decision): Promise<{ order: ReturnType<typeof marketOrderFor>; outcome: SendOutcome }> {
  const id = clientOrderId(userId, decision.id);
  const order = marketOrderFor(decision, id);
  const intent = { clientOrderId: id, decisionId: decision.id, instrument: decision.instrument, units: decision.units!, origin: "ai" as const };
  noteOrderExpected(`${userId}:${decision.id}`, id); // the decision → order clock stops when the order leaves
  return { order, outcome: await sendMarketOrder(userId, conn, client, intent, order) };
}
