/**
 * Stripe → our books (issue 9, ADR 0014): a user's subscription state and paid licence follow
 * Stripe, never the browser. Every path (webhook job, checkout validation, the daily sweep) ends in
 * `applySubscription`, which takes a subscription **as just read from Stripe** and writes, in one
 * transaction under a per-customer lock:
 * - the paid licence of that subscription (one row per Stripe subscription): created or extended to
 *   the period end while it is `active` or `trialing`; left alone while `past_due` / `unpaid` /
 *   `incomplete` (so it lapses at the end of the last paid period); ended at `ended_at` when the
 *   subscription is `canceled` or `incomplete_expired`;
 * - `users.subscription_status`, `stripe_subscription_id` and a summary of the subscription
 *   (`subscription_details`: plan, price, period end) for pages that must not call Stripe;
 * - `license_changes` rows for every change, and the user's notifications;
 * - `stripe_events.processed_at` of the event that caused it, when there is one.
 * Re-reading the subscription instead of trusting the event's snapshot is what makes late, repeated
 * and reordered events harmless: whatever order they arrive in, the last write is Stripe's state now.
 * The trial licence (licence.server.ts) is never touched.
 */
import type postgres from "postgres";
import type Stripe from "stripe";
import { msg } from "../../../core/i18n/message";
import { makeTickDue } from "../trading/tick-due.server";
import { db } from "../platform/db.server";
import { activeManageOnlySince } from "../../../db/queries/bots";
import { lockOwnerByCustomer, lockOwnerById, markSubscriptionSynced, setStripeCustomer, setSubscription } from "../../../db/queries/users";
import { randomToken } from "../platform/crypto.server";
import { logger } from "../platform/logger.server";
import { insertNotifications, type NewNotification } from "../notify/notifications.server";
import { isMissingResource, stripe } from "./stripe.server";
import { markStripeEventProcessed } from "../../../db/queries/stripe-events";
import { endLicence, insertPaidLicence, lockSubscriptionLicence, renewPaidLicence } from "../../../db/queries/licences";
import { insertSyncLicenceChange } from "../../../db/queries/license-changes";
import { planByStripePrice } from "../../../db/queries/plans";

/** Advisory lock namespace of a customer's sync (second key: hashtext(customer id)). */
const SYNC_LOCK = 724_010;

/** Statuses that grant access (PRODUCT.md §4: active or trialing with a valid licence). */
export const ENTITLED_STATUSES = new Set(["active", "trialing"]);
/** Statuses shown as 'Pagamento pendente' (PRODUCT.md §4). */
export const PENDING_STATUSES = new Set(["incomplete", "incomplete_expired", "past_due", "unpaid"]);
/** Statuses after which the subscription never grants access again. */
const ENDED_STATUSES = new Set(["canceled", "incomplete_expired"]);

/** What the pages show of a subscription without calling Stripe (users.subscription_details). */
export interface SubscriptionSummary {
  id: string;
  status: string;
  cancel_at_period_end: boolean;
  /** Epoch seconds (Stripe's unit). */
  current_period_start: number;
  current_period_end: number;
  cancel_at: number | null;
  ended_at: number | null;
  price: { id: string; unit_amount: number; currency: string; interval: string; interval_count: number };
  product: { id: string; name: string };
}

/** Where a sync came from (recorded in `license_changes.source`). */
export type SyncSource = "webhook" | "checkout" | "sweep" | "recheck" | "admin";

/** The outcome of one sync. */
export interface SyncResult {
  userId: string | null;
  status: string;
  licenceChange: "created" | "extended" | "shortened" | "ended" | "reactivated" | null;
  licenceEnd: Date | null;
}

/** A subscription's period (its items' periods: the API version of issue 9 keeps them per item), epoch s. */
export function subscriptionPeriod(sub: Stripe.Subscription): { start: number; end: number } {
  const items = sub.items.data;
  if (items.length === 0) return { start: sub.start_date, end: sub.start_date };
  return { start: Math.min(...items.map((i) => i.current_period_start)), end: Math.max(...items.map((i) => i.current_period_end)) };
}

/** The id of a field that is an id or an expanded object. */
export function idOf(v: string | { id: string } | null | undefined): string | null {
  return v == null ? null : typeof v === "string" ? v : v.id;
}

