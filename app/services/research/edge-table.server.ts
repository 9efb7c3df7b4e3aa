/**
 * The shipped edge table (core/research/edge-table.json, written by `npm run research`; issue 21) as the
 * screens read it: the report card of a trading style with the user's own pairs (hero, /settings,
 * /backtest), and the whole table (/ia/evidencias, GET /api/research/edge-table). Reads only through
 * core/research/edge-table.ts (`styleSummary`, `edgeRow`); never changes the table.
 */
import { edgeRow, styleSummary, type EdgeFigures, type EdgeTable, type EdgeVerdict } from "../../../core/research/edge-table";
import { SHIPPED_EDGE_TABLE } from "../../../core/trading/edge-gate";
import { resolveInstruments, TRADING_STYLES, type TradingSettings, type TradingStyle } from "../../../core/settings";

/** The table the build ships: the edge gate's own (core/trading/edge-gate.ts), so screens and the AI read one copy. */
export function shippedEdgeTable(): EdgeTable {
  const table = SHIPPED_EDGE_TABLE;
  if (table.version !== 1) throw new Error(`core/research/edge-table.json: versão ${String(table.version)} desconhecida (esperada 1)`);
  return table;
}

/** One of the user's pairs in the report card: its verdict in the style and, when tested, its own figures. */
export interface PairVerdictView {
  instrument: string;
  verdict: EdgeVerdict;
  figures: EdgeFigures | null;
}

/** What the report card shows for one style (figures out of sample; see core/research/edge-table.ts). */
export interface ReportCardView {
  style: TradingStyle;
  /** The style's verdict: untested when the table has no summary for it. */
  verdict: EdgeVerdict;
  family: string;
  /** The style's portfolio record, null when untested. */
  figures: EdgeFigures | null;
  /** UTC ISO instant the study finished, null when it has not run yet (the placeholder table). */
  generatedAt: string | null;
  /** The user's pairs (settings.instruments, '*' = every supported pair) with their own verdicts. */
  pairs: PairVerdictView[];
}

/** When the study ran, or null for the placeholder table (generatedAt at or before the epoch, or unreadable). */
export function studyDate(table: EdgeTable): string | null {
  const t = Date.parse(table.generatedAt);
  return Number.isFinite(t) && t > 0 ? table.generatedAt : null;
}

/**
 * The report card of `style` for the pairs in `settings` (a pair the table lacks reads "untested").
 * @param table the edge table; the shipped one unless a test passes its own.
 */
export function reportCard(settings: Pick<TradingSettings, "instruments">, style: TradingStyle, table: EdgeTable = shippedEdgeTable()): ReportCardView {
  const summary = styleSummary(table, style);
  return {
    style,
    verdict: summary?.verdict ?? "untested",
    family: summary?.family ?? table.defaultFamily,
    figures: summary?.figures ?? null,
    generatedAt: studyDate(table),
    pairs: resolveInstruments(settings).map((instrument) => {
      const row = edgeRow(table, instrument, style);
      return { instrument, verdict: row?.verdict ?? "untested", figures: row?.figures ?? null };
    }),
  };
}

/** The report card of every style (the /settings card follows the style being chosen before it is saved). */
export function reportCards(settings: Pick<TradingSettings, "instruments">, table: EdgeTable = shippedEdgeTable()): Record<TradingStyle, ReportCardView> {
  return Object.fromEntries(TRADING_STYLES.map((s) => [s, reportCard(settings, s, table)])) as Record<TradingStyle, ReportCardView>;
}

/** The whole table for the evidence page and the JSON API, with `studyDate` (null when the study has not run). */
export function edgeTableView(table: EdgeTable = shippedEdgeTable()): EdgeTable & { studyDate: string | null } {
  return { ...table, studyDate: studyDate(table) };
}
