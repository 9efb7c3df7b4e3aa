/**
 * Pure logic of the trade history (PRODUCT.md §2 History, §5 History filters and Display, §9):
 * the filter schema (URL query ⇄ filters, messages as `history` catalog keys), the row rules (other accounts out,
 * duplicates out, keep closed / non-zero P&L / priced rows), filtering in the user's timezone (the
 * whole end day counts), free-text search, summary statistics and the CSV export.
 * No I/O: used by the page loader, the CSV resource route and the browser; unit-tested in
 * tests/unit/ui/history.test.ts.
 */
import Papa from "papaparse";
import { z } from "zod";
import { msg, type Msg } from "../../core/i18n/message";
import { DEFAULT_TIMEZONE, localDate, localMidnight } from "../../core/risk/trading-day";
import { computeTradeStats, tradeResult } from "../../core/stats";
import { translateMsg } from "../i18n";
import { formatLots, formatPrice, normaliseTimeframe, toNumber } from "./format";
import { money2, statNumber, statsTrade } from "./trading";

/** Default timezone of a user (PRODUCT.md §9 admin defaults, DESIGN.md §6). */
export { DEFAULT_TIMEZONE };
/** Default history window in days (PRODUCT.md §9). */
export const HISTORY_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/** A closed trade as `tradeHistory()` returns it (only the fields the history needs). */
export interface HistoryTrade {
  id: string;
  accountId?: string | null;
  oandaAccountId?: string | null;
  instrument: string;
  side: string;
  units: string | number;
  openPrice: string | number | null;
  closePrice: string | number | null;
  pnl: string | number | null;
  result?: string | null;
  status?: string | null;
  state?: string | null;
  openTime: string | null;
  closeTime: string | null;
  aiTimeframe?: string | null;
  aiReason?: string | null;
  /** The reason as a translatable message (ADR 0007), when stored. */
  aiReasonMsg?: Msg | null;
  /** Who opened it (issue 22): the AI or the user ('manual'); absent = the AI's. */
  origin?: "ai" | "manual" | null;
}

const SIDES = ["buy", "sell"] as const;
const RESULTS = ["WIN", "LOSS", "BE"] as const;

/** Empty strings (untouched form fields) mean "no filter". */
function blankToUndefined(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const s = v.trim();
  return s === "" ? undefined : s;
}

/**
 * Filter messages are keys of the `history` catalog (`filterErrors.*`, ADR 0007) with the field as
 * `{{field}}`: the page renders them in the reader's language, the CSV route in the user's.
 */
const FILTER_ERROR = {
  dateFormat: "history:filterErrors.dateFormat",
  dateInvalid: "history:filterErrors.dateInvalid",
  number: "history:filterErrors.number",
  searchMax: "history:filterErrors.searchMax",
  instrumentMax: "history:filterErrors.instrumentMax",
  side: "history:filterErrors.side",
  result: "history:filterErrors.result",
  dateOrder: "history:filterErrors.dateOrder",
  pnlOrder: "history:filterErrors.pnlOrder",
} as const;

const isoDate = () =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, FILTER_ERROR.dateFormat)
      .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), FILTER_ERROR.dateInvalid)
      .optional(),
  );

const pnlBound = () =>
  z.preprocess(
    (v) => {
      const s = blankToUndefined(v);
      if (typeof s !== "string") return s;
      const n = Number(s.replace(",", "."));
      return Number.isFinite(n) ? n : s;
    },
    z.number(FILTER_ERROR.number).optional(),
  );

/**
 * History filters (PRODUCT.md §3 History filters) plus the free-text search `q`, as URL query
 * parameters. Blank values mean "no filter"; bad values are rejected with a catalog key (see
 * `filterIssue`).
 */