/** The summary kept in users.subscription_details. */
export function summarize(sub: Stripe.Subscription, productName: string): SubscriptionSummary {
  const { start, end } = subscriptionPeriod(sub);
  const price = sub.items.data[0]?.price;
  return {
    id: sub.id,
    status: sub.status,
    cancel_at_period_end: sub.cancel_at_period_end,
    current_period_start: start,
    current_period_end: end,
    cancel_at: sub.cancel_at ?? null,
    ended_at: sub.ended_at ?? null,
    price: {
      id: price?.id ?? "",
      unit_amount: price?.unit_amount ?? 0,
      currency: price?.currency ?? "brl",
      interval: price?.recurring?.interval ?? "month",
      interval_count: price?.recurring?.interval_count ?? 1,
    },
    product: { id: idOf(price?.product as string | { id: string } | undefined) ?? "", name: productName },
  };
}

type Tx = postgres.TransactionSql;

/** How much a status is worth to the user: access, then a payment to fix, then nothing. */
function statusRank(status: string): number {
  return ENTITLED_STATUSES.has(status) ? 3 : PENDING_STATUSES.has(status) && status !== "incomplete_expired" ? 2 : 1;
}

/** A date for a notification text (dd/mm/aaaa, Brasília time: the product's default zone, PRODUCT.md §9). */
function day(d: Date): string {
  return new Intl.DateTimeFormat("pt-BR", { timeZone: "America/Sao_Paulo", day: "2-digit", month: "2-digit", year: "numeric" }).format(d);
}

/** The user a subscription belongs to: by customer id, else by the metadata our checkout set. */
async function ownerOf(tx: Tx, sub: Stripe.Subscription): Promise<{ id: string; stripe_customer_id: string | null; stripe_subscription_id: string | null; subscription_status: string } | undefined> {
  const customer = idOf(sub.customer);
  const byCustomer = await lockOwnerByCustomer(tx, customer);
  if (byCustomer) return byCustomer;
  const userId = sub.metadata?.userId;
  if (!userId || !/^[0-9a-f-]{36}$/i.test(userId)) return undefined;
  const byMeta = await lockOwnerById(tx, userId);
  if (byMeta && !byMeta.stripe_customer_id && customer) {
    await setStripeCustomer(tx, byMeta.id, customer);
    byMeta.stripe_customer_id = customer;
  }
  return byMeta && byMeta.stripe_customer_id === customer ? byMeta : undefined;
}

/**
 * Writes a subscription's state (as just read from Stripe) into our books; see the module comment.
 * Idempotent: the same subscription state twice changes nothing the second time.
 * @param eventId the `stripe_events` row to mark processed in the same transaction
 */
