/**
 * What one tick answers (run-once's JSON, the scheduler's log): per instrument what was decided and
 * whether the order went out, or why the tick was skipped. Portuguese texts with their messages
 * (ADR 0007); `localizeOutcome` renders them in the caller's language.
 */
import { isMsg, type Msg } from "../../../core/i18n/message";
import type { ManageOnlyReason } from "../../../core/risk";
import { translateMsg } from "~/i18n";

/** One instrument's result in a tick: Portuguese texts, and their messages when the engine/risk made them. */
export interface TickDecision {
  instrument: string;
  action: string;
  reason: string;
  reasonMsg?: Msg;
  risk?: string;
  riskMsg?: Msg;
  executed: boolean;
}

/** A tick that only managed the open trades (issue 9): why, in Portuguese, and its message. */
export interface TickManageOnly {
  manageOnly: ManageOnlyReason;
  manageOnlyReason: string;
  manageOnlyReasonMsg: Msg;
}

export type TickOutcome =
  | { status: "skipped"; reason: string; reasonMsg?: Msg }
  | ({ status: "done"; decisions: TickDecision[]; stopped?: string } & (TickManageOnly | { manageOnly?: undefined }));


/** A skipped tick: the Portuguese reason and its message. */
export function skipped(reason: Msg | string): TickOutcome {
  return isMsg(reason) ? { status: "skipped", reason: translateMsg(reason, "pt"), reasonMsg: reason } : { status: "skipped", reason };
}

/** A tick outcome with its texts in a language (the messages kept alongside). */
export function localizeOutcome(outcome: TickOutcome, language: unknown): TickOutcome {
  if (outcome.status === "skipped") return { ...outcome, reason: translateMsg(outcome.reasonMsg ?? outcome.reason, language) };
  return {
    ...outcome,
    ...(outcome.manageOnly ? { manageOnlyReason: translateMsg(outcome.manageOnlyReasonMsg, language) } : {}),
    decisions: outcome.decisions.map((d) => ({
      ...d,
      reason: translateMsg(d.reasonMsg ?? d.reason, language),
      ...(d.risk !== undefined ? { risk: translateMsg(d.riskMsg ?? d.risk, language) } : {}),
    })),
  };
}