export const historyFiltersSchema = z
  .object({
    q: z.preprocess(blankToUndefined, z.string().max(100, FILTER_ERROR.searchMax).optional()),
    instrument: z.preprocess(blankToUndefined, z.string().max(20, FILTER_ERROR.instrumentMax).optional()),
    side: z.preprocess(
      (v) => (typeof blankToUndefined(v) === "string" ? String(v).trim().toLowerCase() : blankToUndefined(v)),
      z.enum(SIDES, FILTER_ERROR.side).optional(),
    ),
    result: z.preprocess(
      (v) => (typeof blankToUndefined(v) === "string" ? String(v).trim().toUpperCase() : blankToUndefined(v)),
      z.enum(RESULTS, FILTER_ERROR.result).optional(),
    ),
    dateFrom: isoDate(),
    dateTo: isoDate(),
    minPnL: pnlBound(),
    maxPnL: pnlBound(),
  })
  .refine((f) => !f.dateFrom || !f.dateTo || f.dateFrom <= f.dateTo, { message: FILTER_ERROR.dateOrder, path: ["dateTo"] })
  .refine((f) => f.minPnL === undefined || f.maxPnL === undefined || f.minPnL <= f.maxPnL, { message: FILTER_ERROR.pnlOrder, path: ["maxPnL"] });

/**
 * The first problem of a failed filter parse: the field and the message to show, as a `Msg` of the
 * `history` catalog (a message that is not one of ours — none is expected — passes through as text).
 */
export function filterIssue(error: z.ZodError): { field: string; msg: Msg | string } {
  const issue = error.issues[0]!;
  const field = String(issue.path[0] ?? "");
  return { field, msg: issue.message.startsWith("history:") ? msg(issue.message, { field }) : issue.message };
}

/** Parsed history filters. */
export type HistoryFilters = z.output<typeof historyFiltersSchema>;
/** The query parameter names of the filters, in URL order. */
export const FILTER_KEYS = ["q", "instrument", "side", "result", "dateFrom", "dateTo", "minPnL", "maxPnL"] as const;

/** Result of reading filters from a query string: on failure the message as a `Msg` and its Portuguese text. */
export type ParsedFilters = { ok: true; filters: HistoryFilters } | { ok: false; message: string; msg: Msg | string; field: string; filters: HistoryFilters };

/** Reads the filters from URL query parameters; on a bad value returns the first problem (`msg`, and `message` in Portuguese). */
export function parseHistoryFilters(params: URLSearchParams | Record<string, string | undefined>): ParsedFilters {
  const raw: Record<string, string | undefined> = {};
  for (const key of FILTER_KEYS) raw[key] = params instanceof URLSearchParams ? (params.get(key) ?? undefined) : params[key];
  const r = historyFiltersSchema.safeParse(raw);
  if (r.success) return { ok: true, filters: r.data };
  const { field, msg: m } = filterIssue(r.error);
  // Keep every valid filter so the form can show what the user typed apart from the bad field.
  const rest = historyFiltersSchema.safeParse({ ...raw, [field]: undefined });
  return { ok: false, message: translateMsg(m, "pt"), msg: m, field, filters: rest.success ? rest.data : {} };
}

/** The filters as a query string ('' when none), in a stable order; used for links and the CSV URL. */
export function filtersToSearch(filters: HistoryFilters): string {
  const p = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const v = filters[key];
    if (v !== undefined && v !== "") p.set(key, String(v));
  }
  const s = p.toString();
  return s ? `?${s}` : "";
}

/** True when any filter or the search is set (the 'Filtrado' badge). */
export function hasActiveFilters(filters: HistoryFilters): boolean {
  return FILTER_KEYS.some((k) => filters[k] !== undefined && filters[k] !== "");
}

/** Result of a trade from a P&L of any shape (core/stats `tradeResult`, PRODUCT.md §4 Trade); unreadable counts as 0 (BE). */
export function resultOf(pnl: unknown): "WIN" | "LOSS" | "BE" {
  return tradeResult(toNumber(pnl) ?? 0);
}

function isClosed(t: HistoryTrade): boolean {
  return t.status === "closed" || t.state === "CLOSED";
}

/**
 * Row rules (PRODUCT.md §5): trades of another account are excluded (rows without an account id are
 * kept), duplicates by trade id removed (first wins), and a row is kept if closed, or its pnl is not 0,
 * or both prices are present. Each row's `result` is filled from its P&L when missing.
 */
