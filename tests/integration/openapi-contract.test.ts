/**
 * The API contract (issue 24): GET /api/openapi.json documents 100 % of the `/api` routes.
 *
 * - The walk: every `app/routes/api.*` file (the routes the build is made of; the `api.$` catch-all
 *   404 excepted) and the Express-level streams (`/api/stream/*`, mounted in server/index.ts) have their
 *   path in the document, with exactly the methods the running server serves (the `Allow` header of
 *   its 405 to an OPTIONS request); every alias of server/api-aliases.ts is documented with its
 *   primary's methods and `x-alias-of`.
 * - The recordings: one scenario calls every documented operation against the real server (production
 *   build, PostgreSQL, the OANDA and Stripe simulators) as the right caller, and every answer recorded
 *   — successes and errors — must fit the document (status documented, JSON body valid against its
 *   schema); the test fails when an operation of the document was never exercised.
 *   (tests/integration/api-section7.test.ts checks its 94 §7 calls against the document too.)
 * - /api/docs is the reference page: HTML loading the renderer and its start-up script from this origin.
 */
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ALIASES } from "../../server/api-aliases";
import { apiClient, type AppServer } from "../setup/app-server";
import { apiRouteFiles, serverContract, type ContractValidator } from "../setup/openapi-contract";
import { openSse } from "../setup/sse-client";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

const root = path.resolve(import.meta.dirname, "../..");
const ADMIN = { email: "admin-contrato@teste.com", password: "Admin1234" };
const METHODS = ["get", "post", "put", "delete", "patch"] as const;

let env: TradingEnv;
let app: AppServer;
let contract: ContractValidator;
let user: Awaited<ReturnType<typeof userWithBroker>>;
let adminToken: string;

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp({ AUTH_RATE_LIMIT: "100000", ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, PUSH_SERVICE_HOSTS: "127.0.0.1:9" });
  user = await userWithBroker(env, app);
  adminToken = (await apiClient(app.url)<{ token: string }>("POST", "/api/auth/login", ADMIN)).body.token;
  contract = await serverContract(app.url);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

