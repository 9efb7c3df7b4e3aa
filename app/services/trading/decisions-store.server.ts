/**
 * The live store of a tick's decisions (`decisions` table): one row per instrument and tick, the
 * inserts of the ticks deciding at once batched in one statement (ADR 0032), and the notification
 * when an instrument's timeframe changes.
 */
import type { Decision } from "../../../core/engine/decide";
import { isMsg } from "../../../core/i18n/message";
import type { TradingSettings } from "../../../core/settings";
import { decisionExplainPayload } from "../../../core/trading/explain";
import type { DecisionRecord } from "../../../core/trading/tick";
import { notices } from "../../lib/notifications";
import { crashPoint } from "../platform/crash-point.server";
import { db } from "../platform/db.server";
import { bounded, metrics, noteDecisionStored } from "../platform/metrics.server";
import { notify } from "../notify/notifications.server";
import { StatementBatcher } from "../platform/sql-batch.server";
import { insertDecisions, type DecisionInsertRow, type DecisionsInsert, type PreviousTimeframe } from "../../../db/queries/decisions";

/**
 * The decisions of the ticks deciding at once, one statement per batch (ADR 0032; db/queries/decisions.ts
 * `insertDecisions`, which also answers each tick's previous timeframes).
 */
const decisionsBatcher = new StatementBatcher<DecisionsInsert, PreviousTimeframe[]>({
  many: (items) => insertDecisions(db(), items),
  one: async (item) => (await insertDecisions(db(), [item]))[0]!,
  maxBatch: 300,
});

/** The `decisions` row of one tick decision. reason_msg is the engine's; the risk gate's message rides in the payload. */
function decisionRow(userId: string, { decision, verdict, execute }: DecisionRecord, settings: TradingSettings, now: Date): DecisionInsertRow {
  const riskMsg = verdict.allowed ? undefined : verdict.reasonMsg;
  return {
    user_id: userId,
    decision_id: decision.id,
    instrument: decision.instrument,
    action: decision.action,
    side: decision.side ?? null,
    confidence: decision.confidence === null || decision.confidence === undefined ? null : String(decision.confidence),
    timeframe: decision.timeframe ?? null,
    reason: decision.reason,
    reason_msg: isMsg(decision.reasonMsg) ? JSON.stringify(decision.reasonMsg) : null,
    risk_code: verdict.code ?? null,
    risk_reason: verdict.allowed ? null : verdict.reason,
    executed: execute ? "true" : "false",
    payload: JSON.stringify({
      regime: decision.regime,
      stopLoss: decision.stopLoss,
      takeProfit: decision.takeProfit,
      units: decision.units,
      tradingStyle: settings.aiSettings.tradingStyle,
      marketTime: now.toISOString(),
      // Entry, stop/target distances in pips and indicator values, for "Por que a IA entrou?" (issue 12).
      ...decisionExplainPayload(decision),
      ...(riskMsg ? { riskReasonMsg: riskMsg } : {}),
    }),
  };
}

/**
 * The stored decisions in the metrics (issue 24): by action and verdict (`executed`, else the risk rule's
 * code, e.g. `ok` for an allowed "no trade"); an executed one starts its decision → order clock.
 */
function countDecisions(userId: string, records: DecisionRecord[]): void {
  const m = metrics();
  const at = Date.now();
  for (const { decision, verdict, execute } of records) {
    m.decisions.inc({ action: bounded(decision.action), verdict: execute ? "executed" : bounded(verdict.code) });
    if (execute) noteDecisionStored(`${userId}:${decision.id}`, at);
  }
}

/** Notifies each instrument whose timeframe differs from its previous decision's (`prev`: the newest stored per instrument). */
async function noteTimeframeChanges(userId: string, decisions: Decision[], prev: PreviousTimeframe[]) {
  for (const decision of decisions) {
    const from = prev.find((p) => p.instrument === decision.instrument)?.timeframe;
    if (from && from !== decision.timeframe)
      await notify(userId, {
        type: "info",
        ...notices.timeframeChanged({ instrument: decision.instrument, from, to: decision.timeframe, reason: decision.regime.reasonMsg ?? decision.regime.reason }),
        metadata: { instrument: decision.instrument, from, to: decision.timeframe },
      });
  }
}

/**
 * Stores one tick's decisions (every one, "no trade" included) before any order is sent — the
 * reconcile that records a fill reads the decision by its id, even after a crash — in the batched
 * statement that also reads each instrument's previous timeframe, then notifies timeframe changes.
 * When an order follows (a record executes), the notices are not written here but returned, to be
 * written once the orders left (issue 24: nothing of ours between the decision row and the order on
 * the wire but the order intent); else undefined.
 */
export async function recordTickDecisions(userId: string, records: DecisionRecord[], settings: TradingSettings, now: Date): Promise<(() => Promise<void>) | undefined> {
  if (records.length === 0) return undefined;
  const decisions = records.map((r) => r.decision);
  crashPoint("before-decisions");
  const prev = await decisionsBatcher.submit({
    userId,
    instruments: decisions.map((d) => d.instrument),
    rows: records.map((r) => decisionRow(userId, r, settings, now)),
  });
  crashPoint("after-decisions");
  countDecisions(userId, records);
  const notes = () => noteTimeframeChanges(userId, decisions, prev);
  if (records.some((r) => r.execute)) return notes;
  await notes();
  return undefined;
}
