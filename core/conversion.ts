/**
 * Currency conversion from quoted FX prices (issue 12: P&L and sizing of crosses).
 *
 * An amount in currency `from` is worth `amount × rate` in `to`. The rate comes from mid prices
 * (bid+ask)/2 of the pairs at hand, in this order: 1 when the currencies are equal; the direct pair
 * `from_to` (its mid); the inverse pair `to_from` (1 / mid); else through USD, the currency every
 * supported pair but the crosses is quoted against (from→USD × USD→to, each direct or inverse).
 * Examples on a USD account: EUR_GBP's quote GBP → USD = mid(GBP_USD); EUR_JPY's quote JPY → USD =
 * 1 / mid(USD_JPY); USD_CAD's quote CAD → USD = 1 / mid(USD_CAD). This is how OANDA converts P&L
 * into the home currency (its `quoteHomeConversionFactors`, oanda/PROTOCOL.md §7.5), bar the spread.
 * Decimals only (core/decimal.ts).
 */
import { Decimal } from "./decimal";

/** A quote as the broker gives it (decimal strings). */
export interface PriceQuote {
  instrument: string;
  bid: string;
  ask: string;
}

/** Mid price of an instrument, or undefined when not at hand. */
export type MidLookup = (instrument: string) => Decimal | undefined;

/** A mid-price lookup over a list of quotes (invalid or non-positive prices count as absent). */
export function midsOf(prices: readonly PriceQuote[]): MidLookup {
  const map = new Map<string, Decimal>();
  for (const p of prices) {
    const mid = new Decimal(p.bid || "0").plus(p.ask || "0").div(2);
    if (mid.isFinite() && mid.gt(0)) map.set(p.instrument, mid);
  }
  return (name) => map.get(name);
}

/**
 * Value in `to` of one unit of `from` through one pair only: 1 when equal, the direct pair's mid
 * (`from_to`), else 1 / the inverse pair's mid (`to_from`); undefined when neither is at hand (no
 * route through USD: see `conversionRate`). E.g. JPY → USD with USD_JPY at 150 = 1/150.
 */
export function directRate(from: string, to: string, mid: MidLookup): Decimal | undefined {
  if (from === to) return new Decimal(1);
  const direct = mid(`${from}_${to}`);
  if (direct) return direct;
  const inverse = mid(`${to}_${from}`);
  return inverse ? new Decimal(1).div(inverse) : undefined;
}

/**
 * Value in `to` of one unit of `from` (see the module doc for the order of the routes), or undefined
 * when no price at hand links the two currencies.
 */
export function conversionRate(from: string, to: string, mid: MidLookup): Decimal | undefined {
  const hop = directRate(from, to, mid);
  if (hop) return hop;
  if (from === "USD" || to === "USD") return undefined;
  const a = directRate(from, "USD", mid);
  const b = a ? directRate("USD", to, mid) : undefined;
  return a && b ? a.mul(b) : undefined;
}

/**
 * The instruments whose prices `conversionRate(from, to, …)` may read, limited to `offered`
 * (the instruments the broker account offers), in the order they are tried. Empty when from = to.
 */
export function conversionInstruments(from: string, to: string, offered: readonly string[]): string[] {
  if (from === to) return [];
  const wanted = [`${from}_${to}`, `${to}_${from}`];
  if (from !== "USD" && to !== "USD") wanted.push(`${from}_USD`, `USD_${from}`, `${to}_USD`, `USD_${to}`);
  return wanted.filter((n) => offered.includes(n));
}
