/**
 * What the subscriber does with billing (issue 9; PRODUCT.md §2 subscription modal and billing page,
 * §3 Subscription status response, §7 Subscription/billing): subscribe through Stripe Checkout,
 * validate the return from it, read the subscription and the next charge, open the billing portal.
 * Every Stripe call goes through the SDK client of stripe.server.ts; the licence itself is only ever
 * written by subscription-sync.server.ts from Stripe's own state.
 */
import { createHash } from "node:crypto";
import type Stripe from "stripe";
import { msg } from "../../../core/i18n/message";
import { subscriptionDetails, swapStripeCustomer, userWithSubscription } from "../../../db/queries/users";
import type { UserRow } from "../identity/auth.server";
import { config } from "../platform/config.server";
import { db } from "../platform/db.server";
import { ConflictError, NotFoundError, ValidationError } from "../platform/errors.server";
import { latestLicence, licenceView, type LicenseStatus } from "../identity/licence.server";
import type { PlanRow } from "./plans.server";
import { isMissingResource, paymentsConfigured, stripe, stripeFailure } from "./stripe.server";
import { ENTITLED_STATUSES, applySubscription, idOf, syncCustomer, type SubscriptionSummary } from "./subscription-sync.server";
import { logger } from "../platform/logger.server";
import { activePlanById, setPlanStripeIds } from "../../../db/queries/plans";

/** GET /api/subscriptions/status (PRODUCT.md §3 Subscription status response, plus what the billing page needs). */
export interface SubscriptionStatusView {
  success: true;
  subscriptionStatus: string;
  hasValidLicense: boolean;
  licenseStatus: LicenseStatus;
  license: { key: string; isActive: boolean; startDate: string; endDate: string; planId: string | null; planName: string | null; kind: "trial" | "paid" | "manual" } | null;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  subscriptionDetails: null | {
    id: string;
    status: string;
    cancel_at_period_end: boolean;
    /** Epoch seconds. */
    current_period_end: number;
    cancel_at: number | null;
    items: { data: [{ price: { id: string; unit_amount: number; currency: string; recurring: { interval: string; interval_count: number }; product: { id: string; name: string } } }] };
  };
  paymentsConfigured: boolean;
}

/** The user's row as stored now (a page may hold an older copy), with the subscription summary. */
async function freshUser(userId: string) {
  const u = await userWithSubscription<SubscriptionSummary>(db(), userId);
  if (!u) throw new NotFoundError(msg("payments:userNotFound"));
  return u;
}

/** The subscription summary in the §3 shape (`items.data[0].price`, `current_period_end`). */
function detailsView(s: SubscriptionSummary | null): SubscriptionStatusView["subscriptionDetails"] {
  if (!s) return null;
  return {
    id: s.id,
    status: s.status,
    cancel_at_period_end: s.cancel_at_period_end,
    current_period_end: s.current_period_end,
    cancel_at: s.cancel_at,
    items: {
      data: [
        {
          price: {
            id: s.price.id,
            unit_amount: s.price.unit_amount,
            currency: s.price.currency,
            recurring: { interval: s.price.interval, interval_count: s.price.interval_count },
            product: { id: s.product.id, name: s.product.name },
          },
        },
      ],
    },
  };
}

/**
 * Whether the user's subscription is set to cancel at its period end and when that is (ISO: `cancel_at`, else
 * `current_period_end`), from our books (no Stripe call): the dashboard's subscription card (issue 22).
 */
export async function scheduledCancellation(userId: string): Promise<{ cancelAtPeriodEnd: boolean; periodEnd: string | null }> {
  const s = await subscriptionDetails<SubscriptionSummary>(db(), userId);
  if (!s) return { cancelAtPeriodEnd: false, periodEnd: null };
  const at = s.cancel_at ?? s.current_period_end;
  return { cancelAtPeriodEnd: !!s.cancel_at_period_end, periodEnd: Number.isFinite(at) ? new Date(at * 1000).toISOString() : null };
}

/** The user's subscription and licence as our books hold them (no Stripe call: Stripe's state arrives by webhook and sweep). */
export async function subscriptionStatus(user: Pick<UserRow, "id">): Promise<SubscriptionStatusView> {
  const u = await freshUser(user.id);
  const lic = await latestLicence(db(), u.id);
  const view = licenceView(u.role, u.subscription_status, lic);
  return {
    success: true,
    subscriptionStatus: u.subscription_status,
    hasValidLicense: view.hasValidLicense,
    licenseStatus: view.licenseStatus,
    license: view.license,
    stripeCustomerId: u.stripe_customer_id,
    stripeSubscriptionId: u.stripe_subscription_id,
    subscriptionDetails: detailsView(u.subscription_details),
    paymentsConfigured: await paymentsConfigured(),
  };
}

/**
 * "Já paguei, validar agora" (PRODUCT.md §2, §4): re-reads the user's subscriptions from Stripe (a
 * payment whose webhook has not arrived yet counts at once) and returns the status. When Stripe
 * cannot be reached the stored status is returned as it is.
 */
