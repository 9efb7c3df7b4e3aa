/**
 * PRODUCT.md §7 "The calls it makes", whole (issue 22 "The §7 route list has one test that calls every
 * path of §7"): one table with every path of §7 — Auth, Broker, Account, Settings, AI, Orders, Push,
 * Notifications, Subscription/billing, Streaming, Health, Admin — its method, the status a logged-in
 * licensed user with a connected simulator account gets (admin paths: an admin), and the shape of the
 * answer (the keys §7 names, or an array). SSE paths: status, content type and the first event.
 * Rows run in order (later rows use ids earlier ones created); destructive calls (disconnect, logout,
 * delete) run last or on users of their own. A row marked `pending` (a path being built) is an `it.todo`.
 * Every answer must also fit the API contract the server serves at /api/openapi.json (issue 24;
 * tests/setup/openapi-contract.ts).
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ALIASES } from "../../server/api-aliases";
import { apiClient, type AppServer } from "../setup/app-server";
import { serverContract, type ContractValidator } from "../setup/openapi-contract";
import { openSse } from "../setup/sse-client";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

const ADMIN = { email: "admin-secao7@teste.com", password: "Admin1234" };

let env: TradingEnv;
let app: AppServer;
let u: Awaited<ReturnType<typeof userWithBroker>>;
let admin: ReturnType<typeof apiClient>;
/** The API contract the server serves (issue 24): every row's answer must fit it. */
let contract: ContractValidator;
/** Ids earlier rows learn for later ones. */
const ids: Record<string, string> = {};

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp({ AUTH_RATE_LIMIT: "100000", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, PUSH_SERVICE_HOSTS: "127.0.0.1:9" });
  u = await userWithBroker(env, app);
  const login = await apiClient(app.url)<{ token: string }>("POST", "/api/auth/login", ADMIN);
  admin = apiClient(app.url, login.body.token);
  contract = await serverContract(app.url);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

/** What an answer must look like: keys present on the object, or an array. */
type Shape = { keys: readonly string[] } | { array: true } | { arrayOr: string };

interface Row {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** The path; a function when it needs an id an earlier row learned. */
  path: string | (() => string);
  body?: unknown | (() => unknown);
  /** Who calls: the licensed user with a broker (default), an admin, nobody, or a user of its own. */
  as?: "user" | "admin" | "anon" | (() => ReturnType<typeof apiClient>);
  status: number;
  shape: Shape;
  /** Being built by another change: listed, not called yet. */
  pending?: true;
  /** Reads what later rows need from the answer. */
  learn?: (body: Record<string, unknown>) => void;
}

