/**
 * Helpers for the JSON API (PRODUCT.md §7): uniform success/error bodies, body parsing with zod
 * (400 with the schema's message, never a 500), and the Origin check for cookie-authenticated
 * mutations (DESIGN.md §7). Services throw domain errors (errors.server.ts); `toResponse` is the one
 * place that turns them into HTTP responses (ADR 0009). Error messages are translatable (`Msg`, keys
 * of the `api` namespace or core's `broker`/`validation`), rendered in the signed-in user's
 * language, Portuguese otherwise (ADR 0007).
 */
import type { z } from "zod";
import { msg, type Msg } from "../../core/i18n/message";
import { issueMsg } from "../../core/i18n/zod-message";
import { translateMsg } from "~/i18n";
import { DomainError, ForbiddenError, httpStatusOf, MethodNotAllowedError, ValidationError } from "./errors.server";
import { requestLanguage } from "./request-language.server";

export { ApiError, DomainError } from "./errors.server";

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

/**
 * Reads a JSON (or form-encoded) body and validates it.
 * @throws ValidationError with the first validation message (the schema's translatable message).
 */
export async function readBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  let raw: unknown = {};
  const type = request.headers.get("content-type") ?? "";
  try {
    if (type.includes("application/json")) {
      const text = await request.text();
      raw = text.trim() ? JSON.parse(text) : {};
    } else if (type.includes("form")) {
      raw = Object.fromEntries(await request.formData());
    } else {
      const text = await request.text();
      raw = text.trim() ? JSON.parse(text) : {};
    }
  } catch {
    throw new ValidationError(msg("api:malformedBody"));
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(issueMsg(issue, msg("api:invalidData")), { field: issue?.path.join(".") });
  }
  return parsed.data;
}

/**
 * Refuses a cross-site mutation: when the browser sends `Origin` (or `Referer`), its host must be ours.
 * Requests authenticated by a bearer token are not cookie-driven and need no check.
 * @throws ForbiddenError.
 */
export function assertSameOrigin(request: Request): void {
  if (request.method === "GET" || request.method === "HEAD") return;
  if (request.headers.get("authorization") || request.headers.get("x-session")) return;
  const origin = request.headers.get("origin") ?? request.headers.get("referer");
  if (!origin || origin === "null") return;
  const host = request.headers.get("x-forwarded-host") ?? request.headers.get("host");
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new ForbiddenError(msg("api:origin.invalid"));
  }
  if (originHost !== host) throw new ForbiddenError(msg("api:origin.forbidden"));
}

/**
 * Runs a JSON API handler: checks the method (405 otherwise) and the Origin of mutations, turns the
 * returned value into JSON and every thrown error into its status, its message in the language of
 * the signed-in user (Portuguese otherwise: ADR 0007).
 */
export async function apiRoute(request: Request, method: string, fn: () => Promise<unknown>): Promise<Response> {
  try {
    if (request.method !== method) throw new MethodNotAllowedError(msg("api:methodNotAllowed", { method: request.method }));
    assertSameOrigin(request);
    const out = await fn();
    return out instanceof Response ? out : json(out);
  } catch (err) {
    if (err instanceof Response) return err;
    return toResponse(err, await requestLanguage(request));
  }
}
