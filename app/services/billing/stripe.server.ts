/**
 * The one door to Stripe (issue 9, DESIGN.md §5): which keys are in force and the `stripe` SDK client
 * built from them. Keys come from `STRIPE_SECRET_KEY` / `STRIPE_WEBHOOK_SECRET`; else from the admin
 * settings (`system_settings` key 'stripe', secrets encrypted with `encryptSecret`); else from the
 * embedded Stripe simulator that boot mounted (no real key, not production: server/stripe-sim-mount.ts);
 * else payments are not configured and callers get `PaymentsNotConfiguredError` (503, a clear message).
 * `STRIPE_API_BASE` points the SDK at any Stripe-compatible base (its host/port/protocol options).
 */
import Stripe from "stripe";
import { msg } from "../../../core/i18n/message";
import { config } from "../platform/config.server";
import { decryptSecret } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { ServiceUnavailableError, UpstreamError, ValidationError } from "../platform/errors.server";
import { logger } from "../platform/logger.server";
import { settingValue } from "../../../db/queries/system-settings";

/** Admin-stored Stripe settings (system_settings key 'stripe'; the admin panel of issue 10 writes it). */
export interface StoredStripe {
  secretKey?: string;
  webhookSecret?: string;
}

/** The keys in force and where they came from. */
export interface StripeSettings {
  secretKey: string;
  /** null: events cannot be verified, so the webhook endpoint refuses them all. */
  webhookSecret: string | null;
  /** `https://api.stripe.com` unless STRIPE_API_BASE or the embedded simulator says otherwise. */
  apiBase: string | null;
  source: "env" | "admin" | "simulator";
}

/** Payments are not configured: no key anywhere (a 503 whose message the subscription modal shows). */
export class PaymentsNotConfiguredError extends ServiceUnavailableError {
  constructor() {
    super(msg("payments:notConfigured"), { paymentsConfigured: false });
  }
}

/**
 * The Stripe keys in force, or null when payments are not configured. Order: environment, admin
 * settings, embedded simulator.
 */
export async function stripeSettings(): Promise<StripeSettings | null> {
  const cfg = config();
  if (cfg.STRIPE_SECRET_KEY)
    return { secretKey: cfg.STRIPE_SECRET_KEY, webhookSecret: cfg.STRIPE_WEBHOOK_SECRET ?? null, apiBase: cfg.STRIPE_API_BASE ?? null, source: "env" };
  const stored = await settingValue<StoredStripe>(db(), "stripe");
  if (stored?.secretKey) {
    try {
      return {
        secretKey: decryptSecret(stored.secretKey),
        webhookSecret: cfg.STRIPE_WEBHOOK_SECRET ?? (stored.webhookSecret ? decryptSecret(stored.webhookSecret) : null),
        apiBase: cfg.STRIPE_API_BASE ?? null,
        source: "admin",
      };
    } catch (err) {
      logger().warn({ err: (err as Error).message }, "chave Stripe armazenada ilegível");
    }
  }
  const sim = cfg.stripeEmbedded;
  if (sim) return { secretKey: sim.secretKey, webhookSecret: sim.webhookSecret, apiBase: sim.apiBase, source: "simulator" };
  return null;
}

const clients = new Map<string, Stripe>();

/** An SDK client for these settings (cached per key and base). Network retries: 2, with the SDK's idempotency keys. */
export function stripeClientFor(s: Pick<StripeSettings, "secretKey" | "apiBase">): Stripe {
  const cacheKey = `${s.apiBase ?? ""}|${s.secretKey}`;
  let client = clients.get(cacheKey);
  if (!client) {
    const base = s.apiBase ? new URL(s.apiBase) : null;
    client = new Stripe(s.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: "Forex IA" },
      ...(base
        ? {
            host: base.hostname,
            port: base.port ? Number(base.port) : base.protocol === "http:" ? 80 : 443,
            protocol: base.protocol === "http:" ? ("http" as const) : ("https" as const),
          }
        : {}),
    });
    clients.set(cacheKey, client);
  }
  return client;
}

/**
 * The SDK client in force.
 * @throws PaymentsNotConfiguredError when no key is configured
 */
export async function stripe(): Promise<Stripe> {
  const s = await stripeSettings();
  if (!s) throw new PaymentsNotConfiguredError();
  return stripeClientFor(s);
}

/** Whether payments can be taken right now (the modal disables "Assinar" otherwise). */
export async function paymentsConfigured(): Promise<boolean> {
  return (await stripeSettings()) !== null;
}

/**
 * Whether a secret key is a live-mode key (`sk_live_…`, `rk_live_…`); test keys and the simulator's
 * (`sk_test_…`) are not. A webhook event's `livemode` must match the key in use (issue 24).
 */
export function isLiveKey(secretKey: string): boolean {
  return /^(sk|rk)_live_/.test(secretKey);
}

/** A Stripe error saying the object does not exist (deleted, or another account's / a reset simulator's id). */
export function isMissingResource(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeInvalidRequestError && err.code === "resource_missing";
}

/**
 * A Stripe failure as a domain error the user can read: a card error keeps Stripe's message (400),
 * anything else is "payment provider unavailable" (502) and logged with Stripe's request id.
 */
export function stripeFailure(err: unknown, what: string): Error {
  if (err instanceof PaymentsNotConfiguredError) return err;
  if (err instanceof Stripe.errors.StripeCardError) return new ValidationError(err.message);
  if (err instanceof Stripe.errors.StripeError) {
    logger().warn({ what, type: err.type, code: err.code, status: err.statusCode, requestId: err.requestId, message: err.message }, "falha na Stripe");
    return new UpstreamError(msg("payments:providerError"));
  }
  return err instanceof Error ? err : new Error(String(err));
}
