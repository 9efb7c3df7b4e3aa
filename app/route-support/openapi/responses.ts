/**
 * The answers of the JSON API (PRODUCT.md §7) as zod schemas, for the OpenAPI document
 * (`openApiDocument`, document.server.ts) and the contract test that validates recorded answers against
 * it (issue 24 "The API contract"). Objects are open (`z.looseObject`): they name every key a client may
 * rely on, with its type, and allow more (the routes add fields over time without breaking clients).
 * Money and prices are decimal strings, as the broker sends them; times are ISO-8601 strings.
 */
import { z } from "zod";

/** A decimal number written as a string ("100000.0000", "-0.1000"). */
export const decimal = z.string().regex(/^-?\d+(\.\d+)?$/).meta({ description: "Decimal number as a string." });
/** An ISO-8601 date-time string. */
export const isoTime = z.string().meta({ description: "ISO-8601 date-time." });
/** A translatable message: an i18n key with its parameters (core/i18n/message.ts `Msg`). */
export const msgSchema = z.looseObject({ key: z.string(), params: z.record(z.string(), z.unknown()).optional() }).meta({ id: "Msg", description: "Translatable message: i18n key and parameters." });
/** Any JSON object (a shape the document does not spell out). */
export const anyObject = z.record(z.string(), z.unknown());

/**
 * The error body of every failing call (apiRoute → `toResponse`, and the Express guards: rate limit,
 * body limit, Origin and JSON checks): `message` in the caller's language, the same text in `error`,
 * and what the error adds (`field` of a validation error, `session` of a 401, `code`, `retryAfter`…).
 */
export const errorBody = z
  .looseObject({
    success: z.literal(false),
    message: z.string(),
    error: z.string(),
    field: z.string().optional(),
    session: z.enum(["missing", "invalid"]).optional().meta({ description: "401 only: whether a session was sent at all." }),
  })
  .meta({ id: "Error", description: "Error body: `message` (and the same `error`) in the caller's language, plus details." });

/** `{success: true, ...shape}`, open. */
export function ok<S extends z.ZodRawShape>(shape: S) {
  return z.looseObject({ success: z.literal(true), ...shape });
}

/** `{success: true, message}` (and more). */
export const okMessage = ok({ message: z.string() }).meta({ id: "OkMessage" });

// ---- users, licences, plans -----------------------------------------------------------------------

const licence = z.looseObject({
  key: z.string().nullable(),
  startDate: isoTime.nullable(),
  endDate: isoTime.nullable(),
  planId: z.string().nullable(),
  planName: z.string().nullable(),
  kind: z.string().nullable(),
  isActive: z.boolean(),
});

