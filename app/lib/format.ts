/**
 * Pure display helpers (PRODUCT.md §5 Display, §9): money with Intl pt-BR, lots, price precision,
 * percentages, dates and the short relative time ('Agora', 'Nm', 'Nh', 'Nd', then dd/mm).
 * No I/O, no globals: safe on server and client, unit-tested in tests/unit/ui/format.test.ts.
 */

/** Lot divisor (PRODUCT.md §9). */
export const UNITS_PER_LOT = 100_000;

/** Parses a decimal string / number into a finite number, or null. */
export function toNumber(value: unknown): number | null {
  if (value === null || value === undefined || value === "") return null;
  const n = typeof value === "number" ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Money in pt-BR with the currency symbol, e.g. 'US$ 1.234,50'; '—' when unknown. */
export function formatMoney(value: unknown, currency: string | null | undefined = "USD", opts: { signed?: boolean } = {}): string {
  const n = toNumber(value);
  if (n === null) return "—";
  let code = (currency || "USD").toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) code = "USD";
  const text = new Intl.NumberFormat("pt-BR", {
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

/** A percentage with 1 decimal in pt-BR, e.g. '62,5%'; '—' when unknown. */
export function formatPercent(value: number | null | undefined, decimals = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return "—";
  return `${value.toLocaleString("pt-BR", { minimumFractionDigits: decimals, maximumFractionDigits: decimals })}%`;
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

/** Short relative time: 'Agora' (< 1 min), 'Nm', 'Nh', 'Nd' (< 7 days), then 'dd/mm'. */
export function relativeTime(when: string | number | Date | null | undefined, now: number | Date = Date.now()): string {
  if (when === null || when === undefined || when === "") return "—";
  const t = when instanceof Date ? when.getTime() : typeof when === "number" ? when : Date.parse(when);
  if (!Number.isFinite(t)) return "—";
  const diff = Math.max(0, (now instanceof Date ? now.getTime() : now) - t);
  const min = Math.floor(diff / 60_000);
  if (min < 1) return "Agora";
  if (min < 60) return `${min}m`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 7) return `${d}d`;
  const date = new Date(t);
  return `${two(date.getDate())}/${two(date.getMonth() + 1)}`;
}

/** Date and time in pt-BR (dd/mm/aaaa hh:mm); '—' when unknown. */
export function formatDateTime(when: string | Date | null | undefined): string {
  if (!when) return "—";
  const d = when instanceof Date ? when : new Date(when);
  if (Number.isNaN(d.getTime())) return "—";
  return `${two(d.getDate())}/${two(d.getMonth() + 1)}/${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** Date in pt-BR (dd/mm/aaaa); '—' when unknown. */
export function formatDate(when: string | Date | null | undefined): string {
  if (!when) return "—";
  const d = when instanceof Date ? when : new Date(when);
  if (Number.isNaN(d.getTime())) return "—";
  return `${two(d.getDate())}/${two(d.getMonth() + 1)}/${d.getFullYear()}`;
}