/** A browser-like push subscription (P-256 point, 16-byte auth) on an allowed local push host. */
function pushSubscription() {
  const { publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const point = publicKey.export({ format: "der", type: "spki" }).subarray(-65);
  return { endpoint: `https://127.0.0.1:9/push/${randomBytes(8).toString("hex")}`, keys: { p256dh: point.toString("base64url"), auth: randomBytes(16).toString("base64url") } };
}

/** A user of its own, for the destructive rows (disconnect, logout). */
let spare: ReturnType<typeof apiClient>;
let spareBroker: { token: string; accountId: string };

const acc = () => u.accountId;
/** The account summary's figures (decimal strings) and the loop status's fields. */
const SUMMARY = ["success", "accountId", "currency", "balance", "NAV", "unrealizedPL", "marginUsed", "marginAvailable", "openTradeCount"];
const LOOP_STATUS = ["success", "isActive", "intervalSec"];
const LOOP_SWITCH = ["success", "message", "isActive"];
const RUN_ONCE = ["success", "message", "status", "decisions"];
const HEALTH = ["status", "database", "queue"];
/** Keys that, when an answer has them, must hold arrays. */
const ARRAY_KEYS = ["accounts", "trades", "decisions", "notifications", "plans", "users", "data", "instruments"];
const PLAN = { name: "Plano Seção 7", description: "Plano de teste", price: 4990, currency: "BRL", durationDays: 30, interval: "month", features: ["IA"], isHighlighted: false };
const GROUPS: Record<string, Row[]> = {
  Auth: [
    { method: "POST", path: "/api/auth/register", as: "anon", body: { email: "novo.secao7@teste.com", firstName: "Novo", lastName: "Usuário", password: "Senha123" }, status: 201, shape: { keys: ["token", "user", "needsVerification"] } },
    { method: "POST", path: "/api/auth/login", as: "anon", body: () => ({ email: ids.email, password: "Senha123" }), status: 200, shape: { keys: ["token", "user", "needsVerification"] } },
    { method: "GET", path: "/api/auth/me", status: 200, shape: { keys: ["user"] } },
    { method: "POST", path: "/api/auth/forgot-password", as: "anon", body: () => ({ email: ids.email }), status: 200, shape: { keys: ["message"] } },
    { method: "POST", path: "/api/auth/resend-confirmation", as: "anon", body: { email: "novo.secao7@teste.com" }, status: 200, shape: { keys: ["ok", "message"] } },
  ],
  Broker: [
    { method: "POST", path: "/api/oanda-auth/test-token", body: () => ({ token: u.brokerToken, environment: "practice" }), status: 200, shape: { keys: ["accounts"] } },
    { method: "POST", path: "/api/oanda-auth/connect", as: () => spare, body: () => ({ token: spareBroker.token, accountId: spareBroker.accountId, environment: "practice" }), status: 200, shape: { keys: ["success", "message"] } },
    { method: "GET", path: "/api/oanda-auth/status", status: 200, shape: { keys: ["isConnected", "account"] } },
    { method: "POST", path: "/api/oanda-auth/disconnect", as: () => spare, status: 200, shape: { keys: ["success", "message"] } },
  ],
  Account: [
    { method: "GET", path: "/api/account/instruments", status: 200, shape: { keys: ["instruments"] } },
    { method: "GET", path: "/api/account/summary", status: 200, shape: { keys: SUMMARY } },
    { method: "GET", path: "/api/account", status: 200, shape: { keys: SUMMARY } },
    { method: "GET", path: "/api/user/summary", status: 200, shape: { keys: SUMMARY } },
    { method: "GET", path: "/api/trades/account/open", status: 200, shape: { keys: ["trades"] } },
    { method: "GET", path: "/api/account/trades", status: 200, shape: { keys: ["trades"] } },
    { method: "GET", path: () => `/api/account/${acc()}/trades/open`, status: 200, shape: { keys: ["trades"] } },
    { method: "GET", path: () => `/api/account/${acc()}/positions`, status: 200, shape: { keys: ["trades"] } },
    { method: "GET", path: () => `/api/trades/account/${acc()}/open`, status: 200, shape: { keys: ["trades"] } },
    { method: "GET", path: "/api/account/positions", status: 200, shape: { keys: ["trades"] } },
    { method: "GET", path: "/api/trades", status: 200, shape: { keys: ["trades", "days"] } },
    { method: "GET", path: "/api/trading/history", status: 200, shape: { keys: ["trades", "days"] } },
    { method: "GET", path: "/api/trades/account/history?days=30", status: 200, shape: { keys: ["trades", "days"] } },
    { method: "GET", path: "/api/account/trades/history?days=30", status: 200, shape: { keys: ["trades", "days"] } },
    { method: "GET", path: "/api/trades/history", status: 200, shape: { keys: ["trades", "days"] } },
    { method: "GET", path: () => `/api/trades/account/${acc()}/closed`, status: 200, shape: { keys: ["trades", "days"] } },
    { method: "GET", path: () => `/api/account/${acc()}/trades/closed`, status: 200, shape: { keys: ["trades", "days"] } },
    { method: "GET", path: () => `/api/trades/account/${acc()}`, status: 200, shape: { keys: ["trades", "days"] } },
    { method: "GET", path: () => `/trades/history?accountId=${acc()}&env=practice`, status: 200, shape: { keys: ["trades", "days"] } },
  ],
  Settings: [
    { method: "GET", path: "/api/settings", status: 200, shape: { keys: ["settings"] } },
    { method: "PUT", path: "/api/settings", body: { settings: { maxTrades: 3 } }, status: 200, shape: { keys: ["settings"] } },
    { method: "PUT", path: "/api/settings", body: { timeframe: "M15" }, status: 200, shape: { keys: ["settings"] } },
  ],
  AI: [
    { method: "POST", path: "/api/ai/run-once", status: 200, shape: { keys: RUN_ONCE } },
    { method: "POST", path: "/api/trades/ai/run-once", status: 200, shape: { keys: RUN_ONCE } },
    { method: "POST", path: "/api/trades/ai/start", status: 200, shape: { keys: RUN_ONCE } },
    { method: "POST", path: "/api/ai/start", status: 200, shape: { keys: RUN_ONCE } },
    { method: "POST", path: "/api/trades/ai/loop/start", body: { intervalSec: 60 }, status: 200, shape: { keys: LOOP_SWITCH } },
    { method: "POST", path: "/api/ai/loop/start", body: { intervalSec: 60 }, status: 200, shape: { keys: LOOP_SWITCH } },
    { method: "GET", path: "/api/trades/ai/loop/status", status: 200, shape: { keys: LOOP_STATUS } },
    { method: "GET", path: "/api/ai/status", status: 200, shape: { keys: LOOP_STATUS } },
    { method: "POST", path: "/api/trades/ai/loop/stop", status: 200, shape: { keys: LOOP_SWITCH } },
    { method: "POST", path: "/api/ai/loop/stop", status: 200, shape: { keys: LOOP_SWITCH } },
    { method: "POST", path: "/api/trades/ai/loop/run-once", status: 200, shape: { keys: RUN_ONCE } },
  ],
  Orders: [
    // One manual order (after the setup's trade: no cooldown between trades for it); the alias with the same
    // idempotency key answers the same order (replayed), never a second one.
    { method: "PUT", path: "/api/settings", body: { settings: { aiSettings: { cooldownSec: 0 } } }, status: 200, shape: { keys: ["success"] } },
    { method: "POST", path: "/api/orders/market", body: { instrument: "USD_JPY", units: 1000, idempotencyKey: "s7-manual-1" }, status: 200, shape: { keys: ["success", "status", "origin", "trade", "replayed"] } },
    { method: "POST", path: "/api/trading/order", body: { instrument: "USD_JPY", units: 1000, idempotencyKey: "s7-manual-1" }, status: 200, shape: { keys: ["success", "status", "origin", "trade", "replayed"] } },
    { method: "POST", path: () => `/api/trades/${ids.tradeId}/close`, body: { units: "ALL" }, status: 200, shape: { keys: ["success", "message"] } },
  ],
  Push: [
    { method: "GET", path: "/api/push/public-key", status: 200, shape: { keys: ["key"] } },
    { method: "GET", path: "/api/notifications/public-key", status: 200, shape: { keys: ["key"] } },
    { method: "POST", path: "/api/push/subscribe", body: () => ({ subscription: pushSubscription(), topics: ["trades"], client: { userAgent: "vitest", language: "pt-BR" } }), status: 201, shape: { keys: ["success", "message", "id"] } },
    { method: "POST", path: "/api/notifications/subscribe", body: () => pushSubscription(), status: 201, shape: { keys: ["success", "message", "id"] } },
    { method: "POST", path: "/api/push/test", status: 201, shape: { keys: ["success", "message", "notification"] } },
    { method: "POST", path: "/api/notifications/test", status: 201, shape: { keys: ["success", "message", "notification"] } },
  ],
  Notifications: [
    { method: "GET", path: "/api/notifications?page=1&limit=50", status: 200, shape: { keys: ["notifications"] }, learn: (b) => (ids.notification = String((b.notifications as { id: string }[])[0]!.id)) },
    { method: "GET", path: "/api/notifications?page=1&limit=50&type=trading", status: 200, shape: { keys: ["notifications"] } },
    { method: "GET", path: "/api/notifications/unread-count", status: 200, shape: { keys: ["count", "unreadCount"] } },
    { method: "PUT", path: () => `/api/notifications/${ids.notification}/read`, status: 200, shape: { keys: ["success", "notification"] } },
    { method: "PUT", path: "/api/notifications/read-all", status: 200, shape: { keys: ["success", "updated", "unreadCount"] } },
    { method: "DELETE", path: "/api/notifications", status: 200, shape: { keys: ["success", "deleted", "unreadCount"] } },
  ],
  "Subscription/billing": [
    { method: "GET", path: "/api/subscriptions/status", status: 200, shape: { keys: ["subscriptionStatus", "hasValidLicense"] } },
    { method: "GET", path: "/api/plans/active", status: 200, shape: { arrayOr: "plans" }, learn: (b) => (ids.plan = String(((Array.isArray(b) ? b : b.plans) as { id: string }[])[0]!.id)) },
    { method: "POST", path: "/api/subscriptions/create-checkout-session", body: () => ({ planId: ids.plan }), status: 200, shape: { keys: ["checkoutUrl", "sessionId"] }, learn: (b) => (ids.checkout = String(b.sessionId)) },
    // The session is not paid yet: valid false, with the status.
    { method: "GET", path: () => `/api/subscriptions/validate-session/${ids.checkout}`, status: 200, shape: { keys: ["success", "valid", "subscriptionStatus", "hasValidLicense"] } },
    { method: "POST", path: "/api/billing/portal-session", status: 200, shape: { keys: ["portalUrl"] } },
    { method: "GET", path: "/api/billing/upcoming", status: 200, shape: { keys: ["success", "upcoming"] } },
    { method: "GET", path: "/api/stripe/invoice/upcoming", status: 200, shape: { keys: ["success", "upcoming"] } },
    { method: "GET", path: "/api/stripe/upcoming-invoice", status: 200, shape: { keys: ["success", "upcoming"] } },
    { method: "GET", path: "/api/stripe/invoices/upcoming", status: 200, shape: { keys: ["success", "upcoming"] } },
  ],
  Streaming: [{ method: "POST", path: "/api/stream/ensure", body: { instruments: ["EUR_USD"] }, status: 200, shape: { keys: ["success", "environment", "instruments"] } }],
  Health: [
    { method: "GET", path: "/health", as: "anon", status: 200, shape: { keys: HEALTH } },
    { method: "GET", path: "/api/health", as: "anon", status: 200, shape: { keys: HEALTH } },
    { method: "GET", path: "/api/status", as: "anon", status: 200, shape: { keys: HEALTH } },
  ],
  Admin: [
    { method: "GET", path: "/api/admin/users", as: "admin", status: 200, shape: { arrayOr: "users" } },
    {
      method: "POST",
      path: "/api/admin/users",
      as: "admin",
      body: { email: "criado.secao7@teste.com", firstName: "Criado", lastName: "Admin", password: "Senha123", isActive: true, preferences: { language: "pt", currency: "BRL", timezone: "America/Sao_Paulo" } },
      status: 201,
      shape: { keys: ["user"] },
      learn: (b) => (ids.adminUser = String((b.user as { id: string }).id)),
    },
    { method: "PUT", path: () => `/api/admin/users/${ids.adminUser}`, as: "admin", body: { firstName: "Editado" }, status: 200, shape: { keys: ["user"] } },
    { method: "POST", path: () => `/api/admin/users/${ids.adminUser}/extend-license`, as: "admin", body: { days: 30 }, status: 200, shape: { keys: ["success", "message", "user"] } },
    { method: "GET", path: "/api/admin/plans", as: "admin", status: 200, shape: { arrayOr: "plans" } },
    {
      method: "POST",
      path: "/api/admin/plans",
      as: "admin",
      body: PLAN,
      status: 201,
      shape: { keys: ["plan"] },
      learn: (b) => (ids.adminPlan = String((b.plan as { id: string }).id)),
    },
    { method: "PUT", path: () => `/api/admin/plans/${ids.adminPlan}`, as: "admin", body: { ...PLAN, name: "Plano Seção 7 editado" }, status: 200, shape: { keys: ["plan"] } },
    { method: "GET", path: "/api/admin/subscriptions?status=active&limit=50", as: "admin", status: 200, shape: { keys: ["data", "has_more", "next_cursor"] } },
    { method: "GET", path: "/api/admin/subscriptions/metrics", as: "admin", status: 200, shape: { keys: ["success", "active_count", "mrr_monthly_by_currency"] } },
    // No live subscription in this run: an unknown id is a 404 with the answer's message (success/message/error shape).
    { method: "POST", path: "/api/admin/subscriptions/sub_inexistente/cancel?atPeriodEnd=true", as: "admin", status: 404, shape: { keys: ["success", "message", "error"] } },
    { method: "GET", path: "/api/admin/settings", as: "admin", status: 200, shape: { keys: ["success", "values"] } },
    { method: "PUT", path: "/api/admin/settings", as: "admin", body: { brevoSenderName: "Forex IA" }, status: 200, shape: { keys: ["success", "message", "values"] } },
    // Stripe refuses a made-up key: 502 with the message ('Falha no teste do Stripe: …').
    { method: "POST", path: "/api/admin/settings/test/stripe", as: "admin", body: { stripeSecret: "sk_test_invalida" }, status: 502, shape: { keys: ["message"] } },
    { method: "POST", path: "/api/admin/settings/test/brevo", as: "admin", body: {}, status: 400, shape: { keys: ["message"] } },
    { method: "DELETE", path: () => `/api/admin/plans/${ids.adminPlan}`, as: "admin", status: 200, shape: { keys: ["success", "message"] } },
    { method: "DELETE", path: () => `/api/admin/users/${ids.adminUser}`, as: "admin", status: 200, shape: { keys: ["success", "message"] } },
  ],
  "Auth (ends the spare user's session)": [
    { method: "POST", path: "/api/auth/logout", as: () => spare, status: 200, shape: { keys: ["success"] } },
    { method: "GET", path: "/api/auth/me", as: () => spare, status: 401, shape: { keys: ["message"] } },
  ],
};

function clientFor(row: Row): ReturnType<typeof apiClient> {
  if (typeof row.as === "function") return row.as();
  if (row.as === "admin") return admin;
  if (row.as === "anon") return apiClient(app.url);
  return u.call;
}

/** Which keys of `shape` the answer lacks ("" when it fits). */
function misfit(shape: Shape, body: unknown): string {
  if ("array" in shape) return Array.isArray(body) ? "" : "não é um array";
  if ("arrayOr" in shape) return Array.isArray(body) || (body && typeof body === "object" && Array.isArray((body as Record<string, unknown>)[shape.arrayOr])) ? "" : `nem array nem {${shape.arrayOr}: []}`;
  if (!body || typeof body !== "object") return "não é um objeto JSON";
  const missing = shape.keys.filter((k) => !(k in body));
  if (missing.length) return `faltam ${missing.join(", ")}`;
  const notArrays = shape.keys.filter((k) => ARRAY_KEYS.includes(k) && !Array.isArray((body as Record<string, unknown>)[k]));
  return notArrays.length ? `não são arrays: ${notArrays.join(", ")}` : "";
}

describe("PRODUCT.md §7, every path", () => {
  it("setup: a user of its own for the destructive rows; an open trade for the close row", async () => {
    ids.email = `secao7.${Date.now()}@teste.com`;
    spare = apiClient(app.url, (await registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Reserva", lastName: "Teste", email: ids.email, password: "Senha123" })).token);
    const simUser = await env.simCall<{ token: string; accounts: { id: string }[] }>("POST", "/sim/users", { environment: "practice" });
    spareBroker = { token: simUser.token, accountId: simUser.accounts[0]!.id };
    const order = await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}/orders`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${u.brokerToken}` },
      body: JSON.stringify({ order: { type: "MARKET", instrument: "EUR_USD", units: "1000", timeInForce: "FOK", positionFill: "DEFAULT" } }),
    });
    const fill = (await order.json()) as { orderFillTransaction?: { tradeOpened?: { tradeID: string } } };
    ids.tradeId = fill.orderFillTransaction!.tradeOpened!.tradeID;
    expect(ids.tradeId).toBeTruthy();
    // A plan to subscribe to (a fresh database has none).
    expect((await admin("POST", "/api/admin/plans", { ...PLAN, name: "Plano Mensal" })).status).toBe(201);
  });

  for (const [group, rows] of Object.entries(GROUPS)) {
    describe(group, () => {
      for (const row of rows) {
        const label = `${row.method} ${typeof row.path === "string" ? row.path : row.path.toString().replace(/^\(\) => `?|`$/g, "")} → ${row.status}`;
        if (row.pending) {
          it.todo(`${label} (being built)`);
          continue;
        }
        it(label, async () => {
          const path = typeof row.path === "function" ? row.path() : row.path;
          const body = typeof row.body === "function" ? (row.body as () => unknown)() : row.body;
          const r = await clientFor(row)<Record<string, unknown>>(row.method, path, body);
          const seen = `${row.method} ${path}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`;
          expect(r.status, seen).toBe(row.status);
          expect(misfit(row.shape, r.body), seen).toBe("");
          expect(contract.check(row.method, path, r.status, r.body), seen).toEqual([]);
          row.learn?.(r.body);
        });
      }
    });
  }

  it("the table lists every alias path of server/api-aliases.ts (no §7 path left out)", () => {
    const listed = Object.values(GROUPS)
      .flat()
      .map((r) => (typeof r.path === "string" ? r.path : r.path.toString()).replace(/\$\{acc\(\)\}/g, ":id").replace(/^\(\) => `|`$/g, "").split("?")[0]);
    const missing = API_ALIASES.map((a) => a.alias).filter((alias) => !listed.includes(alias));
    expect(missing).toEqual([]);
  });

  describe("§8: a 401 says whether a session was sent (the broker wizard's two messages)", () => {
    it("no session at all → session: 'missing'; an unknown token → session: 'invalid'; both 'Token inválido ou expirado'", async () => {
      const body = { token: u.brokerToken, environment: "practice" };
      const none = await apiClient(app.url)<{ message: string; session: string }>("POST", "/api/oanda-auth/test-token", body);
      const bad = await apiClient(app.url, "sessao-que-nao-existe")<{ message: string; session: string }>("POST", "/api/oanda-auth/test-token", body);
      expect([none.status, none.body.session, none.body.message]).toEqual([401, "missing", "Token inválido ou expirado"]);
      expect([bad.status, bad.body.session, bad.body.message]).toEqual([401, "invalid", "Token inválido ou expirado"]);
    });
  });

  describe("Streaming (SSE)", () => {
    it("GET /api/stream/prices → 200 text/event-stream, first event hello", async () => {
      const s = await openSse(`${app.url}/api/stream/prices?instruments=EUR_USD`, { token: u.token });
      try {
        expect(s.status).toBe(200);
        expect(s.headers.get("content-type")).toMatch(/^text\/event-stream/);
        const first = await s.next(() => true);
        expect(first.event).toBe("hello");
      } finally {
        s.close();
      }
    });
    it("GET /api/stream/open-trades → 200 text/event-stream, first event snapshot {prices:[{instrument,bid,ask,mid,timestamp}]}", async () => {
      const s = await openSse(`${app.url}/api/stream/open-trades?instruments=EUR_USD`, { token: u.token });
      try {
        expect(s.status).toBe(200);
        expect(s.headers.get("content-type")).toMatch(/^text\/event-stream/);
        const first = await s.next(() => true);
        expect(first.event).toBe("snapshot");
        expect(Array.isArray(first.data.prices)).toBe(true);
        for (const p of first.data.prices as Record<string, unknown>[]) expect(Object.keys(p)).toEqual(expect.arrayContaining(["instrument", "bid", "ask", "mid", "timestamp"]));
      } finally {
        s.close();
      }
    });
  });
});