export function normaliseHistoryRows<T extends HistoryTrade>(rows: readonly T[], accountId: string | null | undefined): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const t of rows) {
    const acc = t.accountId ?? t.oandaAccountId ?? null;
    if (accountId && acc && acc !== accountId) continue;
    const id = String(t.id);
    if (seen.has(id)) continue;
    const pnl = toNumber(t.pnl) ?? 0;
    const priced = toNumber(t.openPrice) !== null && toNumber(t.closePrice) !== null;
    if (!(isClosed(t) || pnl !== 0 || priced)) continue;
    seen.add(id);
    out.push(RESULTS.includes(t.result as (typeof RESULTS)[number]) ? t : { ...t, result: resultOf(t.pnl) });
  }
  return out;
}

/** The instant local midnight of `yyyy-mm-dd` happens in `tz` (epoch ms). */
export function zonedDayStart(date: string, tz: string): number {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return localMidnight(y, m, d, tz).getTime();
}


/** The next calendar day of `yyyy-mm-dd`. */
function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** Date range of the filters in `tz`: [start of dateFrom, start of the day after dateTo) — the whole end day counts. */
export function filterRange(filters: Pick<HistoryFilters, "dateFrom" | "dateTo">, tz: string): { from: number | null; to: number | null } {
  return {
    from: filters.dateFrom ? zonedDayStart(filters.dateFrom, tz) : null,
    to: filters.dateTo ? zonedDayStart(nextDay(filters.dateTo), tz) : null,
  };
}

/**
 * Days of history to load: enough to reach the start of `dateFrom`, else the default 30 days
 * (PRODUCT.md §9). When only `dateTo` is set the window is 30 days before the end of that day.
 */
export function historyWindowDays(filters: Pick<HistoryFilters, "dateFrom" | "dateTo">, tz: string, now: number = Date.now()): number {
  const { from, to } = filterRange(filters, tz);
  const start = from ?? (to !== null ? to - HISTORY_WINDOW_DAYS * DAY_MS : null);
  if (start === null) return HISTORY_WINDOW_DAYS;
  return Math.max(1, Math.ceil((now - start) / DAY_MS) + 1);
}

const SIDE_WORDS: Record<string, string[]> = { buy: ["buy", "compra", "long"], sell: ["sell", "venda", "venta", "short"] };

/** Free-text search over instrument, direction (buy/sell, COMPRA/VENDA/VENTA) and result; case-insensitive. */
export function matchesSearch(t: HistoryTrade, q: string | undefined): boolean {
  const needle = (q ?? "").trim().toLowerCase();
  if (!needle) return true;
  const hay = [t.instrument, t.instrument.replace("_", "/"), ...(SIDE_WORDS[t.side] ?? [t.side]), t.result ?? resultOf(t.pnl)].map((s) => s.toLowerCase());
  return hay.some((s) => s.includes(needle));
}

/** Applies the filters and search (PRODUCT.md §5 History filters); dates in `tz` by close time (else open time). */
export function applyHistoryFilters<T extends HistoryTrade>(rows: readonly T[], filters: HistoryFilters, tz: string = DEFAULT_TIMEZONE): T[] {
  const { from, to } = filterRange(filters, tz);
  const inst = filters.instrument?.trim().toLowerCase().replace("/", "_");
  return rows.filter((t) => {
    if (inst && !t.instrument.toLowerCase().includes(inst)) return false;
    if (filters.side && t.side !== filters.side) return false;
    if (filters.result && (t.result ?? resultOf(t.pnl)) !== filters.result) return false;
    const pnl = toNumber(t.pnl) ?? 0;
    if (filters.minPnL !== undefined && pnl < filters.minPnL) return false;
    if (filters.maxPnL !== undefined && pnl > filters.maxPnL) return false;
    if (from !== null || to !== null) {
      const when = Date.parse(t.closeTime ?? t.openTime ?? "");
      if (!Number.isFinite(when)) return false;
      if (from !== null && when < from) return false;
      if (to !== null && when >= to) return false;
    }
    return matchesSearch(t, filters.q);
  });
}

/**
 * Summary statistics of the history (`core/stats`, ADR 0008): win rate % (PRODUCT.md §9), profit factor =
 * gross profit / gross loss, and beside it the payoff ratio = average win / average loss (what
 * PRODUCT.md §9 calls "profit factor").
 */
