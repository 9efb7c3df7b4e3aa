/**
 * The Stripe simulator's state (DESIGN.md §4b): products, prices, customers, checkout sessions,
 * subscriptions, invoices, portal sessions and events, stored in Stripe's object shapes for the API
 * version the `stripe` SDK pins (`STRIPE_API_VERSION`), plus the billing logic — paying a checkout,
 * renewals, failed renewals, trial ends and period-end cancellations as the simulated clock moves.
 * No HTTP here: routes.ts, pages.ts and control.ts drive it; `onEvent` hears every new event.
 */
import { randomBytes } from "node:crypto";
import { StripeSimError, invalidParam, missingParam, noSuch } from "./errors";

/** The API version of `stripe` 23.1.0 (node_modules/stripe/esm/apiVersion.js). */
export const STRIPE_API_VERSION = "2026-10-28.endive";

/** A Stripe object as JSON. */
export type Obj = Record<string, unknown> & { id: string; object: string };

/** Test cards (Stripe's numbers): one that pays, one declined, one that attaches but fails every charge. */
export const CARDS = { ok: "4242424242424242", declined: "4000000000000002", failsLater: "4000000000000341" } as const;

/** Outcome of charging a card: null when it pays, else Stripe's decline. */
export function chargeCard(card: string | undefined): { code: string; decline_code: string; message: string } | null {
  if (card === CARDS.ok) return null;
  if (card === CARDS.declined || card === CARDS.failsLater) return { code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." };
  return { code: "incorrect_number", decline_code: "incorrect_number", message: "Your card number is incorrect." };
}

/** Stripe-like id: prefix + 24 base62 characters. */
export function newId(prefix: string): string {
  const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  return prefix + Array.from(randomBytes(24), (b) => chars[b % 62]).join("");
}

const DAY = 86_400;

/** `from` (epoch s) plus `count` intervals; months keep the day of month, clamped to the month's end. */
export function addInterval(from: number, interval: string, count: number): number {
  if (interval === "day") return from + count * DAY;
  if (interval === "week") return from + count * 7 * DAY;
  const d = new Date(from * 1000);
  const months = interval === "year" ? 12 * count : count;
  const y = d.getUTCFullYear(), m = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Math.floor(Date.UTC(y, m, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000);
}

/** The first billing boundary after `after`: the anchor plus whole intervals, so day 31 stays day 31 (Feb → 28th, Mar → 31st). */
export function nextBoundary(anchor: number, interval: string, count: number, after: number): number {
  let k = 1;
  while (addInterval(anchor, interval, k * count) <= after) k++;
  return addInterval(anchor, interval, k * count);
}

const int = (v: unknown, param: string): number => {
  const n = typeof v === "number" ? v : Number(v);
  if (v === undefined || v === "" || !Number.isInteger(n)) throw invalidParam(param, `Invalid integer: ${String(v)}`, "parameter_invalid_integer");
  return n;
};
const bool = (v: unknown, param: string): boolean => {
  if (v === true || v === "true") return true;
  if (v === false || v === "false") return false;
  throw invalidParam(param, `Invalid boolean: ${String(v)}`, "parameter_invalid_boolean");
};
const str = (v: unknown, param: string): string => {
  if (typeof v !== "string" || v === "") throw missingParam(param);
  return v;
};
const meta = (v: unknown): Record<string, string> => (v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)])) : {});
const clone = <T>(o: T): T => structuredClone(o);

export interface StoreOptions {
  /** Wall clock, epoch ms; the simulated clock is this plus the advanced offset. */
  now: () => number;
  /** Called with every event created, in order (webhook delivery). */
  onEvent?: (event: Obj) => void;
}

/** The persisted state of a store (`StripeStore.snapshot`). */
export interface StoreSnapshot {
  objects: Obj[];
  events: Obj[];
  cards: [string, string][];
  offsetMs: number;
  invoiceSeq: number;
}

/** The simulator's objects and billing rules. Times are the simulated clock's epoch seconds. */
export class StripeStore {
  readonly objects = new Map<string, Obj>();
  readonly events: Obj[] = [];
  /** Card number per customer (the "payment method on file"). */
  readonly cards = new Map<string, string>();
  private offsetMs = 0;
  private invoiceSeq = 0;

  constructor(private readonly opts: StoreOptions) {}

  /** Everything the simulator knows, as JSON-safe data (`restore` takes it back): for persisting an embedded simulator across restarts. */
  snapshot(): StoreSnapshot {
    return { objects: [...this.objects.values()], events: this.events.slice(-1000), cards: [...this.cards], offsetMs: this.offsetMs, invoiceSeq: this.invoiceSeq };
  }

