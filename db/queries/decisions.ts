/**
 * The `decisions` table (migrations 0001, 0004, 0005): one row per instrument and tick, what the engine
 * decided and the risk gate's verdict, `executed` (the order went out) and a jsonb `payload` (regime,
 * stops, units, explanation, the risk gate's message). Its statements live here (issue 23 item 2).
 * Confidence is numeric (decimal text), times timestamptz, messages jsonb.
 */
import type { Msg } from "../../core/i18n/message";
import type { StoredDecisionRow } from "../../core/trading/explain";
import type { Sql } from "./sql";

/** A stored decision as the status views read it (the loop status, the admin support view). */
export interface DecisionRow {
  instrument: string;
  action: string;
  side: string | null;
  confidence: string | null;
  timeframe: string | null;
  reason: string;
  reason_msg: unknown;
  risk_reason: string | null;
  risk_reason_msg: unknown;
  created_at: Date;
  /** Whether the order went out (false for "none", closes, refused entries and orders the broker did not take). */
  executed?: boolean;
}

/** The user's 3 newest decisions, newest first, with the risk gate's message out of the payload. */
export async function latestDecisions(sql: Sql, userId: string): Promise<DecisionRow[]> {
  return sql<DecisionRow[]>`
    select instrument, action, side, confidence, timeframe, reason, reason_msg, risk_reason, payload->'riskReasonMsg' as risk_reason_msg, created_at, executed
    from decisions where user_id = ${userId} order by id desc limit 3`;
}

/** A `decisions` row as the batched insert sends it: text for every column (cast in the statement), jsonb columns as JSON text. */
export interface DecisionInsertRow {
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

/** One tick's decisions to store: its rows, and the instruments whose previous timeframe it needs. */
export interface DecisionsInsert {
  userId: string;
  instruments: string[];
  rows: DecisionInsertRow[];
}

/** An instrument's timeframe in the newest decision stored before an insert (null: none stored or none decided). */
export interface PreviousTimeframe {
  instrument: string;
  timeframe: string | null;
}

/**
 * Stores the decisions of the ticks deciding at once in ONE statement (ADR 0032, batched by `unnest`
 * arrays: one statement text whatever the number of rows), which also reads each tick's previous
 * timeframe per instrument (the newest stored decision of that user and instrument: the CTE sees the
 * table before the insert). Answers, per item in order, the previous timeframes.
 */
export async function insertDecisions(sql: Sql, items: readonly DecisionsInsert[]): Promise<PreviousTimeframe[][]> {
  const keyUsers = items.flatMap((i) => i.instruments.map(() => i.userId));
  const keyInstruments = items.flatMap((i) => i.instruments);
  const rows = items.flatMap((i) => i.rows);
  const col = <K extends keyof DecisionInsertRow>(k: K) => rows.map((r) => r[k]);
  // One statement text whatever the number of rows (arrays, not a VALUES list): one prepared statement.
  const prev = await sql<{ user_id: string; instrument: string; timeframe: string | null }[]>`
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
  const byUser = new Map<string, PreviousTimeframe[]>();
  for (const p of prev) byUser.set(p.user_id, [...(byUser.get(p.user_id) ?? []), { instrument: p.instrument, timeframe: p.timeframe }]);
  return items.map((i) => byUser.get(i.userId.toLowerCase()) ?? []);
}

/** Marks a decision whose order was not placed after all as not executed (the executor's `orderNotPlaced`). */
export async function markNotExecuted(sql: Sql, userId: string, decisionId: string): Promise<void> {
  await sql`update decisions set executed = false where user_id = ${userId} and decision_id = ${decisionId} and executed`;
}

/** What a fill takes from the decision that opened it (the newest row of that decision id): timeframe, confidence (decimal text), reason, message, payload. */
export interface OpeningDecision {
  timeframe: string;
  confidence: string;
  reason: string;
  reason_msg: Msg | null;
  payload: { tradingStyle?: string };
}

/** The decision behind a filled order intent (reconcile), or undefined. */
export async function openingDecision(sql: Sql, userId: string, decisionId: string): Promise<OpeningDecision | undefined> {
  const [decision] = await sql<OpeningDecision[]>`
    select timeframe, confidence, reason, reason_msg, payload from decisions where user_id = ${userId} and decision_id = ${decisionId}
    order by created_at desc limit 1`;
  return decision;
}

/** The decision a trade answers (trade detail), preferring the row that executed (ticks on one candle share an id), then the newest. */
export async function tradeDecision(sql: Sql, userId: string, decisionId: string): Promise<StoredDecisionRow | undefined> {
  const [d] = await sql<StoredDecisionRow[]>`
    select decision_id, instrument, side, confidence, timeframe, reason, reason_msg, risk_code, risk_reason, executed, payload, created_at
    from decisions where user_id = ${userId} and decision_id = ${decisionId}
    order by executed desc, id desc limit 1`;
  return d;
}

/** The user's 20 newest decisions, newest first, with whether each was executed (the admin support view). */
export async function recentDecisions(sql: Sql, userId: string): Promise<(DecisionRow & { executed: boolean })[]> {
  return sql<(DecisionRow & { executed: boolean })[]>`
      select instrument, action, side, confidence, timeframe, reason, reason_msg, risk_reason, payload->'riskReasonMsg' as risk_reason_msg, executed, created_at
      from decisions where user_id = ${userId} order by id desc limit 20`;
}
