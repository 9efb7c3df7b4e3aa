/**
 * The tick's stops of the AI loop with their notification (PRODUCT.md §4, §6): a risk or broker
 * stop ('IA desativada' with the reason's label) and the max-drawdown stop (issue 21), which also
 * records the stop on the bot until the user re-arms (core/risk/drawdown.ts).
 */
import type { Msg } from "../../../core/i18n/message";
import type { StopBotReason } from "../../../core/risk";
import { drawdownStopRecord } from "../../../core/risk/drawdown";
import { translateMsg } from "~/i18n";
import { notices } from "../../lib/notifications";
import type { BrokerConnectionRow } from "../broker/broker-connection";
import { db } from "../platform/db.server";
import { notify } from "../notify/notifications.server";
import { hasLabel, stopBot, stopReasonMsg, stopReasonText } from "./bot-stop.server";
import { drawdownStopBot } from "../../../db/queries/bots";
import { closedTradesBetween } from "../../../db/queries/trades";

/**
 * Stops the loop and, when it was on, notifies 'IA desativada' with the stop reason's label (when it
 * has one) and the detail.
 */
export async function stopWithNotice(userId: string, reason: StopBotReason | string, detail: Msg | string) {
  if (await stopBot(userId, reason)) {
    const labelled = hasLabel(reason);
    await notify(userId, {
      type: reason === "broker" ? "error" : "limit",
      ...notices.botStopped(labelled ? stopReasonMsg(reason) : null, detail),
      metadata: { reason, reasonText: labelled ? stopReasonText(reason) : translateMsg(detail, "pt") },
    });
  }
}

/** Most trades a drawdown notification lists by name (the rest are counted: "mais N"); the status keeps them all up to DRAWDOWN_TRADES_KEPT. */
const DRAWDOWN_TRADES_LISTED = 10;
const DRAWDOWN_TRADES_KEPT = 200;

/**
 * The max-drawdown stop (issue 21): stops the loop, records the stop on the bot (drawdown, mark, NAV,
 * the trades closed since the mark was set) so it stays stopped until the user re-arms, and — only
 * when this call stopped a running loop, so once per stop — notifies it ('IA parada: drawdown
 * máximo', with the figures and the trades; web push as every notification).
 */
export async function drawdownStopWithNotice(
  userId: string,
  conn: BrokerConnectionRow,
  stop: { at: Date; limitPct: number; highWaterMark: string; nav: string; currency: string; since: Date | null },
) {
  const sql = db();
  const rows = await closedTradesBetween(sql, userId, conn.account_id, stop.since ?? new Date(0), stop.at, DRAWDOWN_TRADES_KEPT);
  const record = drawdownStopRecord({
    ...stop,
    trades: rows.map((r) => ({ id: r.broker_trade_id, instrument: r.instrument, closeTime: r.close_time.toISOString(), pl: r.realized_pl })),
  });
  if (!(await drawdownStopBot(sql, userId, record))) return;
  await notify(userId, {
    type: "limit",
    ...notices.drawdownStop(record, DRAWDOWN_TRADES_LISTED),
    metadata: { reason: "max_drawdown", reasonText: stopReasonText("max_drawdown"), drawdownStop: record },
  });
}