/** The Express-level `/api` routes: the SSE paths the stream handler mounted on /api/stream answers. */
function expressApiPaths(): string[] {
  const server = readFileSync(path.join(root, "server/index.ts"), "utf8");
  const mounts = [...server.matchAll(/app\.(?:use|get|post|put|delete|all)\("(\/api[^"]*)"/g)].map((m) => m[1]!);
  expect(mounts, "server/index.ts mounts /api/stream (and no other /api path this test does not know)").toEqual(["/api/stream"]);
  const handler = readFileSync(path.join(root, "app/services/streams/sse-routes.server.ts"), "utf8");
  return [...new Set([...handler.matchAll(/req\.path === "(\/[\w-]+)"/g)].map((m) => `/api/stream${m[1]}`))];
}

/** The methods the document has for `template`. */
function documented(template: string): string[] {
  return Object.keys(contract.doc.paths[template] ?? {})
    .filter((k) => (METHODS as readonly string[]).includes(k))
    .sort();
}

describe("the walk: every /api route of the build is in the document", () => {
  it("the document is OpenAPI 3.1 and every response schema compiles ($refs resolve)", () => {
    expect(contract.doc.openapi).toBe("3.1.0");
    expect(contract.compileAll()).toBeGreaterThan(300);
  });

  it("every app/routes/api.* file and every Express-level /api path has its path in the document", () => {
    const files = apiRouteFiles();
    expect(files.length).toBeGreaterThanOrEqual(68);
    const missing = [...files.map((f) => `${f.path} (${f.file})`), ...expressApiPaths().map((p) => `${p} (server/index.ts /api/stream)`)].filter(
      (label) => !contract.doc.paths[label.split(" ")[0]!],
    );
    expect(missing).toEqual([]);
  });

  it("each route's served methods (the Allow of its 405) are exactly the documented ones", async () => {
    const wrong: string[] = [];
    for (const { file, path: template } of apiRouteFiles()) {
      const url = template.replace(/\{\w+\}/g, "x");
      const res = await fetch(app.url + url, { method: "OPTIONS" });
      await res.arrayBuffer();
      if (res.status !== 405) {
        wrong.push(`${file}: OPTIONS ${url} → ${res.status}, não 405`);
        continue;
      }
      const served = String(res.headers.get("allow"))
        .split(",")
        .map((m) => m.trim().toLowerCase())
        .filter((m) => m && m !== "head")
        .sort();
      const docs = documented(template);
      if (JSON.stringify(served) !== JSON.stringify(docs)) wrong.push(`${file}: serve ${served.join(",")}; documentado ${docs.join(",")}`);
    }
    expect(wrong).toEqual([]);
  });

  it("the Express-level streams are served (401 JSON without a session) and documented as GET", async () => {
    for (const p of expressApiPaths()) {
      const res = await fetch(app.url + p);
      expect(res.status, p).toBe(401);
      expect(contract.check("GET", p, 401, await res.json()), p).toEqual([]);
      expect(documented(p)).toEqual(["get"]);
    }
  });

  it("every alias of server/api-aliases.ts is documented with its primary's methods and x-alias-of", () => {
    const wrong: string[] = [];
    for (const { alias, primary } of API_ALIASES) {
      const template = alias.replace(/:(\w+)/g, "{$1}");
      const item = contract.doc.paths[template];
      if (!item) {
        wrong.push(`${alias}: ausente`);
        continue;
      }
      if (JSON.stringify(documented(template)) !== JSON.stringify(documented(primary))) wrong.push(`${alias}: ${documented(template)} ≠ ${documented(primary)} de ${primary}`);
      for (const m of documented(template)) if (item[m]!["x-alias-of"] !== primary) wrong.push(`${alias} ${m}: x-alias-of ${item[m]!["x-alias-of"]}`);
    }
    expect(wrong).toEqual([]);
  });
});

// ---- the recordings --------------------------------------------------------------------------------

/** One recorded answer. */
interface Recorded {
  method: string;
  path: string;
  status: number;
  type: string;
  body: unknown;
}
const recorded: Recorded[] = [];

/** Calls the API as `token`'s user (or nobody), records the answer and returns it. */
async function call<T = Record<string, unknown>>(token: string | null, method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  const res = await fetch(app.url + p, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
  const type = res.headers.get("content-type") ?? "";
  const text = await res.text();
  let parsed: unknown = text;
  if (type.includes("json")) parsed = JSON.parse(text);
  recorded.push({ method, path: p, status: res.status, type, body: parsed });
  return { status: res.status, body: parsed as T };
}

/** A browser-like push subscription (P-256 point, 16-byte auth) on an allowed local push host. */
function pushSubscription() {
  const { publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const point = publicKey.export({ format: "der", type: "spki" }).subarray(-65);
  return { endpoint: `https://127.0.0.1:9/push/${randomBytes(8).toString("hex")}`, keys: { p256dh: point.toString("base64url"), auth: randomBytes(16).toString("base64url") } };
}

describe("the recordings: every documented operation, called, answers as documented", () => {
  it("a scenario over every operation, as the right caller", async () => {
    const u = user.token;
    const admin = adminToken;
    const expectStatus = async (p: Promise<{ status: number; body: Record<string, unknown> }>, status: number) => {
      const r = await p;
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(status);
      return r.body;
    };

    // A user of its own for connect/disconnect and logout; an open trade of the main user at the broker.
    const spareEmail = `contrato.${Date.now()}@teste.com`;
    const spare = (await registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Reserva", lastName: "Contrato", email: spareEmail, password: "Senha123" })).token;
    const simUser = await env.simCall<{ token: string; accounts: { id: string }[] }>("POST", "/sim/users", { environment: "practice" });
    const order = await fetch(`${env.sim.url}/practice/v3/accounts/${user.accountId}/orders`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${user.brokerToken}` },
      body: JSON.stringify({ order: { type: "MARKET", instrument: "EUR_USD", units: "1000", timeInForce: "FOK", positionFill: "DEFAULT" } }),
    });
    const tradeId = ((await order.json()) as { orderFillTransaction: { tradeOpened: { tradeID: string } } }).orderFillTransaction.tradeOpened.tradeID;

    // Docs and health.
    await expectStatus(call(null, "GET", "/api/openapi.json"), 200);
    await expectStatus(call(null, "GET", "/api/docs"), 200);
    await expectStatus(call(null, "GET", "/api/docs/init.js"), 200);
    await expectStatus(call(null, "GET", "/api/docs/nao-existe.js"), 404);
    for (const p of ["/health", "/api/health", "/api/status"]) await call(null, "GET", p);

    // Auth.
    await expectStatus(call(null, "POST", "/api/auth/register", { email: `novo.contrato.${Date.now()}@teste.com`, firstName: "Novo", lastName: "Contrato", password: "Senha123" }), 201);
    await expectStatus(call(null, "POST", "/api/auth/register", { email: "nao-e-email", firstName: "X", lastName: "Y", password: "Senha123" }), 400);
    await expectStatus(call(null, "POST", "/api/auth/login", { email: spareEmail, password: "Senha123" }), 200);
    await expectStatus(call(null, "POST", "/api/auth/login", { email: spareEmail, password: "Errada123" }), 401);
    await expectStatus(call(u, "GET", "/api/auth/me"), 200);
    await expectStatus(call(null, "GET", "/api/auth/me"), 401);
    await expectStatus(call(null, "POST", "/api/auth/forgot-password", { email: spareEmail }), 200);
    await expectStatus(call(null, "POST", "/api/auth/resend-confirmation", { email: spareEmail }), 200);
    await expectStatus(call(null, "POST", "/api/auth/login", "email=x", { "content-type": "application/x-www-form-urlencoded" }), 415);

    // Broker.
    await expectStatus(call(u, "POST", "/api/oanda-auth/test-token", { token: user.brokerToken, environment: "practice" }), 200);
    await expectStatus(call(spare, "POST", "/api/oanda-auth/connect", { token: simUser.token, accountId: simUser.accounts[0]!.id, environment: "practice" }), 200);
    await expectStatus(call(u, "GET", "/api/oanda-auth/status"), 200);
    await expectStatus(call(u, "GET", "/api/oanda-auth/rules"), 200);

    // Account and trades.
    await expectStatus(call(u, "GET", "/api/account/instruments"), 200);
    await expectStatus(call(u, "GET", "/api/account/summary"), 200);
    await expectStatus(call(u, "GET", "/api/trades/account/open"), 200);
    await expectStatus(call(u, "GET", "/api/trades/account/history?days=30"), 200);
    await expectStatus(call(u, "GET", "/api/trades/account/history?days=0"), 400);
    await call(u, "GET", `/api/trades/${tradeId}`);

    // Settings and preferences.
    await expectStatus(call(u, "GET", "/api/settings"), 200);
    await expectStatus(call(u, "PUT", "/api/settings", { settings: { maxTrades: 3, aiSettings: { cooldownSec: 0 } } }), 200);
    await expectStatus(call(u, "PUT", "/api/settings", { settings: { maxTrades: 999 } }), 400);
    await expectStatus(call(u, "PATCH", "/api/settings", {}), 405);
    await expectStatus(call(u, "GET", "/api/preferences"), 200);
    await expectStatus(call(u, "PUT", "/api/preferences", { preferences: { language: "pt" } }), 200);

    // The AI.
    await expectStatus(call(u, "GET", "/api/trades/ai/preflight"), 200);
    await expectStatus(call(u, "POST", "/api/trades/ai/loop/run-once"), 200);
    await expectStatus(call(u, "POST", "/api/trades/ai/loop/start", { intervalSec: 60 }), 200);
    await expectStatus(call(u, "GET", "/api/trades/ai/loop/status"), 200);
    await expectStatus(call(u, "POST", "/api/trades/ai/kill-switch", { level: "stop_entries", confirm: true }), 200);
    await expectStatus(call(u, "POST", "/api/trades/ai/kill-switch/resume"), 200);
    await expectStatus(call(u, "POST", "/api/trades/ai/kill-switch", { level: "pause" }), 400);
    await expectStatus(call(u, "POST", "/api/trades/ai/loop/stop"), 200);

    // Orders, then closing the broker trade.
    await expectStatus(call(u, "POST", "/api/orders/market", { instrument: "USD_JPY", units: 1000, idempotencyKey: "contrato-1" }), 200);
    await expectStatus(call(u, "POST", "/api/orders/market", { instrument: "USD_JPY" }), 400);
    await expectStatus(call(u, "POST", `/api/trades/${tradeId}/close`, { units: "ALL" }), 200);

    // Push, under both paths.
    for (const base of ["/api/push", "/api/notifications"]) {
      await expectStatus(call(null, "GET", `${base}/public-key`), 200);
      const sub = pushSubscription();
      await expectStatus(call(u, "POST", `${base}/subscribe`, { subscription: sub, topics: ["trades"], client: { userAgent: "vitest" } }), 201);
      await expectStatus(call(u, "POST", `${base}/test`), 201);
      await expectStatus(call(u, "POST", `${base}/unsubscribe`, { endpoint: sub.endpoint }), 200);
    }
    const action = await call(null, "POST", "/api/push/action", { token: "token-falso", action: "pause" });
    expect(action.status).toBeGreaterThanOrEqual(400);

    // Notifications.
    const list = await expectStatus(call(u, "GET", "/api/notifications?page=1&limit=50"), 200);
    await expectStatus(call(u, "GET", "/api/notifications?limit=abc"), 400);
    await expectStatus(call(u, "GET", "/api/notifications/unread-count"), 200);
    await expectStatus(call(u, "PUT", `/api/notifications/${(list.notifications as { id: string }[])[0]!.id}/read`), 200);
    await expectStatus(call(u, "PUT", "/api/notifications/read-all"), 200);
    await expectStatus(call(u, "DELETE", "/api/notifications"), 200);

    // Billing, against the Stripe simulator.
    await expectStatus(call(admin, "POST", "/api/admin/plans", { name: "Plano Contrato", description: "Plano de teste", price: 4990, currency: "BRL", durationDays: 30, interval: "month", features: ["IA"] }), 201);
    const plans = await expectStatus(call(null, "GET", "/api/plans/active"), 200);
    await expectStatus(call(u, "GET", "/api/subscriptions/status"), 200);
    const checkout = await expectStatus(call(u, "POST", "/api/subscriptions/create-checkout-session", { planId: (plans.plans as { id: string }[])[0]!.id }), 200);
    await expectStatus(call(u, "POST", "/api/subscriptions/create-checkout-session", {}), 400);
    await expectStatus(call(u, "GET", `/api/subscriptions/validate-session/${String(checkout.sessionId)}`), 200);
    await expectStatus(call(u, "POST", "/api/billing/portal-session"), 200);
    await expectStatus(call(u, "GET", "/api/billing/upcoming"), 200);
    await expectStatus(call(null, "POST", "/api/webhooks/stripe", { id: "evt_falso" }), 400);

    // Streaming.
    await expectStatus(call(u, "POST", "/api/stream/ensure", { instruments: ["EUR_USD"] }), 200);
    await expectStatus(call(u, "POST", "/api/stream/ensure", { instruments: [] }), 400);
    for (const p of ["/api/stream/prices", "/api/stream/open-trades"]) {
      const s = await openSse(`${app.url}${p}?instruments=EUR_USD`, { token: u });
      try {
        expect(s.status, p).toBe(200);
        expect(s.headers.get("content-type")).toMatch(/^text\/event-stream/);
        recorded.push({ method: "GET", path: p, status: s.status, type: String(s.headers.get("content-type")), body: "" });
        await s.next(() => true);
      } finally {
        s.close();
      }
    }

    // Backtest and research.
    const offer = (await expectStatus(call(u, "GET", "/api/backtest"), 200)).offer as { shipped: { instruments: string[]; minDate: string } | null };
    expect(offer.shipped, "the shipped candles are on offer").not.toBeNull();
    const from = offer.shipped!.minDate;
    const to = new Date(Date.parse(from) + 6 * 86_400_000).toISOString().slice(0, 10);
    const run = await expectStatus(call(u, "POST", "/api/backtest", { source: "shipped", instruments: [offer.shipped!.instruments[0]], from, to }), 202);
    await expectStatus(call(u, "POST", "/api/backtest", { source: "nenhuma" }), 400);
    const runId = (run.run as { id: string }).id;
    await expectStatus(call(u, "GET", `/api/backtest/${runId}`), 200);
    await call(u, "DELETE", `/api/backtest/${runId}`);
    await expectStatus(call(u, "GET", "/api/research/edge-table"), 200);

    // Admin.
    await expectStatus(call(u, "GET", "/api/admin/dashboard"), 403);
    await expectStatus(call(admin, "GET", "/api/admin/dashboard"), 200);
    await expectStatus(call(admin, "GET", "/api/admin/users?status=all&page=1"), 200);
    const created = await expectStatus(
      call(admin, "POST", "/api/admin/users", { email: `criado.contrato.${Date.now()}@teste.com`, firstName: "Criado", lastName: "Admin", password: "Senha123", isActive: true }),
      201,
    );
    const uid = (created.user as { id: string }).id;
    await expectStatus(call(admin, "GET", `/api/admin/users/${uid}`), 200);
    await expectStatus(call(admin, "PUT", `/api/admin/users/${uid}`, { firstName: "Editado" }), 200);
    await expectStatus(call(admin, "POST", `/api/admin/users/${uid}/extend-license`, { days: 30 }), 200);
    await expectStatus(call(admin, "GET", "/api/admin/plans"), 200);
    const plan = await expectStatus(call(admin, "POST", "/api/admin/plans", { name: "Plano Contrato 2", description: "Outro", price: 9990 }), 201);
    const pid = (plan.plan as { id: string }).id;
    await expectStatus(call(admin, "GET", `/api/admin/plans/${pid}`), 200);
    await expectStatus(call(admin, "PUT", `/api/admin/plans/${pid}`, { name: "Plano Contrato 2b", description: "Outro", price: 9990 }), 200);
    await expectStatus(call(admin, "GET", "/api/admin/subscriptions?status=active&limit=50"), 200);
    await expectStatus(call(admin, "GET", "/api/admin/subscriptions/metrics"), 200);
    await expectStatus(call(admin, "POST", "/api/admin/subscriptions/sub_inexistente/cancel?atPeriodEnd=true"), 404);
    await expectStatus(call(admin, "GET", "/api/admin/settings"), 200);
    await expectStatus(call(admin, "PUT", "/api/admin/settings", { brevoSenderName: "Forex IA" }), 200);
    await expectStatus(call(admin, "POST", "/api/admin/settings/test/stripe", { stripeSecret: "sk_test_invalida" }), 502);
    await expectStatus(call(admin, "POST", "/api/admin/settings/test/brevo", {}), 400);
    await expectStatus(call(admin, "DELETE", `/api/admin/plans/${pid}`), 200);
    await expectStatus(call(admin, "DELETE", `/api/admin/users/${uid}`), 200);

    // Last: the spare user's destructive calls.
    await expectStatus(call(spare, "POST", "/api/oanda-auth/disconnect"), 200);
    await expectStatus(call(spare, "POST", "/api/oanda-auth/disconnect"), 400);
    await expectStatus(call(spare, "POST", "/api/auth/logout"), 200);
  }, 180_000);

  it("every recorded answer fits the document (status documented, body valid)", () => {
    expect(recorded.length).toBeGreaterThanOrEqual(95);
    const misfits = recorded.flatMap((r) => contract.check(r.method, r.path, r.status, r.body).map((e) => `${e}\n    ${JSON.stringify(r.body).slice(0, 200)}`));
    expect(misfits, misfits.join("\n")).toEqual([]);
  });

  it("every operation of the document (aliases aside: api-section7 calls those) was exercised", () => {
    const seen = new Set(recorded.map((r) => `${r.method.toLowerCase()} ${contract.operationPath(r.method, r.path)}`));
    const never: string[] = [];
    for (const [template, item] of Object.entries(contract.doc.paths))
      for (const [method, op] of Object.entries(item)) if ((METHODS as readonly string[]).includes(method) && !op["x-alias-of"] && !seen.has(`${method} ${template}`)) never.push(`${method.toUpperCase()} ${template}`);
    expect(never).toEqual([]);
  });
});

describe("/api/docs", () => {
  it("is an HTML page loading the renderer and its start-up script from this origin, which serves them", async () => {
    const page = await fetch(`${app.url}/api/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    const srcs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(srcs.every((s) => s.startsWith("/"))).toBe(true);
    for (const s of srcs) {
      const r = await fetch(app.url + s);
      expect(r.status, s).toBe(200);
      if (s.startsWith("/api/docs/")) expect(r.headers.get("content-type"), s).toMatch(/javascript|css/);
      await r.arrayBuffer();
    }
    expect(await (await fetch(`${app.url}/api/docs/init.js`)).text()).toContain("/api/openapi.json");
  });
});
