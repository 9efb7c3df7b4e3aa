/**
 * `pageAction`: the one shape of a page form action that dispatches on an `intent` field — the twin
 * of `apiRoute` (app/route-support/api.server.ts) for no-JavaScript forms (issue 23 item 5). In order:
 * the Origin check of the mutation (DESIGN.md §7, `assertSameOrigin`), the signed-in user (when the
 * page needs one), the form body (`readForm`: 415/400 for a non-form body), the handler of the
 * `intent`, and one mapping of what a handler throws: a thrown Response passes through, a domain
 * error (errors.server.ts) becomes the page's answer through `domainError` (its message in the
 * user's language), anything else is logged through pino and becomes the page's `internal` answer.
 * Without a hook the error is rethrown (Remix's error screen), as the pages did before.
 */
import type { z } from "zod";
import { msg } from "../../core/i18n/message";
import { issueMsg } from "../../core/i18n/zod-message";
import { toLanguage, type Language } from "~/i18n";
import { readForm } from "~/route-support/form.server";
import { assertSameOrigin } from "~/route-support/api.server";
import { DomainError, ValidationError } from "~/services/platform/errors.server";
import { logger } from "~/services/platform/logger.server";
import { requestLanguage } from "~/services/identity/request-language.server";

/** What a handler of one intent receives. */
export interface PageActionContext<U> {
  request: Request;
  /** The posted form. */
  form: FormData;
  /** The intent being served: the posted one, or the `fallback` intent it was mapped to. */
  intent: string;
  /** The signed-in user (`undefined` when the page has no `user` loader). */
  user: U;
  /** The reader's language (the user's preference, else Portuguese). */
  language: Language;
  /** A form field as a string (`""` when missing). */
  field(name: string): string;
  /**
   * Validates an input (by default the form's fields as an object) with a zod schema.
   * @throws ValidationError with the first issue's translatable message and `extra.field` (its path).
   */
  parse<S extends z.ZodType>(schema: S, input?: unknown): z.infer<S>;
}

/** A handler of one intent: the page's answer `R` (a `data()` result), or a Response (a redirect). */
export type IntentHandler<U, R> = (ctx: PageActionContext<U>) => Promise<R | Response> | R | Response;

/** The description of a page action. */
export interface PageActionSpec<U, R> {
  /** The page's path, named in the logs (e.g. "/admin/usuarios"). */
  page: string;
  /** Loads the signed-in user after the Origin check (e.g. `() => requireAppUser(request)`); it may throw a redirect. */
  user?: () => Promise<U>;
  /** The user's language preference (from the user); default: the session user's, else Portuguese. */
  language?: (user: U) => unknown;
  /** Handlers by intent (the form's `intent` field); the answer type `R` is taken from `fallback`'s. */
  intents: Record<string, IntentHandler<U, NoInfer<R>>>;
  /** A missing or unknown intent: the name of the intent that serves it, or the handler of it (`ctx.intent` is the posted value). */
  fallback: string | IntentHandler<U, R>;
  /** The 403 answer to a cross-site post (the message in the user's language); default: a plain-text 403 that the error screen shows. */
  crossSite?: (message: string, ctx: { request: Request; language: Language }) => R;
  /** The answer to a domain error thrown by a handler; without it the error is rethrown. */
  domainError?: (err: DomainError, ctx: PageActionContext<U>) => R;
  /** The answer to an unexpected error, after it was logged; without it the error is rethrown. */
  internal?: (err: unknown, ctx: PageActionContext<U>) => R;
  /** Read the form from a copy of the request, leaving the body for the handler (e.g. remix-auth's strategy). */
  keepBody?: boolean;
}

/** A plain-text error response that the route's error screen shows (`status — message`), as `readForm`'s. */
function textResponse(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * Validates an input with a zod schema.
 * @throws ValidationError with the first issue's translatable message (`api:invalidData` when it has none) and `extra.field`.
 */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ValidationError(issueMsg(issue, msg("api:invalidData")), { field: issue?.path.join(".") });
  }
  return parsed.data;
}

/**
 * Runs a page action (see the module comment).
 * @returns the handler's answer (a `data()` result or a Response), or a hook's.
 * @throws Response from the user loader (redirect to login), `readForm` (415/400), a handler, or the default cross-site 403;
 *   an error with no hook to answer it.
 */
export async function pageAction<R, U = undefined>(request: Request, spec: PageActionSpec<U, R>): Promise<R | Response> {
  try {
    assertSameOrigin(request);
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const language = await requestLanguage(request);
    const message = err.messageIn(language);
    if (spec.crossSite) return spec.crossSite(message, { request, language });
    throw textResponse(403, message);
  }
  const user = (spec.user ? await spec.user() : undefined) as U;
  const language = spec.language ? toLanguage(spec.language(user)) : await requestLanguage(request);
  const form = await readForm(spec.keepBody ? request.clone() : request, language);
  const posted = String(form.get("intent") ?? "");
  let intent = posted;
  let handler: IntentHandler<U, R>;
  if (Object.hasOwn(spec.intents, posted)) handler = spec.intents[posted]!;
  else if (typeof spec.fallback === "string") {
    intent = spec.fallback;
    handler = spec.intents[spec.fallback]!;
  } else handler = spec.fallback;
  const ctx: PageActionContext<U> = {
    request,
    form,
    intent,
    user,
    language,
    field: (name) => String(form.get(name) ?? ""),
    parse: (schema, input) => parseWith(schema, input === undefined ? Object.fromEntries(form) : input),
  };
  try {
    return await handler(ctx);
  } catch (err) {
    if (err instanceof Response) throw err;
    if (err instanceof DomainError) {
      if (spec.domainError) return spec.domainError(err, ctx);
      throw err;
    }
    if (!spec.internal) throw err;
    logger().error({ err: err instanceof Error ? err.stack : String(err), page: spec.page, intent }, "falha numa ação de página");
    return spec.internal(err, ctx);
  }
}
