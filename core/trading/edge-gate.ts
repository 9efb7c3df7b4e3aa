/**
 * The edge gate (issue 21): the AI enters only a pair and style whose out-of-sample verdict in the
 * edge table (core/research/edge-table.ts, written by `npm run research`) is "edge", unless the user
 * chose to trade that pair anyway (`settings.aiSettings.edgeOverrides`, /settings "Operar mesmo
 * assim"). Elsewhere an "open" decision becomes "none" with a translatable reason (ADR 0007,
 * engine:decision.noEdge: "Sem vantagem estatística comprovada para EUR/USD no estilo Swing"), and the
 * record's verdict carries the code `no_edge` (live: `decisions.risk_code`; backtest: `blocked.no_edge`).
 *
 * It runs inside the one executor (core/trading/tick.ts, ADR 0012), so the live bot and the backtest
 * gate alike. The table reaches the tick through `TickContext.edgeTable`: absent = the shipped table
 * (`SHIPPED_EDGE_TABLE`), `null` = no gate (the research runner only, which measures the strategy itself).
 */
import type { Decision } from "../engine/decide";
import { say } from "../engine/text";
import { hasEdge } from "../research/edge-table";
import type { EdgeTable } from "../research/edge-table";
import shipped from "../research/edge-table.json";
import type { RiskVerdict } from "../risk";
import type { TradingSettings } from "../settings";

/** The edge table the product ships (core/research/edge-table.json, the study's output). */
export const SHIPPED_EDGE_TABLE: EdgeTable = shipped as EdgeTable;

/** Verdict code of an entry refused by the edge gate (decisions.risk_code, BacktestResult.blocked). */
export const NO_EDGE_CODE = "no_edge";

/**
 * True when the AI may enter `instrument` in the settings' style: the table shows an edge for it, the
 * user overrides the pair, or there is no gate (`table` null).
 */
export function edgeAllows(table: EdgeTable | null, instrument: string, settings: Pick<TradingSettings, "aiSettings">): boolean {
  if (table === null) return true;
  if ((settings.aiSettings.edgeOverrides as readonly string[]).includes(instrument)) return true;
  return hasEdge(table, instrument, settings.aiSettings.tradingStyle);
}

/**
 * The gate's refusal of an "open" decision: the same decision as "none" (no side, stops or units, so
 * nothing can be ordered from it) whose reason is engine:decision.noEdge {pair "EUR/USD", style in the
 * reader's language}, and a refusing verdict with code `no_edge` and the same reason.
 */
export function noEdgeRefusal(decision: Decision, settings: Pick<TradingSettings, "aiSettings">): { decision: Decision; verdict: RiskVerdict } {
  const reason = say("engine:decision.noEdge", {
    pair: decision.instrument.replace("_", "/"),
    style: say(`engine:style.${settings.aiSettings.tradingStyle}`),
  });
  const { id, instrument, confidence, timeframe, regime, features } = decision;
  return {
    decision: { id, instrument, action: "none", confidence, timeframe, regime, reason: reason.text, reasonMsg: reason.msg, ...(features ? { features } : {}) },
    verdict: { allowed: false, code: NO_EDGE_CODE, reason: reason.text, reasonMsg: reason.msg },
  };
}
