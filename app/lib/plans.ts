/**
 * Plan display (PRODUCT.md §3 Plan, §9): prices are whole cents; BRL is written the Brazilian way
 * ('R$ 97,00') and every other currency the US way ('$97.00', '€97.00') whatever the reader's
 * language; the interval is 'mês'/'ano' (month/year, mes/año) in the reader's language, '3 meses'
 * when the count is above 1; the default plan is the highlighted one, else the first. Pure (the
 * interval labels come from the bundled `plans` catalogs); safe on server and client, unit-tested in
 * tests/unit/ui/plans.test.ts.
 */
import { msg } from "../../core/i18n/message";
import { translateMsg } from "../i18n";
import { formatMoney } from "./format";

/** A plan's billing interval (PRODUCT.md §3: default month). */
export type PlanInterval = "month" | "year";
export const PLAN_INTERVALS: readonly PlanInterval[] = ["month", "year"];

/** Plan cards show at most this many features (PRODUCT.md §9). */
export const PLAN_CARD_FEATURES = 4;

/** The Intl locale of a plan price: pt-BR for BRL, en-US for any other currency (PRODUCT.md §9). */
export function planPriceLocale(currency: string | null | undefined): "pt-BR" | "en-US" {
  return (currency || "BRL").toUpperCase() === "BRL" ? "pt-BR" : "en-US";
}

/**
 * A price in cents as money: 9700 BRL → 'R$ 97,00', 1999 USD → '$19.99', 500 EUR → '€5.00'.
 * Currency defaults to BRL; a price that is not a whole, non-negative number of cents gives '—'.
 */
export function formatPlanPrice(cents: unknown, currency: string | null | undefined = "BRL"): string {
  if (typeof cents !== "number" || !Number.isSafeInteger(cents) || cents < 0) return "—";
  const code = (currency || "BRL").toUpperCase();
  return formatMoney(cents / 100, code, { locale: planPriceLocale(code) });
}

/** 'month' unless the value is 'year' (PRODUCT.md §9: 'mês' by default, else 'ano'). */
export function toPlanInterval(value: unknown): PlanInterval {
  return value === "year" ? "year" : "month";
}

/**
 * The interval in the reader's language: 'mês' / 'ano' for a count of 1 (month / year, mes / año),
 * '{n} meses' / '{n} anos' above 1.
 */
export function formatPlanInterval(interval: unknown, count: unknown = 1, language: unknown = "pt"): string {
  const unit = toPlanInterval(interval);
  const n = typeof count === "number" && Number.isSafeInteger(count) && count > 1 ? count : 1;
  return n === 1 ? translateMsg(msg(`plans:interval.${unit}`), language) : translateMsg(msg(`plans:interval.${unit}Many`, { n }), language);
}

/** Price and interval together: 'R$ 97,00/mês', '$190.00/year', 'R$ 270,00 / 3 meses'. */
export function formatPlanPricePerInterval(cents: unknown, currency: string | null | undefined, interval: unknown, count: unknown = 1, language: unknown = "pt"): string {
  const price = formatPlanPrice(cents, currency);
  const period = formatPlanInterval(interval, count, language);
  return typeof count === "number" && count > 1 ? `${price} / ${period}` : `${price}/${period}`;
}

/** The plan a modal preselects: the first highlighted one, else the first (PRODUCT.md §9). */
export function defaultPlan<P extends { isHighlighted: boolean }>(plans: readonly P[]): P | undefined {
  return plans.find((p) => p.isHighlighted) ?? plans[0];
}
