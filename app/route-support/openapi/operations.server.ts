/**
 * Every operation of the JSON API (PRODUCT.md §7), one row each: method, OpenAPI path, who may call it,
 * the request schemas and the answers. The request schemas are the ones the routes parse (imported from
 * where they live: app/lib, core, the services, request-schemas.ts); where a route reads its body with a
 * hand-written parser (manual order, kill switch, settings, preferences) the row says so in
 * `parsedBy` and describes the fields that parser reads. document.server.ts turns the table into the
 * OpenAPI 3.1 document served at /api/openapi.json; the contract test (tests/integration/
 * openapi-contract.test.ts) fails when a route of the build, or a method it serves, has no row here.
 * Aliases (api-aliases.ts) are documented from their primary's rows.
 */
import { z } from "zod";
import { tradingSettingsSchema } from "../../../core/settings";
import { MAX_MANUAL_UNITS, MAX_STOP_PIPS } from "../../../core/trading/manual-order";
import { adminUserCreateSchema, adminUserUpdateSchema, extendLicenseSchema, USER_STATUS_FILTERS } from "~/lib/admin-users";
import { planInputSchema } from "~/lib/admin-plans";
import { KILL_SWITCH_LEVELS } from "~/lib/kill-switch";
import { listQuerySchema } from "~/lib/notifications";
import { preferencesSchema } from "~/lib/settings-form";
import { connectSchema, emailRequestSchema, loginSchema, registerSchema, testTokenSchema } from "~/lib/validation";
import { smtpTestSchema, stripeTestSchema } from "~/services/admin/connection-tests.server";
import { settingsUpdateSchema } from "~/services/admin/settings-update.server";
import { backtestRequestSchema } from "~/services/backtest/runs.server";
import { subscribeSchema, unsubscribeSchema } from "~/services/notify/push/push.server";
import { pushActionSchema } from "~/services/trading/push-action.server";
import { checkoutSessionSchema, closeTradeSchema, historyDaysSchema, loopStartSchema, streamInstrumentsSchema } from "./request-schemas";
import * as R from "./responses";

/** Who may call an operation. */
export type Access =
  /** Anyone. */
  | "public"
  /** A signed-in user (bearer token, `x-session` header or the session cookie). */
  | "user"
  /** A signed-in admin. */
  | "admin"
  /** Stripe, with a `Stripe-Signature` over the raw body. */
  | "stripe";

/** An HTTP method of the API, as OpenAPI writes it. */
export type OperationMethod = "get" | "post" | "put" | "delete";

/** One answer: its description and body (JSON unless `contentType` says otherwise). */
export interface OperationResponse {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
}

/** One operation of the API. */
export interface ApiOperation {
  method: OperationMethod;
  /** OpenAPI path (`{param}` for a path parameter). */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  /** The caller needs a valid licence (402 otherwise; PRODUCT.md §6). */
  licence?: boolean;
  query?: z.ZodObject;
  /** Path parameters; each `{param}` without one here is a plain string. */
  params?: z.ZodObject;
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** The body is read by a hand-written parser (not a zod schema): where, for the reader. */
  parsedBy?: string;
  /** The success answer(s), by status. */
  responses: Record<number, OperationResponse>;
  /** Error statuses this operation answers besides those of its access (401/403/402) and 405/500. */
  errors?: number[];
}

const json = (description: string, schema: z.ZodType): OperationResponse => ({ description, schema });

/** The settings fields, any subset (merged into the stored settings; core/settings.ts `parseSettingsUpdate`). */
const settingsPatch = tradingSettingsSchema.partial();

/** The manual order body core/trading/manual-order.ts `parseManualOrder` reads. */
const manualOrderBody = z.object({
  instrument: z.string().meta({ description: "OANDA name (EUR_USD) or EUR/USD.", example: "EUR_USD" }),
  units: z
    .union([z.number().int(), z.string().regex(/^[+-]?\d+$/)])
    .optional()
    .meta({ description: `Signed units (+ buy, − sell; positive with \`side\`), at most ${MAX_MANUAL_UNITS}. Either units or lots.` }),
  lots: z.union([z.number(), z.string()]).optional().meta({ description: "Lots (2 decimals, × 100 000 units); needs `side`." }),
  side: z.enum(["buy", "sell"]).optional(),
  stopLossPips: z.union([z.number(), z.string()]).optional().meta({ description: `Stop-loss distance in pips (up to ${MAX_STOP_PIPS}); or stopLoss.` }),
  stopLoss: z.union([z.number(), z.string()]).optional().meta({ description: "Stop-loss price." }),
  takeProfitPips: z.union([z.number(), z.string()]).optional().meta({ description: "Take-profit distance in pips; or takeProfit." }),
  takeProfit: z.union([z.number(), z.string()]).optional().meta({ description: "Take-profit price." }),
  idempotencyKey: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/)
    .optional()
    .meta({ description: "Replays the same order instead of placing a second (or the Idempotency-Key header)." }),
});

