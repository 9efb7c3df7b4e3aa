/**
 * The display-currency figures of the screens (issue 22 item 11): `<Converted>` shows, beside an amount
 * in the account currency, the amount converted to the trader's display currency ("≈ R$ 5.312,40"), and
 * `<DisplayRateNotice>` says once when the broker has no rate. The rate comes from the current route's
 * loader data (`displayRate`, app/services/broker/display-currency.server.ts), so cards need no new props;
 * the conversion is app/lib/display-currency.ts `convertAmount` (decimals), the formatting `useDisplay`.
 * No translations are loaded here (the notice arrives already in the reader's language), so the hero's
 * first load is unchanged.
 */
import { useMatches } from "@remix-run/react";
import clsx from "clsx";
import { convertAmount, type DisplayRate } from "~/lib/display-currency";
import { useDisplay } from "~/lib/hooks";

/** The display rate passed down by the deepest route whose loader data carries one (null: none). */
export function useDisplayRate(): DisplayRate | null {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const data = matches[i]!.data as { displayRate?: DisplayRate | null } | undefined;
    if (data && typeof data === "object" && "displayRate" in data) return data.displayRate ?? null;
  }
  return null;
}

/**
 * "≈ R$ 5.312,40": `amount` (in `currency`, the account's) at the display rate; renders nothing when
 * there is no rate (same currency, or unavailable) or the amount is not in the account currency.
 */
export function Converted({ amount, currency, signed, className }: { amount: unknown; currency?: string | null; signed?: boolean; className?: string }) {
  const rate = useDisplayRate();
  const fmt = useDisplay();
  const value = convertAmount(amount, rate, currency);
  if (value === null || !rate) return null;
  return (
    <span className={clsx("block text-xs font-normal text-slate-400 tabular-nums", className)} data-testid="converted-amount" title={rate.instruments.join(", ")}>
      ≈ {fmt.money(value, rate.display, { signed })}
    </span>
  );
}

/** The one notice of a page when the broker has no rate for the display currency (else nothing). */
export function DisplayRateNotice({ className }: { className?: string }) {
  const rate = useDisplayRate();
  if (!rate?.unavailable || !rate.notice) return null;
  return (
    <p className={clsx("rounded-xl border border-white/10 bg-white/5 px-3 py-2 text-xs text-slate-300", className)} role="status" data-testid="display-rate-notice">
      {rate.notice}
    </p>
  );
}