export async function recheckSubscription(user: Pick<UserRow, "id">): Promise<SubscriptionStatusView> {
  const u = await freshUser(user.id);
  if (u.stripe_customer_id && (await paymentsConfigured())) {
    try {
      await syncCustomer(u.stripe_customer_id, "recheck");
    } catch (err) {
      logger().warn({ userId: u.id, err: (err as Error).message }, "revalidação da assinatura na Stripe falhou");
    }
  }
  return subscriptionStatus(u);
}

/** Stripe's Checkout locale for the user's language. */
function checkoutLocale(language: unknown): Stripe.Checkout.SessionCreateParams.Locale {
  return language === "en" ? "en" : language === "es" ? "es" : "pt-BR";
}

/** A stable idempotency key: the same attempt (user, what, 10-minute window) gets the same Stripe object. */
function attemptKey(...parts: string[]): string {
  const window = Math.floor(Date.now() / 600_000);
  return createHash("sha256").update([...parts, String(window)].join("|")).digest("hex").slice(0, 40);
}

/**
 * The user's Stripe customer: the stored one if Stripe still knows it, else a new one (created once:
 * the idempotency key names the user and the customer it replaces), stored on the user.
 */
async function ensureCustomer(client: Stripe, user: UserRow): Promise<string> {
  const old = user.stripe_customer_id;
  if (old) {
    try {
      const c = await client.customers.retrieve(old);
      if (!("deleted" in c && c.deleted)) return old;
    } catch (err) {
      if (!isMissingResource(err)) throw err;
    }
  }
  const name = `${user.first_name} ${user.last_name}`.trim();
  const customer = await client.customers.create(
    { email: user.email, ...(name ? { name } : {}), metadata: { userId: user.id } },
    { idempotencyKey: `customer-${user.id}-${old ?? "first"}` },
  );
  if (!(await swapStripeCustomer(db(), user.id, customer.id, old))) return (await freshUser(user.id)).stripe_customer_id ?? customer.id;
  return customer.id;
}

/**
 * The plan's Stripe price, matching its amount, currency and interval: the stored one when it still
 * does, else a new price (and product, when missing) created and stored on the plan. The admin panel
 * creates prices when a plan is saved; this keeps checkout right when it did not (seeded plan,
 * a reset simulator, an edited price).
 */
export async function ensurePlanPrice(client: Stripe, plan: PlanRow): Promise<string> {
  const currency = plan.currency.toLowerCase();
  if (plan.stripe_price_id) {
    try {
      const p = await client.prices.retrieve(plan.stripe_price_id);
      if (p.active && p.unit_amount === plan.price_cents && p.currency === currency && p.recurring?.interval === plan.interval && p.recurring.interval_count === plan.interval_count)
        return p.id;
    } catch (err) {
      if (!isMissingResource(err)) throw err;
    }
  }
  let productId = plan.stripe_product_id;
  if (productId) {
    try {
      const prod = await client.products.retrieve(productId);
      if (prod.active === false) await client.products.update(productId, { active: true });
    } catch (err) {
      if (!isMissingResource(err)) throw err;
      productId = null;
    }
  }
  if (!productId) {
    const prod = await client.products.create(
      { name: plan.name, ...(plan.description ? { description: plan.description } : {}), metadata: { planId: plan.id } },
      { idempotencyKey: `product-${plan.id}-${plan.stripe_product_id ?? "first"}` },
    );
    productId = prod.id;
  }
  const price = await client.prices.create(
    { product: productId, unit_amount: plan.price_cents, currency, recurring: { interval: plan.interval as "month" | "year", interval_count: plan.interval_count }, metadata: { planId: plan.id } },
    { idempotencyKey: `price-${plan.id}-${productId}-${plan.price_cents}-${currency}-${plan.interval}-${plan.interval_count}` },
  );
  await setPlanStripeIds(db(), plan.id, productId, price.id);
  return price.id;
}

/**
 * Creates a Stripe Checkout session for an active plan (POST /api/subscriptions/create-checkout-session).
 * One customer per user; `client_reference_id` = user id; the same attempt within 10 minutes (double
 * click, retry) gets the same session through a deterministic idempotency key.
 * @throws ValidationError (400) for an unknown or inactive plan; ConflictError (409) when the user
 *   already has an active subscription, or one whose renewal is unpaid (past_due/unpaid: fix the card in the portal); PaymentsNotConfiguredError (503); UpstreamError (502) when Stripe fails
 */
