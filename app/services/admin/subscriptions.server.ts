/**
 * Subscriptions in the admin panel (PRODUCT.md §2 "Subscriptions", §3 Provider subscription and
 * Subscription metrics, §7 Admin subscriptions, §9 page size 50; issue 10). Stripe is the source:
 * every read goes through the SDK (`stripe()`), enriched with our books — the customer's name and
 * e-mail from our users (by Stripe customer id; else Stripe's customer), the local plan name from our
 * plans (by price id, else product id). Cancelling (now, or at the period end) is done at Stripe and
 * applied to our books at once with `syncSubscription` (the webhook confirms it later), audited.
 */
import type Stripe from "stripe";
import { msg, type Msg } from "../../../core/i18n/message";
import { monthlyCents as planMonthlyCents } from "../../../core/plans";
import { SUBSCRIPTION_STATUSES, type SubscriptionStatusFilter } from "~/lib/admin-plans";
import { db } from "../platform/db.server";
import { usersByCustomers } from "../../../db/queries/users";
import { ConflictError, DomainError, NotFoundError, UpstreamError, ValidationError } from "../platform/errors.server";
import { logger } from "../platform/logger.server";
import { isMissingResource, PaymentsNotConfiguredError, stripe } from "../billing/stripe.server";
import { idOf, subscriptionPeriod, syncSubscription } from "../billing/subscription-sync.server";
import type { AdminActor } from "./access.server";
import { recordAudit } from "./audit.server";
import { plansByStripeIds } from "../../../db/queries/plans";

/** Admin subscription page size (PRODUCT.md §9). */
export const SUBSCRIPTION_PAGE_SIZE = 50;


/** A Stripe subscription as the admin list shows it (PRODUCT.md §3 Provider subscription). */
export interface ProviderSubscription {
  id: string;
  customerName: string | null;
  customerEmail: string | null;
  customerId: string | null;
  localPlanName: string | null;
  nickname: string | null;
  productName: string | null;
  priceId: string | null;
  interval: string | null;
  intervalCount: number;
  /** Cents. */
  unitAmount: number | null;
  quantity: number;
  /** ISO code, upper case ('BRL'). */
  currency: string;
  status: string;
  /** Epoch seconds. */
  currentPeriodEnd: number;
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  livemode: boolean;
  /** The subscription in Stripe's dashboard (test mode unless livemode). */
  dashboardUrl: string;
}

/** One page of the list (Stripe's cursor: the last id). */
export interface SubscriptionPage {
  data: ProviderSubscription[];
  has_more: boolean;
  next_cursor: string | null;
}

/** Active subscriptions and their monthly value per currency (cents; yearly prices / 12, × quantity). */
export interface SubscriptionMetrics {
  active_count: number;
  mrr_monthly_by_currency: Record<string, number>;
}

/** Stripe's dashboard page of a subscription (`/test/` outside live mode). */
export function dashboardUrl(id: string, livemode: boolean): string {
  return `https://dashboard.stripe.com/${livemode ? "" : "test/"}subscriptions/${encodeURIComponent(id)}`;
}

/** A Stripe failure while reading subscriptions: not configured stays as it is, else 'Erro ao carregar assinaturas do Stripe' (502). */
function loadFailure(err: unknown): Error {
  if (err instanceof PaymentsNotConfiguredError || err instanceof DomainError) return err;
  logger().warn({ err: (err as Error).message, code: (err as { code?: string }).code }, "admin: leitura das assinaturas na Stripe falhou");
  return new UpstreamError(msg("admin-billing:errors.loadSubscriptions"));
}

