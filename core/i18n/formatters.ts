/**
 * Custom i18next formats shared by the app and core instances (ADR 0007). Built-in `number(...)`
 * covers fixed decimals; `decimal` keeps the decimals a value was written with, for broker prices
 * ("158.138" has 3, "1.08500" has 5) rendered in the reader's notation (pt "158,138").
 */
import type { i18n } from "i18next";

/** Decimals after the point of a plain decimal written as text or number ("1.08500" → 5, 12 → 0); null for a non-number. */
function writtenDecimals(value: unknown): number | null {
  const text = typeof value === "number" ? (Number.isFinite(value) ? String(value) : "") : typeof value === "string" ? value.trim() : "";
  const m = /^[+-]?\d+(?:\.(\d+))?$/.exec(text);
  return m ? (m[1]?.length ?? 0) : null;
}

/**
 * A number in the notation of `lng` with the decimals it was written with (at least
 * `minimumFractionDigits` when given); anything that is not a plain decimal passes through unchanged.
 */
export function formatDecimal(value: unknown, lng: string | undefined, options: Record<string, unknown> = {}): string {
  const digits = writtenDecimals(value);
  if (digits === null) return String(value ?? "");
  const min = typeof options.minimumFractionDigits === "number" ? Math.max(options.minimumFractionDigits, digits) : digits;
  const useGrouping = options.useGrouping === false ? false : undefined;
  const format = new Intl.NumberFormat(lng || "pt", { minimumFractionDigits: Math.min(min, 20), maximumFractionDigits: Math.min(min, 20), ...(useGrouping === false ? { useGrouping } : {}) });
  // Intl formats a decimal string exactly (no float rounding of long prices).
  return format.format(String(value).trim() as unknown as number);
}

/** Registers the custom formats (`decimal`) on an initialised i18next instance. */
export function addFormatters(instance: i18n): void {
  instance.services.formatter?.add("decimal", (value, lng, options) => formatDecimal(value, lng, options as Record<string, unknown>));
}
