/**
 * Pure billing-view logic (PRODUCT.md §2 subscription modal and Billing, §4 subscription statuses
 * and licence display, §7 upcoming invoice, §9 price format; issue 9): whether the subscription
 * modal is open and closable, which statuses are "payment pending", when a payment counts as
 * confirmed ('Já paguei, validar agora'), the amount and the next-charge date of the billing page,
 * and which redirect targets a checkout or portal URL may be. No I/O: safe on server and client,
 * unit-tested in tests/unit/ui/billing.test.ts.
 */
import { formatPlanPricePerInterval } from "~/lib/plans";

/** Stripe statuses that grant access with a valid licence and hide the modal (PRODUCT.md §4). */
export const ACTIVE_STATUSES: readonly string[] = ["active", "trialing"];
/** Statuses that show the 'Pagamento pendente' warning and 'Já paguei, validar agora' (PRODUCT.md §4). */
export const PAYMENT_PENDING_STATUSES: readonly string[] = ["past_due", "unpaid", "incomplete", "incomplete_expired"];

/** The query parameter of /billing that opens (`1`) or closes (`0`) the subscription modal. */
export const MODAL_PARAM = "assinar";

/** Whether a subscription status is an active subscription (active or trialing). */
export function isActiveSubscription(status: string | null | undefined): boolean {
  return ACTIVE_STATUSES.includes(status ?? "");
}

/** Whether a subscription status waits for a payment (past_due, unpaid, incomplete, incomplete_expired). */
export function isPaymentPending(status: string | null | undefined): boolean {
  return PAYMENT_PENDING_STATUSES.includes(status ?? "");
}

/**
 * Statuses whose fix is the card, not a new plan (issue 22 item 3): Stripe still retries the renewal
 * of a subscription that exists (past_due, unpaid), so the server refuses a second checkout (it could
 * charge twice) and the page offers the Billing Portal and 'Já paguei, validar agora' instead of the
 * subscription modal 'Assinatura Necessária' and its plans.
 */
export const CARD_FIX_STATUSES: readonly string[] = ["past_due", "unpaid"];

/** Whether the user must fix the card of an existing subscription (past_due, unpaid) rather than subscribe again. */
export function needsCardFix(status: string | null | undefined): boolean {
  return CARD_FIX_STATUSES.includes(status ?? "");
}

/** What the modal decision needs to know about the user. */
export interface ModalInput {
  subscriptionStatus: string;
  hasValidLicense: boolean;
  /** 'admin' never sees the modal (PRODUCT.md §6). */
  role?: string;
  /** The `assinar` query parameter: '1' opens, '0' closes (when closable), anything else: automatic. */
  param?: string | null;
  /** A subscribe attempt just failed: the modal stays open to show the error. */
  forced?: boolean;
}

/** Whether the modal is shown and whether the user may close it. */
export interface ModalState {
  open: boolean;
  closable: boolean;
}

/**
 * The subscription modal's state on /billing (PRODUCT.md §2, §4, §6):
 * - hidden for admins and for an active/trialing subscription with a valid licence (whatever the query);
 * - hidden for a subscription whose renewal is unpaid (past_due, unpaid: `needsCardFix`), whatever the
 *   query: its checkout would be refused; the page's 'Pagamento pendente' section is the way out;
 * - otherwise open by default, closable only with a valid licence (e.g. the 7-day trial);
 * - `assinar=1` (or a failed subscribe) opens it; `assinar=0` closes it only when it is closable.
 */
export function modalState(input: ModalInput): ModalState {
  if (input.role === "admin") return { open: false, closable: true };
  if (isActiveSubscription(input.subscriptionStatus) && input.hasValidLicense) return { open: false, closable: true };
  if (needsCardFix(input.subscriptionStatus)) return { open: false, closable: true };
  const closable = input.hasValidLicense;
  if (input.forced || input.param === "1") return { open: true, closable };
  if (input.param === "0" && closable) return { open: false, closable };
  return { open: true, closable };
}

/** What a status re-check ('Já paguei, validar agora') reads. */
export interface ConfirmInput {
  subscriptionStatus: string;
  hasValidLicense: boolean;
  license: { kind?: string | null } | null;
}