/** The list items of some Stripe subscriptions, with our users' names and our plans' names. */
async function enrich(subs: Stripe.Subscription[]): Promise<ProviderSubscription[]> {
  const customerIds = [...new Set(subs.map((s) => idOf(s.customer)).filter((x): x is string => !!x))];
  const priceIds = [...new Set(subs.map((s) => s.items.data[0]?.price.id).filter((x): x is string => !!x))];
  const productIds = [...new Set(subs.map((s) => idOf(s.items.data[0]?.price.product as string | { id: string } | undefined)).filter((x): x is string => !!x))];
  const sql = db();
  const [users, plans] = await Promise.all([
    customerIds.length
      ? usersByCustomers(sql, customerIds)
      : [],
    priceIds.length || productIds.length
      ? plansByStripeIds(sql, priceIds, productIds)
      : [],
  ]);
  const userBy = new Map(users.map((u) => [u.stripe_customer_id, u]));
  return subs.map((s) => {
    const item = s.items.data[0];
    const price = item?.price;
    const customerId = idOf(s.customer);
    const local = customerId ? userBy.get(customerId) : undefined;
    const stripeCustomer = typeof s.customer === "object" && s.customer && !("deleted" in s.customer && s.customer.deleted) ? (s.customer as Stripe.Customer) : null;
    const productId = idOf(price?.product as string | { id: string } | undefined);
    const product = typeof price?.product === "object" && price.product && !("deleted" in price.product && price.product.deleted) ? (price.product as Stripe.Product) : null;
    const plan = plans.find((p) => price && p.stripe_price_id === price.id) ?? plans.find((p) => productId && p.stripe_product_id === productId);
    const localName = local ? `${local.first_name} ${local.last_name}`.trim() : "";
    return {
      id: s.id,
      customerName: localName || stripeCustomer?.name || null,
      customerEmail: local?.email ?? stripeCustomer?.email ?? null,
      customerId,
      localPlanName: plan?.name ?? null,
      nickname: price?.nickname ?? null,
      productName: product?.name ?? null,
      priceId: price?.id ?? null,
      interval: price?.recurring?.interval ?? null,
      intervalCount: price?.recurring?.interval_count ?? 1,
      unitAmount: price?.unit_amount ?? null,
      quantity: item?.quantity ?? 1,
      currency: (price?.currency ?? s.currency ?? "").toUpperCase(),
      status: s.status,
      currentPeriodEnd: subscriptionPeriod(s).end,
      cancelAtPeriodEnd: s.cancel_at_period_end,
      cancelAt: s.cancel_at ?? null,
      livemode: s.livemode,
      dashboardUrl: dashboardUrl(s.id, s.livemode),
    };
  });
}

/** The list query: status filter, page size, cursor. */
export interface SubscriptionQuery {
  status?: string | null;
  limit?: string | number | null;
  startingAfter?: string | null;
}

/**
 * One page of Stripe's subscriptions, newest first (default: active, 50 a page, after a cursor).
 * @throws ValidationError for a bad status, limit or cursor; PaymentsNotConfiguredError (503);
 *   UpstreamError ('Erro ao carregar assinaturas do Stripe', 502) when Stripe fails
 */
