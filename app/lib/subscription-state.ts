/**
 * What the user's subscription is, in one word, for the dashboard's subscription card and the billing
 * page (issue 22; PRODUCT.md §2 Dashboard and Billing, §4 subscription statuses and licences).
 */

/** The facts the state is read from: Stripe's status, our licence, and a cancellation at the period end. */
export interface SubscriptionFacts {
  /** Stripe's status (active, trialing, past_due, canceled, …) or "inactive". */
  subscriptionStatus: string | null | undefined;
  /** licence.server.ts `licenseStatus`: valid, expired, pending, admin, none. */
  licenseStatus: string | null | undefined;
  /** The newest licence: its kind (trial, paid, manual) and end (ISO). */
  license: { kind?: string | null; endDate?: string | null } | null | undefined;
  /** Stripe's `cancel_at_period_end`. */
  cancelAtPeriodEnd?: boolean | null;
  /** When a cancellation at the period end takes effect (ISO: `cancel_at`, else `current_period_end`). */
  periodEnd?: string | null;
}

/** The state's key in the `dashboard` catalog's `subscriptionCard.state`. */
export type SubscriptionStateKey = "active" | "pastDue" | "canceled" | "canceledUntil" | "manual" | "trial" | "inactive";

export interface SubscriptionState {
  key: SubscriptionStateKey;
  /** With `canceledUntil`: the last day of access (ISO). */
  until: string | null;
  /** When the billing page shows 'Cancelamento agendado para …' (ISO), else null. */
  cancelScheduled: string | null;
}

/** Stripe statuses under which a subscription still runs (and may be set to cancel at its period end). */
const RUNNING = new Set(["active", "trialing", "past_due"]);

function future(iso: string | null | undefined, now: Date): boolean {
  const at = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(at) && at > now.getTime();
}

/**
 * The subscription's state. Rule, first match wins:
 * - a cancellation is *scheduled* only while the subscription still runs (active, trialing, past_due) with
 *   `cancel_at_period_end` and a period end in the future, and the licence is not expired;
 * - active / trialing: 'Ativa', or 'Cancelada (acesso até <period end>)' when its cancellation is scheduled;
 * - past_due: 'Pagamento Pendente';
 * - a licence in force (licenseStatus "valid"): kind manual 'Licença manual' (extended by an admin), kind trial
 *   'Teste grátis', kind paid 'Cancelada (acesso até <licence end>)' (paid through, no running subscription);
 * - otherwise canceled 'Cancelada', anything else 'Inativa'.
 */
export function subscriptionState(f: SubscriptionFacts, now = new Date()): SubscriptionState {
  const status = f.subscriptionStatus ?? "";
  const scheduled = RUNNING.has(status) && !!f.cancelAtPeriodEnd && future(f.periodEnd, now) && f.licenseStatus !== "expired";
  const cancelScheduled = scheduled ? (f.periodEnd as string) : null;
  const state = (key: SubscriptionStateKey, until: string | null = null): SubscriptionState => ({ key, until, cancelScheduled });

  if (status === "active" || status === "trialing") return cancelScheduled ? state("canceledUntil", cancelScheduled) : state("active");
  if (status === "past_due") return state("pastDue");
  if (f.licenseStatus === "valid") {
    const kind = f.license?.kind;
    if (kind === "manual") return state("manual");
    if (kind === "trial") return state("trial");
    if (kind === "paid" && future(f.license?.endDate, now)) return state("canceledUntil", f.license?.endDate ?? null);
  }
  return state(status === "canceled" ? "canceled" : "inactive");
}
