/**
 * The trader's display currency (issue 22 item 11; PRODUCT.md §3 User preferences: currency BRL|USD|EUR):
 * amounts stay in the broker account's currency, and when the display currency differs they are also
 * shown converted at the broker's current rate ("≈ R$ 5.312,40").
 *
 * The rate is the mid price (bid+ask)/2 of the pair the broker offers, through core/conversion.ts: the
 * direct pair account_display (its mid), else the inverse display_account (1 / mid: USD → EUR on a USD
 * account is 1 / mid(EUR_USD)), else through USD for two non-USD currencies. When the broker offers no
 * such pair or gives no price (the simulator has no USD_BRL), there is NO rate: nothing is converted and
 * the screens say so once ("Cotação USD/BRL indisponível na corretora: valores em USD"). A rate is never
 * invented. Decimals only (core/decimal.ts). Pure and safe on server and client: the server resolves the
 * rate (app/services/broker/display-currency.server.ts), loaders pass it down, the UI converts with
 * `convertAmount` and formats with the usual money helper.
 */
import { conversionInstruments, conversionRate, midsOf, type PriceQuote } from "../../core/conversion";
import { Decimal } from "../../core/decimal";

/** Display currencies a trader may choose (PRODUCT.md §3). */
export const DISPLAY_CURRENCIES = ["BRL", "USD", "EUR"] as const;
export type DisplayCurrency = (typeof DISPLAY_CURRENCIES)[number];
/** Default display currency (PRODUCT.md §9 admin defaults: BRL). */
export const DEFAULT_DISPLAY_CURRENCY: DisplayCurrency = "BRL";

/** Significant digits kept of a rate (far beyond the cents it is used for; 1/mid has 40). */
const RATE_DIGITS = 12;

/** A stored preference as a display currency (unknown or missing → BRL). */
export function toDisplayCurrency(value: unknown): DisplayCurrency {
  const v = typeof value === "string" ? value.toUpperCase() : "";
  return (DISPLAY_CURRENCIES as readonly string[]).includes(v) ? (v as DisplayCurrency) : DEFAULT_DISPLAY_CURRENCY;
}

/** The rate from the account currency to the display currency, as loaders pass it to the screens. */
export interface DisplayRate {
  /** Currency of the broker account (the amounts' own currency), e.g. "USD". */
  account: string;
  /** The trader's display currency, e.g. "BRL". */
  display: string;
  /** Value in `display` of 1 unit of `account` (decimal string); null when equal or unavailable. */
  rate: string | null;
  /** The broker instruments whose prices gave the rate (e.g. ["EUR_USD"]); empty when none. */
  instruments: string[];
  /** True when `display` ≠ `account` and the broker has no rate: amounts are shown in `account` only. */
  unavailable: boolean;
  /** The reader-language notice when unavailable ("Cotação USD/BRL indisponível na corretora: valores em USD"), else null. */
  notice: string | null;
}

/** Where the broker's prices come from (injected: the server's quote cache, or a test's fixed quotes). */
export interface RateSource {
  /** Instruments the broker account offers. */
  offered: () => Promise<readonly string[]> | readonly string[];
  /** Current quotes of these instruments (an instrument without a price is left out). */
  quotes: (instruments: string[]) => Promise<readonly PriceQuote[]>;
}

/**
 * The rate account → display from the broker's prices (module doc), without the notice text.
 * Equal currencies: rate null, not unavailable (nothing to convert). No offered pair, or no positive
 * price: unavailable. Errors of `src` propagate (the caller decides what a broker failure shows).
 */
export async function resolveDisplayRate(account: string, display: string, src: RateSource): Promise<Omit<DisplayRate, "notice">> {
  const from = account.toUpperCase();
  const to = display.toUpperCase();
  if (from === to) return { account: from, display: to, rate: null, instruments: [], unavailable: false };
  const wanted = conversionInstruments(from, to, await src.offered());
  const quotes = wanted.length ? await src.quotes(wanted) : [];
  const rate = conversionRate(from, to, midsOf(quotes));
  if (!rate || !rate.isFinite() || rate.lte(0)) return { account: from, display: to, rate: null, instruments: [], unavailable: true };
  const used = quotes.map((q) => q.instrument).filter((i) => wanted.includes(i));
  return { account: from, display: to, rate: rate.toSignificantDigits(RATE_DIGITS).toString(), instruments: used, unavailable: false };
}

/**
 * `amount` (in `currency`, default the rate's account currency) converted to the display currency:
 * amount × rate rounded half-up to cents, as a decimal string. Null when there is nothing to show
 * beside the amount: no rate (equal currencies or unavailable), an amount in another currency than the
 * account's, or not a number.
 */
export function convertAmount(amount: unknown, rate: DisplayRate | null | undefined, currency?: string | null): string | null {
  if (!rate?.rate) return null;
  if (currency && currency.toUpperCase() !== rate.account) return null;
  if (amount === null || amount === undefined || amount === "") return null;
  try {
    const d = new Decimal(typeof amount === "number" || typeof amount === "string" ? amount : NaN);
    if (!d.isFinite()) return null;
    return d.mul(rate.rate).toDecimalPlaces(2).toFixed(2);
  } catch {
    return null;
  }
}