export async function listSubscriptions(q: SubscriptionQuery = {}): Promise<SubscriptionPage> {
  const status = (q.status || "active") as SubscriptionStatusFilter;
  if (!SUBSCRIPTION_STATUSES.includes(status)) throw new ValidationError(msg("admin-billing:errors.badStatus"), { field: "status" });
  const limit = q.limit === undefined || q.limit === null || q.limit === "" ? SUBSCRIPTION_PAGE_SIZE : Number(q.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new ValidationError(msg("admin-billing:errors.badLimit"), { field: "limit" });
  const after = q.startingAfter || undefined;
  if (after !== undefined && !/^sub_[A-Za-z0-9_]{1,250}$/.test(after)) throw new ValidationError(msg("admin-billing:errors.badCursor"), { field: "starting_after" });
  try {
    const client = await stripe();
    const page = await client.subscriptions.list({ status, limit, ...(after ? { starting_after: after } : {}), expand: ["data.customer"] });
    const data = await enrich(page.data);
    return { data, has_more: page.has_more, next_cursor: page.has_more && data.length ? data[data.length - 1]!.id : null };
  } catch (err) {
    if (after && isMissingResource(err)) throw new ValidationError(msg("admin-billing:errors.badCursor"), { field: "starting_after" });
    throw loadFailure(err);
  }
}

/** Cents a month of one subscription item: amount × quantity, normalised from its interval (core/plans.ts). */
export function monthlyCents(unitAmount: number, quantity: number, interval: string, intervalCount: number): number {
  return planMonthlyCents(unitAmount * quantity, interval, intervalCount);
}

/** Most active subscriptions read for the metrics (a bound on one page view). */
const METRICS_MAX = 10_000;

/**
 * The active subscriptions' count and monthly value per currency, read from Stripe (every page).
 * @throws PaymentsNotConfiguredError (503); UpstreamError ('Erro ao carregar assinaturas do Stripe', 502)
 */
export async function subscriptionMetrics(): Promise<SubscriptionMetrics> {
  try {
    const client = await stripe();
    let count = 0;
    const mrr: Record<string, number> = {};
    for await (const sub of client.subscriptions.list({ status: "active", limit: 100 })) {
      count++;
      for (const item of sub.items.data) {
        const price = item.price;
        if (!price.recurring || price.unit_amount === null) continue;
        const cur = price.currency.toUpperCase();
        mrr[cur] = (mrr[cur] ?? 0) + monthlyCents(price.unit_amount, item.quantity ?? 1, price.recurring.interval, price.recurring.interval_count);
      }
      if (count >= METRICS_MAX) break;
    }
    for (const k of Object.keys(mrr)) mrr[k] = Math.round(mrr[k]!);
    return { active_count: count, mrr_monthly_by_currency: mrr };
  } catch (err) {
    throw loadFailure(err);
  }
}

/** A date for a message (dd/mm/aaaa in Brasília time, PRODUCT.md §9 admin dates). */
function day(epochSeconds: number): string {
  return new Intl.DateTimeFormat("pt-BR", { timeZone: "America/Sao_Paulo", day: "2-digit", month: "2-digit", year: "numeric" }).format(epochSeconds * 1000);
}

/** The result of a cancel: what the admin reads, and the subscription as Stripe has it now. */
export interface CancelResult {
  message: Msg;
  subscription: ProviderSubscription;
}

/**
 * Cancels a subscription at Stripe — now (DELETE) or at the period end (`cancel_at_period_end`) —,
 * applies it to our books at once (`syncSubscription`; the webhook confirms later) and audits
 * 'subscription.cancel' / 'subscription.cancel_at_period_end' with Stripe's state before and after.
 * @throws NotFoundError (unknown subscription); ConflictError (already canceled);
 *   PaymentsNotConfiguredError (503); UpstreamError (502) when Stripe fails
 */
export async function cancelSubscription(actor: AdminActor, id: string, atPeriodEnd: boolean): Promise<CancelResult> {
  if (!/^sub_[A-Za-z0-9_]{1,250}$/.test(id)) throw new NotFoundError(msg("admin-billing:errors.subscriptionNotFound"));
  let before: Stripe.Subscription;
  let after: Stripe.Subscription;
  try {
    const client = await stripe();
    try {
      before = await client.subscriptions.retrieve(id);
    } catch (err) {
      if (isMissingResource(err)) throw new NotFoundError(msg("admin-billing:errors.subscriptionNotFound"));
      throw err;
    }
    if (before.status === "canceled" || before.status === "incomplete_expired") throw new ConflictError(msg("admin-billing:errors.alreadyCanceled"));
    after = atPeriodEnd ? await client.subscriptions.update(id, { cancel_at_period_end: true }) : await client.subscriptions.cancel(id);
  } catch (err) {
    if (err instanceof DomainError) throw err;
    logger().warn({ subscription: id, err: (err as Error).message }, "admin: cancelamento na Stripe falhou");
    throw new UpstreamError(msg("admin-billing:errors.cancelFailed", { reason: msg("payments:providerError") }));
  }
  const shape = (s: Stripe.Subscription) => ({ id: s.id, status: s.status, cancelAtPeriodEnd: s.cancel_at_period_end, cancelAt: s.cancel_at ?? null, customer: idOf(s.customer), priceId: s.items.data[0]?.price.id ?? null });
  await recordAudit(actor, { action: atPeriodEnd ? "subscription.cancel_at_period_end" : "subscription.cancel", targetType: "subscription", targetId: id, before: shape(before), after: shape(after) });
  try {
    await syncSubscription(id, "admin");
  } catch (err) {
    logger().warn({ subscription: id, err: (err as Error).message }, "admin: aplicar o cancelamento aos nossos registros falhou (o webhook o aplicará)");
  }
  const [item] = await enrich([after]);
  const end = after.cancel_at ?? subscriptionPeriod(after).end;
  return { message: atPeriodEnd ? msg("admin-billing:subs.canceledAtPeriodEnd", { date: day(end) }) : msg("admin-billing:subs.canceledNow"), subscription: item! };
}