  /** Replaces the state with a `snapshot()` (before any request is served). */
  restore(s: StoreSnapshot): void {
    this.objects.clear();
    for (const o of s.objects) this.objects.set(o.id, o);
    this.events.splice(0, this.events.length, ...s.events);
    this.cards.clear();
    for (const [k, v] of s.cards) this.cards.set(k, v);
    this.offsetMs = s.offsetMs;
    this.invoiceSeq = s.invoiceSeq;
  }

  /** Simulated time, epoch seconds. */
  nowSec(): number {
    return Math.floor((this.opts.now() + this.offsetMs) / 1000);
  }

  /** Object by id and type, or 404 resource_missing. */
  get(object: string, id: string, what = object.replace(/_/g, " ").replace("checkout.session", "checkout session"), param = "id"): Obj {
    const o = this.objects.get(id);
    if (!o || o.object !== object) throw noSuch(what, id, param);
    return o;
  }

  /** Every object of one type, newest first. */
  all(object: string): Obj[] {
    return [...this.objects.values()].filter((o) => o.object === object).reverse();
  }

  private put<T extends Obj>(o: T): T {
    this.objects.set(o.id, o);
    return o;
  }

  /** Records an event (`data.object` is a snapshot) and hands it to `onEvent`. */
  emit(type: string, object: Obj, previous?: Record<string, unknown>, request?: { id: string | null; idempotency_key: string | null }): Obj {
    const event: Obj = {
      id: newId("evt_"), object: "event", api_version: STRIPE_API_VERSION, created: this.nowSec(),
      data: { object: clone(object), ...(previous && { previous_attributes: clone(previous) }) },
      livemode: false, pending_webhooks: 1, request: request ?? { id: null, idempotency_key: null }, type,
    };
    this.events.push(event);
    this.opts.onEvent?.(event);
    return event;
  }

  // ---- products, prices, customers -------------------------------------------------------------

  /** `POST /v1/products`. */
  createProduct(p: Record<string, unknown>): Obj {
    const now = this.nowSec();
    return this.put({
      id: typeof p.id === "string" ? p.id : newId("prod_"), object: "product", active: p.active === undefined ? true : bool(p.active, "active"),
      created: now, default_price: null, description: (p.description as string) ?? null, images: [], livemode: false,
      marketing_features: [], metadata: meta(p.metadata), name: str(p.name, "name"), package_dimensions: null, shippable: null, tax_details: null,
      statement_descriptor: null, tax_code: null, type: "service", unit_label: null, updated: now, url: null,
    });
  }

  /** `POST /v1/products/:id`. */
  updateProduct(id: string, p: Record<string, unknown>): Obj {
    const o = this.get("product", id);
    if (p.name !== undefined) o.name = str(p.name, "name");
    if (p.description !== undefined) o.description = p.description || null;
    if (p.active !== undefined) o.active = bool(p.active, "active");
    if (p.metadata !== undefined) o.metadata = { ...(o.metadata as object), ...meta(p.metadata) };
    o.updated = this.nowSec();
    return o;
  }

  /** `POST /v1/prices` (`product` or `product_data[name]`; `recurring[interval]` for a subscription price). */
  createPrice(p: Record<string, unknown>): Obj {
    const productId = p.product_data ? this.createProduct(p.product_data as Record<string, unknown>).id : this.get("product", str(p.product, "product"), "product", "product").id;
    const currency = str(p.currency, "currency").toLowerCase();
    if (!/^[a-z]{3}$/.test(currency)) throw invalidParam("currency", `Invalid currency: ${currency}.`);
    const amount = int(p.unit_amount ?? missing("unit_amount"), "unit_amount");
    if (amount < 0) throw invalidParam("unit_amount", "This value must be greater than or equal to 0.", "parameter_invalid_integer");
    let recurring: Record<string, unknown> | null = null;
    if (p.recurring) {
      const r = p.recurring as Record<string, unknown>;
      const interval = str(r.interval, "recurring[interval]");
      if (!["day", "week", "month", "year"].includes(interval)) throw invalidParam("recurring[interval]", `Invalid recurring[interval]: must be one of day, week, month, or year`);
      recurring = { interval, interval_count: r.interval_count === undefined ? 1 : int(r.interval_count, "recurring[interval_count]"), meter: null, trial_period_days: null, usage_type: "licensed" };
    }
    return this.put({
      id: newId("price_"), object: "price", active: p.active === undefined ? true : bool(p.active, "active"), billing_scheme: "per_unit",
      created: this.nowSec(), currency, custom_unit_amount: null, livemode: false, lookup_key: (p.lookup_key as string) ?? null,
      metadata: meta(p.metadata), nickname: (p.nickname as string) ?? null, product: productId, recurring, tax_behavior: "unspecified",
      tiers_mode: null, transform_quantity: null, type: recurring ? "recurring" : "one_time", unit_amount: amount, unit_amount_decimal: String(amount),
    });
  }