/**
 * Whether a re-check shows the payment went through, so the user may go on to the dashboard: a
 * valid licence with an active/trialing subscription, or a valid paid (or admin-granted) licence
 * while no payment is pending. A trial licence alone is not a payment.
 */
export function paymentConfirmed(v: ConfirmInput): boolean {
  if (!v.hasValidLicense) return false;
  if (isActiveSubscription(v.subscriptionStatus)) return true;
  if (isPaymentPending(v.subscriptionStatus)) return false;
  return v.license?.kind === "paid" || v.license?.kind === "manual";
}

/** The price part of `subscriptionDetails` (Stripe's subscription item). */
export interface SubscriptionPrice {
  unit_amount: number | null;
  currency: string;
  recurring?: { interval: string; interval_count?: number } | null;
}

/**
 * The subscription's amount as plans show it: 'R$ 97,00/mês' (BRL pt-BR, other currencies en-US,
 * the interval in the reader's language); null without a price.
 */
export function subscriptionAmount(price: SubscriptionPrice | null | undefined, language: unknown): string | null {
  if (!price || typeof price.unit_amount !== "number") return null;
  return formatPlanPricePerInterval(price.unit_amount, price.currency, price.recurring?.interval ?? "month", price.recurring?.interval_count ?? 1, language);
}

/** The upcoming invoice fields the billing page reads (PRODUCT.md §7: next_payment_attempt, else period_end). */
export interface UpcomingLike {
  next_payment_attempt?: number | null;
  next_payment_date?: number | null;
  period_end?: number | null;
}

/** The next charge of the billing page: a charge date, the licence end, or nothing known. */
export interface NextCharge {
  kind: "charge" | "licenceEnd" | "none";
  /** ISO date-time, or null when unknown. */
  date: string | null;
}

/** An epoch-seconds value as an ISO string, or null. */
export function epochToIso(seconds: number | null | undefined): string | null {
  if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds <= 0) return null;
  return new Date(seconds * 1000).toISOString();
}

/**
 * The next charge (PRODUCT.md §7): the upcoming invoice's date (next payment attempt, else next
 * payment date, else period end) when the user has a Stripe customer and an active subscription;
 * otherwise (or when the invoice gives no date) the licence end date.
 */
export function nextCharge(input: { subscriptionStatus: string; stripeCustomerId: string | null; upcoming: UpcomingLike | null; licenseEndDate: string | null }): NextCharge {
  if (input.stripeCustomerId && input.subscriptionStatus === "active" && input.upcoming) {
    const u = input.upcoming;
    const date = epochToIso(u.next_payment_attempt) ?? epochToIso(u.next_payment_date) ?? epochToIso(u.period_end);
    if (date) return { kind: "charge", date };
  }
  return input.licenseEndDate ? { kind: "licenceEnd", date: input.licenseEndDate } : { kind: "none", date: null };
}

/** Badge tone of a subscription status on the billing page. */
export function subscriptionTone(status: string | null | undefined): "green" | "amber" | "red" | "grey" {
  if (isActiveSubscription(status)) return "green";
  if (status === "past_due" || isPaymentPending(status)) return "amber";
  if (status === "canceled") return "red";
  return "grey";
}

/**
 * Whether a checkout or portal URL is a place we may send the browser: an absolute http(s) URL or a
 * root-relative path (the embedded Stripe simulator), never `javascript:`, `data:` or `//host`.
 */
export function isSafeRedirect(url: unknown): url is string {
  if (typeof url !== "string" || !url || url.length > 4096) return false;
  if (url.startsWith("/")) return !url.startsWith("//") && !url.startsWith("/\\");
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
}

/** A Stripe Checkout session id from the success page's query: trimmed, 1–255 safe characters, else null (PRODUCT.md §5 'Sessão inválida.'). */
export function checkoutSessionId(value: string | null | undefined): string | null {
  const id = (value ?? "").trim();
  return /^[A-Za-z0-9_-]{1,255}$/.test(id) ? id : null;
}
