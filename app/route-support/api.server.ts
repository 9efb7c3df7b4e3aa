/**
 * Helpers for the JSON API (PRODUCT.md §7): uniform success/error bodies, body parsing with zod
 * (400 with the schema's message, never a 500; JSON only, 415 otherwise), the method check (405
 * with `Allow`), and the Origin check for cookie-authenticated
 * mutations (DESIGN.md §7). Services throw domain errors (errors.server.ts); `toResponse` is the one
 * place that turns them into HTTP responses (ADR 0009). Error messages are translatable (`Msg`, keys
 * of the `api` namespace or core's `broker`/`validation`), rendered in the signed-in user's
 * language, Portuguese otherwise (ADR 0007).
 */
import type { z } from "zod";
import { msg, type Msg } from "../../core/i18n/message";
import { issueMsg } from "../../core/i18n/zod-message";
import { hasUnsafeText } from "~/lib/unsafe-text";
import { translateMsg } from "~/i18n";
import { config } from "../services/platform/config.server";
import { DomainError, ForbiddenError, httpStatusOf, MethodNotAllowedError, ValidationError } from "../services/platform/errors.server";
import { requestLanguage } from "../services/identity/request-language.server";

export { ApiError, DomainError } from "../services/platform/errors.server";

/** A JSON response. */
export function json(data: unknown, init: number | ResponseInit = 200): Response {
  const base: ResponseInit = typeof init === "number" ? { status: init } : init;
  const headers = new Headers(base.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(data), { ...base, headers });
}

/** An error body `{success:false, message, error}` (the UI reads `message`, else `error`). */
export function apiError(status: number, message: string, extra: Record<string, unknown> = {}): Response {
  return json({ success: false, message, error: message, ...extra }, status);
}

/** The message of an unexpected failure (500). */
export const INTERNAL_ERROR: Msg = msg("api:internal");

/**
 * The one mapping from thrown errors to HTTP responses: a domain error becomes its status
 * (errors.server.ts `HTTP_STATUS`) with `{success:false, message, error, ...extra}`, its message in
 * `language` (Portuguese by default); a thrown Response passes through; anything else becomes a
 * logged 500.
 */
export function toResponse(err: unknown, language: unknown = "pt"): Response {
  if (err instanceof Response) return err;
  if (err instanceof DomainError) return apiError(httpStatusOf(err), err.messageIn(language), err.extra);
  console.error("[api] erro inesperado:", err instanceof Error ? err.stack : err);
  return apiError(500, translateMsg(INTERNAL_ERROR, language));
}

/** Wraps a handler so every thrown error becomes the right JSON response (through `toResponse`). */
export function handle(fn: () => Promise<Response>): Promise<Response> {
  return fn().catch(toResponse);
}

/** Whether a Content-Type names a JSON body (`application/json`, `application/*+json`). */
export function isJsonContentType(type: string | null | undefined): boolean {
  const essence = (type ?? "").split(";")[0]!.trim().toLowerCase();
  return essence === "application/json" || /^application\/[\w.+-]+\+json$/.test(essence);
}

/** The message of a non-JSON body sent to the JSON API (415). */
export const JSON_ONLY: Msg = msg("guard:jsonOnly");

/**
 * Reads a JSON body and validates it. An empty body reads as `{}`; a body without a Content-Type is
 * parsed as JSON (non-browser clients); a form-encoded, multipart or any other non-JSON type is
 * refused with 415 (issue 8 item 10: the API takes JSON only, so a cross-site form cannot drive it).
 * @throws Response 415 `{success:false, message}` for a non-JSON Content-Type (in the user's language).
 * @throws ValidationError 400 `guard:badText` when any string or key holds a NUL or a lone surrogate
 *   (app/lib/unsafe-text.ts, issue 24), before the schema sees it.
 * @throws ValidationError with the first validation message (the schema's translatable message).
 */
export async function readBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  let raw: unknown = {};
  const type = request.headers.get("content-type");
  if (type && !isJsonContentType(type)) {
    const text = await request.text();
    if (text.length) throw apiError(415, translateMsg(JSON_ONLY, await requestLanguage(request)));
  } else {
    try {
      const text = await request.text();
      raw = text.trim() ? JSON.parse(text) : {};
    } catch {
      throw new ValidationError(msg("api:malformedBody"));
    }
  }
  if (hasUnsafeText(raw)) throw new ValidationError(msg("guard:badText"));
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(issueMsg(issue, msg("api:invalidData")), { field: issue?.path.join(".") });
  }
  return parsed.data;
}

