/**
 * Stripe webhooks, the way Stripe asks (issue 9, ADR 0014):
 * - `receiveStripeEvent`: verifies `Stripe-Signature` on the raw body (`stripe.webhooks.constructEvent`,
 *   5-minute tolerance), stores the event once in `stripe_events` (`ON CONFLICT DO NOTHING` on Stripe's
 *   event id: a duplicate is a no-op) and queues its processing; the endpoint answers 2xx at once.
 * - `processStripeEvent` (the `stripe-event` job): finds the subscription the event is about, re-reads
 *   it from Stripe and applies it (subscription-sync.server.ts), marking the event processed in the same
 *   transaction as the effect. An event whose subscription Stripe answers 404 for, or whose `livemode`
 *   differs from the key in use, is marked and not applied (issue 24).
 * - `processPendingEvents` / `sweepSubscriptions` (cron jobs): events whose job was lost, and every
 *   customer reconciled with Stripe once a day (missed events).
 * Handled types: checkout.session.completed, customer.subscription.created|updated|deleted,
 * invoice.paid, invoice.payment_failed (others are stored and marked processed without effect).
 */
import type Stripe from "stripe";
import { queue } from "../platform/queue/boss";
import { enqueueStripeEvent } from "../platform/queue/send";
import { msg } from "../../../core/i18n/message";
import { customersToSync } from "../../../db/queries/users";
import { db } from "../platform/db.server";
import { ServiceUnavailableError, ValidationError } from "../platform/errors.server";
import { logger } from "../platform/logger.server";
import { bounded, metrics } from "../platform/metrics.server";
import { isLiveKey, stripe, stripeClientFor, stripeSettings } from "./stripe.server";
import { idOf, syncCustomer, syncSubscription, type SyncResult } from "./subscription-sync.server";
import {
  countStripeEventAttempt,
  insertStripeEvent,
  markStripeEventIgnored,
  markStripeEventProcessedAttempt,
  markStripeEventSubscriptionGone,
  pendingStripeEventIds,
  setStripeEventError,
  storedStripeEvent,
} from "../../../db/queries/stripe-events";

/** The event types the product acts on (enable these on the Stripe endpoint; README "Cobrança"). */
export const HANDLED_EVENT_TYPES = [
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
] as const;

/** The handled types as a label bound (others count as `other`). */
const HANDLED_TYPES: ReadonlySet<string> = new Set(HANDLED_EVENT_TYPES);

/** Seconds a signature's timestamp may differ from our clock (Stripe's default tolerance). */
export const SIGNATURE_TOLERANCE_SEC = 300;

/** The subscription an event is about, if any. */
export function subscriptionOfEvent(event: Stripe.Event): string | null {
  const o = event.data.object as unknown as Record<string, unknown>;
  switch (event.type) {
    case "checkout.session.completed": {
      const s = o as unknown as Stripe.Checkout.Session;
      if (s.mode !== "subscription") return null;
      return s.payment_status === "paid" || s.payment_status === "no_payment_required" ? idOf(s.subscription) : null;
    }
    case "customer.subscription.created":
    case "customer.subscription.updated":
    case "customer.subscription.deleted":
      return (o as unknown as Stripe.Subscription).id;
    case "invoice.paid":
    case "invoice.payment_failed":
      return idOf((o as unknown as Stripe.Invoice).parent?.subscription_details?.subscription);
    default:
      return null;
  }
}

/** The customer an event is about, if any (stored for support). */
function customerOfEvent(event: Stripe.Event): string | null {
  const c = (event.data.object as unknown as { customer?: string | { id: string } | null }).customer;
  return idOf(c ?? null);
}

/**
 * Verifies and stores one delivery.
 * @param rawBody the request body exactly as received (the signature covers its bytes)
 * @returns the event id and whether it was already stored (a duplicate delivery)
 * @throws ValidationError (400) on a missing, bad or stale signature, or a body that is not an event: nothing is stored
 * @throws ServiceUnavailableError (503) when no webhook secret is configured (Stripe retries later)
 */
export async function receiveStripeEvent(rawBody: string, signature: string | null): Promise<{ id: string; duplicate: boolean }> {
  try {
    const received = await storeStripeEvent(rawBody, signature);
    metrics().webhooksReceived.inc({ outcome: received.duplicate ? "duplicate" : "stored" });
    return received;
  } catch (err) {
    metrics().webhooksReceived.inc({ outcome: err instanceof ValidationError || err instanceof ServiceUnavailableError ? "refused" : "error" });
    throw err;
  }
}

