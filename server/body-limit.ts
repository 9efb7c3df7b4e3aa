/**
 * Request body limits (issue 8 item 6): the Remix adapter streams the raw body into the actions,
 * which read it whole (`request.json()`, `formData()`), so without a limit an anonymous client
 * could make the process buffer any size. Limits per route: the JSON API (`/api/*`) 64 kB, page
 * forms (everything else, single-fetch `.data` included) 256 kB.
 *
 * The size is decided before any byte of the body is read: `Content-Length` above the route's limit
 * → 413; a body without `Content-Length` (chunked transfer) → 411, since its size cannot be known
 * up front (browsers and ordinary API clients always send the length; Node's HTTP parser then
 * never hands on more than that many bytes). GET and HEAD bodies are never read and pass.
 * Answers `{success:false, message, error}` for the API and the plain Portuguese text for pages.
 */
import type { RequestHandler } from "express";
import { routeKey } from "./rate-limits";

/** Largest JSON body of the `/api/*` routes, bytes. */
export const JSON_BODY_LIMIT = 64 * 1024;
/** Largest body of a page form action (and anything outside `/api`), bytes. */
export const FORM_BODY_LIMIT = 256 * 1024;

/** The 413 text for a limit in bytes, e.g. "Requisição grande demais: o limite é de 64 kB." */
export function tooLargeMessage(limitBytes: number): string {
  return `Requisição grande demais: o limite é de ${Math.round(limitBytes / 1024)} kB.`;
}
/** The 411 text for a body of unknown length. */
export const LENGTH_REQUIRED_MESSAGE = "Requisição sem tamanho declarado (Content-Length): envie o corpo com o tamanho informado.";

/** Largest Stripe webhook event, bytes (an invoice event with many lines is larger than our own JSON bodies). */
export const STRIPE_WEBHOOK_BODY_LIMIT = 512 * 1024;

/** The body limit of a path, bytes: the Stripe webhook's, JSON_BODY_LIMIT under `/api`, FORM_BODY_LIMIT elsewhere. */
export function bodyLimitFor(pathname: string): number {
  const key = routeKey(pathname);
  if (key === "/api/webhooks/stripe") return STRIPE_WEBHOOK_BODY_LIMIT;
  return key === "/api" || key.startsWith("/api/") ? JSON_BODY_LIMIT : FORM_BODY_LIMIT;
}

/**
 * Express middleware enforcing `bodyLimitFor(req.path)` on every request that carries a body.
 * Mount it in front of the Remix handler (not in front of the simulator, which has its own JSON parser).
 */
export const limitRequestBodies: RequestHandler = (req, res, next) => {
  if (req.method === "GET" || req.method === "HEAD") return next();
  const declared = req.headers["content-length"];
  const chunked = req.headers["transfer-encoding"] !== undefined;
  if (declared === undefined && !chunked) return next(); // no body
  const limit = bodyLimitFor(req.path);
  let status: number;
  let message: string;
  if (declared === undefined) {
    status = 411;
    message = LENGTH_REQUIRED_MESSAGE;
  } else if (Number(declared) > limit) {
    status = 413;
    message = tooLargeMessage(limit);
  } else return next();
  // Node discards the unread body after the answer (never buffered); the request timeout bounds it.
  const api = limit !== FORM_BODY_LIMIT;
  if (!api && req.accepts(["json", "html"]) === "html") res.status(status).type("text/plain; charset=utf-8").send(message);
  else res.status(status).json({ success: false, message, error: message });
};
