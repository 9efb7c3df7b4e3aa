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
import { notify } from "../notify/notifications.server";
import { StatementBatcher } from "../platform/sql-batch.server";

/** One tick's decisions to store: its rows, and the instruments whose previous timeframe it needs. */
interface DecisionsInsert {
  userId: string;
  instruments: string[];
  rows: DecisionInsertRow[];
}

/** A `decisions` row as the insert sends it: text for every column (cast in the statement), jsonb columns as JSON text. */
interface DecisionInsertRow {
  user_id: string;
  decision_id: string;
  instrument: string;
  action: string;
  side: string | null;
  confidence: string | null;
  timeframe: string | null;
  reason: string;
  reason_msg: string | null;
  risk_code: string | null;
  risk_reason: string | null;
  executed: "true" | "false";
  payload: string;
}

/**
 * Stores the decisions of the ticks deciding at once in one statement (ADR 0032), which also reads
 * each tick's previous timeframe per instrument (the newest stored decision of that user and
 * instrument: the CTE sees the table before the insert). Answers, per tick, the previous timeframes.
 */
async function insertDecisions(items: DecisionsInsert[]): Promise<{ instrument: string; timeframe: string | null }[][]> {
  const keyUsers = items.flatMap((i) => i.instruments.map(() => i.userId));
  const keyInstruments = items.flatMap((i) => i.instruments);
  const rows = items.flatMap((i) => i.rows);
  const col = <K extends keyof DecisionInsertRow>(k: K) => rows.map((r) => r[k]);
  // One statement text whatever the number of rows (arrays, not a VALUES list): one prepared statement.
  const prev = await db()<{ user_id: string; instrument: string; timeframe: string | null }[]>`
    with prev as (
      select k.user_id::text as user_id, k.instrument, p.timeframe
      from unnest(${keyUsers}::uuid[], ${keyInstruments}::text[]) as k(user_id, instrument)
        cross join lateral (select timeframe from decisions d where d.user_id = k.user_id and d.instrument = k.instrument order by d.id desc limit 1) p
    ), inserted as (
      insert into decisions (user_id, decision_id, instrument, action, side, confidence, timeframe, reason, reason_msg, risk_code, risk_reason, executed, payload)
      select user_id, decision_id, instrument, action, side, confidence::numeric, timeframe, reason, reason_msg::jsonb, risk_code, risk_reason, executed::boolean, payload::jsonb
      from unnest(${col("user_id")}::uuid[], ${col("decision_id")}::text[], ${col("instrument")}::text[], ${col("action")}::text[], ${col("side")}::text[],
        ${col("confidence")}::text[], ${col("timeframe")}::text[], ${col("reason")}::text[], ${col("reason_msg")}::text[], ${col("risk_code")}::text[],
        ${col("risk_reason")}::text[], ${col("executed")}::text[], ${col("payload")}::text[])
        as r(user_id, decision_id, instrument, action, side, confidence, timeframe, reason, reason_msg, risk_code, risk_reason, executed, payload)
    )
    select user_id, instrument, timeframe from prev`;
  const byUser = new Map<string, { instrument: string; timeframe: string | null }[]>();
  for (const p of prev) byUser.set(p.user_id, [...(byUser.get(p.user_id) ?? []), { instrument: p.instrument, timeframe: p.timeframe }]);
  return items.map((i) => byUser.get(i.userId.toLowerCase()) ?? []);
}

const decisionsBatcher = new StatementBatcher<DecisionsInsert, { instrument: string; timeframe: string | null }[]>({
  many: insertDecisions,
  one: async (item) => (await insertDecisions([item]))[0]!,
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

/** Notifies each instrument whose timeframe differs from its previous decision's (`prev`: the newest stored per instrument). */
async function noteTimeframeChanges(userId: string, decisions: Decision[], prev: { instrument: string; timeframe: string | null }[]) {
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
 */
export async function recordTickDecisions(userId: string, records: DecisionRecord[], settings: TradingSettings, now: Date): Promise<void> {
  if (records.length === 0) return;
  const decisions = records.map((r) => r.decision);
  crashPoint("before-decisions");
  const prev = await decisionsBatcher.submit({
    userId,
    instruments: decisions.map((d) => d.instrument),
    rows: records.map((r) => decisionRow(userId, r, settings, now)),
  });
  crashPoint("after-decisions");
  await noteTimeframeChanges(userId, decisions, prev);
}