export interface HistoryStats {
  total: number;
  wins: number;
  losses: number;
  breakeven: number;
  pnlTotal: number;
  /** Percent, 1 decimal; null without trades. */
  winRate: number | null;
  /** Gross profit / gross loss, 2 decimals; null without losses. */
  profitFactor: number | null;
  /** Average win / average loss, 2 decimals; null without wins or losses. */
  payoffRatio: number | null;
}

/** Statistics over the shown rows. */
export function historyStats(rows: readonly HistoryTrade[]): HistoryStats {
  const s = computeTradeStats(rows.map((r) => statsTrade(r)));
  return {
    total: s.trades,
    wins: s.wins,
    losses: s.losses,
    breakeven: s.breakeven,
    pnlTotal: money2(s.netPnl),
    winRate: statNumber(s.winRatePct),
    profitFactor: statNumber(s.profitFactor),
    payoffRatio: statNumber(s.payoffRatio),
  };
}

/** Date and time of an instant in `tz` as dd/mm/aaaa hh:mm (or with seconds); '—' when unknown. */
export function formatZonedDateTime(when: string | null | undefined, tz: string, seconds = false): string {
  if (!when) return "—";
  const d = new Date(when);
  if (Number.isNaN(d.getTime())) return "—";
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: tz,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    ...(seconds ? { second: "2-digit" } : {}),
  }).formatToParts(d);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return `${get("day")}/${get("month")}/${get("year")} ${get("hour")}:${get("minute")}${seconds ? `:${get("second")}` : ""}`;
}

/** Decimal comma for Excel pt-BR: '1.08423' → '1,08423', '-12.5' → '-12,5'; '' when unknown. */
export function decimalComma(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  return String(value).replace(".", ",");
}

/** Neutralises spreadsheet formulas in free text (CSV injection): a leading = + - @ tab or CR gets a quote. */
function safeText(s: string | null | undefined): string {
  const v = s ?? "";
  return /^[=+\-@\t\r]/.test(v) ? `'${v}` : v;
}

/** CSV header row (Portuguese). */
export const CSV_HEADER = [
  "ID",
  "Instrumento",
  "Direção",
  "Lotes",
  "Unidades",
  "Preço de entrada",
  "Preço de saída",
  "P&L",
  "Resultado",
  "Abertura",
  "Fechamento",
  "Timeframe IA",
  "Motivo IA",
  "Origem",
] as const;

/**
 * The CSV export: what Excel pt-BR opens correctly by double click — UTF-8 with a BOM ("\uFEFF"),
 * `;` as delimiter, decimal comma, CRLF line ends, dates dd/mm/aaaa hh:mm:ss in the user's
 * timezone; prices with the instrument's precision (3 for JPY, else 5), lots with 2 decimals.
 */
export function historyCsv(rows: readonly HistoryTrade[], tz: string = DEFAULT_TIMEZONE): string {
  const data = rows.map((t) => [
    t.id,
    t.instrument.replace("_", "/"),
    t.side === "sell" ? "VENDA" : "COMPRA",
    decimalComma(formatLots(t.units)),
    String(Math.abs(toNumber(t.units) ?? 0)),
    decimalComma(t.openPrice === null ? "" : formatPrice(t.instrument, t.openPrice).replace("—", "")),
    decimalComma(t.closePrice === null ? "" : formatPrice(t.instrument, t.closePrice).replace("—", "")),
    decimalComma((toNumber(t.pnl) ?? 0).toFixed(2)),
    t.result ?? resultOf(t.pnl),
    formatZonedDateTime(t.openTime, tz, true).replace("—", ""),
    formatZonedDateTime(t.closeTime, tz, true).replace("—", ""),
    t.aiTimeframe ? normaliseTimeframe(t.aiTimeframe) : "",
    safeText(t.aiReason),
    t.origin === "manual" ? "Manual" : "IA",
  ]);
  return "\uFEFF" + Papa.unparse({ fields: [...CSV_HEADER], data }, { delimiter: ";", newline: "\r\n", quotes: false, escapeFormulae: false });
}

/** File name of the export: historico-trades-YYYY-MM-DD.csv (today in the user's timezone). */
export function csvFileName(now: number | Date, tz: string = DEFAULT_TIMEZONE): string {
  return `historico-trades-${localDate(now, tz)}.csv`;
}