/**
 * The origins (scheme + host) a same-origin request may name in `Origin`: the configured public URL's
 * (APP_URL) and the request's own (its URL's scheme with its `Host`). Never `X-Forwarded-Host`, which any
 * client can set (issue 8 item 10); the scheme counts too (issue 24: `http://` of our host is another origin).
 */
export function expectedOrigins(request: Request): string[] {
  const origins: string[] = [];
  const host = request.headers.get("host");
  if (host) origins.push(`${new URL(request.url).protocol}//${host.toLowerCase()}`);
  try {
    origins.push(new URL(config().APP_URL).origin.toLowerCase());
  } catch {
    // No config (unit tests) or an unparsable URL: the request's own origin alone.
  }
  return origins;
}

/**
 * Refuses a cross-site mutation: when the browser sends `Origin` (or `Referer`), its origin (scheme and
 * host) must be ours (`expectedOrigins`); `Origin: null` (sandboxed frames, opaque origins) is refused too.
 * Requests authenticated by a bearer token are not cookie-driven and need no check.
 * @throws ForbiddenError.
 */
export function assertSameOrigin(request: Request): void {
  if (request.method === "GET" || request.method === "HEAD") return;
  if (request.headers.get("authorization") || request.headers.get("x-session")) return;
  const origin = request.headers.get("origin") ?? request.headers.get("referer");
  if (origin === null) return;
  if (origin === "null") throw new ForbiddenError(msg("api:origin.forbidden"));
  let sent: string;
  try {
    sent = new URL(origin).origin.toLowerCase();
  } catch {
    throw new ForbiddenError(msg("api:origin.invalid"));
  }
  if (!expectedOrigins(request).includes(sent)) throw new ForbiddenError(msg("api:origin.forbidden"));
}

/** An HTTP method an API endpoint can serve. */
export type ApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** The handlers of one API route, by method (HEAD is served by GET's). */
export type ApiHandlers = Partial<Record<ApiMethod, () => Promise<unknown>>>;

/** The `Allow` header of a route's handlers: its methods, HEAD with GET. */
export function allowHeader(handlers: ApiHandlers): string {
  const methods = Object.keys(handlers).filter((m) => handlers[m as ApiMethod]);
  if (methods.includes("GET")) methods.splice(methods.indexOf("GET") + 1, 0, "HEAD");
  return methods.join(", ");
}

/**
 * Runs a JSON API handler: checks the method (405 with an `Allow` header otherwise), the Origin of
 * mutations, turns the returned value into JSON and every thrown error into its status, its message
 * in the language of the signed-in user (Portuguese otherwise: ADR 0007); a 429 carries
 * `Retry-After`. Routes export the same function as `loader` and `action`, so any method reaches it
 * (a wrong one gets the 405 here, not Remix's 'Unexpected Server Error').
 * @param method the one method served, with `fn` its handler; or a map method → handler.
 */
export async function apiRoute(request: Request, method: ApiMethod, fn: () => Promise<unknown>): Promise<Response>;
export async function apiRoute(request: Request, handlers: ApiHandlers): Promise<Response>;
export async function apiRoute(request: Request, methodOrHandlers: ApiMethod | ApiHandlers, fn?: () => Promise<unknown>): Promise<Response> {
  const handlers: ApiHandlers = typeof methodOrHandlers === "string" ? { [methodOrHandlers]: fn } : methodOrHandlers;
  try {
    const handler = handlers[(request.method === "HEAD" ? "GET" : request.method) as ApiMethod];
    if (!handler) throw new MethodNotAllowedError(msg("api:methodNotAllowed", { method: request.method }));
    assertSameOrigin(request);
    const out = await handler();
    return out instanceof Response ? out : json(out);
  } catch (err) {
    if (err instanceof Response) return err;
    const res = toResponse(err, await requestLanguage(request));
    if (err instanceof MethodNotAllowedError) res.headers.set("Allow", allowHeader(handlers));
    const retryAfter = err instanceof DomainError ? err.extra.retryAfter : undefined;
    if (typeof retryAfter === "number" && Number.isFinite(retryAfter)) res.headers.set("Retry-After", String(Math.max(1, Math.ceil(retryAfter))));
    return res;
  }
}
