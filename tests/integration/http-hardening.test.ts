/**
 * Issue 8 item 10 over real HTTP (the real server process, PostgreSQL, a standalone OANDA simulator):
 * (a) CSRF: `Origin: null` refused, `X-Forwarded-Host` never trusted, our host from APP_URL or Host,
 *     the JSON API takes JSON bodies only (415 for form, multipart and text bodies);
 * (b) a wrong method → 405 JSON with `Allow` (no 'Unexpected Server Error', nothing logged), an
 *     unknown `/api/*` → 404 JSON in Portuguese, not a redirect;
 * (c) `Cache-Control: no-store` on authenticated pages and every `/api` reply, static files cached;
 * (d) the five page form actions answer a missing or odd content type with 415 and a Portuguese
 *     message, never 500;
 * (e) the account and history APIs need a valid licence (402 'Licença necessária…').
 * The per-user limits of (f) are in user-rate-limit.test.ts.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

/** The public URL the app is configured with (behind a proxy its host differs from the socket's). */
const APP_URL = "https://forex.exemplo.com.br";

let env: TradingEnv;
let app: AppServer;
let user: Awaited<ReturnType<typeof userWithBroker>>;
let cookie: string;

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: () => { success?: boolean; message?: string; error?: string };
}

/** A raw HTTP request (node:http, so Host and any header can be set as a client would). */
function raw(method: string, p: string, headers: Record<string, string> = {}, body?: string, base = app.url): Promise<Reply> {
  const u = new URL(base + p);
  const h: Record<string, string> = { ...headers };
  if (body !== undefined) h["content-length"] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers: h }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) }));
    });
    req.on("error", reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const JSON_TYPE = { "content-type": "application/json", accept: "application/json" };
const LOGIN_BODY = JSON.stringify({ email: "ninguem@exemplo.com", password: "Errada123" });

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp({ WORKERS: "off", APP_URL, AUTH_RATE_LIMIT: "1000" });
  user = await userWithBroker(env, app, "hardening@teste.com");
  const login = await fetch(`${app.url}/api/auth/login`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ email: "hardening@teste.com", password: "Senha123" }) });
  cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  expect(cookie).toContain("__session=");
}, 180_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

