/**
 * Pure display helpers (PRODUCT.md §5 Display, §9): money and percentages with Intl in the user's
 * locale (pt-BR by default), lots, price precision, dates in the user's time zone and the short
 * relative time ('Agora', 'Nm', 'Nh', 'Nd', then dd/mm). No I/O, no state but a bounded cache of Intl formatters: safe on server and
 * client, unit-tested in tests/unit/ui/format.test.ts.
 */

import { knownTimezone, localParts } from "../../core/risk/trading-day";

/** Locale and time zone of the reader (PRODUCT.md §9: pt-BR by default; time zone from preferences). */
export interface DisplayOptions {
  locale?: string;
  timeZone?: string;
}

/** Lot divisor (PRODUCT.md §9). */
export const UNITS_PER_LOT = 100_000;

/**
 * Intl formatters are costly to build (issue 13: a dashboard render built hundreds); they are pure for
 * given arguments, so each locale/options pair is built once and reused. Throws what Intl throws.
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function remember(key: string, f: Intl.NumberFormat | Intl.DateTimeFormat): void {
  if (formatters.size >= 1000) formatters.clear(); // locales × zones × currencies in use: far below
  formatters.set(key, f);
}
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!f) remember(key, (f = new Intl.NumberFormat(locale, options)));
  return f;
}
function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${locale}|${JSON.stringify(options)}`;
  let f = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!f) remember(key, (f = new Intl.DateTimeFormat(locale, options)));
  return f;
}

/** Parses a decimal string / number into a finite number, or null. */
export function toNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Money with the currency symbol in the locale (default pt-BR), e.g. 'US$ 1.234,50'; '—' when unknown. */
export function formatMoney(value: unknown, currency: string | null | undefined = "USD", opts: { signed?: boolean; locale?: string } = {}): string {
  const n = toNumber(value);
  if (n === null) return "—";
  let code = (currency || "USD").toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) code = "USD";
  const text = numberFormat(opts.locale ?? "pt-BR", {
    style: "currency",
    currency: code,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: opts.signed ? "exceptZero" : "auto",
  }).format(n);
  // Intl uses a no-break space between symbol and digits; keep a plain space for readable copy and tests.
  return text.replace(/\u00a0/g, " ");
}

/** Lots from units: |units| / 100000 with 2 decimals, e.g. '0.10'. */
export function formatLots(units: unknown): string {
  const n = toNumber(units);
  if (n === null) return "—";
  return (Math.abs(n) / UNITS_PER_LOT).toFixed(2);
}

/** Decimal places of an instrument's price: 3 for JPY pairs, else 5. */
export function pricePrecision(instrument: string): number {
  return /JPY/i.test(instrument) ? 3 : 5;
}

/**
 * Rounds a decimal (string or number) half away from zero to `dp` places without binary-float error
 * ('151.2345' → '151.235', where `Number.toFixed` would give '151.234').
 */
export function roundDecimal(value: string | number, dp: number): string | null {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : value.trim();
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!m || (!m[2] && !m[3])) {
    const n = toNumber(value);
    return n === null ? null : n.toFixed(dp); // e.g. exponent notation
  }
  const neg = m[1] === "-";
  const frac = (m[3] ?? "").padEnd(dp + 1, "0");
  let scaled = BigInt((m[2] || "0") + frac.slice(0, dp));
  if (Number(frac[dp]) >= 5) scaled += 1n;
  const digits = scaled.toString().padStart(dp + 1, "0");
  const out = dp > 0 ? `${digits.slice(0, -dp)}.${digits.slice(-dp)}` : digits;
  return neg && scaled !== 0n ? `-${out}` : out;
}

/** A price with the instrument's precision, e.g. '1.08423' or '151.234'; '—' when unknown. */
export function formatPrice(instrument: string, price: unknown): string {
  if (typeof price !== "string" && typeof price !== "number") return "—";
  if (toNumber(price) === null) return "—";
  return roundDecimal(price, pricePrecision(instrument)) ?? "—";
}

/** 'EUR_USD' → 'EUR/USD'. */
export function formatInstrument(instrument: string): string {
  return instrument.replace("_", "/");
}