  /** `POST /v1/prices/:id` (active, nickname, metadata, lookup_key). */
  updatePrice(id: string, p: Record<string, unknown>): Obj {
    const o = this.get("price", id);
    if (p.active !== undefined) o.active = bool(p.active, "active");
    if (p.nickname !== undefined) o.nickname = p.nickname || null;
    if (p.lookup_key !== undefined) o.lookup_key = p.lookup_key || null;
    if (p.metadata !== undefined) o.metadata = { ...(o.metadata as object), ...meta(p.metadata) };
    return o;
  }

  /** `POST /v1/customers`. */
  createCustomer(p: Record<string, unknown>): Obj {
    return this.put({
      id: newId("cus_"), object: "customer", address: null, balance: 0, created: this.nowSec(), currency: null, default_source: null,
      delinquent: false, description: (p.description as string) ?? null, discount: null, email: (p.email as string) ?? null,
      invoice_prefix: randomBytes(4).toString("hex").toUpperCase(), invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false, metadata: meta(p.metadata), name: (p.name as string) ?? null, next_invoice_sequence: 1, phone: null,
      preferred_locales: [], shipping: null, tax_exempt: "none", test_clock: null,
    });
  }

  /** `POST /v1/customers/:id` (email, name, description, metadata). */
  updateCustomer(id: string, p: Record<string, unknown>): Obj {
    const o = this.get("customer", id);
    for (const k of ["email", "name", "description"]) if (p[k] !== undefined) o[k] = p[k] || null;
    if (p.metadata !== undefined) o.metadata = { ...(o.metadata as object), ...meta(p.metadata) };
    return o;
  }

  // ---- checkout --------------------------------------------------------------------------------

