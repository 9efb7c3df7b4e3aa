/**
 * CSRF guards for every page form and API mutation (DESIGN.md §7 "mutations check Origin"; issue 8
 * item 10), in front of Remix:
 * - `rejectCrossSiteMutations(appUrl)`: a POST/PUT/PATCH/DELETE whose `Origin` names another origin (host or scheme),
 *   or is `null` (sandboxed frames, opaque origins), is refused with 403 and a Portuguese message
 *   before it reaches Remix (whose own check would answer 500). Our host is the configured APP_URL's
 *   or the request's `Host`, never `X-Forwarded-Host` (any client can set it). Requests without
 *   `Origin` (non-browser API clients) pass; the simulator is mounted before this.
 * - `requireJsonApiBodies`: a mutation of the JSON API (`/api/*`) that carries a body must send it
 *   as JSON; a form-encoded, multipart, text or untyped body gets 415 (those are the bodies a
 *   cross-site page can send without a CORS preflight).
 */
import type { Request, RequestHandler, Response } from "express";
import { routeKey } from "./rate-limits";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/** The 403 text of a refused Origin. */
export const ORIGIN_FORBIDDEN_MESSAGE = "Origem da requisição não permitida.";
/** The 415 text of a non-JSON body sent to the JSON API (also `guard:jsonOnly`). */
export const JSON_ONLY_MESSAGE = "Tipo de conteúdo não suportado: a API aceita apenas JSON (Content-Type: application/json).";

/** Answers `{success:false, message, error}` to API clients and the plain text to pages. */
function refuse(req: Request, res: Response, status: number, message: string): void {
  if (req.accepts(["json", "html"]) === "html") res.status(status).type("text/plain; charset=utf-8").send(message);
  else res.status(status).json({ success: false, message, error: message });
}

/** The origin of a URL (scheme and host, lower-case), or "" when it does not parse. */
function originOf(url: string): string {
  try {
    const u = new URL(url);
    return u.host ? `${u.protocol}//${u.host}`.toLowerCase() : "";
  } catch {
    return "";
  }
}

/**
 * Express middleware refusing cross-site mutations (403). The scheme counts (issue 24): `http://` of our
 * host is another origin than `https://` of it.
 * @param appUrl the configured public URL (config APP_URL); its origin and the request's own (its
 *   protocol with its `Host`) are ours.
 */
export function rejectCrossSiteMutations(appUrl: string): RequestHandler {
  const appOrigin = originOf(appUrl);
  return (req, res, next) => {
    if (SAFE.has(req.method)) return next();
    const origin = req.headers.origin;
    if (origin === undefined || origin === "") return next();
    const sent = origin === "null" ? "" : originOf(origin);
    const own = req.headers.host ? `${req.protocol}://${req.headers.host}`.toLowerCase() : undefined;
    if (sent && (sent === appOrigin || sent === own)) return next();
    refuse(req, res, 403, ORIGIN_FORBIDDEN_MESSAGE);
  };
}

/** Whether a Content-Type names a JSON body (`application/json`, `application/*+json`). */
export function isJsonType(type: string | undefined): boolean {
  const essence = (type ?? "").split(";")[0]!.trim().toLowerCase();
  return essence === "application/json" || /^application\/[\w.+-]+\+json$/.test(essence);
}

/** Express middleware: `/api/*` mutations with a body must send JSON (415 otherwise). */
export const requireJsonApiBodies: RequestHandler = (req, res, next) => {
  if (SAFE.has(req.method)) return next();
  const key = routeKey(req.path);
  if (key !== "/api" && !key.startsWith("/api/")) return next();
  const length = req.headers["content-length"];
  const hasBody = req.headers["transfer-encoding"] !== undefined || (length !== undefined && Number(length) > 0);
  if (!hasBody || isJsonType(req.headers["content-type"])) return next();
  res.status(415).json({ success: false, message: JSON_ONLY_MESSAGE, error: JSON_ONLY_MESSAGE });
};
