/**
 * The per-pair override of the edge gate (issue 21, core/trading/edge-gate.ts): what /settings shows
 * (each of the user's pairs with its verdict and out-of-sample figures in the chosen style, from the
 * shipped edge table) and the save of one "Operar mesmo assim" switch. Turning a pair ON when the table
 * shows no edge for it needs an explicit confirmation (`confirmed`), given after the warning with the
 * pair's figures; turning one OFF, or ON for a pair with an edge, needs none. The list lives in
 * `trading_settings.settings.aiSettings.edgeOverrides` (PUT /api/settings also accepts it).
 */
import { msg } from "../../../core/i18n/message";
import { isSupportedInstrument, SUPPORTED_INSTRUMENTS } from "../../../core/instruments";
import { edgeRow, hasEdge, type EdgeFigures, type EdgeTable, type EdgeVerdict } from "../../../core/research/edge-table";
import { resolveInstruments, type TradingSettings, type TradingStyle } from "../../../core/settings";
import { SHIPPED_EDGE_TABLE } from "../../../core/trading/edge-gate";
import { ValidationError } from "../platform/errors.server";
import { getSettings, saveSettingsAndPreferences } from "./settings.server";

/** One pair of the /settings edge section. */
export interface EdgePairView {
  instrument: string;
  /** The table's verdict for the pair in the chosen style ("untested" when the table has no row). */
  verdict: EdgeVerdict;
  /** Out-of-sample figures, null when untested. */
  figures: EdgeFigures | null;
  /** The user trades it despite no proven edge. */
  override: boolean;
}

/**
 * The user's pairs (settings order, '*' = every supported pair) plus any pair they override outside
 * that list, each with its verdict and figures for the settings' style.
 */
export function edgePairs(settings: TradingSettings, table: EdgeTable = SHIPPED_EDGE_TABLE): { style: TradingStyle; pairs: EdgePairView[] } {
  const style = settings.aiSettings.tradingStyle;
  const overrides = settings.aiSettings.edgeOverrides as readonly string[];
  const list = [...new Set([...resolveInstruments(settings), ...overrides])].filter(isSupportedInstrument);
  const pairs = list.map((instrument) => {
    const row = edgeRow(table, instrument, style);
    return { instrument, verdict: row?.verdict ?? "untested", figures: row?.figures ?? null, override: overrides.includes(instrument) };
  });
  return { style, pairs };
}

/** What a switch did: saved (with the new list), or the confirmation the pair needs first. */
export type EdgeOverrideOutcome = { status: "saved"; instrument: string; enabled: boolean } | { status: "confirm"; instrument: string };

/**
 * Turns the override of one pair on or off for the user, in one settings transaction.
 * @param input.instrument a supported pair ("EUR_USD"; "EUR/USD" accepted)
 * @param input.enable true = trade it despite no proven edge
 * @param input.confirmed the user confirmed the warning (needed to enable a pair without an edge)
 * @throws ValidationError (400, api:edgeOverride.unknownPair) for an unknown pair
 */
export async function setEdgeOverride(
  userId: string,
  input: { instrument: unknown; enable: boolean; confirmed: boolean },
  table: EdgeTable = SHIPPED_EDGE_TABLE,
): Promise<EdgeOverrideOutcome> {
  const instrument = typeof input.instrument === "string" ? input.instrument.trim().toUpperCase().replace("/", "_") : "";
  if (!isSupportedInstrument(instrument)) {
    throw new ValidationError(msg("edge-override:errors.unknownPair", { list: SUPPORTED_INSTRUMENTS.join(", ") }), { field: "instrument" });
  }
  if (input.enable && !input.confirmed && !hasEdge(table, instrument, (await getSettings(userId)).aiSettings.tradingStyle)) {
    return { status: "confirm", instrument };
  }
  await saveSettingsAndPreferences(userId, {
    settings: (current) => {
      const list = (current.aiSettings.edgeOverrides as readonly string[]).filter((i) => i !== instrument);
      return { aiSettings: { edgeOverrides: input.enable ? [...list, instrument] : list } };
    },
  });
  return { status: "saved", instrument, enabled: input.enable };
}