export async function createCheckout(user: UserRow, planId: string): Promise<{ checkoutUrl: string; sessionId: string }> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(planId)) throw new ValidationError(msg("payments:planNotFound"), { field: "planId" });
  const plan = await activePlanById(db(), planId);
  if (!plan) throw new ValidationError(msg("payments:planNotFound"), { field: "planId" });
  const u = await freshUser(user.id);
  if (u.stripe_subscription_id && ENTITLED_STATUSES.has(u.subscription_status)) throw new ConflictError(msg("payments:alreadySubscribed"));
  // A second subscription while Stripe still retries the first could charge twice: fix the card instead.
  if (u.stripe_subscription_id && (u.subscription_status === "past_due" || u.subscription_status === "unpaid")) throw new ConflictError(msg("payments:paymentPending"));
  try {
    const client = await stripe();
    const customer = await ensureCustomer(client, u);
    const price = await ensurePlanPrice(client, plan);
    const app = config().APP_URL;
    const session = await client.checkout.sessions.create(
      {
        mode: "subscription",
        customer,
        client_reference_id: u.id,
        line_items: [{ price, quantity: 1 }],
        success_url: `${app}/subscription/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${app}/subscription/canceled`,
        locale: checkoutLocale(u.preferences?.language),
        metadata: { userId: u.id, planId: plan.id },
        subscription_data: { metadata: { userId: u.id, planId: plan.id } },
      },
      { idempotencyKey: attemptKey("checkout", u.id, plan.id, price, customer) },
    );
    if (!session.url) throw new Error("Stripe não devolveu a URL do checkout");
    return { checkoutUrl: session.url, sessionId: session.id };
  } catch (err) {
    throw stripeFailure(err, "checkout");
  }
}

/**
 * Validates the return from Checkout (/subscription/success?session_id=…): the session must be the
 * user's; when it is complete and paid (or needs no payment) its subscription is read from Stripe and
 * applied at once, without waiting for the webhook.
 * @returns whether the user now holds a valid licence, and the status view
 * @throws NotFoundError (404) for a session that is not the user's or does not exist
 */
export async function validateCheckoutSession(user: UserRow, sessionId: string): Promise<{ valid: boolean; status: SubscriptionStatusView }> {
  if (!/^cs_[A-Za-z0-9_]{1,250}$/.test(sessionId)) throw new NotFoundError(msg("payments:sessionNotFound"));
  try {
    const client = await stripe();
    let session: Stripe.Checkout.Session;
    try {
      session = await client.checkout.sessions.retrieve(sessionId);
    } catch (err) {
      if (isMissingResource(err)) throw new NotFoundError(msg("payments:sessionNotFound"));
      throw err;
    }
    if (session.client_reference_id !== user.id) throw new NotFoundError(msg("payments:sessionNotFound"));
    const paid = session.status === "complete" && (session.payment_status === "paid" || session.payment_status === "no_payment_required");
    const subId = idOf(session.subscription);
    if (paid && subId) await applySubscription(await client.subscriptions.retrieve(subId), "checkout");
    const status = await subscriptionStatus(user);
    return { valid: paid && status.hasValidLicense, status };
  } catch (err) {
    throw stripeFailure(err, "validate-session");
  }
}

/** The next charge (GET /api/billing/upcoming); amounts in cents, times epoch seconds. */
export interface UpcomingInvoice {
  next_payment_attempt: number | null;
  next_payment_date: number | null;
  period_end: number;
  amount_due: number;
  currency: string;
}

/**
 * The next charge of the user's active subscription (Stripe `invoices.createPreview`), or null when
 * there is none (no subscription, not active, or cancelling at the period end).
 * @throws UpstreamError (502) when Stripe fails
 */
export async function upcomingInvoice(user: Pick<UserRow, "id">): Promise<UpcomingInvoice | null> {
  const u = await freshUser(user.id);
  if (!u.stripe_customer_id || !u.stripe_subscription_id || !ENTITLED_STATUSES.has(u.subscription_status)) return null;
  if (u.subscription_details?.cancel_at_period_end) return null;
  try {
    const client = await stripe();
    const inv = await client.invoices.createPreview({ customer: u.stripe_customer_id, subscription: u.stripe_subscription_id });
    const periodEnd = Math.max(...inv.lines.data.map((l) => l.period.end), inv.period_end);
    const next = inv.next_payment_attempt ?? null;
    return { next_payment_attempt: next, next_payment_date: next ?? periodEnd, period_end: periodEnd, amount_due: inv.amount_due, currency: inv.currency };
  } catch (err) {
    if ((err as { code?: string }).code === "invoice_upcoming_none" || isMissingResource(err)) return null;
    throw stripeFailure(err, "upcoming-invoice");
  }
}

/**
 * A Billing Portal session for the user's Stripe customer (update the card, cancel at period end,
 * resume), returning to /billing.
 * @throws ValidationError (400) for a user without a Stripe customer; UpstreamError (502) when Stripe fails
 */
export async function createPortalSession(user: Pick<UserRow, "id">): Promise<{ portalUrl: string }> {
  const u = await freshUser(user.id);
  if (!u.stripe_customer_id) throw new ValidationError(msg("payments:noCustomer"));
  try {
    const client = await stripe();
    const s = await client.billingPortal.sessions.create({ customer: u.stripe_customer_id, return_url: `${config().APP_URL}/billing` });
    return { portalUrl: s.url };
  } catch (err) {
    throw stripeFailure(err, "portal");
  }
}