const idParam = (description: string) => z.object({ id: z.string().meta({ description }) });

// ---- answers reused by several rows ----------------------------------------------------------------

const publicKey = R.ok({ key: z.string(), publicKey: z.string() });
const subscribed = R.ok({ message: z.string(), id: z.string() });
const unsubscribed = R.ok({ removed: z.boolean(), message: z.string() });
const testNotification = R.ok({ message: z.string(), notification: R.notification, devices: z.number().int() });
const backtestRun = z.looseObject({ id: z.string(), status: z.string(), progress: z.number(), params: R.anyObject, error: z.string().nullable(), createdAt: R.isoTime });
const adminPlanSaved = R.ok({ message: z.string(), plan: R.adminPlan, stripe: z.looseObject({ status: z.string(), message: z.string() }) });
const settingsView = R.ok({ values: R.anyObject, meta: R.anyObject });

/** The SSE streams' query (sse-routes.server.ts `parseInstrumentsParam`). */
const streamQuery = z.object({ instruments: z.string().optional().meta({ description: "Comma-separated instruments (EUR_USD,USD_JPY); default: every supported one." }) });

/** Every operation of the API (aliases excepted: document.server.ts adds them from api-aliases.ts). */
export const API_OPERATIONS: readonly ApiOperation[] = [
  // ---- Auth ---------------------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/auth/register",
    tag: "Auth",
    summary: "Register",
    description: "Creates the account. With e-mail verification on, no session yet (`token: null`, `needsVerification: true`).",
    access: "public",
    body: registerSchema,
    responses: { 201: json("Registered.", R.ok({ message: z.string(), token: z.string().nullable(), user: R.publicUser, needsVerification: z.boolean(), reason: z.string().optional() })) },
    errors: [400, 409, 429],
  },
  {
    method: "post",
    path: "/api/auth/login",
    tag: "Auth",
    summary: "Log in",
    description: "Opens a session: the token (bearer) and the session cookie. An unverified e-mail answers `success: false, needsVerification: true`.",
    access: "public",
    body: loginSchema,
    responses: {
      200: json(
        "Logged in, or the e-mail is not verified yet.",
        z.union([
          R.ok({ message: z.string(), token: z.string(), user: R.publicUser, needsVerification: z.literal(false) }),
          z.looseObject({ success: z.literal(false), needsVerification: z.literal(true), message: z.string(), token: z.null(), user: z.null() }),
        ]),
      ),
    },
    errors: [400, 401, 429],
  },
  { method: "get", path: "/api/auth/me", tag: "Auth", summary: "The signed-in user", access: "user", responses: { 200: json("The user.", R.ok({ user: R.publicUser })) } },
  { method: "post", path: "/api/auth/logout", tag: "Auth", summary: "Log out", description: "Revokes the session and clears the cookie.", access: "public", responses: { 200: json("Logged out.", R.ok({})) } },
  {
    method: "post",
    path: "/api/auth/forgot-password",
    tag: "Auth",
    summary: "Send a password-reset link",
    access: "public",
    body: emailRequestSchema,
    responses: { 200: json("Always the same answer (no account enumeration).", R.okMessage) },
    errors: [400, 429],
  },
  {
    method: "post",
    path: "/api/auth/resend-confirmation",
    tag: "Auth",
    summary: "Resend the confirmation e-mail",
    access: "public",
    body: emailRequestSchema,
    responses: { 200: json("Always the same answer (`ok: true`).", R.ok({ ok: z.literal(true), message: z.string() })) },
    errors: [400, 429],
  },

  // ---- Broker -------------------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/oanda-auth/test-token",
    tag: "Broker",
    summary: "Test an OANDA token",
    description: "Lists the accounts the token reaches. Limited per user (`USER_ACTION_RATE_LIMIT` a minute): 429 past it.",
    access: "user",
    body: testTokenSchema,
    responses: {
      200: json(
        "The token's accounts.",
        R.ok({ environment: z.string(), accounts: z.array(z.looseObject({ id: z.string(), name: z.string(), currency: z.string(), balance: z.string(), environment: z.string() })) }),
      ),
    },
    errors: [400, 429, 502],
  },
  {
    method: "post",
    path: "/api/oanda-auth/connect",
    tag: "Broker",
    summary: "Connect an OANDA account",
    access: "user",
    body: connectSchema,
    responses: {
      200: json(
        "Connected; `rules` null when they could not be read yet.",
        R.ok({ message: z.string(), account: z.looseObject({ id: z.string(), name: z.string(), environment: z.string() }), rules: R.accountRules.nullable() }),
      ),
    },
    errors: [400, 409, 502],
  },
  {
    method: "get",
    path: "/api/oanda-auth/status",
    tag: "Broker",
    summary: "Broker connection status",
    description: "Without a valid licence: whether an account is connected, not its figures (`licenseRequired`).",
    access: "user",
    responses: {
      200: json(
        "The connection.",
        R.ok({ isConnected: z.boolean(), account: z.looseObject({ id: z.string(), name: z.string(), environment: z.string() }).nullable(), licenseRequired: z.boolean().optional() }),
      ),
    },
    errors: [502],
  },
  { method: "post", path: "/api/oanda-auth/disconnect", tag: "Broker", summary: "Disconnect the OANDA account", access: "user", responses: { 200: json("Disconnected.", R.okMessage) }, errors: [400] },
  {
    method: "get",
    path: "/api/oanda-auth/rules",
    tag: "Broker",
    summary: "The connected account's rules",
    description: "What the AI will and will not do on this account (FIFO/hedging, sizes, leverage).",
    access: "user",
    responses: { 200: json("The rules (null before the first check).", z.looseObject({ rules: R.accountRules.nullable() })) },
    errors: [400],
  },

  // ---- Account and trades ---------------------------------------------------------------------------
  {
    method: "get",
    path: "/api/account/instruments",
    tag: "Account",
    summary: "Instruments the account offers",
    access: "user",
    responses: {
      200: json(
        "The instruments.",
        R.ok({
          accountId: z.string(),
          environment: z.string(),
          count: z.number().int(),
          instruments: z.array(z.looseObject({ name: z.string(), displayName: z.string(), type: z.string(), pipLocation: z.number().int(), aiTrades: z.boolean() })),
        }),
      ),
    },
    errors: [400, 502],
  },
  {
    method: "get",
    path: "/api/account/summary",
    tag: "Account",
    summary: "Account summary",
    description: "Balance, NAV, P&L and margin (decimal strings, account currency), and the same in the display currency.",
    access: "user",
    licence: true,
    responses: { 200: json("The summary.", R.accountSummary) },
    errors: [400, 502],
  },
  { method: "get", path: "/api/trades/account/open", tag: "Trades", summary: "Open trades", access: "user", licence: true, responses: { 200: json("The open trades.", R.openTrades) }, errors: [400, 502] },
  {
    method: "get",
    path: "/api/trades/account/history",
    tag: "Trades",
    summary: "Closed trades",
    description: "Trades closed in the last `days` days, newest first.",
    access: "user",
    licence: true,
    query: z.object({ days: historyDaysSchema }),
    responses: { 200: json("The history.", R.tradeHistory) },
    errors: [400],
  },
  {
    method: "get",
    path: "/api/trades/{id}",
    tag: "Trades",
    summary: "One trade and the AI decision behind it",
    access: "user",
    licence: true,
    params: idParam("Broker trade id."),
    responses: { 200: json("The trade.", R.ok({ trade: R.anyObject, decision: R.anyObject.nullable(), decisionMissing: z.string().nullable() })) },
    errors: [404],
  },
  {
    method: "post",
    path: "/api/trades/{id}/close",
    tag: "Trades",
    summary: "Close a trade",
    access: "user",
    params: idParam("Broker trade id."),
    body: closeTradeSchema,
    responses: { 200: json("Closed.", R.okMessage) },
    errors: [400, 404, 502],
  },

  // ---- Settings -------------------------------------------------------------------------------------
  { method: "get", path: "/api/settings", tag: "Settings", summary: "Trading settings", access: "user", responses: { 200: json("The settings, defaults filled in.", R.ok({ settings: R.anyObject })) } },
  {
    method: "put",
    path: "/api/settings",
    tag: "Settings",
    summary: "Save trading settings",
    description: "`{settings: {...}}`, the bare settings object, or `{timeframe}`: any subset, merged into the stored settings (nested objects too) and validated whole.",
    access: "user",
    body: z.union([z.object({ settings: settingsPatch, timeframe: z.string().optional() }), settingsPatch]),
    parsedBy: "core/settings.ts parseSettingsUpdate (tradingSettingsSchema over the merged settings)",
    responses: { 200: json("Saved; the whole settings after the save.", R.ok({ message: z.string(), settings: R.anyObject })) },
    errors: [400],
  },
  {
    method: "get",
    path: "/api/preferences",
    tag: "Settings",
    summary: "Interface preferences",
    access: "user",
    responses: { 200: json("Language, time zone, display currency.", R.ok({ preferences: z.looseObject({ language: z.string(), currency: z.string(), timezone: z.string() }) })) },
  },
  {
    method: "put",
    path: "/api/preferences",
    tag: "Settings",
    summary: "Save interface preferences",
    description: "Any of language, timezone, currency; bare or wrapped in `preferences`.",
    access: "user",
    body: z.union([z.object({ preferences: preferencesSchema.partial() }), preferencesSchema.partial()]),
    parsedBy: "app/services/identity/preferences.server.ts writePreferences (preferencesSchema.partial())",
    responses: { 200: json("Saved.", R.ok({ message: z.string(), preferences: z.looseObject({ language: z.string(), currency: z.string(), timezone: z.string() }) })) },
    errors: [400],
  },

  // ---- AI -------------------------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/trades/ai/loop/run-once",
    tag: "AI",
    summary: "Run one AI cycle now",
    access: "user",
    responses: { 200: json("The cycle's decisions, or `success: false` with why it was skipped.", R.runOnce) },
    errors: [400, 402, 429, 502, 503],
  },
  {
    method: "post",
    path: "/api/trades/ai/loop/start",
    tag: "AI",
    summary: "Start the AI loop",
    description: "After a max-drawdown stop a plain start is refused (409) until `rearm: true`.",
    access: "user",
    body: loopStartSchema,
    responses: { 200: json("Started.", R.loopSwitch) },
    errors: [400, 402, 409],
  },
  { method: "post", path: "/api/trades/ai/loop/stop", tag: "AI", summary: "Stop the AI loop", access: "user", responses: { 200: json("Stopped.", R.loopSwitch) } },
  { method: "get", path: "/api/trades/ai/loop/status", tag: "AI", summary: "AI loop status", description: "Polled every 5 s.", access: "user", responses: { 200: json("The loop.", R.loopStatus) } },
  {
    method: "post",
    path: "/api/trades/ai/kill-switch",
    tag: "AI",
    summary: "Kill switch",
    description: "stop_entries (manage only), pause (loop off), close_all (loop off, then every open trade closed). `confirm: true` is required.",
    access: "user",
    body: z.object({ level: z.enum(KILL_SWITCH_LEVELS), confirm: z.literal(true) }),
    parsedBy: "app/routes/api.trades.ai.kill-switch.ts (isKillSwitchLevel, confirm === true)",
    responses: { 200: json("What the level did.", R.killSwitchResult) },
    errors: [400, 502],
  },
  {
    method: "post",
    path: "/api/trades/ai/kill-switch/resume",
    tag: "AI",
    summary: "Resume entries",
    description: "Ends a 'stop new entries' level.",
    access: "user",
    responses: { 200: json("Resumed.", R.killSwitchResult) },
    errors: [402],
  },
  {
    method: "get",
    path: "/api/trades/ai/preflight",
    tag: "AI",
    summary: "Pre-flight risk check",
    description: "What the settings would risk on this account before the AI starts.",
    access: "user",
    responses: {
      200: json(
        "The check.",
        R.ok({ accountCurrency: z.string(), balance: z.string(), needsConfirmation: z.boolean(), warnings: z.array(z.looseObject({ code: z.string(), message: z.string(), messageMsg: R.msgSchema })) }),
      ),
    },
    errors: [400, 502],
  },

  // ---- Orders ---------------------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/orders/market",
    tag: "Orders",
    summary: "Manual market order",
    description: "Through the same risk gate as the AI. Without stops the AI's typical stop and target are used (`defaulted`). An idempotency key replays the first answer (`replayed: true`).",
    access: "user",
    licence: true,
    headers: z.object({ "idempotency-key": z.string().optional().meta({ description: "Same as the body's idempotencyKey." }) }),
    body: manualOrderBody,
    parsedBy: "core/trading/manual-order.ts parseManualOrder",
    responses: {
      200: json(
        "Filled.",
        R.ok({ status: z.string(), message: z.string(), replayed: z.boolean(), clientOrderId: z.string(), origin: z.literal("manual"), instrument: z.string(), units: z.string(), trade: R.anyObject.nullable() }),
      ),
      202: json("Sent, fill not confirmed yet.", R.ok({ status: z.string(), message: z.string(), replayed: z.boolean(), clientOrderId: z.string() })),
    },
    errors: [400, 409, 502, 503],
  },

  // ---- Push -----------------------------------------------------------------------------------------
  ...(["push", "notifications"] as const).flatMap((base): ApiOperation[] => [
    { method: "get", path: `/api/${base}/public-key`, tag: "Push", summary: "VAPID public key", access: "public", responses: { 200: json("The key browsers subscribe with.", publicKey) }, errors: [404] },
    {
      method: "post",
      path: `/api/${base}/subscribe`,
      tag: "Push",
      summary: "Subscribe this device to push",
      description: "`{subscription, topics?, client?}` or the bare PushSubscription.",
      access: "user",
      body: subscribeSchema,
      responses: { 201: json("Subscribed.", subscribed) },
      errors: [400],
    },
    { method: "post", path: `/api/${base}/unsubscribe`, tag: "Push", summary: "Unsubscribe a device", access: "user", body: unsubscribeSchema, responses: { 200: json("Removed (or was not there).", unsubscribed) }, errors: [400] },
    { method: "post", path: `/api/${base}/test`, tag: "Push", summary: "Send a test notification", access: "user", responses: { 201: json("Sent.", testNotification) }, errors: [429] },
  ]),
  {
    method: "post",
    path: "/api/push/action",
    tag: "Push",
    summary: "One-tap action from a push",
    description: "Authorised by the push's one-time token alone (no session).",
    access: "public",
    body: pushActionSchema,
    responses: { 200: json("Done.", R.okMessage) },
    errors: [400, 401, 403, 409],
  },

  // ---- Notifications -------------------------------------------------------------------------------
  {
    method: "get",
    path: "/api/notifications",
    tag: "Notifications",
    summary: "List notifications",
    access: "user",
    query: listQuerySchema,
    responses: {
      200: json("A page.", R.ok({ notifications: z.array(R.notification), unreadCount: z.number().int(), page: z.number().int(), limit: z.number().int(), total: z.number().int() })),
    },
    errors: [400],
  },
  {
    method: "delete",
    path: "/api/notifications",
    tag: "Notifications",
    summary: "Delete every notification",
    access: "user",
    responses: { 200: json("Deleted.", R.ok({ message: z.string(), deleted: z.number().int(), unreadCount: z.number().int() })) },
  },
  {
    method: "get",
    path: "/api/notifications/unread-count",
    tag: "Notifications",
    summary: "Unread count",
    description: "Polled every 30 s.",
    access: "user",
    responses: { 200: json("The count (twice, both names).", R.ok({ count: z.number().int(), unreadCount: z.number().int() })) },
  },
  {
    method: "put",
    path: "/api/notifications/{id}/read",
    tag: "Notifications",
    summary: "Mark one read",
    access: "user",
    params: idParam("Notification id."),
    responses: { 200: json("Marked.", R.ok({ notification: R.notification, unreadCount: z.number().int() })) },
    errors: [404],
  },
  {
    method: "put",
    path: "/api/notifications/read-all",
    tag: "Notifications",
    summary: "Mark all read",
    access: "user",
    responses: { 200: json("Marked.", R.ok({ message: z.string(), updated: z.number().int(), unreadCount: z.number().int() })) },
  },

  // ---- Subscription / billing ------------------------------------------------------------------------
  { method: "get", path: "/api/subscriptions/status", tag: "Billing", summary: "Subscription status", access: "user", responses: { 200: json("The caller's subscription and licence.", R.subscriptionState) } },
  {
    method: "get",
    path: "/api/subscriptions/validate-session/{sessionId}",
    tag: "Billing",
    summary: "Validate a Checkout session",
    description: "After Stripe Checkout: whether the session is paid (`valid`), and the status.",
    access: "user",
    params: z.object({ sessionId: z.string().meta({ description: "Stripe Checkout session id." }) }),
    responses: { 200: json("The status.", R.subscriptionState.extend({ valid: z.boolean() })) },
    errors: [400, 404, 502, 503],
  },
  {
    method: "post",
    path: "/api/subscriptions/create-checkout-session",
    tag: "Billing",
    summary: "Start a Stripe Checkout",
    access: "user",
    body: checkoutSessionSchema,
    responses: { 200: json("The Checkout page to send the browser to.", R.ok({ checkoutUrl: z.string(), sessionId: z.string() })) },
    errors: [400, 409, 502, 503],
  },
  {
    method: "post",
    path: "/api/billing/portal-session",
    tag: "Billing",
    summary: "Open the billing portal",
    access: "user",
    responses: { 200: json("The Stripe billing portal URL.", R.ok({ portalUrl: z.string() })) },
    errors: [400, 502, 503],
  },
  {
    method: "get",
    path: "/api/billing/upcoming",
    tag: "Billing",
    summary: "Upcoming invoice",
    description: "Null without an active Stripe subscription (the licence end date applies).",
    access: "user",
    responses: { 200: json("The next payment.", R.ok({ upcoming: R.anyObject.nullable() })) },
  },
  { method: "get", path: "/api/plans/active", tag: "Billing", summary: "Price list", access: "public", responses: { 200: json("The active plans.", R.ok({ plans: z.array(R.plan) })) } },
  {
    method: "post",
    path: "/api/webhooks/stripe",
    tag: "Billing",
    summary: "Stripe webhook",
    description: "The raw event as Stripe sends it, verified with `Stripe-Signature`.",
    access: "stripe",
    headers: z.object({ "stripe-signature": z.string() }),
    body: R.anyObject.meta({ description: "A Stripe event." }),
    responses: { 200: json("Received (`duplicate` when already seen).", z.looseObject({ received: z.literal(true), id: z.string(), duplicate: z.boolean() })) },
    errors: [400, 503],
  },

  // ---- Streaming -----------------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/stream/ensure",
    tag: "Streaming",
    summary: "Add instruments to the live prices",
    access: "user",
    body: z.object({ instruments: streamInstrumentsSchema.max(10) }),
    responses: { 200: json("Streaming.", R.ok({ environment: z.string(), instruments: z.array(z.string()) })) },
    errors: [400],
  },
  {
    method: "get",
    path: "/api/stream/prices",
    tag: "Streaming",
    summary: "Live prices (SSE)",
    description: "Events: hello, price, heartbeat, order_fill, trade_close, server_shutdown. Reconnects resume with Last-Event-ID.",
    access: "user",
    query: streamQuery,
    responses: { 200: { description: "An event stream.", contentType: "text/event-stream", schema: z.string() } },
    errors: [400, 429, 503],
  },
  {
    method: "get",
    path: "/api/stream/open-trades",
    tag: "Streaming",
    summary: "Prices of the open trades (SSE)",
    description: "Events: snapshot {prices:[{instrument,bid,ask,mid,timestamp}]}, then price {instrument,bid,ask,mid,time}.",
    access: "user",
    query: streamQuery,
    responses: { 200: { description: "An event stream.", contentType: "text/event-stream", schema: z.string() } },
    errors: [400, 429, 503],
  },

  // ---- Health --------------------------------------------------------------------------------------
  ...["/health", "/api/health", "/api/status"].map(
    (path): ApiOperation => ({
      method: "get",
      path,
      tag: "Health",
      summary: "Health",
      description: "Database, queue and broker checks.",
      access: "public",
      responses: { 200: json("Healthy.", R.health), 503: json("Unhealthy (same body).", R.health) },
    }),
  ),

  // ---- Backtest and research -----------------------------------------------------------------------
  {
    method: "get",
    path: "/api/backtest",
    tag: "Backtest",
    summary: "Backtest runs",
    access: "user",
    responses: { 200: json("The caller's runs and the data sources on offer.", R.ok({ runs: z.array(backtestRun), offer: R.anyObject })) },
  },
  {
    method: "post",
    path: "/api/backtest",
    tag: "Backtest",
    summary: "Start a backtest",
    access: "user",
    licence: true,
    body: backtestRequestSchema,
    parsedBy: "app/services/backtest/runs.server.ts validateRequest (sources, ranges, balance)",
    responses: { 202: json("Queued.", R.ok({ message: z.string(), run: backtestRun })) },
    errors: [400, 429, 503],
  },
  { method: "get", path: "/api/backtest/{id}", tag: "Backtest", summary: "One backtest run", access: "user", params: idParam("Run id."), responses: { 200: json("The run.", R.ok({ run: backtestRun })) }, errors: [404] },
  {
    method: "delete",
    path: "/api/backtest/{id}",
    tag: "Backtest",
    summary: "Delete a run",
    description: "A run still queued or running cannot be deleted (400).",
    access: "user",
    params: idParam("Run id."),
    responses: { 200: json("Deleted.", R.okMessage) },
    errors: [400, 404],
  },
  {
    method: "get",
    path: "/api/research/edge-table",
    tag: "Backtest",
    summary: "The edge table",
    description: "The research study's per-style, per-pair results.",
    access: "user",
    responses: { 200: json("The table.", R.ok({ table: R.anyObject })) },
  },

  // ---- Admin ---------------------------------------------------------------------------------------
  { method: "get", path: "/api/admin/dashboard", tag: "Admin", summary: "Dashboard figures", access: "admin", responses: { 200: json("Users, licences, revenue, operations.", R.ok({ users: R.anyObject, licences: R.anyObject, revenue: R.anyObject, generatedAt: R.isoTime })) } },
  {
    method: "get",
    path: "/api/admin/users",
    tag: "Admin",
    summary: "List users",
    access: "admin",
    query: z.object({ search: z.string().optional(), q: z.string().optional().meta({ description: "Same as search." }), status: z.enum(USER_STATUS_FILTERS).optional(), page: z.coerce.number().int().min(1).optional() }),
    parsedBy: "app/lib/admin-users.ts parseUserListQuery",
    responses: { 200: json("A page of users.", R.ok({ users: z.array(R.adminUser) })) },
  },
  { method: "post", path: "/api/admin/users", tag: "Admin", summary: "Create a user", access: "admin", body: adminUserCreateSchema, responses: { 201: json("Created.", R.ok({ message: z.string(), user: R.adminUser })) }, errors: [400, 409] },
  { method: "get", path: "/api/admin/users/{id}", tag: "Admin", summary: "One user, in detail", access: "admin", params: idParam("User id."), responses: { 200: json("The user, licences, decisions.", R.ok({ user: R.anyObject })) }, errors: [404] },
  { method: "put", path: "/api/admin/users/{id}", tag: "Admin", summary: "Update a user", access: "admin", params: idParam("User id."), body: adminUserUpdateSchema, responses: { 200: json("Updated.", R.ok({ message: z.string(), user: R.adminUser })) }, errors: [400, 404, 409] },
  { method: "delete", path: "/api/admin/users/{id}", tag: "Admin", summary: "Delete a user", access: "admin", params: idParam("User id."), responses: { 200: json("Deleted.", R.ok({ message: z.string(), outcome: R.anyObject })) }, errors: [400, 404] },
  {
    method: "post",
    path: "/api/admin/users/{id}/extend-license",
    tag: "Admin",
    summary: "Extend a licence",
    access: "admin",
    params: idParam("User id."),
    body: extendLicenseSchema,
    responses: { 200: json("Extended.", R.ok({ message: z.string(), user: R.adminUser, days: z.number().int(), endBefore: R.isoTime.nullable(), endAfter: R.isoTime })) },
    errors: [400, 404],
  },
  { method: "get", path: "/api/admin/plans", tag: "Admin", summary: "List plans", access: "admin", responses: { 200: json("Every plan.", R.ok({ plans: z.array(R.adminPlan) })) } },
  { method: "post", path: "/api/admin/plans", tag: "Admin", summary: "Create a plan", description: "Synced to Stripe (`stripe`).", access: "admin", body: planInputSchema, responses: { 201: json("Created.", adminPlanSaved) }, errors: [400] },
  { method: "get", path: "/api/admin/plans/{id}", tag: "Admin", summary: "One plan", access: "admin", params: idParam("Plan id."), responses: { 200: json("The plan.", R.ok({ plan: R.adminPlan })) }, errors: [404] },
  { method: "put", path: "/api/admin/plans/{id}", tag: "Admin", summary: "Update a plan", access: "admin", params: idParam("Plan id."), body: planInputSchema, responses: { 200: json("Updated.", adminPlanSaved) }, errors: [400, 404] },
  {
    method: "delete",
    path: "/api/admin/plans/{id}",
    tag: "Admin",
    summary: "Delete a plan",
    description: "A plan with subscribers is archived instead (`archived: true`).",
    access: "admin",
    params: idParam("Plan id."),
    responses: { 200: json("Deleted or archived.", R.ok({ outcome: z.string(), archived: z.boolean(), message: z.string(), stripe: z.looseObject({ status: z.string(), message: z.string() }) })) },
    errors: [404],
  },
  {
    method: "get",
    path: "/api/admin/subscriptions",
    tag: "Admin",
    summary: "Stripe subscriptions",
    access: "admin",
    query: z.object({
      status: z.string().optional().meta({ description: "Default active." }),
      limit: z.coerce.number().int().optional().meta({ description: "Default 50." }),
      starting_after: z.string().optional().meta({ description: "Cursor (also `cursor`)." }),
      cursor: z.string().optional(),
    }),
    parsedBy: "app/services/admin/subscriptions.server.ts listSubscriptions",
    responses: { 200: json("A page.", R.ok({ data: z.array(R.anyObject), has_more: z.boolean(), next_cursor: z.string().nullable() })) },
    errors: [400, 502, 503],
  },
  {
    method: "get",
    path: "/api/admin/subscriptions/metrics",
    tag: "Admin",
    summary: "Subscription metrics",
    access: "admin",
    responses: { 200: json("Active count and MRR per currency.", R.ok({ active_count: z.number().int(), mrr_monthly_by_currency: z.record(z.string(), z.number()) })) },
    errors: [502, 503],
  },
  {
    method: "post",
    path: "/api/admin/subscriptions/{id}/cancel",
    tag: "Admin",
    summary: "Cancel a subscription",
    access: "admin",
    params: idParam("Stripe subscription id."),
    query: z.object({ atPeriodEnd: z.enum(["true", "1", "false", "0"]).optional().meta({ description: "Cancel at the period's end instead of now." }) }),
    responses: { 200: json("Cancelled.", R.ok({ message: z.string(), subscription: R.anyObject })) },
    errors: [404, 502, 503],
  },
  { method: "get", path: "/api/admin/settings", tag: "Admin", summary: "System settings", description: "Secrets masked.", access: "admin", responses: { 200: json("Values and where each comes from.", settingsView) } },
  {
    method: "put",
    path: "/api/admin/settings",
    tag: "Admin",
    summary: "Save system settings",
    description: "Absent fields keep their value; an empty secret keeps it (`clearSecrets` removes one).",
    access: "admin",
    body: settingsUpdateSchema,
    responses: { 200: json("Saved.", settingsView.extend({ message: z.string() })) },
    errors: [400],
  },
  {
    method: "post",
    path: "/api/admin/settings/test/stripe",
    tag: "Admin",
    summary: "Test Stripe",
    description: "One Stripe call with the given key, or the keys in force.",
    access: "admin",
    body: stripeTestSchema,
    responses: { 200: json("Stripe OK.", R.ok({ message: z.string(), source: z.string() })) },
    errors: [400, 502],
  },
  {
    method: "post",
    path: "/api/admin/settings/test/brevo",
    tag: "Admin",
    summary: "Test SMTP",
    description: "Connects and logs in with the given SMTP login/key, or the transport in force (empty body).",
    access: "admin",
    body: smtpTestSchema,
    responses: { 200: json("SMTP OK.", R.okMessage) },
    errors: [400, 502],
  },

  // ---- The contract itself ---------------------------------------------------------------------------
  { method: "get", path: "/api/openapi.json", tag: "Docs", summary: "This document", access: "public", responses: { 200: json("The OpenAPI 3.1 document.", R.anyObject) } },
  { method: "get", path: "/api/docs", tag: "Docs", summary: "API reference page", access: "public", responses: { 200: { description: "HTML rendering this document.", contentType: "text/html", schema: z.string() } } },
  {
    method: "get",
    path: "/api/docs/{asset}",
    tag: "Docs",
    summary: "Reference page assets",
    access: "public",
    params: z.object({ asset: z.string().meta({ description: "swagger-ui.css, swagger-ui-bundle.js or init.js." }) }),
    responses: { 200: { description: "The script or style sheet.", contentType: "application/octet-stream", schema: z.string() } },
    errors: [404],
  },
];
