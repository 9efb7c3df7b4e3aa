/**
 * How the hero shows the AI's last decisions and its timeframe setting (issue 22, items 4 and 5):
 * pure functions, no React, so the page and its tests share them.
 */
import type { Tone } from "./tone";

/** A decision as the hero reads it: what the engine wanted, and whether it became a trade. */
export interface HeroDecisionInput {
  action: string;
  side: string | null;
  /** The order went out (stored `executed`). Absent: taken as executed unless a refusal is given. */
  executed?: boolean;
  /** The risk gate's refusal (news blackout, cooldown, no edge, max trades…), null when it let the decision through. */
  refusal?: string | null;
}

/** `hero` keys of the decision labels. */
export type DecisionLabelKey = "decisions.buy" | "decisions.sell" | "decisions.close" | "decisions.wait" | "decisions.refused";

/** What a decision row shows: its badge (label and tone), the side as secondary text for a refused entry. */
export interface HeroDecisionView {
  refused: boolean;
  badge: DecisionLabelKey;
  tone: Tone;
  /** The side of a refused entry (Compra / Venda), shown beside the badge; null otherwise. */
  sideLabel: "decisions.buy" | "decisions.sell" | null;
}

/**
 * The badge of a decision row. An entry ("open") the risk gate refused, or whose order did not go
 * out, reads "Recusada" (amber) with its side as secondary text; an executed entry reads Compra
 * (green) / Venda (red); a close reads Fechar and a "none" Aguardar (grey), as before.
 */
export function heroDecisionView(d: HeroDecisionInput): HeroDecisionView {
  const side = d.side === "sell" ? "decisions.sell" : "decisions.buy";
  if (d.action === "open") {
    const refused = Boolean(d.refusal) || d.executed === false;
    if (refused) return { refused: true, badge: "decisions.refused", tone: "amber", sideLabel: side };
    return { refused: false, badge: side, tone: d.side === "sell" ? "red" : "green", sideLabel: null };
  }
  return { refused: false, badge: d.action === "close" ? "decisions.close" : "decisions.wait", tone: "grey", sideLabel: null };
}

/** The AI card's timeframe line: the `hero` key and its values. */
export interface TimeframeLabel {
  key: "config.timeframeAuto" | "config.timeframeManual";
  values: { timeframe?: string };
}

/**
 * The AI card's timeframe text: "Automático (M5, M15, M30, H1)" when automatic timeframe selection
 * is on, else "Manual (<timeframe>)" with the timeframe the engine uses (the chosen one, or the
 * style's default when none was chosen — the caller resolves it).
 */
export function timeframeLabel(auto: boolean, timeframe: string | null | undefined): TimeframeLabel {
  if (auto || !timeframe) return { key: "config.timeframeAuto", values: {} };
  return { key: "config.timeframeManual", values: { timeframe } };
}