/** A percentage with 1 decimal in the locale (default pt-BR), e.g. '62,5%'; '—' when unknown. */
export function formatPercent(value: number | null | undefined, decimals = 1, locale = "pt-BR"): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return `${numberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value)}%`;
}

/** A plain number in the locale with fixed decimals, e.g. '1,50'; '—' when unknown. */
export function formatNumber(value: number | null | undefined, decimals = 2, locale = "pt-BR"): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return numberFormat(locale, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }).format(value);
}

/** Timeframe labels normalised: '15m' → 'M15', '1h' → 'H1', 'D' → 'D1'. */
export function normaliseTimeframe(label: string | null | undefined): string {
  if (!label) return "—";
  const t = label.trim();
  const m = /^(\d+)\s*([mhd])$/i.exec(t);
  if (m) return `${m[2]!.toUpperCase()}${m[1]}`;
  if (/^[dwm]$/i.test(t)) return `${t.toUpperCase()}1`;
  return t.toUpperCase();
}

function two(n: number): string {
  return String(n).padStart(2, "0");
}

/** Calendar fields of an instant in a time zone (the runtime's zone when none is given). */
export function zonedParts(t: number, timeZone?: string): { year: number; month: number; day: number; hour: number; minute: number } {
  if (!timeZone) {
    const d = new Date(t);
    return { year: d.getFullYear(), month: d.getMonth() + 1, day: d.getDate(), hour: d.getHours(), minute: d.getMinutes() };
  }
  const l = localParts(t, timeZone);
  return { year: l.y, month: l.m, day: l.d, hour: l.h, minute: l.mi };
}

/** Short relative time: 'Agora' (< 1 min; `justNow` translates it), 'Nm', 'Nh', 'Nd' (< 7 days), then 'dd/mm' in the time zone. */
export function relativeTime(
  when: string | number | Date | null | undefined,
  now: number | Date = Date.now(),
  opts: { justNow?: string; timeZone?: string } = {},
): string {
  if (when === null || when === undefined || when === "") return "—";
  const t = when instanceof Date ? when.getTime() : typeof when === "number" ? when : Date.parse(when);
  if (!Number.isFinite(t)) return "—";
  const diff = Math.max(0, (now instanceof Date ? now.getTime() : now) - t);
  const min = Math.floor(diff / 60_000);
  if (min < 1) return opts.justNow ?? "Agora";
  if (min < 60) return `${min}m`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 7) return `${d}d`;
  const p = zonedParts(t, knownTimezone(opts.timeZone));
  return `${two(p.day)}/${two(p.month)}`;
}

function toTime(when: string | Date | null | undefined): number | null {
  if (!when) return null;
  const t = when instanceof Date ? when.getTime() : Date.parse(when);
  return Number.isNaN(t) ? null : t;
}

/** Date and time with Intl in the locale and time zone (pt-BR: 'dd/mm/aaaa hh:mm'); '—' when unknown. */
export function formatDateTime(when: string | Date | null | undefined, opts: DisplayOptions = {}): string {
  const t = toTime(when);
  if (t === null) return "—";
  return dateFormat(opts.locale ?? "pt-BR", {
    timeZone: knownTimezone(opts.timeZone),
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  })
    .format(t)
    .replace(/,\s*/, " ");
}

/** Time of day (hh:mm) in the locale and time zone; '—' when unknown. */
export function formatTime(when: string | Date | null | undefined, opts: DisplayOptions = {}): string {
  const t = toTime(when);
  if (t === null) return "—";
  return dateFormat(opts.locale ?? "pt-BR", { timeZone: knownTimezone(opts.timeZone), hour: "2-digit", minute: "2-digit" }).format(t);
}

/** Date with Intl in the locale and time zone (pt-BR: 'dd/mm/aaaa'); '—' when unknown. */
export function formatDate(when: string | Date | null | undefined, opts: DisplayOptions = {}): string {
  const t = toTime(when);
  if (t === null) return "—";
  return dateFormat(opts.locale ?? "pt-BR", { timeZone: knownTimezone(opts.timeZone), day: "2-digit", month: "2-digit", year: "numeric" }).format(t);
}
