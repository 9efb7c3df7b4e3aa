/**
 * Formatting of the edge table's figures for the report card and the evidence page (issue 21): the
 * table's decimal strings (percentages, ratios) become text in the reader's locale without passing
 * through floats (Intl formats the exact decimal string), and the verdict becomes the key of its
 * plain-language sentence in the `research` catalogue. Pure: shared by the server render and the browser.
 */
import { Decimal } from "../../core/decimal";
import type { EdgeFigures, EdgeVerdict } from "../../core/research/edge-table";
import type { TradingStyle } from "../../core/settings";

/** Shown where a figure is undefined (no trade, no loss, not measured). */
export const NO_FIGURE = "—";

const cache = new Map<string, Intl.NumberFormat>();
function nf(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key);
  if (!f) cache.set(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}

/** Intl formats a numeric string exactly (ECMA-402 NumberFormat v3); TypeScript's lib still types it as number. */
const exact = (s: string) => s as unknown as number;

/**
 * A percentage given in percent units as a decimal string ("4.20" = 4.2 %), in the locale: pt-BR
 * "4,20%", en-US "4.20%", es-ES "4,20 %". `signed` adds "+" to a positive value; `decimals` fixes the digits
 * (default 2). Null, empty or non-numeric → "—".
 */
export function formatPctString(value: string | number | null | undefined, locale: string, opts: { signed?: boolean; decimals?: number; maxDecimals?: number } = {}): string {
  if (value === null || value === undefined || value === "") return NO_FIGURE;
  let d: Decimal;
  try {
    d = new Decimal(value);
  } catch {
    return NO_FIGURE;
  }
  if (!d.isFinite()) return NO_FIGURE;
  const min = opts.decimals ?? 2;
  const max = opts.maxDecimals ?? min;
  return nf(locale, { style: "percent", minimumFractionDigits: min, maximumFractionDigits: max, signDisplay: opts.signed ? "exceptZero" : "auto" }).format(exact(d.div(100).toString()));
}

/** A ratio (profit factor, Sharpe, R) given as a decimal string, with 2 decimals in the locale: "1.25" → pt-BR "1,25". Null → "—". */
export function formatRatioString(value: string | null | undefined, locale: string, decimals = 2): string {
  if (value === null || value === undefined || value === "") return NO_FIGURE;
  let d: Decimal;
  try {
    d = new Decimal(value);
  } catch {
    return NO_FIGURE;
  }
  if (!d.isFinite()) return NO_FIGURE;
  return nf(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(exact(d.toFixed(decimals)));
}

/** The test years as a span: "2016–2022" (en dash), or one year "2022". */
export function yearSpan(firstYear: number, lastYear: number): string {
  return firstYear === lastYear ? String(firstYear) : `${firstYear}–${lastYear}`;
}

/** The figures of a style or pair, each as the text the reader sees (locale: an Intl locale, e.g. "pt-BR"). */
export interface FormattedFigures {
  /** Mean yearly return, signed: "+4,20%". */
  annualReturn: string;
  /** The worst test year and its return, signed; null when the table has none. */
  worstYear: { year: number; value: string } | null;
  /** Largest peak-to-trough fall, as a positive percentage: "12,30%". */
  maxDrawdown: string;
  /** Gross profit / gross loss: "0,87" ("—" when there was no loss or no trade). */
  profitFactor: string;
  yearsPositive: number;
  years: number;
  /** Share of random-entry runs the result beats, e.g. "40%"; null when not run. */
  randomPercentile: string | null;
  /** "2016–2022". */
  testYears: string;
  /** Trades in the test years, grouped in the locale: "1.234". */
  trades: string;
  expectancyR: string;
  sharpe: string;
  /** Deflated Sharpe ratio as a probability, 2 decimals ("—" for a single pair's slice). */
  deflatedSharpe: string;
}

/** Formats an `EdgeFigures` record for display in `locale` (see `FormattedFigures`). */
export function formatEdgeFigures(f: EdgeFigures, locale: string): FormattedFigures {
  // The shipped table's figures are the same objects on every server render (issue 24): formatted once per locale.
  let byLocale = formatted.get(f);
  if (!byLocale) formatted.set(f, (byLocale = new Map()));
  let out = byLocale.get(locale);
  if (!out) byLocale.set(locale, (out = Object.freeze(formatFigures(f, locale))));
  return out;
}

/** Formatted figures per figures object and locale (the objects are never changed once read). */
const formatted = new WeakMap<EdgeFigures, Map<string, FormattedFigures>>();

function formatFigures(f: EdgeFigures, locale: string): FormattedFigures {
  return {
    annualReturn: formatPctString(f.annualReturnPct, locale, { signed: true }),
    worstYear: f.worstYear ? { year: f.worstYear.year, value: formatPctString(f.worstYear.returnPct, locale, { signed: true }) } : null,
    maxDrawdown: formatPctString(f.maxDrawdownPct, locale),
    profitFactor: formatRatioString(f.profitFactor, locale),
    yearsPositive: f.yearsPositive,
    years: f.years,
    randomPercentile: f.randomPercentile === null ? null : formatPctString(f.randomPercentile, locale, { decimals: 0, maxDecimals: 1 }),
    testYears: yearSpan(f.firstYear, f.lastYear),
    trades: nf(locale, { maximumFractionDigits: 0 }).format(f.trades),
    expectancyR: formatRatioString(f.expectancyR, locale),
    sharpe: formatRatioString(f.sharpe, locale),
    deflatedSharpe: formatRatioString(f.deflatedSharpe, locale),
  };
}

/** Styles the long-history data (H1 and slower) cannot judge: scalper and day trade need M5/M15. */
const SHORT_TIMEFRAME_STYLES: readonly TradingStyle[] = ["scalper", "day"];

/**
 * The `research` catalogue key of the verdict sentence of a style: edge / no edge (with the test years) /
 * untested — for scalper and day trade because the M5/M15 data is missing, for swing and position because
 * the study has not run yet (the placeholder table).
 */
export function verdictSentenceKey(verdict: EdgeVerdict, style: TradingStyle): "verdict.edge" | "verdict.noEdge" | "verdict.untestedShortData" | "verdict.untestedNotRun" {
  if (verdict === "edge") return "verdict.edge";
  if (verdict === "no_edge") return "verdict.noEdge";
  return SHORT_TIMEFRAME_STYLES.includes(style) ? "verdict.untestedShortData" : "verdict.untestedNotRun";
}

/** Badge tone of a verdict: green edge, amber no edge, grey untested. */
export function verdictTone(verdict: EdgeVerdict): "green" | "amber" | "grey" {
  return verdict === "edge" ? "green" : verdict === "no_edge" ? "amber" : "grey";
}