describe("(a) CSRF: Origin and body type", () => {
  const ORIGIN_MESSAGE = "Origem da requisição não permitida.";

  it("`Origin: null` is refused for API and page mutations (403, Portuguese)", async () => {
    const api = await raw("POST", "/api/auth/login", { ...JSON_TYPE, origin: "null" }, LOGIN_BODY);
    expect(api.status).toBe(403);
    expect(api.json()).toEqual({ success: false, message: ORIGIN_MESSAGE, error: ORIGIN_MESSAGE });
    const page = await raw("POST", "/auth", { "content-type": "application/x-www-form-urlencoded", accept: "text/html", origin: "null" }, "intent=login&email=a%40b.com&password=x");
    expect(page.status).toBe(403);
    expect(page.text).toBe(ORIGIN_MESSAGE);
    // A bearer-authenticated mutation with `Origin: null` too (the route's own check agrees).
    const bearer = await raw("POST", "/api/notifications/test", { ...JSON_TYPE, origin: "null", authorization: `Bearer ${user.token}` }, "{}");
    expect(bearer.status).toBe(403);
  });

  it("X-Forwarded-Host is never trusted: another site naming itself there is refused", async () => {
    const res = await raw("POST", "/api/auth/login", { ...JSON_TYPE, origin: "https://atacante.example", "x-forwarded-host": "atacante.example" }, LOGIN_BODY);
    expect(res.status).toBe(403);
    expect(res.json().message).toBe(ORIGIN_MESSAGE);
    const page = await raw("POST", "/settings", { "content-type": "application/x-www-form-urlencoded", origin: "https://atacante.example", "x-forwarded-host": "atacante.example", cookie }, "intent=disconnect");
    expect(page.status).toBe(403);
    // The broker connection is still there.
    expect((await user.call<{ isConnected: boolean }>("GET", "/api/oanda-auth/status")).body.isConnected).toBe(true);
  });

  it("our host is the request's Host or the configured APP_URL's", async () => {
    const sameHost = await raw("POST", "/api/auth/login", { ...JSON_TYPE, origin: app.url }, LOGIN_BODY);
    expect(sameHost.status).toBe(401); // reached the action: wrong credentials
    const behindProxy = await raw("POST", "/api/auth/login", { ...JSON_TYPE, origin: APP_URL, host: "10.0.0.7:3000" }, LOGIN_BODY);
    expect(behindProxy.status).toBe(401);
    const other = await raw("POST", "/api/auth/login", { ...JSON_TYPE, origin: "https://forex.exemplo.com.br.atacante.example" }, LOGIN_BODY);
    expect(other.status).toBe(403);
  });

  it("TRACE and other methods no route serves get 405 with Allow before Remix (issue 24: TRACE answered 500)", async () => {
    const trace = await raw("TRACE", "/api/auth/me", { accept: "application/json" });
    expect(trace.status).toBe(405);
    expect(trace.headers.allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
    expect(trace.json()).toEqual({ success: false, message: "Método TRACE não permitido.", error: "Método TRACE não permitido." });
    const page = await raw("PROPFIND", "/settings", { accept: "text/html" });
    expect(page.status).toBe(405);
    expect(page.text).toBe("Método PROPFIND não permitido.");
  });

  it("the scheme counts (issue 24): our hosts over another scheme are other origins, refused before anything runs", async () => {
    // APP_URL is https: its host over plain http (a downgraded or injected page) is not ours.
    const downgraded = await raw("POST", "/api/auth/login", { ...JSON_TYPE, origin: "http://forex.exemplo.com.br", host: "10.0.0.7:3000" }, LOGIN_BODY);
    expect(downgraded.status).toBe(403);
    expect(downgraded.json()).toMatchObject({ success: false, message: ORIGIN_MESSAGE });
    // The app is served over http here: its own host over https is another origin too.
    const ownHostHttps = await raw("POST", "/api/auth/login", { ...JSON_TYPE, origin: app.url.replace(/^http:/, "https:") }, LOGIN_BODY);
    expect(ownHostHttps.status).toBe(403);
  });

  it("the JSON API takes JSON bodies only: form, multipart and text bodies get 415 (nothing runs)", async () => {
    const JSON_ONLY = "Tipo de conteúdo não suportado: a API aceita apenas JSON (Content-Type: application/json).";
    const cases: [string, string][] = [
      ["application/x-www-form-urlencoded", "environment=practice&token=x"],
      ["multipart/form-data; boundary=XYZ", '--XYZ\r\nContent-Disposition: form-data; name="token"\r\n\r\nx\r\n--XYZ--\r\n'],
      ["text/plain", JSON.stringify({ token: "x", environment: "practice" })],
    ];
    for (const [type, body] of cases) {
      const res = await raw("POST", "/api/oanda-auth/test-token", { "content-type": type, cookie }, body);
      expect(res.status, type).toBe(415);
      expect(res.json(), type).toEqual({ success: false, message: JSON_ONLY, error: JSON_ONLY });
    }
    // Same-origin browser form posting to the API: still 415.
    const form = await raw("POST", "/api/oanda-auth/disconnect", { "content-type": "application/x-www-form-urlencoded", origin: app.url, cookie }, "x=1");
    expect(form.status).toBe(415);
    expect((await user.call<{ isConnected: boolean }>("GET", "/api/oanda-auth/status")).body.isConnected).toBe(true);
    // JSON passes, and so does a mutation without a body (logout, run-once from the UI).
    expect((await raw("POST", "/api/auth/login", JSON_TYPE, LOGIN_BODY)).status).toBe(401);
    expect((await raw("POST", "/api/auth/logout", {})).status).toBe(200);
  });
});

describe("(b) wrong method and unknown API paths", () => {
  it("a wrong method gets 405 JSON with Allow, and nothing in the log", async () => {
    const before = app.output().length;
    const cases: [string, string, string][] = [
      ["POST", "/api/auth/me", "GET, HEAD"],
      ["GET", "/api/auth/login", "POST"],
      ["DELETE", "/api/trades/ai/loop/status", "GET, HEAD"],
      ["PATCH", "/api/settings", "GET, HEAD, PUT"],
      ["POST", "/api/notifications", "GET, HEAD, DELETE"],
      ["GET", "/api/notifications/read-all", "PUT"],
      ["PUT", "/api/health", "GET, HEAD"],
      ["POST", "/health", "GET, HEAD"],
    ];
    for (const [method, p, allow] of cases) {
      const res = await raw(method, p, { ...JSON_TYPE, cookie }, method === "GET" ? undefined : "{}");
      expect(res.status, `${method} ${p}`).toBe(405);
      expect(res.headers.allow, `${method} ${p}`).toBe(allow);
      expect(res.json(), `${method} ${p}`).toEqual({ success: false, message: `Método ${method} não permitido.`, error: `Método ${method} não permitido.` });
    }
    const log = app.output().slice(before);
    expect(log).not.toContain("Unexpected Server Error");
    expect(log).not.toMatch(/ErrorResponse|did not provide an `(action|loader)`|\n\s+at /);
  });

  it("an unknown /api path gets 404 JSON in Portuguese whatever the method or spelling, never a redirect", async () => {
    const NOT_FOUND = "Rota da API não encontrada.";
    for (const [method, p] of [
      ["GET", "/api/inexistente"],
      ["GET", "/api/trades/account/inexistente/mais"],
      ["POST", "/api/orders/limit"], // (/api/orders/market exists since issue 22: manual market orders)
      ["DELETE", "/API/NADA"],
      ["GET", "/api"],
    ] as const) {
      const res = await raw(method, p, JSON_TYPE, method === "GET" ? undefined : "{}");
      expect(res.status, `${method} ${p}`).toBe(404);
      expect(res.headers.location, p).toBeUndefined();
      expect(res.headers["content-type"], p).toMatch(/^application\/json/);
      expect(res.json(), p).toEqual({ success: false, message: NOT_FOUND, error: NOT_FOUND });
    }
    // Pages keep PRODUCT.md §2: an unknown page redirects to /.
    expect((await raw("GET", "/pagina-inexistente")).status).toBe(302);
  });
});

describe("(c) Cache-Control", () => {
  it("authenticated pages and their data: no-store", async () => {
    for (const p of ["/", "/dashboard", "/history", "/settings", "/notifications", "/billing", "/history.csv", "/_root.data", "/dashboard.data"]) {
      const res = await raw("GET", p, { cookie });
      expect(res.status, p).toBe(200);
      expect(res.headers["cache-control"], p).toBe("no-store");
    }
  });

  it("every /api reply: no-store, including errors made before Remix", async () => {
    const replies = [
      await raw("GET", "/api/auth/me", { cookie }),
      await raw("GET", "/api/account/summary", { cookie }),
      await raw("GET", "/api/trades/account/history", { cookie }),
      await raw("GET", "/api/auth/me"), // 401
      await raw("GET", "/api/inexistente"), // 404
      await raw("POST", "/api/auth/me", JSON_TYPE, "{}"), // 405
      await raw("POST", "/api/auth/login", { ...JSON_TYPE, origin: "null" }, LOGIN_BODY), // 403 (Express)
      await raw("POST", "/api/auth/login", { "content-type": "text/plain" }, LOGIN_BODY), // 415 (Express)
      await raw("GET", "/api/health"),
    ];
    for (const res of replies) expect(res.headers["cache-control"], `${res.status} ${res.text.slice(0, 80)}`).toBe("no-store");
  });

  it("public static files keep their caching", async () => {
    expect((await raw("GET", "/favicon.ico")).headers["cache-control"]).toBe("public, max-age=3600");
    const page = await raw("GET", "/auth");
    const asset = /\/assets\/[\w.-]+\.js/.exec(page.text)?.[0];
    expect(asset).toBeTruthy();
    expect((await raw("GET", asset!)).headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });
});

describe("(d) page form actions and odd content types", () => {
  const FORM_TYPE = "Tipo de conteúdo não suportado: envie o formulário como application/x-www-form-urlencoded ou multipart/form-data.";
  const actions = ["/auth", "/auth/contract", "/auth/reset-password", "/notifications", "/settings"];

  it.each(actions)("%s: no content type and text/plain → 415 with a Portuguese message, never 500", async (p) => {
    for (const headers of [{}, { "content-type": "text/plain" }] as Record<string, string>[]) {
      for (const body of [undefined, "intent=login&email=a%40b.com"]) {
        const res = await raw("POST", p, { ...headers, accept: "text/html", cookie }, body);
        expect(res.status, `${p} ${JSON.stringify(headers)} ${body ?? "(sem corpo)"}`).toBe(415);
        expect(res.text).toContain(FORM_TYPE);
      }
      // Single fetch (the JavaScript form) alike.
      expect((await raw("POST", `${p}.data`, { ...headers, cookie }, "x=1")).status, `${p}.data`).toBe(415);
    }
  });

  it("a form type whose body cannot be read: 400, not 500", async () => {
    const res = await raw("POST", "/auth/reset-password", { "content-type": "multipart/form-data", accept: "text/html" }, "sem boundary");
    expect(res.status).toBe(400);
    expect(res.text).toContain("Formulário inválido: não foi possível ler os dados enviados.");
  });

  it("real forms still reach their actions", async () => {
    const login = await raw("POST", "/auth", { "content-type": "application/x-www-form-urlencoded", accept: "text/html" }, "intent=login&email=a%40b.com&password=Errada123");
    expect(login.status).toBe(401);
    const read = await raw("POST", "/notifications", { "content-type": "application/x-www-form-urlencoded", cookie }, "intent=read-all");
    expect(read.status).toBe(303);
  });
});

describe("(e) licence on the account and history APIs", () => {
  it("with a valid licence (the trial) they answer; without one, 402 'Licença necessária…'", async () => {
    for (const p of ["/api/account/summary", "/api/trades/account/open", "/api/trades/account/history"]) {
      expect((await user.call("GET", p)).status, p).toBe(200);
    }
    await env.db.sql`update licenses set end_date = now() - interval '1 minute' where user_id = ${user.userId}`;
    try {
      const expect402 = [
        ["/api/account/summary", "Licença necessária para ver os dados da conta."],
        ["/api/trades/account/open", "Licença necessária para ver os dados da conta."],
        ["/api/trades/account/history", "Licença necessária para ver o histórico de trades."],
        ["/api/trades/account/history?days=7", "Licença necessária para ver o histórico de trades."],
      ];
      for (const [p, message] of expect402) {
        const res = await user.call<{ success: boolean; message: string }>("GET", p!);
        expect(res.status, p).toBe(402);
        expect(res.body.success).toBe(false);
        expect(res.body.message, p).toBe(message);
      }
      // An active subscription counts as a licence (PRODUCT.md §4).
      await env.db.sql`update users set subscription_status = 'active' where id = ${user.userId}`;
      expect((await user.call("GET", "/api/account/summary")).status).toBe(200);
      await env.db.sql`update users set subscription_status = 'inactive' where id = ${user.userId}`;
    } finally {
      await env.db.sql`update licenses set end_date = now() + interval '7 days' where user_id = ${user.userId}`;
    }
  });
});
