/**
 * Rate limits on the auth endpoints that can be abused (DESIGN.md §7): login (/auth and /admin/login), register,
 * forgot-password and resend-confirmation, per client IP, with a Portuguese 429 message.
 *
 * The limit is keyed on the route the Remix router resolves, not on the raw path: the router
 * matches case-insensitively, ignores trailing slashes, decodes percent-escapes and serves
 * single-fetch actions at `<path>.data`, so `/API/AUTH/LOGIN`, `/api/auth/login/`,
 * `/api/auth/%6Cogin`, `/auth/`, `/AUTH` and `/auth.data` all reach the same action and share one
 * bucket (`routeKey`). Every mutating method counts (Remix runs a route's action for POST, PUT,
 * PATCH and DELETE alike). The per-account backoff for failed logins lives in PostgreSQL
 * (app/services/identity/login-throttle.server.ts).
 */
import type { RequestHandler } from "express";
import { ipKeyGenerator, rateLimit } from "express-rate-limit";

/** The routes (as `routeKey` normalizes them) whose mutations are limited. */
export const LIMITED_ROUTES: ReadonlySet<string> = new Set([
  "/api/auth/login",
  "/api/auth/register",
  "/api/auth/forgot-password",
  "/api/auth/resend-confirmation",
  "/auth",
  "/auth/done",
  // The admin login form (app/routes/admin_.login.tsx, issue 10): the same per-IP budget as /auth.
  "/admin/login",
]);

/** The 429 text (PRODUCT.md §8 style; also `api:email.ipLimit`). */
export const RATE_LIMIT_MESSAGE = "Muitas tentativas. Aguarde alguns minutos e tente novamente.";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The route a path resolves to, the way the Remix router sees it: the single-fetch `.data` suffix
 * removed (`/_root.data` is `/`), percent-escapes decoded, lower-cased, repeated slashes collapsed
 * and trailing slashes dropped. E.g. `/API/Auth/Login/` → `/api/auth/login`, `/auth.data` → `/auth`.
 * The query (`?index`, `?_data=`) is not part of the path and never changes the key.
 * @param pathname the request path without the query (Express `req.path`)
 */
export function routeKey(pathname: string): string {
  let p = pathname.replace(/\.data$/i, "");
  if (/^\/_root$/i.test(p)) p = "/";
  try {
    p = decodeURIComponent(p);
  } catch {
    // A malformed escape: the router cannot decode it either; key on the raw text.
  }
  p = p.toLowerCase().replace(/\/{2,}/g, "/").replace(/\/+$/, "");
  return p.startsWith("/") ? p || "/" : `/${p}`;
}

/**
 * One limiter per route: `limit` mutating requests per IP per 15 minutes (config `AUTH_RATE_LIMIT`,
 * default 20; the e2e run raises it since every browser shares 127.0.0.1). The IP is `req.ip`, i.e.
 * what Express's `trust proxy` (config `TRUST_PROXY`) makes of `X-Forwarded-For`. Answers 429 with
 * `{success:false, message}` for API clients and the plain Portuguese text for page forms.
 * Per-e-mail limits of resend/forgot and the per-account login backoff live in PostgreSQL.
 */
export function authRateLimits(limit: number): RequestHandler {
  return rateLimit({
    windowMs: 15 * 60_000,
    limit,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    keyGenerator: (req) => `${ipKeyGenerator(req.ip ?? "")}:${routeKey(req.path)}`,
    skip: (req) => SAFE_METHODS.has(req.method) || !LIMITED_ROUTES.has(routeKey(req.path)),
    handler: (req, res) => {
      if (!routeKey(req.path).startsWith("/api/") && req.accepts(["json", "html"]) === "html")
        res.status(429).type("text/plain; charset=utf-8").send(RATE_LIMIT_MESSAGE);
      else res.status(429).json({ success: false, message: RATE_LIMIT_MESSAGE, error: RATE_LIMIT_MESSAGE });
    },
  });
}