  /** `POST /v1/checkout/sessions` (mode subscription; `url` is the hosted page under `baseUrl`). */
  createCheckoutSession(p: Record<string, unknown>, baseUrl: string): Obj {
    const mode = str(p.mode, "mode");
    if (mode !== "subscription") throw invalidParam("mode", "The Stripe simulator supports only `mode=subscription`.");
    const items = p.line_items as Record<string, unknown>[] | undefined;
    if (!Array.isArray(items) || items.length === 0) throw missingParam("line_items");
    const lines = items.map((it, i) => {
      const price = this.get("price", str(it.price, `line_items[${i}][price]`), "price", `line_items[${i}][price]`);
      if (!price.recurring) throw invalidParam(`line_items[${i}][price]`, "You must specify at least one recurring price in `subscription` mode when using prices.");
      if (!price.active) throw invalidParam(`line_items[${i}][price]`, `The price specified is inactive. This field only accepts active prices.`);
      return { price: price.id, quantity: it.quantity === undefined ? 1 : int(it.quantity, `line_items[${i}][quantity]`) };
    });
    if (p.success_url === undefined && p.ui_mode !== "embedded") throw missingParam("success_url");
    if (p.customer !== undefined) this.get("customer", String(p.customer), "customer", "customer");
    const first = this.get("price", lines[0]!.price);
    const total = lines.reduce((s, l) => s + (this.get("price", l.price).unit_amount as number) * l.quantity, 0);
    const subData = (p.subscription_data ?? {}) as Record<string, unknown>;
    const now = this.nowSec();
    const id = newId("cs_test_");
    return this.put({
      id, object: "checkout.session", adaptive_pricing: null, after_expiration: null, allow_promotion_codes: null, allowed_payment_method_types: null, amount_subtotal: total, amount_total: total, automatic_tax: { enabled: false, liability: null, provider: null, status: null },
      billing_address_collection: null, cancel_url: (p.cancel_url as string) ?? null, client_reference_id: (p.client_reference_id as string) ?? null,
      client_secret: null, collected_information: null, consent: null, consent_collection: null, created: now, currency: first.currency, currency_conversion: null, custom_fields: [], custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
      customer: (p.customer as string) ?? null, customer_account: null, customer_creation: p.customer ? null : "always", customer_details: null, customer_email: (p.customer_email as string) ?? null,
      discounts: [], expires_at: now + DAY, integration_identifier: null, invoice: null, invoice_creation: null, livemode: false, locale: (p.locale as string) ?? null, managed_payments: null, metadata: meta(p.metadata), mode, origin_context: null,
      payment_intent: null, payment_link: null, payment_method_collection: "always", payment_method_configuration_details: null, payment_method_options: {}, payment_method_types: ["card"], payment_status: "unpaid", permissions: null,
      recovered_from: null, saved_payment_method_options: null, setup_intent: null, shipping_address_collection: null, shipping_cost: null, shipping_options: [], status: "open", submit_type: null,
      subscription: null, success_url: (p.success_url as string) ?? null, total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 }, ui_mode: "hosted", wallet_options: null,
      url: `${baseUrl}/checkout/${id}`,
      // Not Stripe fields: kept for the hosted page and completion, hidden from replies (render()).
      _lines: lines, _trialDays: subData.trial_period_days === undefined ? null : int(subData.trial_period_days, "subscription_data[trial_period_days]"),
      _subMetadata: meta(subData.metadata),
    });
  }

  /** The session's line items as Stripe's `item` list (`expand[]=line_items`). */
  sessionLineItems(session: Obj): Obj {
    const data = (session._lines as { price: string; quantity: number }[]).map((l) => {
      const price = this.get("price", l.price);
      const amount = (price.unit_amount as number) * l.quantity;
      return { id: newId("li_"), object: "item", amount_discount: 0, amount_subtotal: amount, amount_tax: 0, amount_total: amount, currency: price.currency, description: (this.objects.get(price.product as string)?.name as string) ?? null, price: clone(price), quantity: l.quantity };
    });
    return { id: "", object: "list", data, has_more: false, url: `/v1/checkout/sessions/${session.id}/line_items` };
  }

  /**
   * Pays an open checkout session with a test card (the hosted page's form): creates the customer if
   * needed, the subscription (trialing with a trial, else active) and its first invoice (paid), and
   * emits customer.subscription.created, invoice.paid, checkout.session.completed.
   * @throws StripeSimError 402 card_error when the card is declined (nothing created)
   */
  payCheckoutSession(id: string, card: string, email?: string): Obj {
    const session = this.get("checkout.session", id, "checkout session");
    if (session.status === "open" && this.nowSec() >= (session.expires_at as number)) session.status = "expired";
    if (session.status !== "open") throw new StripeSimError(400, "invalid_request_error", `This Checkout Session is ${String(session.status)}.`, "checkout_session_not_open");
    const number = card.replace(/[\s-]/g, "");
    const decline = chargeCard(number === CARDS.failsLater ? CARDS.ok : number);
    if (decline) throw new StripeSimError(402, "card_error", decline.message, decline.code);
    const customer = session.customer ? this.get("customer", session.customer as string) : this.createCustomer({ email: email || session.customer_email || undefined });
    this.cards.set(customer.id, number);
    const lines = session._lines as { price: string; quantity: number }[];
    const sub = this.newSubscription(customer.id, lines, session._trialDays as number | null, session._subMetadata as Record<string, string>);
    // The first charge is on the card just typed; 4000 0000 0000 0341 pays now and fails at renewals.
    const invoice = this.billPeriod(sub, "subscription_create", CARDS.ok);
    session.customer = customer.id;
    session.customer_details = { address: null, email: customer.email, name: customer.name, phone: null, tax_exempt: "none", tax_ids: [] };
    session.subscription = sub.id;
    session.invoice = invoice.id;
    session.status = "complete";
    session.payment_status = invoice.amount_due === 0 ? "no_payment_required" : "paid";
    this.emit("customer.subscription.created", this.render(sub));
    this.emit("invoice.paid", this.render(invoice));
    this.emit("checkout.session.completed", this.render(session));
    return session;
  }

  // ---- subscriptions and invoices -------------------------------------------------------------

  private newSubscription(customer: string, lines: { price: string; quantity: number }[], trialDays: number | null, metadata: Record<string, string>): Obj {
    const now = this.nowSec();
    const id = newId("sub_");
    const trialEnd = trialDays ? now + trialDays * DAY : null;
    const first = this.get("price", lines[0]!.price);
    const periodEnd = trialEnd ?? addInterval(now, (first.recurring as { interval: string }).interval, (first.recurring as { interval_count: number }).interval_count);
    const items = lines.map((l) => {
      const price = this.get("price", l.price);
      return {
        id: newId("si_"), object: "subscription_item", billing_thresholds: null, created: now, current_period_end: periodEnd, current_period_start: now, current_trial: null,
        discounts: [], metadata: {}, plan: planOf(price), price: clone(price), quantity: l.quantity, subscription: id, tax_rates: [],
      };
    });
    return this.put({
      id, object: "subscription", application: null, application_fee_percent: null, automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: periodEnd === trialEnd ? periodEnd : now, billing_cycle_anchor_config: null, billing_mode: { flexible: null, type: "classic" }, billing_schedules: [],
      billing_thresholds: null, cancel_at: null, cancel_at_period_end: false, canceled_at: null,
      cancellation_details: { comment: null, feedback: null, reason: null }, collection_method: "charge_automatically", created: now, currency: first.currency,
      customer, customer_account: null, days_until_due: null, default_payment_method: null, default_source: null, default_tax_rates: [], description: null, discounts: [], ended_at: null,
      invoice_settings: { account_tax_ids: null, issuer: { type: "self" } }, items: { object: "list", data: items, has_more: false, total_count: items.length, url: `/v1/subscription_items?subscription=${id}` },
      latest_invoice: null, livemode: false, managed_payments: null, metadata, next_pending_invoice_item_invoice: null, on_behalf_of: null, pause_collection: null,
      payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: "off" }, pending_invoice_item_interval: null,
      pending_setup_intent: null, pending_update: null, schedule: null, start_date: now, status: trialEnd ? "trialing" : "active", test_clock: null, transfer_data: null,
      trial_end: trialEnd, trial_settings: { end_behavior: { missing_payment_method: "create_invoice" } }, trial_start: trialEnd ? now : null,
    });
  }

  /** `POST /v1/subscriptions`: charges the customer's card on file; without one (or declined) the subscription is `incomplete` with an open invoice. */
  createSubscription(p: Record<string, unknown>): Obj {
    const customer = this.get("customer", str(p.customer, "customer"), "customer", "customer");
    const items = p.items as Record<string, unknown>[] | undefined;
    if (!Array.isArray(items) || items.length === 0) throw missingParam("items");
    const lines = items.map((it, i) => ({ price: this.get("price", str(it.price, `items[${i}][price]`), "price", `items[${i}][price]`).id, quantity: it.quantity === undefined ? 1 : int(it.quantity, `items[${i}][quantity]`) }));
    const trialDays = p.trial_period_days === undefined ? null : int(p.trial_period_days, "trial_period_days");
    const sub = this.newSubscription(customer.id, lines, trialDays, meta(p.metadata));
    const invoice = this.billPeriod(sub, "subscription_create");
    if (invoice.status !== "paid") sub.status = "incomplete";
    this.emit("customer.subscription.created", this.render(sub));
    this.emit(invoice.status === "paid" ? "invoice.paid" : "invoice.payment_failed", this.render(invoice));
    return sub;
  }

  /** `POST /v1/subscriptions/:id`: `cancel_at_period_end`, `metadata`, `items[0][price]` (price swapped at once, no proration). */
  updateSubscription(id: string, p: Record<string, unknown>): Obj {
    const sub = this.get("subscription", id);
    if (sub.status === "canceled") throw new StripeSimError(400, "invalid_request_error", "A canceled subscription can only update its cancellation_details and metadata.");
    const before = clone(sub);
    if (p.cancel_at_period_end !== undefined) {
      const on = bool(p.cancel_at_period_end, "cancel_at_period_end");
      sub.cancel_at_period_end = on;
      sub.cancel_at = on ? periodEnd(sub) : null;
      sub.canceled_at = on ? this.nowSec() : null;
      sub.cancellation_details = { comment: null, feedback: null, reason: on ? "cancellation_requested" : null };
    }
    if (p.metadata !== undefined) sub.metadata = { ...(sub.metadata as object), ...meta(p.metadata) };
    if (Array.isArray(p.items)) {
      (p.items as Record<string, unknown>[]).forEach((it, i) => {
        const item = subItems(sub)[i];
        if (!item) throw invalidParam(`items[${i}]`, "The Stripe simulator updates existing items only.");
        if (it.price !== undefined) {
          const price = this.get("price", String(it.price), "price", `items[${i}][price]`);
          item.price = clone(price);
          item.plan = planOf(price);
        }
        if (it.quantity !== undefined) item.quantity = int(it.quantity, `items[${i}][quantity]`);
      });
    }
    this.emitUpdated(sub, before);
    return sub;
  }

  /** `DELETE /v1/subscriptions/:id`: canceled at once, customer.subscription.deleted. */
  cancelSubscription(id: string): Obj {
    const sub = this.get("subscription", id);
    if (sub.status === "canceled") throw new StripeSimError(400, "invalid_request_error", `No such subscription: '${id}'`, "resource_missing", "id");
    this.endSubscription(sub, "cancellation_requested");
    return sub;
  }

  private endSubscription(sub: Obj, reason: string): void {
    const now = this.nowSec();
    sub.status = "canceled";
    sub.ended_at = now;
    sub.canceled_at ??= now;
    sub.cancellation_details = { comment: null, feedback: null, reason };
    this.emit("customer.subscription.deleted", this.render(sub));
  }

  private emitUpdated(sub: Obj, before: Obj): void {
    const previous: Record<string, unknown> = {};
    for (const k of Object.keys(sub)) if (JSON.stringify(sub[k]) !== JSON.stringify(before[k])) previous[k] = before[k];
    if (Object.keys(previous).length > 0) this.emit("customer.subscription.updated", this.render(sub), previous);
  }

  /**
   * Invoices the subscription's current period and charges the card on file: paid (amount 0 in a
   * trial), or open with `attempted` when the card fails. Sets `latest_invoice`.
   */
  private billPeriod(sub: Obj, reason: "subscription_create" | "subscription_cycle", card = this.cards.get(sub.customer as string)): Obj {
    const inv = this.invoiceFor(sub, reason, newId("in_"));
    this.put(inv);
    sub.latest_invoice = inv.id;
    if (inv.amount_due === 0) return this.markPaid(inv);
    const decline = chargeCard(card);
    inv.attempt_count = 1;
    inv.attempted = true;
    if (!decline) return this.markPaid(inv);
    inv.next_payment_attempt = null;
    inv.last_finalization_error = null;
    return inv;
  }

  private markPaid(inv: Obj): Obj {
    const now = this.nowSec();
    inv.status = "paid";
    inv.amount_paid = inv.amount_due;
    inv.amount_remaining = 0;
    inv.attempted = true;
    inv.next_payment_attempt = null;
    inv.status_transitions = { ...(inv.status_transitions as object), paid_at: now };
    return inv;
  }

  /** An invoice (or a preview with `id`) for the subscription's current period, in Stripe's shape. */
  private invoiceFor(sub: Obj, reason: string, id: string, period?: { start: number; end: number }): Obj {
    const items = subItems(sub);
    const start = period?.start ?? items[0]!.current_period_start;
    const end = period?.end ?? items[0]!.current_period_end;
    const trialing = !period && sub.status === "trialing" && sub.trial_end === end;
    const customer = this.get("customer", sub.customer as string);
    const lines = items.map((it) => {
      const amount = trialing ? 0 : (it.price.unit_amount as number) * it.quantity;
      return {
        id: newId("il_"), object: "line_item", amount, currency: sub.currency, description: `${it.quantity} × ${(this.objects.get(it.price.product as string)?.name as string) ?? "Plan"}${trialing ? " (Trial)" : ""}`,
        discount_amounts: [], discountable: true, discounts: [], invoice: id, livemode: false, metadata: {},
        parent: { invoice_item_details: null, subscription_item_details: { invoice_item: null, proration: false, proration_details: { credited_items: null }, subscription: sub.id, subscription_item: it.id }, type: "subscription_item_details" },
        period: { end, start }, pretax_credit_amounts: [], pricing: { price_details: { price: it.price.id, product: it.price.product }, type: "price_details", unit_amount_decimal: String(it.price.unit_amount) },
        quantity: it.quantity, quantity_decimal: String(it.quantity), subscription: sub.id, subtotal: amount, taxes: [],
      };
    });
    const total = lines.reduce((s, l) => s + l.amount, 0);
    const now = this.nowSec();
    const preview = id.startsWith("upcoming_");
    const number = preview ? null : `${customer.invoice_prefix as string}-${String(++this.invoiceSeq).padStart(4, "0")}`;
    return {
      id, object: "invoice", account_country: "BR", account_name: "Forex IA (simulator)", account_tax_ids: null, amount_due: total, amount_overpaid: 0, amount_paid: 0,
      amount_remaining: total, amount_shipping: 0, application: null, attempt_count: 0, attempted: false, auto_advance: !preview,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null }, automatically_finalizes_at: null, billing_reason: reason,
      collection_method: "charge_automatically", created: now, currency: sub.currency, custom_fields: null, customer: customer.id, customer_account: null, customer_address: null,
      customer_email: customer.email, customer_name: customer.name, customer_phone: null, customer_shipping: null, customer_tax_exempt: "none", customer_tax_ids: [],
      default_payment_method: null, default_source: null, default_tax_rates: [], description: null, discounts: [], due_date: null, effective_at: preview ? null : now,
      ending_balance: preview ? null : 0, footer: null, from_invoice: null, hosted_invoice_url: null, invoice_pdf: null, issuer: { type: "self" }, last_finalization_error: null, latest_revision: null,
      lines: { object: "list", data: lines, has_more: false, total_count: lines.length, url: `/v1/invoices/${id}/lines` }, livemode: false, metadata: {},
      next_payment_attempt: preview ? end : null, number, on_behalf_of: null,
      parent: { quote_details: null, subscription_details: { metadata: clone(sub.metadata), subscription: sub.id }, type: "subscription_details" },
      payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null }, period_end: preview ? end : start, period_start: preview ? start : start,
      post_payment_credit_notes_amount: 0, pre_payment_credit_notes_amount: 0, receipt_number: null, rendering: null, shipping_cost: null, shipping_details: null,
      starting_balance: 0, statement_descriptor: null, status: preview ? "draft" : "open",
      status_transitions: { finalized_at: preview ? null : now, marked_uncollectible_at: null, paid_at: null, voided_at: null },
      subtotal: total, subtotal_excluding_tax: total, test_clock: null, total, total_discount_amounts: [], total_excluding_tax: total, total_pretax_credit_amounts: [], total_taxes: [],
      webhooks_delivered_at: preview ? null : now,
    };
  }

  /** `POST /v1/invoices/create_preview` (`subscription`, or `customer` with one live subscription): the next period's invoice. */
  previewInvoice(p: Record<string, unknown>): Obj {
    let sub: Obj | undefined;
    if (p.subscription !== undefined) sub = this.get("subscription", String(p.subscription), "subscription", "subscription");
    else {
      const customer = this.get("customer", str(p.customer, "customer"), "customer", "customer");
      sub = this.all("subscription").find((s) => s.customer === customer.id && s.status !== "canceled");
    }
    if (!sub || sub.status === "canceled" || sub.cancel_at_period_end)
      throw new StripeSimError(400, "invalid_request_error", `No upcoming invoices for customer: ${String(sub?.customer ?? p.customer)}`, "invoice_upcoming_none");
    const item = subItems(sub)[0]!;
    const start = item.current_period_end;
    const rec = item.price.recurring as { interval: string; interval_count: number };
    const preview = this.invoiceFor(sub, "upcoming", `upcoming_${newId("in_")}`, { start, end: nextBoundary(sub.billing_cycle_anchor as number, rec.interval, rec.interval_count, start) });
    preview.created = start;
    preview.next_payment_attempt = start;
    preview.period_start = item.current_period_start;
    preview.period_end = start;
    return preview;
  }

  /** `POST /v1/invoices/:id/pay`: charges the card on file; paid → subscription active again. */
  payInvoice(id: string): Obj {
    const inv = this.get("invoice", id);
    if (inv.status === "paid") throw new StripeSimError(400, "invalid_request_error", "Invoice is already paid", "invoice_payment_intent_requires_action");
    const decline = chargeCard(this.cards.get(inv.customer as string));
    inv.attempt_count = (inv.attempt_count as number) + 1;
    inv.attempted = true;
    if (decline) {
      this.emit("invoice.payment_failed", this.render(inv));
      throw new StripeSimError(402, "card_error", decline.message, decline.code);
    }
    this.markPaid(inv);
    this.emit("invoice.paid", this.render(inv));
    const subId = (inv.parent as { subscription_details?: { subscription?: string } } | null)?.subscription_details?.subscription;
    const sub = subId ? this.get("subscription", subId) : undefined;
    if (sub && ["past_due", "incomplete", "unpaid"].includes(sub.status as string)) {
      const before = clone(sub);
      sub.status = "active";
      this.emitUpdated(sub, before);
    }
    return inv;
  }

  /** `POST /v1/billing_portal/sessions`. */
  createPortalSession(p: Record<string, unknown>, baseUrl: string): Obj {
    const customer = this.get("customer", str(p.customer, "customer"), "customer", "customer");
    const id = newId("bps_");
    return this.put({
      id, object: "billing_portal.session", configuration: "bpc_simulator", created: this.nowSec(), customer: customer.id, customer_account: null, flow: null,
      livemode: false, locale: (p.locale as string) ?? null, on_behalf_of: null, return_url: (p.return_url as string) ?? null, url: `${baseUrl}/portal/${id}`,
    });
  }

  // ---- the clock -----------------------------------------------------------------------------

  /**
   * Moves the simulated clock forward `seconds`, walking every due moment in order: a trial end or a
   * period end renews (a paid invoice, or past_due with invoice.payment_failed when the card on file
   * fails), a period end with `cancel_at_period_end` deletes the subscription.
   */
  advance(seconds: number): void {
    if (!(seconds >= 0)) throw new Error("advance: seconds must be ≥ 0");
    const target = this.nowSec() + seconds;
    for (;;) {
      const due = this.all("subscription")
        .filter((s) => s.status !== "canceled" && s.status !== "incomplete" && periodEnd(s) <= target)
        .sort((a, b) => periodEnd(a) - periodEnd(b))[0];
      if (!due) break;
      this.setSec(Math.max(this.nowSec(), periodEnd(due)));
      this.rollOver(due);
    }
    this.setSec(target);
    for (const cs of this.all("checkout.session")) if (cs.status === "open" && (cs.expires_at as number) <= target) cs.status = "expired";
  }

  /**
   * Ends one subscription's current period now, as if its own clock had reached the period end (Stripe's
   * test clocks advance one customer's time alone): it renews — paid, or past_due with
   * invoice.payment_failed when the card on file fails — or, with `cancel_at_period_end`, is deleted.
   * The next period runs to the next boundary of its billing anchor. Other subscriptions are untouched.
   * @throws StripeError (resource_missing) for an unknown id; Error for a canceled or incomplete one
   */
  endPeriodNow(subscriptionId: string): Obj {
    const sub = this.get("subscription", subscriptionId);
    if (sub.status === "canceled" || sub.status === "incomplete") throw new Error(`endPeriodNow: subscription ${subscriptionId} is ${String(sub.status)}`);
    const now = this.nowSec();
    for (const it of subItems(sub)) it.current_period_end = now;
    this.rollOver(sub);
    return this.render(sub);
  }

  private setSec(sec: number): void {
    this.offsetMs = sec * 1000 - this.opts.now();
  }

  private rollOver(sub: Obj): void {
    if (sub.cancel_at_period_end || (sub.cancel_at !== null && (sub.cancel_at as number) <= this.nowSec())) {
      this.endSubscription(sub, "cancellation_requested");
      return;
    }
    const before = clone(sub);
    const start = periodEnd(sub);
    for (const it of subItems(sub)) {
      const rec = it.price.recurring as { interval: string; interval_count: number };
      it.current_period_start = start;
      it.current_period_end = nextBoundary(sub.billing_cycle_anchor as number, rec.interval, rec.interval_count, start);
    }
    const inv = this.billPeriod(sub, "subscription_cycle");
    sub.status = inv.status === "paid" ? "active" : "past_due";
    this.emitUpdated(sub, before);
    this.emit(inv.status === "paid" ? "invoice.paid" : "invoice.payment_failed", this.render(inv));
  }

  /** The object as a reply: internal `_` fields dropped, a copy. */
  render(o: Obj): Obj {
    return Object.fromEntries(Object.entries(clone(o)).filter(([k]) => !k.startsWith("_"))) as Obj;
  }
}

type Item = { id: string; price: Obj; plan?: Obj; quantity: number; current_period_start: number; current_period_end: number };
const subItems = (sub: Obj): Item[] => (sub.items as { data: Item[] }).data;
const periodEnd = (sub: Obj): number => Math.min(...subItems(sub).map((i) => i.current_period_end));
const missing = (param: string): never => {
  throw missingParam(param);
};

/** The legacy `plan` object of a subscription item, from its price. */
function planOf(price: Obj): Obj {
  const rec = price.recurring as { interval: string; interval_count: number };
  return {
    id: price.id, object: "plan", active: price.active, amount: price.unit_amount, amount_decimal: String(price.unit_amount), billing_scheme: "per_unit",
    created: price.created, currency: price.currency, interval: rec.interval, interval_count: rec.interval_count, livemode: false, metadata: {}, meter: null,
    nickname: price.nickname, product: price.product, tiers_mode: null, transform_usage: null, trial_period_days: null, usage_type: "licensed",
  };
}