export async function applySubscription(sub: Stripe.Subscription, source: SyncSource, eventId?: string): Promise<SyncResult> {
  const customer = idOf(sub.customer) ?? "";
  const result = await db().begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${SYNC_LOCK}, hashtext(${customer}))`;
    const applied = await applyLocked(tx, sub, source, eventId);
    if (eventId) await markStripeEventProcessed(tx, eventId);
    return applied;
  });
  // A bot in manage-only resumes entries on its next tick: run that tick now rather than an interval later.
  if (result.userId && (result.licenceChange === "created" || result.licenceChange === "extended" || result.licenceChange === "reactivated")) {
    const userId = result.userId;
    if (await activeManageOnlySince(db(), userId)) await makeTickDue(userId).catch((err: unknown) => logger().warn({ userId, err: (err as Error).message }, "falha ao enfileirar o ciclo após o pagamento"));
  }
  return result;
}

async function applyLocked(tx: Tx, sub: Stripe.Subscription, source: SyncSource, eventId: string | undefined): Promise<SyncResult> {
  const user = await ownerOf(tx, sub);
  if (!user) {
    logger().warn({ subscription: sub.id, customer: idOf(sub.customer) }, "assinatura Stripe sem usuário correspondente: ignorada");
    return { userId: null, status: sub.status, licenceChange: null, licenceEnd: null };
  }
  const priceId = sub.items.data[0]?.price.id ?? null;
  const plan = await planByStripePrice(tx, priceId);
  const { start, end } = subscriptionPeriod(sub);
  const notices: NewNotification[] = [];

  // The licence of this subscription.
  const lic = await lockSubscriptionLicence(tx, sub.id);
  let change: SyncResult["licenceChange"] = null;
  let licenceEnd: Date | null = lic?.end_date ?? null;
  const log = async (licenseId: string, kind: NonNullable<SyncResult["licenceChange"]>, before: Date | null, after: Date) => {
    change = kind;
    licenceEnd = after;
    await insertSyncLicenceChange(tx, { licenceId: licenseId, userId: user.id, change: kind, endBefore: before, endAfter: after, source }, eventId ?? null);
  };
  if (ENTITLED_STATUSES.has(sub.status)) {
    const periodEnd = new Date(end * 1000);
    if (!lic) {
      const licenceId = await insertPaidLicence(tx, {
        userId: user.id,
        key: "PAID-" + randomToken(12).toUpperCase(),
        planId: plan?.id ?? null,
        planName: plan?.name ?? null,
        start: new Date(start * 1000),
        end: periodEnd,
        subscriptionId: sub.id,
      });
      await log(licenceId, "created", null, periodEnd);
      notices.push({ type: "success", title: msg("payments:notice.activeTitle"), message: msg("payments:notice.activeBody", { end: day(periodEnd) }), metadata: { subscription: sub.id } });
    } else if (!lic.is_active || lic.end_date.getTime() !== periodEnd.getTime()) {
      await renewPaidLicence(tx, lic.id, periodEnd, plan?.id ?? null, plan?.name ?? null);
      const kind = !lic.is_active ? "reactivated" : periodEnd > lic.end_date ? "extended" : "shortened";
      await log(lic.id, kind, lic.end_date, periodEnd);
      if (kind !== "shortened")
        notices.push({ type: "success", title: msg("payments:notice.renewedTitle"), message: msg("payments:notice.renewedBody", { end: day(periodEnd) }), metadata: { subscription: sub.id } });
    }
  } else if (ENDED_STATUSES.has(sub.status) && lic) {
    const endedAt = new Date((sub.ended_at ?? Math.floor(Date.now() / 1000)) * 1000);
    if (lic.end_date > endedAt) {
      await endLicence(tx, lic.id, endedAt);
      await log(lic.id, "ended", lic.end_date, endedAt);
    }
  }

  // The user's status follows their current subscription: a newer entitled one takes over; an
  // older one's events (say, the deletion of a replaced subscription) never overwrite it.
  const current = user.stripe_subscription_id;
  const takesOver = current === null || current === sub.id || statusRank(sub.status) > statusRank(user.subscription_status);
  if (takesOver) {
    const before = user.subscription_status;
    const summary = summarize(sub, plan?.name ?? "");
    await setSubscription(tx, user.id, sub.status, sub.id, summary);
    if (before !== sub.status) {
      if (sub.status === "past_due" || sub.status === "unpaid")
        notices.push({ type: "warning", title: msg("payments:notice.pastDueTitle"), message: msg("payments:notice.pastDueBody"), metadata: { subscription: sub.id } });
      if (sub.status === "canceled" && ENTITLED_STATUSES.has(before))
        notices.push({ type: "info", title: msg("payments:notice.canceledTitle"), message: msg("payments:notice.canceledBody"), metadata: { subscription: sub.id } });
    }
  } else {
    await markSubscriptionSynced(tx, user.id);
  }
  await insertNotifications(tx, user.id, notices);
  return { userId: user.id, status: takesOver ? sub.status : user.subscription_status, licenceChange: change, licenceEnd };
}

/**
 * Reads a subscription from Stripe and applies it.
 * @returns null when Stripe no longer knows it (the event's snapshot is used by the caller, if any)
 * @throws Stripe errors other than resource_missing (the job retries)
 */
export async function syncSubscription(subscriptionId: string, source: SyncSource, eventId?: string): Promise<SyncResult | null> {
  const client = await stripe();
  let sub: Stripe.Subscription;
  try {
    sub = await client.subscriptions.retrieve(subscriptionId);
  } catch (err) {
    if (isMissingResource(err)) return null;
    throw err;
  }
  return applySubscription(sub, source, eventId);
}

/**
 * Re-reads a customer's subscriptions (newest first) and applies each one we do not know yet plus
 * the user's current one; for a user whose checkout events never arrived. Returns the results.
 */
export async function syncCustomer(customerId: string, source: SyncSource): Promise<SyncResult[]> {
  const client = await stripe();
  let subs: Stripe.Subscription[];
  try {
    subs = (await client.subscriptions.list({ customer: customerId, status: "all", limit: 10 })).data;
  } catch (err) {
    if (isMissingResource(err)) return [];
    throw err;
  }
  // Oldest first, so the newest is applied last and becomes the current one when it grants access.
  subs.sort((a, b) => a.created - b.created);
  const results: SyncResult[] = [];
  for (const sub of subs) results.push(await applySubscription(sub, source));
  return results;
}
