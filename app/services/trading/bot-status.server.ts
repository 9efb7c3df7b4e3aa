/**
 * The AI loop's status as the screens and the API read it (PRODUCT.md §3 "AI loop"): the bot's row,
 * its last decisions and why each was taken or refused. Texts in the reader's language, stored
 * messages alongside (ADR 0007).
 */
import { isMsg, msg, type Msg } from "../../../core/i18n/message";
import { manageOnlyMsg } from "../../../core/risk";
import { translateMsg } from "~/i18n";
import { db } from "../platform/db.server";
import { stopReasonText } from "./bot-stop.server";
import { botRow } from "../../../db/queries/bots";
import { latestDecisions, type DecisionRow } from "../../../db/queries/decisions";

/** Default loop interval (PRODUCT.md §9). */
export const DEFAULT_INTERVAL_SEC = 60;

// The `bots` row and a stored decision as the status views read it (also the admin support view's): db/queries.
export type { BotRow } from "../../../db/queries/bots";
export type { DecisionRow } from "../../../db/queries/decisions";

/**
 * The reason shown for a stored decision: the engine's reason, followed by the risk gate's when it
 * blocked an opening ('… — …'). A message when any part is one, else the stored text.
 */
export function decisionReason(d: Pick<DecisionRow, "action" | "reason" | "reason_msg" | "risk_reason" | "risk_reason_msg">): Msg | string {
  const reason = isMsg(d.reason_msg) ? d.reason_msg : d.reason;
  if (!(d.risk_reason && d.action === "open")) return reason;
  const risk = isMsg(d.risk_reason_msg) ? d.risk_reason_msg : d.risk_reason;
  return isMsg(reason) || isMsg(risk) ? msg("bot:decision.withRisk", { reason, risk }) : `${d.reason} — ${d.risk_reason}`;
}

/**
 * Loop status (PRODUCT.md §3 AI loop): isActive, loopState {lastStopReason…}, last start/stop times,
 * last decisions; `rearmRequired` and `drawdownStop` (issue 21: the record of a max-drawdown stop —
 * drawdown %, amount, high-water mark, NAV, currency, the trades behind it — plus `highWaterMarkNow`,
 * the persisted mark; null unless stopped so and not yet re-armed); and manage-only (issue 9): `manageOnly` (the loop is on but opens no new trades),
 * `manageOnlyReason` (why, as text) with its message `manageOnlyReasonMsg`, and in loopState the
 * reason's code and since when. Texts are in `language`; the stored messages ride along
 * (`reasonMsg`, `lastTickErrorMsg`, null for texts without one) so a screen can render them itself.
 */
export async function botStatus(userId: string, language: unknown = "pt") {
  const bot = await botRow(db(), userId);
  const decisions = await latestDecisions(db(), userId);
  const tickErrorMsg = isMsg(bot?.last_tick_error_msg) ? bot.last_tick_error_msg : null;
  const manageOnly = bot?.is_active && bot.manage_only_reason ? { reason: bot.manage_only_reason, since: bot.manage_only_since, msg: manageOnlyMsg(bot.manage_only_reason) } : null;
  // Issue 21: stopped by the max drawdown, waiting for the re-arm (the record of the stop, and the mark kept since).
  const drawdownStop = bot && !bot.is_active && bot.drawdown_stop ? { ...bot.drawdown_stop, highWaterMarkNow: bot.peak_balance } : null;
  return {
    success: true,
    isActive: bot?.is_active ?? false,
    rearmRequired: drawdownStop !== null,
    drawdownStop,
    manageOnly: manageOnly !== null,
    manageOnlyReason: manageOnly ? translateMsg(manageOnly.msg, language) : null,
    manageOnlyReasonMsg: manageOnly?.msg ?? null,
    intervalSec: bot?.interval_sec ?? DEFAULT_INTERVAL_SEC,
    loopState: {
      manageOnlyCode: manageOnly?.reason ?? null,
      manageOnlySince: manageOnly?.since?.toISOString() ?? null,
      lastStopReason: bot?.last_stop_reason ?? null,
      lastStopReasonText: bot?.is_active ? null : stopReasonText(bot?.last_stop_reason, language),
      lastStartedAt: bot?.last_started_at?.toISOString() ?? null,
      lastStoppedAt: bot?.last_stopped_at?.toISOString() ?? null,
      lastTickAt: bot?.last_tick_at?.toISOString() ?? null,
      lastTickError: tickErrorMsg && bot?.last_tick_error ? translateMsg(tickErrorMsg, language) : (bot?.last_tick_error ?? null),
      lastTickErrorMsg: bot?.last_tick_error ? tickErrorMsg : null,
    },
    lastDecisions: decisions.map((d) => decisionStatusRow(d, language)),
  };
}

/**
 * A stored decision as the loop status shows it, texts in `language` with their messages: `reason`
 * (the engine's, then the risk gate's refusal of an opening: '… — …'), and apart (issue 22)
 * `executed`, `refusal` (the risk gate's refusal of an opening, else null) and `signal` (the engine's reason alone).
 */
export function decisionStatusRow(d: DecisionRow, language: unknown) {
  const reason = decisionReason(d);
  // Issue 22: an entry the risk gate refused carries its refusal apart, so the hero shows it first.
  const refusal = d.action === "open" && d.risk_reason ? (isMsg(d.risk_reason_msg) ? d.risk_reason_msg : d.risk_reason) : null;
  const signal = isMsg(d.reason_msg) ? d.reason_msg : d.reason;
  return {
    instrument: d.instrument,
    action: d.action,
    side: d.side,
    confidence: d.confidence === null ? null : Number(d.confidence),
    timeframe: d.timeframe,
    reason: translateMsg(reason, language),
    reasonMsg: isMsg(reason) ? reason : null,
    executed: d.executed ?? false,
    refusal: refusal === null ? null : translateMsg(refusal, language),
    refusalMsg: isMsg(refusal) ? refusal : null,
    signal: translateMsg(signal, language),
    signalMsg: isMsg(signal) ? signal : null,
    at: d.created_at.toISOString(),
  };
}
