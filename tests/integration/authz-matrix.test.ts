/**
 * Authorization matrix (issue 8 "prove it stays that way"): every route of the app (every file in
 * app/routes) × {anonymous, user A, user B, admin}, one table, against the real server (production
 * build, PostgreSQL, the OANDA simulator). Each cell is the expected outcome: the status (or status
 * class), the redirect target of a page, and checks that the body is the caller's own data. Where a
 * route takes an id (notifications, trades) every role is sent *A's* id. PRODUCT.md §2/§6: anonymous
 * callers get 401 JSON on /api and a redirect to /auth on pages; regular users are refused /admin*
 * (redirect to /); admins are sent from the user pages to /admin.
 *
 * Around every request: no 5xx; a 4xx from /api is JSON with a Portuguese `message`; the body never
 * holds another user's e-mail, id, broker account, broker token or session token; and no row of
 * another user changes (checksums of users, trading_settings, broker_connections, bots, trades,
 * notifications and decisions per owner, before and after).
 *
 * The test fails when a route file is added (or removed) without its row in `MATRIX`.
 * Roles run in the order anonymous, B, admin, A, so A's own (destructive) actions come last; the
 * table's order matters for the same reason (closing A's trade after the trade lists; disconnect last).
 */
import { createECDH, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { isPortugueseMessage, rawRequest, routeFiles, tableChecksums, type RawReply } from "../setup/probe";
import { settingsFormFor } from "../setup/settings-form";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

type Role = "anonymous" | "userA" | "userB" | "admin";
const ROLES: Role[] = ["anonymous", "userB", "admin", "userA"];

interface Actor {
  role: Role;
  email?: string;
  userId?: string;
  token?: string;
  cookie?: string;
  accountId?: string;
  brokerToken?: string;
}

/** What the test knows when it builds requests and checks replies. */
interface Ctx {
  actors: Record<Role, Actor>;
  /** An unread notification of A's (ids of A's are sent by every role). */
  notificationA: string;
  /** A's open trade at the broker (broker trade id). */
  tradeA: string;
  /** A's closed trade stored in our database (broker trade id). */
  closedTradeA: string;
}

/** An expected outcome: a status (or class `2xx`, `4xx`…), a redirect target for pages, extra checks. */
interface Outcome {
  status: number | "2xx" | "3xx" | "4xx";
  location?: string;
  check?: (reply: RawReply, ctx: Ctx, actor: Actor) => void | Promise<void>;
}

interface Probe {
  method: string;
  /** A page (cookie session, form bodies) or the JSON API (bearer token, JSON bodies). */
  kind: "page" | "api";
  path: string | ((ctx: Ctx) => string);
  body?: (ctx: Ctx, actor: Actor) => unknown;
  /** Send with a fresh session of the actor (for logout, which revokes it). */
  freshSession?: boolean;
  /**
   * The admin's reply may name other users (e-mail, id): admin pages that list users (the dashboard).
   * Their session tokens, cookies and broker tokens must still never appear.
   */
  adminSeesUsers?: boolean;
  expect: Record<Role, Outcome>;
}

// ---- outcome shorthands -------------------------------------------------------------------------
const status = (s: Outcome["status"], check?: Outcome["check"]): Outcome => ({ status: s, check });
const to = (location: string): Outcome => ({ status: "3xx", location });
const same = (o: Outcome): Record<Role, Outcome> => ({ anonymous: o, userA: o, userB: o, admin: o });
const UNAUTHORIZED: Outcome = status(401, (r) => expect(r.json?.message).toBe("Token inválido ou expirado"));
/** A page of a logged-in regular user: anonymous → /auth, admin → /admin (PRODUCT.md §2, §6). */
const userPage = (own: Outcome = status(200)): Record<Role, Outcome> => ({ anonymous: to("/auth"), userA: own, userB: own, admin: to("/admin") });
/** An admin page: anonymous → /admin/login, users → / (PRODUCT.md §2 "/admin/*: admin only (others redirected to /)"). */
const adminPage: Record<Role, Outcome> = { anonymous: to("/admin/login"), userA: to("/"), userB: to("/"), admin: status(200) };
/** An API route of a logged-in user: anonymous → 401 JSON. */
const userApi = (own: Outcome, admin: Outcome = own, b: Outcome = own): Record<Role, Outcome> => ({ anonymous: UNAUTHORIZED, userA: own, userB: b, admin });
/** A browser-like push subscription (P-256 key, 16-byte auth) whose endpoint is named after `name`; never reachable. */
const PUSH_KEYS = (() => {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { p256dh: ecdh.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") };
})();
const pushSubscription = (name: string) => ({ endpoint: `https://fcm.googleapis.com/fcm/send/authz-${name}`, keys: PUSH_KEYS });
const NOT_CONNECTED = status(400, (r) => expect(r.json?.message).toBe("Nenhuma conta Oanda conectada."));

/** The caller's own broker account in an `account` / `accountId` field. */
const ownAccount = (field: (j: Record<string, unknown>) => unknown) => (r: RawReply, _c: Ctx, a: Actor) => expect(field(r.json!)).toBe(a.accountId);

let env: TradingEnv;
let app: AppServer;
let ctx: Ctx;

/** The rows the probes list, read back to check ownership. */
async function ownerOf(table: "notifications", ids: string[]): Promise<string[]> {
  if (!ids.length) return [];
  const rows = await env.db.sql<{ user_id: string }[]>`select user_id from ${env.db.sql(table)} where id in ${env.db.sql(ids)}`;
  return [...new Set(rows.map((r) => r.user_id))];
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields);

/** Admin plans/subscriptions API (issue 10): anonymous 401, regular users 403 JSON, the admin `own`. */
const PLANS_NOT_ADMIN: Outcome = status(403, (r) => expect(r.json?.message).toBe("Acesso restrito a administradores."));
const plansAdminApi = (own: Outcome): Record<Role, Outcome> => ({ anonymous: UNAUTHORIZED, userA: PLANS_NOT_ADMIN, userB: PLANS_NOT_ADMIN, admin: own });
const NO_SUCH_PLAN = "00000000-0000-4000-8000-000000000000";

// ---- the matrix: one row per route file ---------------------------------------------------------
const MATRIX: Record<string, Probe[]> = {
  "$.tsx": [{ method: "GET", kind: "page", path: "/pagina-que-nao-existe", expect: same(to("/")) }],
  "_index.tsx": [{ method: "GET", kind: "page", path: "/", expect: userPage() }],
  "admin.tsx": [{ method: "GET", kind: "page", path: "/admin", adminSeesUsers: true, expect: adminPage }],
  // The dashboard lists users (recent, activity): the admin sees their e-mails (issue 10).
  "admin._index.tsx": [{ method: "GET", kind: "page", path: "/admin", adminSeesUsers: true, expect: { ...adminPage, admin: status(200, (r) => expect(r.text).toContain("Usuários recentes")) } }],
  "admin.$.tsx": [{ method: "GET", kind: "page", path: "/admin/nao-existe", expect: { ...adminPage, admin: to("/admin") } }],
  // Admin login, settings, audit log, dashboard API (issue 10). A user's right password at /admin/login opens no session.
  "admin_.login.tsx": [
    { method: "GET", kind: "page", path: "/admin/login", expect: { anonymous: status(200), userA: to("/"), userB: to("/"), admin: to("/admin") } },
    {
      method: "POST",
      kind: "page",
      path: "/admin/login",
      body: () => form({ email: "ninguem-admin-login@teste.com", password: "Errada123" }),
      expect: { anonymous: status(401, (r) => expect(r.text).toContain("Email ou senha inválidos.")), userA: to("/"), userB: to("/"), admin: to("/admin") },
    },
  ],
  "admin.configuracoes.tsx": [
    { method: "GET", kind: "page", path: "/admin/configuracoes", expect: { ...adminPage, admin: status(200, (r) => expect(r.text).toContain("preencha para trocar")) } },
    {
      method: "POST",
      kind: "page",
      path: "/admin/configuracoes",
      body: () => form({ intent: "save", stripeSecret: "pk_errada_12345678" }),
      expect: { ...adminPage, admin: status(400, (r) => expect(r.text).toContain("Erro ao salvar: Chave secreta da Stripe inválida")) },
    },
  ],
  "admin.auditoria.tsx": [{ method: "GET", kind: "page", path: "/admin/auditoria", adminSeesUsers: true, expect: { ...adminPage, admin: status(200, (r) => expect(r.text).toContain("Auditoria")) } }],
  "api.admin.settings.ts": [
    { method: "GET", kind: "api", path: "/api/admin/settings", expect: plansAdminApi(status(200, (r) => expect(r.json?.values).toBeTruthy())) },
    {
      method: "PUT",
      kind: "api",
      path: "/api/admin/settings",
      body: () => ({ stripeSecret: "pk_errada_12345678" }),
      expect: plansAdminApi(status(400, (r) => expect(r.json?.message).toBe("Chave secreta da Stripe inválida: deve começar com sk_ ou rk_."))),
    },
  ],
  "api.admin.settings.[test].stripe.ts": [
    { method: "POST", kind: "api", path: "/api/admin/settings/test/stripe", body: () => ({}), expect: plansAdminApi(status(200, (r) => expect(r.json?.message).toBe("Stripe OK"))) },
  ],
  "api.admin.settings.[test].brevo.ts": [
    { method: "POST", kind: "api", path: "/api/admin/settings/test/brevo", body: () => ({}), expect: plansAdminApi(status(400, (r) => expect(String(r.json?.message)).toMatch(/^Falha no teste do SMTP: /))) },
  ],
  "api.admin.dashboard.ts": [
    { method: "GET", kind: "api", path: "/api/admin/dashboard", adminSeesUsers: true, expect: plansAdminApi(status(200, (r) => expect(typeof (r.json?.users as { total?: number })?.total).toBe("number"))) },
  ],
  // Admin plans and subscriptions (issue 10): pages for the admin only; bad input and unknown ids change nothing.
  "admin.planos.tsx": [
    { method: "GET", kind: "page", path: "/admin/planos", expect: adminPage },
    {
      method: "POST",
      kind: "page",
      path: "/admin/planos",
      body: () => form({ intent: "save", name: "", description: "x", price: "10.00", durationDays: "30" }),
      expect: { ...adminPage, admin: status(400, (r) => expect(r.text).toContain("Informe o nome do plano.")) },
    },
  ],
  "admin.assinaturas.tsx": [
    { method: "GET", kind: "page", path: "/admin/assinaturas", expect: adminPage },
    { method: "POST", kind: "page", path: "/admin/assinaturas", body: () => form({ intent: "cancel", id: "sub_nao_existe", atPeriodEnd: "1" }), expect: { ...adminPage, admin: status(404) } },
  ],
  "api.admin.plans.ts": [
    { method: "GET", kind: "api", path: "/api/admin/plans", expect: plansAdminApi(status(200, (r) => expect(Array.isArray(r.json?.plans)).toBe(true))) },
    { method: "POST", kind: "api", path: "/api/admin/plans", body: () => ({ name: " ", description: "x", price: 100 }), expect: plansAdminApi(status(400, (r) => expect(r.json?.message).toBe("Informe o nome do plano."))) },
  ],
  "api.admin.plans.$id.ts": [
    { method: "GET", kind: "api", path: `/api/admin/plans/${NO_SUCH_PLAN}`, expect: plansAdminApi(status(404)) },
    { method: "PUT", kind: "api", path: `/api/admin/plans/${NO_SUCH_PLAN}`, body: () => ({ name: "X", description: "x", price: 100 }), expect: plansAdminApi(status(404)) },
    { method: "DELETE", kind: "api", path: `/api/admin/plans/${NO_SUCH_PLAN}`, expect: plansAdminApi(status(404)) },
  ],
  "api.admin.subscriptions.ts": [{ method: "GET", kind: "api", path: "/api/admin/subscriptions?status=active&limit=50", expect: plansAdminApi(status(200, (r) => expect(Array.isArray(r.json?.data)).toBe(true))) }],
  "api.admin.subscriptions.metrics.ts": [{ method: "GET", kind: "api", path: "/api/admin/subscriptions/metrics", expect: plansAdminApi(status(200, (r) => expect(typeof r.json?.active_count).toBe("number"))) }],
  "api.admin.subscriptions.$id.cancel.ts": [
    { method: "POST", kind: "api", path: "/api/admin/subscriptions/sub_nao_existe/cancel?atPeriodEnd=true", expect: plansAdminApi(status(404, (r) => expect(r.json?.message).toBe("Assinatura não encontrada no Stripe."))) },
  ],
  // Admin users (issue 10): a search that matches nobody, the admin's own id (refused: delete/extend on an admin), bad input; nothing changes.
  "admin.usuarios.tsx": [
    { method: "GET", kind: "page", path: "/admin/usuarios?search=ninguem-authz", expect: { ...adminPage, admin: status(200, (r) => expect(r.text).toContain("Nenhum usuário encontrado.")) } },
    {
      method: "POST",
      kind: "page",
      path: "/admin/usuarios?search=ninguem-authz",
      body: () => form({ intent: "create", email: "ruim", firstName: "X", lastName: "Y", password: "Senha123" }),
      expect: { ...adminPage, admin: status(400, (r) => expect(r.text).toContain("O e-mail do usuário é inválido.")) },
    },
  ],
  "admin.usuarios_.$id.tsx": [
    { method: "GET", kind: "page", path: (c) => `/admin/usuarios/${c.actors.admin.userId}`, expect: { ...adminPage, admin: status(200, (r) => expect(r.text).toContain("Últimas decisões")) } },
  ],
  "api.admin.users.ts": [
    { method: "GET", kind: "api", path: "/api/admin/users?search=ninguem-authz", expect: plansAdminApi(status(200, (r) => expect(r.json?.users).toEqual([]))) },
    {
      method: "POST",
      kind: "api",
      path: "/api/admin/users",
      body: () => ({ email: "ruim", firstName: "X", lastName: "Y", password: "Senha123" }),
      expect: plansAdminApi(status(400, (r) => expect(r.json?.message).toBe("O e-mail do usuário é inválido."))),
    },
  ],
  "api.admin.users.$id.ts": [
    { method: "GET", kind: "api", path: (c) => `/api/admin/users/${c.actors.admin.userId}`, expect: plansAdminApi(status(200, (r) => expect((r.json?.user as { role?: string })?.role).toBe("admin"))) },
    { method: "PUT", kind: "api", path: (c) => `/api/admin/users/${c.actors.admin.userId}`, body: () => ({ firstName: "" }), expect: plansAdminApi(status(400, (r) => expect(r.json?.message).toBe("Informe o nome do usuário."))) },
    { method: "DELETE", kind: "api", path: (c) => `/api/admin/users/${c.actors.admin.userId}`, expect: plansAdminApi(status(403, (r) => expect(r.json?.message).toBe("Não é possível excluir um administrador."))) },
  ],
  "api.admin.users.$id.extend-license.ts": [
    {
      method: "POST",
      kind: "api",
      path: (c) => `/api/admin/users/${c.actors.admin.userId}/extend-license`,
      body: () => ({ days: 30 }),
      expect: plansAdminApi(status(403, (r) => expect(r.json?.message).toBe("Não é possível estender a licença de um administrador."))),
    },
  ],
  "auth.tsx": [
    { method: "GET", kind: "page", path: "/auth", expect: { anonymous: status(200), userA: to("/"), userB: to("/"), admin: to("/admin") } },
    // The forms of /auth are public; a logged-in sender is sent on by the page's loader (Remix runs it after the action).
    {
      method: "POST",
      kind: "page",
      path: "/auth",
      body: () => form({ intent: "forgot", email: "ninguem-authz@teste.com" }),
      expect: { anonymous: status(200), userA: to("/"), userB: to("/"), admin: to("/admin") },
    },
  ],
  "auth_.contract.tsx": [
    // Only the signed registration cookie opens the terms step; a session (or A's e-mail in the query) does not.
    { method: "GET", kind: "page", path: (c) => `/auth/contract?email=${encodeURIComponent(c.actors.userA.email!)}`, expect: same(to("/auth?tab=register")) },
    // Accepting without the registration cookie records nothing (the action answers 400, the loader then redirects).
    {
      method: "POST",
      kind: "page",
      path: "/auth/contract",
      body: () => form({ accept: "on" }),
      expect: same({
        ...to("/auth?tab=register"),
        check: async () => {
          const rows = await env.db.sql`select 1 from users where terms_accepted_at is not null and role = 'user'`;
          expect(rows.length).toBe(0);
        },
      }),
    },
  ],
  "auth_.done.tsx": [
    { method: "GET", kind: "page", path: "/auth/done", expect: same(status(200)) },
    { method: "POST", kind: "page", path: "/auth/done", body: () => form({}), expect: same(status(400)) },
  ],
  "auth_.reset-password.tsx": [
    { method: "GET", kind: "page", path: "/auth/reset-password?token=invalido", expect: same(status(200)) },
    { method: "POST", kind: "page", path: "/auth/reset-password", body: () => form({ token: "invalido", password: "Senha123", confirm: "Senha123" }), expect: same(status(400)) },
  ],
  "auth_.verify.tsx": [{ method: "GET", kind: "page", path: "/auth/verify", expect: same(to("/auth?error=token_missing")) }],
  // The user's own backtest (issue 12): runs are read through their owner; every role is sent an id that is no one's.
  "backtest.tsx": [
    { method: "GET", kind: "page", path: "/backtest", expect: userPage(status(200, (r) => expect(r.text).toContain("Novo backtest"))) },
    {
      method: "POST",
      kind: "page",
      path: "/backtest",
      body: () => form({ source: "arquivo", instruments: "EUR_USD", from: "2026-01-12", to: "2026-02-06" }),
      expect: userPage(status(400, (r) => expect(r.text).toContain("Fonte de candles inválida"))),
    },
  ],
  "backtest_.$id.tsx": [{ method: "GET", kind: "page", path: `/backtest/${NO_SUCH_PLAN}`, expect: userPage(status(404)) }],
  "api.backtest.ts": [
    { method: "GET", kind: "api", path: "/api/backtest", expect: userApi(status(200, (r) => expect(r.json?.runs).toEqual([]))) },
    {
      method: "POST",
      kind: "api",
      path: "/api/backtest",
      body: () => ({ source: "shipped", instruments: [], from: "2026-01-12", to: "2026-02-06" }),
      expect: userApi(status(400, (r) => expect(r.json?.message).toBe("Escolha de 1 a 3 pares."))),
    },
  ],
  "api.backtest.$id.ts": [
    { method: "GET", kind: "api", path: `/api/backtest/${NO_SUCH_PLAN}`, expect: userApi(status(404, (r) => expect(r.json?.message).toBe("Backtest não encontrado."))) },
    { method: "DELETE", kind: "api", path: `/api/backtest/${NO_SUCH_PLAN}`, expect: userApi(status(404)) },
  ],
  "billing.tsx": [
    // The modal opens over the page for a trial user (no subscription yet), closable.
    { method: "GET", kind: "page", path: "/billing", expect: userPage(status(200, (r) => expect(r.text).toContain("Assinatura Necessária"))) },
    // The page action (issue 9): re-check ('Já paguei'), a subscribe with an unknown plan and the portal without a Stripe customer change nothing.
    {
      method: "POST",
      kind: "page",
      path: "/billing",
      body: () => form({ intent: "validate" }),
      expect: { anonymous: to("/auth"), userB: status(200), admin: to("/admin"), userA: status(200, (r) => expect(r.text).toContain("Ainda não identificamos o seu pagamento")) },
    },
    {
      method: "POST",
      kind: "page",
      path: "/billing",
      body: () => form({ intent: "subscribe", planId: "nao-existe", terms: "on" }),
      expect: { anonymous: to("/auth"), userB: status(400), admin: to("/admin"), userA: status(400) },
    },
    {
      method: "POST",
      kind: "page",
      path: "/billing",
      body: () => form({ intent: "portal" }),
      expect: { anonymous: to("/auth"), userB: status(400), admin: to("/admin"), userA: status(400, (r) => expect(r.text).toContain("Erro ao abrir o portal de cobrança")) },
    },
  ],
  // Where Stripe Checkout returns (issue 9): a session that is not the caller's validates nothing.
  "subscription.success.tsx": [
    {
      method: "GET",
      kind: "page",
      path: "/subscription/success?session_id=cs_test_de_outro",
      expect: userPage(status(200, (r) => expect(r.text).toContain("Não foi possível validar sua assinatura."))),
    },
    { method: "GET", kind: "page", path: "/subscription/success", expect: userPage(status(200, (r) => expect(r.text).toContain("Sessão inválida."))) },
  ],
  "subscription.canceled.tsx": [{ method: "GET", kind: "page", path: "/subscription/canceled", expect: userPage(status(200, (r) => expect(r.text).toContain("Pagamento cancelado"))) }],
  "dashboard.tsx": [{ method: "GET", kind: "page", path: "/dashboard", expect: userPage() }],
  "history.tsx": [{ method: "GET", kind: "page", path: "/history", expect: userPage() }],
  // The AI's evidence (issue 21): the shipped edge table, the same for every user.
  "ia.evidencias.tsx": [{ method: "GET", kind: "page", path: "/ia/evidencias", expect: userPage(status(200, (r) => expect(r.text).toContain("Evidências da IA"))) }],
  // Trade detail (issue 12): A's closed trade by its broker id; B (and the admin's API) get 404, never A's data.
  "history_.$id.tsx": [
    {
      method: "GET",
      kind: "page",
      path: (c) => `/history/${c.closedTradeA}`,
      expect: {
        ...userPage(),
        userA: status(200, (r) => expect(r.text).toContain("AUD/CAD")),
        userB: status(404, (r) => expect(r.text).toContain("Trade não encontrado.")),
      },
    },
  ],
  "api.trades.$id.ts": [
    {
      method: "GET",
      kind: "api",
      path: (c) => `/api/trades/${c.closedTradeA}`,
      expect: userApi(
        status(200, (r, c) => expect((r.json?.trade as { id?: string })?.id).toBe(c.closedTradeA)),
        status(404, (r) => expect(r.json?.message).toBe("Trade não encontrado.")),
        status(404, (r) => expect(r.json?.message).toBe("Trade não encontrado.")),
      ),
    },
  ],
  "history[.csv].ts": [
    {
      method: "GET",
      kind: "page",
      path: "/history.csv",
      expect: {
        ...userPage(status(200, (r) => expect(r.headers["content-type"]).toContain("text/csv"))),
        // A's closed trade is in A's file (its instrument and the P&L of the row inserted in beforeAll).
        userA: status(200, (r, c) => expect(r.text).toContain(`${c.closedTradeA};AUD/CAD`)),
        userB: status(200, (r, c) => expect(r.text).not.toContain(c.closedTradeA)),
      },
    },
  ],
  "notifications.tsx": [
    { method: "GET", kind: "page", path: "/notifications", expect: userPage() },
    // Marking A's notification read through the page form: B gets 404, A is sent back (303).
    {
      method: "POST",
      kind: "page",
      path: "/notifications",
      body: (c) => form({ intent: "read", id: c.notificationA }),
      expect: { anonymous: to("/auth"), userB: status(404), admin: to("/admin"), userA: to("/notifications") },
    },
  ],
  "settings.tsx": [
    { method: "GET", kind: "page", path: "/settings", expect: userPage() },
    {
      method: "POST",
      kind: "page",
      path: "/settings",
      body: async (_c, a) => (a.token ? settingsFormFor(apiCall(a), { language: "pt", timezone: "America/Sao_Paulo" }, { maxTrades: "4" }) : form({ intent: "save", maxTrades: "4" })),
      expect: { anonymous: to("/auth"), userB: status(200), admin: to("/admin"), userA: status(200) },
    },
  ],
  // Public legal pages (PRODUCT.md §2: linked from the subscription modal): the same for everyone.
  "termos.tsx": [{ method: "GET", kind: "page", path: "/termos", expect: same(status(200, (r) => expect(r.text).toContain("Termos de Uso"))) }],
  "privacidade.tsx": [{ method: "GET", kind: "page", path: "/privacidade", expect: same(status(200, (r) => expect(r.text).toContain("Política de Privacidade"))) }],
  "health.ts": [{ method: "GET", kind: "api", path: "/health", expect: same(status(200)) }],
  // Readiness (issue 24): public like /health, nothing personal in it.
  "ready.ts": [{ method: "GET", kind: "api", path: "/ready", expect: same(status(200, (r) => expect(r.json).toEqual({ status: "ready", reasons: [] }))) }],
  "logout.tsx": [
    { method: "GET", kind: "page", path: "/logout", expect: same(to("/")) },
    { method: "POST", kind: "page", path: "/logout", freshSession: true, body: () => form({}), expect: same(to("/auth")) },
  ],
  "api.$.ts": [
    { method: "GET", kind: "api", path: "/api/nao-existe", expect: same(status(404, (r) => expect(r.json?.message).toBe("Rota da API não encontrada."))) },
    // An admin path that is not an endpoint is the unknown-route 404 for everyone.
    { method: "GET", kind: "api", path: "/api/admin/nao-existe", expect: same(status(404)) },
  ],
  "api.health.ts": [{ method: "GET", kind: "api", path: "/api/health", expect: same(status(200)) }],
  "api.status.ts": [{ method: "GET", kind: "api", path: "/api/status", expect: same(status(200)) }],
  // The API contract (issue 24): public, the same for everyone; the reference page's assets by name only.
  "api.openapi[.]json.ts": [{ method: "GET", kind: "api", path: "/api/openapi.json", expect: same(status(200, (r) => expect(r.json?.openapi).toBe("3.1.0"))) }],
  "api.docs.ts": [{ method: "GET", kind: "api", path: "/api/docs", expect: same(status(200, (r) => expect(r.text).toContain("/api/openapi.json"))) }],
  "api.docs.$asset.ts": [
    { method: "GET", kind: "api", path: "/api/docs/init.js", expect: same(status(200)) },
    { method: "GET", kind: "api", path: "/api/docs/..%2Fpackage.json", expect: same(status(404)) },
  ],
  // Public price list (issue 9): the same list for everyone, a POST is refused.
  // Billing (issue 9), against the embedded Stripe simulator: each caller sees their own state; nobody has a customer yet.
  "api.subscriptions.status.ts": [
    { method: "GET", kind: "api", path: "/api/subscriptions/status", expect: userApi(status(200, (r) => expect(r.json?.stripeCustomerId).toBeNull())) },
  ],
  "api.subscriptions.create-checkout-session.ts": [
    { method: "POST", kind: "api", path: "/api/subscriptions/create-checkout-session", body: () => ({ planId: "nao-existe" }), expect: userApi(status(400)) },
  ],
  "api.subscriptions.validate-session.$sessionId.ts": [
    { method: "GET", kind: "api", path: "/api/subscriptions/validate-session/cs_test_de_outro", expect: userApi(status(404)) },
  ],
  "api.billing.upcoming.ts": [{ method: "GET", kind: "api", path: "/api/billing/upcoming", expect: userApi(status(200, (r) => expect(r.json?.upcoming).toBeNull())) }],
  "api.billing.portal-session.ts": [{ method: "POST", kind: "api", path: "/api/billing/portal-session", expect: userApi(status(400)) }],
  // Stripe's endpoint is public; without a valid signature nothing is stored, whoever sends it.
  "api.webhooks.stripe.ts": [
    { method: "POST", kind: "api", path: "/api/webhooks/stripe", body: () => ({ id: "evt_forjado", type: "invoice.paid", data: { object: {} } }), expect: same(status(400)) },
  ],
  "api.plans.active.ts": [
    { method: "GET", kind: "api", path: "/api/plans/active", expect: same(status(200, (r) => expect(Array.isArray(r.json?.plans)).toBe(true))) },
    { method: "POST", kind: "api", path: "/api/plans/active", expect: same(status(405)) },
  ],
  "api.auth.login.ts": [
    {
      method: "POST",
      kind: "api",
      path: "/api/auth/login",
      body: () => ({ email: "ninguem-authz@teste.com", password: "Errada123" }),
      expect: same(status(401, (r) => expect(r.json?.message).toBe("Email ou senha inválidos."))),
    },
  ],
  "api.auth.register.ts": [
    { method: "POST", kind: "api", path: "/api/auth/register", body: (_c, a) => ({ firstName: "Novo", lastName: "Usuário", email: `novo-${a.role}@teste.com`, password: "Senha123" }), expect: same(status(201)) },
  ],
  "api.auth.forgot-password.ts": [{ method: "POST", kind: "api", path: "/api/auth/forgot-password", body: (_c, a) => ({ email: `esqueci-${a.role}@teste.com` }), expect: same(status(200)) }],
  "api.auth.resend-confirmation.ts": [
    { method: "POST", kind: "api", path: "/api/auth/resend-confirmation", body: (_c, a) => ({ email: `reenvio-${a.role}@teste.com` }), expect: same(status(200)) },
  ],
  "api.auth.me.ts": [
    { method: "GET", kind: "api", path: "/api/auth/me", expect: userApi(status(200, (r, _c, a) => expect((r.json!.user as { email: string }).email).toBe(a.email))) },
  ],
  "api.auth.logout.ts": [
    {
      method: "POST",
      kind: "api",
      path: "/api/auth/logout",
      freshSession: true,
      // Public (a logout without a session is a no-op); the fresh session used is revoked afterwards (checked in the runner).
      expect: same(status(200)),
    },
  ],
  "api.oanda-auth.status.ts": [
    {
      method: "GET",
      kind: "api",
      path: "/api/oanda-auth/status",
      expect: userApi(status(200, ownAccount((j) => (j.account as { id?: string } | null)?.id ?? j.accountId)), status(200, (r) => expect(r.json?.isConnected).toBe(false))),
    },
  ],
  "api.oanda-auth.test-token.ts": [
    {
      method: "POST",
      kind: "api",
      path: "/api/oanda-auth/test-token",
      // Each user tests its own broker token; the admin has none and sends a wrong one.
      body: (_c, a) => ({ token: a.brokerToken ?? "token-que-nao-existe", environment: "practice" }),
      expect: userApi(
        status(200, (r, _c, a) => expect((r.json!.accounts as { id: string }[]).map((x) => x.id)).toEqual([a.accountId])),
        status("4xx"),
      ),
    },
  ],
  "api.oanda-auth.connect.ts": [
    {
      method: "POST",
      kind: "api",
      path: "/api/oanda-auth/connect",
      // Everyone tries to connect A's broker account: only A may (one app user per broker account).
      body: (c) => ({ token: c.actors.userA.brokerToken, accountId: c.actors.userA.accountId, environment: "practice" }),
      expect: { anonymous: UNAUTHORIZED, userB: status(409), admin: status(409), userA: status(200) },
    },
  ],
  "api.account.summary.ts": [{ method: "GET", kind: "api", path: "/api/account/summary", expect: userApi(status(200, ownAccount((j) => j.accountId)), NOT_CONNECTED) }],
  // Issue 22: the account's instruments and broker rules (the caller's own connection), manual orders (a body
  // without an instrument is refused before any broker call: no order is placed here), display preferences.
  "api.account.instruments.ts": [{ method: "GET", kind: "api", path: "/api/account/instruments", expect: userApi(status(200, (r) => expect(Array.isArray(r.json?.instruments)).toBe(true)), NOT_CONNECTED) }],
  "api.oanda-auth.rules.ts": [{ method: "GET", kind: "api", path: "/api/oanda-auth/rules", expect: userApi(status(200), NOT_CONNECTED) }],
  "api.orders.market.ts": [{ method: "POST", kind: "api", path: "/api/orders/market", body: () => ({ units: 1000 }), expect: userApi(status(400)) }],
  "api.preferences.ts": [
    { method: "GET", kind: "api", path: "/api/preferences", expect: userApi(status(200)) },
    { method: "PUT", kind: "api", path: "/api/preferences", body: () => ({ currency: "USD" }), expect: userApi(status(200)) },
  ],
  "api.research.edge-table.ts": [
    { method: "GET", kind: "api", path: "/api/research/edge-table", expect: userApi(status(200, (r) => expect((r.json?.table as { version?: number })?.version).toBe(1))) },
  ],
  "api.settings.ts": [
    { method: "GET", kind: "api", path: "/api/settings", expect: userApi(status(200)) },
    { method: "PUT", kind: "api", path: "/api/settings", body: () => ({ settings: { maxTrades: 5 } }), expect: userApi(status(200)) },
  ],
  "api.notifications.[test].ts": [{ method: "POST", kind: "api", path: "/api/notifications/test", expect: userApi(status(201)) }],
  // Web push (issue 11): the public key is public; each caller subscribes its own device, and only
  // A removes A's (B and the admin get removed:false); the one-tap action needs its signed token, never a session.
  "api.push.public-key.ts": [
    { method: "GET", kind: "api", path: "/api/push/public-key", expect: same(status(200, (r) => expect(String(r.json?.key)).toMatch(/^[A-Za-z0-9_-]{80,}$/))) },
  ],
  "api.notifications.public-key.ts": [{ method: "GET", kind: "api", path: "/api/notifications/public-key", expect: same(status(200)) }],
  "api.push.subscribe.ts": [{ method: "POST", kind: "api", path: "/api/push/subscribe", body: (_c, a) => ({ subscription: pushSubscription(`push-${a.role}`) }), expect: userApi(status(201)) }],
  "api.notifications.subscribe.ts": [
    { method: "POST", kind: "api", path: "/api/notifications/subscribe", body: (_c, a) => pushSubscription(`alias-${a.role}`), expect: userApi(status(201)) },
  ],
  "api.push.unsubscribe.ts": [
    {
      method: "POST",
      kind: "api",
      path: "/api/push/unsubscribe",
      body: () => ({ endpoint: pushSubscription("push-userA").endpoint }),
      expect: userApi(status(200, (r) => expect(r.json?.removed).toBe(true)), status(200, (r) => expect(r.json?.removed).toBe(false)), status(200, (r) => expect(r.json?.removed).toBe(false))),
    },
  ],
  "api.notifications.unsubscribe.ts": [
    {
      method: "POST",
      kind: "api",
      path: "/api/notifications/unsubscribe",
      body: () => ({ endpoint: pushSubscription("alias-userA").endpoint }),
      expect: userApi(status(200, (r) => expect(r.json?.removed).toBe(true)), status(200, (r) => expect(r.json?.removed).toBe(false)), status(200, (r) => expect(r.json?.removed).toBe(false))),
    },
  ],
  "api.push.[test].ts": [{ method: "POST", kind: "api", path: "/api/push/test", expect: userApi(status(201)) }],
  "api.push.action.ts": [
    {
      method: "POST",
      kind: "api",
      path: "/api/push/action",
      body: () => ({ token: "eyJ2IjoxfQ.Zm9yamFkbw", action: "pause" }),
      expect: same(status(401, (r) => expect(r.json?.message).toBe("Token de ação inválido."))),
    },
  ],
  "sw[.]js.ts": [
    {
      method: "GET",
      kind: "page",
      path: "/sw.js",
      expect: same(status(200, (r) => {
        expect(r.headers["content-type"]).toMatch(/^text\/javascript/);
        expect(r.headers["service-worker-allowed"]).toBe("/");
      })),
    },
  ],
  "manifest[.]webmanifest.ts": [
    { method: "GET", kind: "page", path: "/manifest.webmanifest", expect: same(status(200, (r) => expect(r.headers["content-type"]).toMatch(/^application\/manifest\+json/))) },
  ],
  "api.notifications.$id.read.ts": [
    {
      method: "PUT",
      kind: "api",
      path: (c) => `/api/notifications/${c.notificationA}/read`,
      expect: userApi(
        status(200, (r, c) => expect((r.json!.notification as { id: string }).id).toBe(c.notificationA)),
        status(404),
        status(404),
      ),
    },
  ],
  "api.notifications.unread-count.ts": [
    {
      method: "GET",
      kind: "api",
      path: "/api/notifications/unread-count",
      expect: userApi(
        status(200, async (r, _c, a) => {
          const [n] = await env.db.sql<{ count: number }[]>`select count(*)::int as count from notifications where user_id = ${a.userId!} and not read`;
          expect(r.json?.count).toBe(n!.count);
        }),
      ),
    },
  ],
  "api.notifications.read-all.ts": [{ method: "PUT", kind: "api", path: "/api/notifications/read-all", expect: userApi(status(200)) }],
  "api.notifications.ts": [
    {
      method: "GET",
      kind: "api",
      path: "/api/notifications",
      expect: userApi(
        status(200, async (r, _c, a) => {
          const ids = (r.json!.notifications as { id: string }[]).map((n) => n.id);
          expect((await ownerOf("notifications", ids)).every((o) => o === a.userId)).toBe(true);
        }),
      ),
    },
    { method: "DELETE", kind: "api", path: "/api/notifications", expect: userApi(status(200)) },
  ],
  "api.trades.account.open.ts": [
    {
      method: "GET",
      kind: "api",
      path: "/api/trades/account/open",
      expect: userApi(
        status(200, (r, c, a) => {
          const ids = (r.json!.trades as { id: string; accountId: string }[]).map((t) => `${t.accountId}:${t.id}`);
          if (a.role === "userA") expect(ids).toEqual([`${a.accountId}:${c.tradeA}`]);
          else expect(ids).toEqual([]);
        }),
        NOT_CONNECTED,
      ),
    },
  ],
  "api.trades.account.history.ts": [
    {
      method: "GET",
      kind: "api",
      path: "/api/trades/account/history",
      expect: userApi(
        status(200, (r, c, a) => {
          const ids = (r.json!.trades as { tradeId?: string; id?: string }[]).map((t) => String(t.tradeId ?? t.id));
          if (a.role === "userA") expect(ids).toContain(c.closedTradeA);
          else expect(ids).toEqual([]);
        }),
      ),
    },
  ],
  "api.trades.$id.close.ts": [
    {
      method: "POST",
      kind: "api",
      path: (c) => `/api/trades/${c.tradeA}/close`,
      expect: userApi(status(200), NOT_CONNECTED, status(404, (r) => expect(r.json?.message).toBe("Trade não encontrado entre as posições abertas."))),
    },
  ],
  // Pre-flight check (issue 12): the caller's own settings and account; 400 without a broker.
  "api.trades.ai.preflight.ts": [{ method: "GET", kind: "api", path: "/api/trades/ai/preflight", expect: userApi(status(200), NOT_CONNECTED) }],
  "api.trades.ai.loop.status.ts": [{ method: "GET", kind: "api", path: "/api/trades/ai/loop/status", expect: userApi(status(200)) }],
  "api.trades.ai.loop.start.ts": [{ method: "POST", kind: "api", path: "/api/trades/ai/loop/start", body: () => ({ intervalSec: 60 }), expect: userApi(status(200), NOT_CONNECTED) }],
  "api.trades.ai.loop.run-once.ts": [{ method: "POST", kind: "api", path: "/api/trades/ai/loop/run-once", expect: userApi(status(200)) }],
  "api.trades.ai.loop.stop.ts": [{ method: "POST", kind: "api", path: "/api/trades/ai/loop/stop", expect: userApi(status(200)) }],
  // Kill switch (issue 22): 'Pausar IA' on the caller's own bot (no licence needed, idempotent); resume without a user stop: 409.
  "api.trades.ai.kill-switch.ts": [{ method: "POST", kind: "api", path: "/api/trades/ai/kill-switch", body: () => ({ level: "pause", confirm: true }), expect: userApi(status(200)) }],
  "api.trades.ai.kill-switch.resume.ts": [{ method: "POST", kind: "api", path: "/api/trades/ai/kill-switch/resume", expect: userApi(status(409)) }],
  // Live prices (issue 11): ensure adds instruments to the caller's own environment's stream; the SSE GETs are Express-level (tests/integration/sse-streams.test.ts).
  "api.stream.ensure.ts": [
    {
      method: "POST", kind: "api", path: "/api/stream/ensure", body: () => ({ instruments: ["EUR_USD"] }),
      expect: userApi(status(200, (r) => expect(r.json).toMatchObject({ success: true, instruments: ["EUR_USD"] }))),
    },
  ],
  // Last: each user drops its own connection (A's survives B's call: the row checksums).
  "api.oanda-auth.disconnect.ts": [{ method: "POST", kind: "api", path: "/api/oanda-auth/disconnect", expect: userApi(status(200), NOT_CONNECTED) }],
};

/** A JSON API client of an actor (bearer token). */
function apiCall(a: Actor) {
  return async <T = Record<string, unknown>>(method: string, p: string, body?: unknown) => {
    const r = await rawRequest(app.url, method, p, { "content-type": "application/json", authorization: `Bearer ${a.token}` }, body === undefined ? undefined : JSON.stringify(body));
    return { status: r.status, body: r.json as T };
  };
}

/** Logs in through the API; returns the bearer token and the session cookie. */
async function login(email: string, password: string): Promise<{ token: string; cookie: string }> {
  const res = await fetch(`${app.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });
  const body = (await res.json()) as { token: string };
  if (res.status !== 200 || !body.token) throw new Error(`login de ${email} falhou: ${res.status} ${JSON.stringify(body)}`);
  return { token: body.token, cookie: res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
}

const PASSWORDS: Record<string, string> = {};

/** The strings that identify an actor; none may appear in a reply to anyone else. */
function secretsOf(a: Actor): string[] {
  return [a.email, a.userId, a.accountId, a.brokerToken, a.token, a.cookie?.split("=").slice(1).join("=")].filter((s): s is string => !!s && s.length >= 6);
}

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp({ WORKERS: "off", AUTH_RATE_LIMIT: "100000", ADMIN_EMAIL: "admin-authz@teste.com", ADMIN_PASSWORD: "Admin1234" });
  const a = await userWithBroker(env, app, "authz-a@teste.com");
  const b = await userWithBroker(env, app, "authz-b@teste.com");
  PASSWORDS["authz-a@teste.com"] = PASSWORDS["authz-b@teste.com"] = "Senha123";
  PASSWORDS["admin-authz@teste.com"] = "Admin1234";
  const [adminRow] = await env.db.sql<{ id: string }[]>`select id from users where email = 'admin-authz@teste.com' and role = 'admin'`;
  const sessions = {
    userA: await login("authz-a@teste.com", "Senha123"),
    userB: await login("authz-b@teste.com", "Senha123"),
    admin: await login("admin-authz@teste.com", "Admin1234"),
  };
  const actors: Record<Role, Actor> = {
    anonymous: { role: "anonymous" },
    userA: { role: "userA", email: "authz-a@teste.com", userId: a.userId, token: a.token, cookie: sessions.userA.cookie, accountId: a.accountId, brokerToken: a.brokerToken },
    userB: { role: "userB", email: "authz-b@teste.com", userId: b.userId, token: b.token, cookie: sessions.userB.cookie, accountId: b.accountId, brokerToken: b.brokerToken },
    admin: { role: "admin", email: "admin-authz@teste.com", userId: adminRow!.id, token: sessions.admin.token, cookie: sessions.admin.cookie },
  };
  // A's open trade, placed at the broker directly.
  const order = await rawRequest(
    env.sim.url,
    "POST",
    `/practice/v3/accounts/${a.accountId}/orders`,
    { "content-type": "application/json", authorization: `Bearer ${a.brokerToken}` },
    JSON.stringify({ order: { type: "MARKET", instrument: "EUR_USD", units: "1000", stopLossOnFill: { price: "0.50000" }, takeProfitOnFill: { price: "3.00000" } } }),
  );
  expect(order.status).toBe(201);
  const tradeA = String((order.json!.orderFillTransaction as { tradeOpened: { tradeID: string } }).tradeOpened.tradeID);
  // A's closed trade, in our database (history is read from it).
  const closedTradeA = "990001";
  await env.db.sql`
    insert into trades (user_id, account_id, environment, broker_trade_id, instrument, side, units, open_price, close_price, realized_pl, status, result, open_time, close_time)
    values (${a.userId}, ${a.accountId}, 'practice', ${closedTradeA}, 'AUD_CAD', 'buy', 1000, 0.9, 0.91, 7.25, 'closed', 'WIN', now() - interval '2 hours', now() - interval '1 hour')`;
  const [n] = await env.db.sql<{ id: string }[]>`
    insert into notifications (user_id, type, title, message) values (${a.userId}, 'info', 'Aviso de A', 'Só para A') returning id`;
  ctx = { actors, notificationA: n!.id, tradeA, closedTradeA };
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await env?.close();
});

describe("authorization matrix: every route × {anonymous, A, B, admin}", () => {
  it("has a row for every file in app/routes, and none for a file that is gone", () => {
    expect(Object.keys(MATRIX).sort()).toEqual(routeFiles());
  });

  it("every cell holds: status, redirect, own data only, no other user's row changed", async () => {
    const failures: string[] = [];
    const owners: Role[] = ["userA", "userB", "admin"];
    for (const [file, probes] of Object.entries(MATRIX)) {
      for (const probe of probes) {
        for (const role of ROLES) {
          let actor = ctx.actors[role];
          if (probe.freshSession && role !== "anonymous") {
            const s = await login(actor.email!, PASSWORDS[actor.email!]!);
            actor = { ...actor, token: s.token, cookie: s.cookie };
          }
          const p = typeof probe.path === "function" ? probe.path(ctx) : probe.path;
          const label = `${file} ${probe.method} ${p} as ${role}`;
          const raw = probe.body ? await probe.body(ctx, actor) : undefined;
          const headers: Record<string, string> = {};
          let body: string | undefined;
          if (probe.kind === "api") {
            headers.accept = "application/json";
            if (actor.token) headers.authorization = `Bearer ${actor.token}`;
            if (probe.method !== "GET") {
              headers["content-type"] = "application/json";
              body = raw === undefined ? "{}" : JSON.stringify(raw);
            }
          } else {
            headers.accept = "text/html";
            if (actor.cookie) headers.cookie = actor.cookie;
            if (probe.method !== "GET") {
              headers["content-type"] = "application/x-www-form-urlencoded";
              body = String(raw ?? "");
            }
          }
          const others = owners.filter((o) => o !== role);
          const before = await Promise.all(others.map((o) => tableChecksums(env.db.sql, ctx.actors[o].userId)));
          const reply = await rawRequest(app.url, probe.method, p, headers, body);
          const after = await Promise.all(others.map((o) => tableChecksums(env.db.sql, ctx.actors[o].userId)));
          const exp = probe.expect[role];
          try {
            expect(reply.status, "no 5xx").toBeLessThan(500);
            if (typeof exp.status === "number") expect(reply.status).toBe(exp.status);
            else expect(`${Math.floor(reply.status / 100)}xx`).toBe(exp.status);
            if (exp.location !== undefined) expect(reply.headers.location).toBe(exp.location);
            if (probe.kind === "api" && reply.status >= 400) {
              expect(reply.headers["content-type"]).toContain("application/json");
              expect(isPortugueseMessage(reply.json?.message), `Portuguese message, got ${JSON.stringify(reply.json?.message)}`).toBe(true);
            }
            // Nothing of another user in the reply (strings the request itself carried excepted).
            const sent = `${p} ${body ?? ""}`;
            for (const o of owners.filter((x) => x !== role)) {
              const hidden = secretsOf(ctx.actors[o]).filter((s) => !(probe.adminSeesUsers && role === "admin" && (s === ctx.actors[o].email || s === ctx.actors[o].userId)));
              for (const secret of hidden) if (!sent.includes(secret)) expect(reply.text.includes(secret), `${o}'s ${secret.slice(0, 12)}… in the reply`).toBe(false);
            }
            others.forEach((o, i) => expect(after[i], `${o}'s rows unchanged`).toEqual(before[i]));
            await exp.check?.(reply, ctx, actor);
            if (probe.freshSession && actor.token) {
              const me = await rawRequest(app.url, "GET", "/api/auth/me", { authorization: `Bearer ${actor.token}` });
              expect(me.status, "the session is revoked").toBe(401);
            }
          } catch (err) {
            failures.push(`${label} → ${reply.status} ${reply.headers.location ?? ""} ${reply.text.slice(0, 160).replace(/\s+/g, " ")}\n    ${(err as Error).message.split("\n")[0]}`);
          }
        }
      }
    }
    expect(failures, failures.join("\n")).toEqual([]);
  }, 240_000);
});