/** `receiveStripeEvent` before its count in the metrics (issue 24). */
async function storeStripeEvent(rawBody: string, signature: string | null): Promise<{ id: string; duplicate: boolean }> {
  const settings = await stripeSettings();
  if (!settings?.webhookSecret) throw new ServiceUnavailableError(msg("payments:webhookNotConfigured"));
  if (!signature) throw new ValidationError(msg("payments:badSignature"));
  let event: Stripe.Event;
  try {
    event = stripeClientFor(settings).webhooks.constructEvent(rawBody, signature, settings.webhookSecret, SIGNATURE_TOLERANCE_SEC);
  } catch {
    throw new ValidationError(msg("payments:badSignature"));
  }
  if (typeof event.id !== "string" || typeof event.type !== "string" || !event.data?.object) throw new ValidationError(msg("payments:badEvent"));
  const subscriptionId = subscriptionOfEvent(event);
  const inserted = await insertStripeEvent(db(), {
    id: event.id,
    type: event.type,
    createdAt: new Date(event.created * 1000),
    livemode: event.livemode,
    customerId: customerOfEvent(event),
    subscriptionId,
    payload: event,
  });
  if (!inserted) return { id: event.id, duplicate: true };
  await dispatch(event.id);
  return { id: event.id, duplicate: false };
}

/** Queues the processing of a stored event; a process without a queue runs it in the background. */
async function dispatch(eventId: string): Promise<void> {
  if (queue()) {
    try {
      await enqueueStripeEvent(eventId);
      return;
    } catch (err) {
      // The event is stored: the pending-events job picks it up.
      logger().warn({ eventId, err: (err as Error).message }, "falha ao enfileirar evento Stripe");
      return;
    }
  }
  void processStripeEvent(eventId).catch((err: unknown) => logger().warn({ eventId, err: (err as Error).message }, "falha ao processar evento Stripe"));
}

/**
 * Processes one stored event (idempotent: an already processed event is skipped).
 * @throws Stripe or database errors (the job retries with backoff; the error is kept on the row)
 */
export async function processStripeEvent(eventId: string): Promise<SyncResult | null> {
  const sql = db();
  const row = await storedStripeEvent<Stripe.Event>(sql, eventId);
  if (!row || row.processed_at) return null;
  const event = row.payload;
  const type = bounded(event.type, HANDLED_TYPES);
  try {
    const subscriptionId = subscriptionOfEvent(event);
    if (!subscriptionId) {
      await markStripeEventProcessedAttempt(sql, eventId);
      metrics().webhooksProcessed.inc({ type });
      return null;
    }
    // An event of the other mode than the key in use (a test event at a live key, or the reverse) is
    // never applied (issue 24); it stays stored, marked with why.
    const settings = await stripeSettings();
    if (settings && event.livemode !== isLiveKey(settings.secretKey)) {
      logger().warn({ eventId, livemode: event.livemode }, "evento Stripe de outro modo que a chave em uso: ignorado");
      await markStripeEventIgnored(sql, eventId, `livemode ${String(event.livemode)} differs from the key in use`);
      return null;
    }
    await countStripeEventAttempt(sql, eventId);
    const synced = await syncSubscription(subscriptionId, "webhook", eventId);
    metrics().webhooksProcessed.inc({ type }); // what follows settles it from the event itself
    if (synced) return synced;
    // Stripe does not know the subscription (404): nothing is applied. The event's own snapshot is
    // never trusted instead (issue 24: a signed event about a subscription Stripe never had would
    // otherwise grant a licence).
    logger().warn({ eventId, subscriptionId }, "evento Stripe de assinatura que a Stripe não conhece: não aplicado");
    await markStripeEventSubscriptionGone(sql, eventId);
    return null;
  } catch (err) {
    metrics().webhooksFailed.inc({ type });
    await setStripeEventError(sql, eventId, (err as Error).message.slice(0, 500));
    throw err;
  }
}

/** Events stored over a minute ago and still unprocessed (a lost job), oldest first; returns how many were processed. */
export async function processPendingEvents(limit = 100): Promise<number> {
  const rows = await pendingStripeEventIds(db(), limit);
  let done = 0;
  for (const { id } of rows) {
    try {
      await processStripeEvent(id);
      done++;
    } catch (err) {
      logger().warn({ eventId: id, err: (err as Error).message }, "evento Stripe pendente falhou de novo");
    }
  }
  return done;
}

/**
 * The daily reconciliation: every user with a Stripe customer, least recently synced first, re-read
 * from Stripe (their subscriptions, including ones whose events never arrived). Returns how many
 * customers were synced; a failure on one never stops the others. Does nothing when payments are not configured.
 */
export async function sweepSubscriptions(limit = 5000): Promise<{ customers: number; failures: number }> {
  if (!(await stripeSettings())) return { customers: 0, failures: 0 };
  await stripe();
  const customers = await customersToSync(db(), limit);
  let failures = 0;
  for (const stripe_customer_id of customers) {
    try {
      await syncCustomer(stripe_customer_id, "sweep");
    } catch (err) {
      failures++;
      logger().warn({ customer: stripe_customer_id, err: (err as Error).message }, "sincronização diária da assinatura falhou");
    }
  }
  return { customers: customers.length, failures };
}
