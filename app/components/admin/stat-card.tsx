/**
 * The admin panel's figure card (issue 22 item 8; PRODUCT.md §2 Admin panel "Dashboard" and
 * "Subscriptions"): a label, the value and an optional hint. The value is never cut off ("US$ 116,…"
 * with the whole figure only in a tooltip a phone cannot reach): it wraps inside the card
 * (`break-words`) and its font grows with the viewport (`text-xl sm:text-2xl`; a long figure such as an
 * amount one step smaller), at 390 px as at 1440 px. An amount may break between its currency and its
 * number ("US$" / "116.234,56": Intl joins them with a no-break space), never inside the number.
 */
import clsx from "clsx";
import type { ReactNode } from "react";

/** What a stat card shows; `bad` tints the value red. */
export interface StatCardProps {
  label: string;
  value: ReactNode;
  hint?: ReactNode;
  tone?: "bad";
}

/** Figures longer than this many characters get the smaller font. */
const LONG_VALUE = 9;

/** A string value with its no-break spaces made breakable (the line may wrap between currency and number). */
export function breakableValue(value: ReactNode): ReactNode {
  return typeof value === "string" ? value.replace(/[\u00a0\u202f]/g, " ") : value;
}

/** One figure card: label, the whole value (wrapping, never truncated), optional hint. */
export function StatCard({ label, value, hint, tone }: StatCardProps) {
  const long = typeof value === "string" && value.length > LONG_VALUE;
  return (
    <div className="min-w-0 rounded-2xl border border-white/10 bg-slate-900/70 p-4" data-testid="admin-stat-card">
      <p className="text-xs text-slate-400">{label}</p>
      <p className={clsx("mt-1 break-words font-bold leading-tight tabular-nums", long ? "text-lg sm:text-xl" : "text-xl sm:text-2xl", tone === "bad" ? "text-rose-300" : "text-white")} data-testid="admin-stat-value">
        {breakableValue(value)}
      </p>
      {hint && <p className="mt-1 break-words text-xs text-slate-400">{hint}</p>}
    </div>
  );
}