/** The user as the API returns it (PRODUCT.md §3 User; auth.server.ts `publicUser`): never the password hash. */
export const publicUser = z
  .looseObject({
    _id: z.string(),
    id: z.string(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    isActive: z.boolean(),
    role: z.enum(["user", "admin"]),
    preferences: z.looseObject({ language: z.string(), currency: z.string(), timezone: z.string() }),
    subscriptionStatus: z.string(),
    stripeCustomerId: z.string().nullable(),
    stripeSubscriptionId: z.string().nullable(),
    licenseStatus: z.string(),
    hasValidLicense: z.boolean(),
    license: licence.nullable(),
    plan: z.looseObject({ id: z.string().nullable(), name: z.string().nullable() }).nullable(),
    oandaAuth: z.looseObject({ isConnected: z.boolean(), environment: z.string().nullable(), accountId: z.string().nullable(), accountName: z.string().nullable() }),
    emailVerifiedAt: isoTime.nullable(),
    createdAt: isoTime,
    lastLogin: isoTime.nullable(),
  })
  .meta({ id: "User" });

/** A user in the admin panel's lists: the public user with the admin's extra columns. */
export const adminUser = publicUser.extend({ licenseKind: z.string().nullable(), bot: z.looseObject({ isActive: z.boolean() }), deletedAt: isoTime.nullable() }).meta({ id: "AdminUser" });

/** A plan as the price list shows it (price in cents). */
export const plan = z
  .looseObject({
    _id: z.string(),
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    price: z.number().int().meta({ description: "Cents." }),
    currency: z.string(),
    durationDays: z.number().int(),
    interval: z.string(),
    intervalCount: z.number().int(),
    features: z.array(z.string()),
    isHighlighted: z.boolean(),
    formattedPrice: z.string(),
    formattedDuration: z.string(),
  })
  .meta({ id: "Plan" });

/** A plan in the admin panel: the price-list plan with its Stripe ids and subscriber count. */
export const adminPlan = plan.extend({ isActive: z.boolean(), stripeProductId: z.string().nullable(), stripePriceId: z.string().nullable(), subscriberCount: z.number().int() }).meta({ id: "AdminPlan" });

/** The subscription state of the caller (billing.server.ts `subscriptionStatus`). */
export const subscriptionState = ok({
  subscriptionStatus: z.string(),
  hasValidLicense: z.boolean(),
  licenseStatus: z.string(),
  license: licence.nullable(),
  stripeCustomerId: z.string().nullable(),
  stripeSubscriptionId: z.string().nullable(),
  subscriptionDetails: anyObject.nullable(),
  paymentsConfigured: z.boolean(),
}).meta({ id: "SubscriptionState" });

// ---- broker, account, trades ----------------------------------------------------------------------

/** The account rules as the broker step shows them (broker-rules.server.ts `AccountRulesView`). */
export const accountRules = z
  .looseObject({
    mode: z.enum(["hedging", "fifo"]),
    currency: z.string(),
    balance: z.string(),
    riskPct: z.number(),
    checkedAt: isoTime.nullable(),
    will: z.array(z.string()),
    wont: z.array(z.string()),
    instruments: z.array(z.looseObject({ instrument: z.string(), offered: z.boolean() })),
  })
  .meta({ id: "AccountRules" });

/** An open trade of the caller's account (trades.server.ts `screenOpenTrades`). */
export const openTrade = z
  .looseObject({
    id: z.string(),
    tradeId: z.string(),
    accountId: z.string(),
    instrument: z.string(),
    side: z.enum(["buy", "sell"]),
    units: z.string(),
    openPrice: z.string(),
    currentPrice: z.string().nullable(),
    stopLoss: z.string().nullable(),
    takeProfit: z.string().nullable(),
    unrealizedPL: z.string().nullable(),
    openTime: isoTime,
    status: z.string(),
    origin: z.string().nullable(),
  })
  .meta({ id: "OpenTrade" });

/** A closed trade of the history (trades.server.ts `tradeHistory`). */
export const closedTrade = z.looseObject({ id: z.string(), instrument: z.string(), side: z.string(), units: z.string() }).meta({ id: "ClosedTrade" });

/** The account summary (balance, NAV, P&L, margin; `display` in the user's display currency or null). */
export const accountSummary = ok({
  accountId: z.string(),
  environment: z.string(),
  currency: z.string(),
  balance: decimal,
  NAV: decimal,
  nav: decimal,
  unrealizedPL: decimal,
  pl: decimal,
  marginUsed: decimal,
  marginAvailable: decimal,
  openTradeCount: z.number().int(),
  openPositionCount: z.number().int(),
  display: z.looseObject({ currency: z.string(), unavailable: z.boolean() }).nullable(),
}).meta({ id: "AccountSummary" });

/** The caller's open trades. */
export const openTrades = ok({ trades: z.array(openTrade) }).meta({ id: "OpenTrades" });
/** The caller's closed trades in a window of `days`. */
export const tradeHistory = ok({ days: z.number().int(), trades: z.array(closedTrade) }).meta({ id: "TradeHistory" });

// ---- the AI loop ---------------------------------------------------------------------------------

const decision = z.looseObject({ instrument: z.string(), action: z.string(), reason: z.string().nullable(), executed: z.boolean() });

/** The loop's state and latest decisions (bot-status.server.ts `botStatus`). */
export const loopStatus = ok({
  isActive: z.boolean(),
  intervalSec: z.number().int(),
  rearmRequired: z.boolean(),
  manageOnly: z.boolean(),
  loopState: anyObject,
  lastDecisions: z.array(decision),
}).meta({ id: "LoopStatus" });

/** The loop switched on or off. */
export const loopSwitch = ok({ message: z.string(), isActive: z.boolean() }).meta({ id: "LoopSwitch" });

/** One AI cycle run now: its decisions; `success: false` with the reason when the cycle was skipped. */
export const runOnce = z
  .union([ok({ message: z.string(), status: z.string(), decisions: z.array(decision) }), z.looseObject({ success: z.literal(false), message: z.string() })])
  .meta({ id: "RunOnce" });

/** What a kill-switch level (or the resume) did (kill-switch.server.ts `KillSwitchResult`). */
export const killSwitchResult = ok({
  level: z.enum(["stop_entries", "pause", "close_all", "resume_entries"]),
  changed: z.boolean(),
  isActive: z.boolean(),
  message: z.string(),
  closed: z.number().int().optional(),
  failed: z.number().int().optional(),
}).meta({ id: "KillSwitchResult" });

// ---- notifications -------------------------------------------------------------------------------

/** A notification of the caller. */
export const notification = z
  .looseObject({ _id: z.string(), id: z.string(), type: z.string(), title: z.string(), message: z.string(), read: z.boolean(), createdAt: isoTime, metadata: anyObject.nullable() })
  .meta({ id: "Notification" });

// ---- health --------------------------------------------------------------------------------------

/** The health answer (/health, /api/health, /api/status). */
export const health = z
  .looseObject({
    status: z.string(),
    time: isoTime,
    database: z.looseObject({ ok: z.boolean() }),
    queue: z.looseObject({ ok: z.boolean() }),
  })
  .meta({ id: "Health" });
