/**
 * Plan prices (PRODUCT.md §9 admin dashboard "monthly revenue"; the admin subscriptions' MRR).
 *
 * A plan or Stripe price is billed every `intervalCount` × `interval` (Stripe's `recurring.interval`:
 * day, week, month, year). Its monthly value is the amount normalised to one month: a yearly price
 * counts 1/12, a weekly one 52/12, a daily one 365/12, and `intervalCount` divides (every 3 months →
 * 1/3). Decimals inside (core/decimal.ts); amounts are in minor units (cents) of the price's currency.
 */
import { Decimal } from "./decimal";

/** Billing intervals in a year (Stripe `recurring.interval`); an unknown interval counts as a month. */
const PER_YEAR: Readonly<Record<string, number>> = { year: 1, month: 12, week: 52, day: 365 };
const MONTHS_PER_YEAR = 12;

/**
 * Monthly value (cents, unrounded) of a price of `amountCents` billed every `intervalCount` ×
 * `interval`. E.g. 12 000 a year → 1 000; 6 000 every 3 months → 2 000; 1 200 a week → 5 200.
 * An `intervalCount` that is not a positive number counts as 1. Never throws.
 */
export function monthlyCents(amountCents: number, interval: string, intervalCount: number): number {
  const count = intervalCount > 0 ? intervalCount : 1;
  const perYear = Object.hasOwn(PER_YEAR, interval) ? PER_YEAR[interval]! : PER_YEAR.month!;
  return new Decimal(amountCents).mul(perYear).div(MONTHS_PER_YEAR * count).toNumber();
}
