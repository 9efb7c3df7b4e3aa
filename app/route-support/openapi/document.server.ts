/**
 * The OpenAPI 3.1 document of the JSON API (issue 24 "The API contract"), generated with zod-openapi
 * (zod 4's own JSON Schema conversion: request bodies as the input a route accepts, answers as the
 * output it sends) from the operations table (operations.server.ts), whose request schemas are the zod
 * schemas the routes parse. Schemas with a `.meta({id})` become components. Served at GET /api/openapi.json and rendered at
 * /api/docs. Every alias of api-aliases.ts is documented as its primary's operations under its own
 * path, marked `x-alias-of`.
 */
import { z } from "zod";
import { createDocument, type oas31, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponseObject, type ZodOpenApiResponsesObject } from "zod-openapi";
import { API_ALIASES } from "~/services/platform/api-aliases";
import { API_OPERATIONS, type ApiOperation } from "./operations.server";
import { errorBody } from "./responses";

/** The generated document (a JSON object). */
export type OpenApiDocument = oas31.OpenAPIObject;

/** What each error status means across the API (the body is always `Error`). */
const ERROR_TEXT: Record<number, string> = {
  400: "Invalid request: `message` names the problem, `field` the field.",
  401: "No session, or an invalid or expired one ('Token inválido ou expirado'; `session`: missing | invalid).",
  402: "A valid licence is required.",
  403: "Forbidden: not an admin, or a cross-site request (Origin check).",
  404: "Not found.",
  405: "Method not allowed (see the `Allow` header).",
  409: "Conflict with the current state.",
  413: "Body too large.",
  415: "The API takes JSON bodies only.",
  429: "Too many requests (see `Retry-After`).",
  500: "Unexpected error.",
  502: "The broker or Stripe failed.",
  503: "Temporarily unavailable (database busy, payments not configured, queue down).",
};

const TAGS = [
  { name: "Auth", description: "Registration, login and the session." },
  { name: "Broker", description: "The OANDA connection." },
  { name: "Account", description: "The connected account's figures." },
  { name: "Trades", description: "Open and closed trades." },
  { name: "Settings", description: "Trading settings and interface preferences." },
  { name: "AI", description: "The AI loop and the kill switch." },
  { name: "Orders", description: "Manual orders." },
  { name: "Push", description: "Web push devices." },
  { name: "Notifications", description: "The notification centre." },
  { name: "Billing", description: "Plans, subscription and Stripe." },
  { name: "Streaming", description: "Server-sent events." },
  { name: "Health", description: "Liveness and dependencies." },
  { name: "Backtest", description: "Backtests and the research edge table." },
  { name: "Admin", description: "The admin panel's API (admins only)." },
  { name: "Docs", description: "This document and its reference page." },
];

/** The security requirement of an access level (an empty list: no credentials). */
function securityOf(op: ApiOperation): Record<string, string[]>[] {
  if (op.access === "public") return [];
  if (op.access === "stripe") return [{ stripeSignature: [] }];
  return [{ bearerAuth: [] }, { sessionHeader: [] }, { sessionCookie: [] }];
}

/** The error statuses an operation can answer: its own, those of its access, and 405/500 (plus 403/413/415 for bodies). */
export function errorStatuses(op: ApiOperation): number[] {
  const out = new Set<number>([...(op.errors ?? []), 405, 500]);
  if (op.access === "user" || op.access === "admin") out.add(401);
  if (op.access === "admin") out.add(403);
  if (op.licence) out.add(402);
  if (op.method !== "get") {
    out.add(403); // Origin check of cookie-authenticated mutations
    out.add(413);
    out.add(415);
  }
  if (op.body || op.query) out.add(400);
  return [...out].sort((a, b) => a - b);
}

/** A stable operation id: method and path in camel case (`postApiAuthLogin`, `getApiTradesById`). */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/\{(\w+)\}/g, "by-$1")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

/** `:id` → `{id}`: an alias path as OpenAPI writes it. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:(\w+)/g, "{$1}");
}

/** The parameters of a path's `{param}`s the row does not describe itself (plain strings). */
function pathParams(op: ApiOperation, path: string): z.ZodObject | undefined {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (!names.length) return undefined;
  const given = op.params?.shape ?? {};
  const shape: Record<string, z.ZodType> = {};
  for (const n of names) shape[n] = given[n] ?? z.string().meta({ description: "Broker account id (not used: the caller's own account is read)." });
  return z.object(shape);
}

/** One operation as zod-openapi writes it, at `path` (the row's own, or an alias's). */
function operationObject(op: ApiOperation, path: string, aliasOf?: string): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, r] of Object.entries(op.responses)) {
    responses[status] = { description: r.description, ...(r.schema ? { content: { [r.contentType ?? "application/json"]: { schema: r.schema } } } : {}) };
  }
  for (const status of errorStatuses(op)) responses[String(status)] ??= { description: ERROR_TEXT[status] ?? "Error.", content: { "application/json": { schema: errorBody } } };
  const description = [op.description, op.access === "admin" ? "Admins only." : "", aliasOf ? `Alias of \`${op.method.toUpperCase()} ${aliasOf}\` (PRODUCT.md §7 multi-path calls): the same handler answers.` : ""]
    .filter(Boolean)
    .join("\n\n");
  const params = pathParams(op, path);
  return {
    operationId: operationIdOf(op.method, path),
    tags: [op.tag],
    summary: aliasOf ? `${op.summary} (alias)` : op.summary,
    ...(description ? { description } : {}),
    security: securityOf(op),
    requestParams: { ...(params ? { path: params } : {}), ...(op.query ? { query: op.query } : {}), ...(op.headers ? { header: op.headers } : {}) },
    ...(op.body ? { requestBody: { content: { "application/json": { schema: op.body } } } } : {}),
    responses: responses as ZodOpenApiResponsesObject,
    ...(aliasOf ? { "x-alias-of": aliasOf } : {}),
    ...(op.parsedBy ? { "x-parsed-by": op.parsedBy } : {}),
    ...(op.licence ? { "x-licence-required": true } : {}),
    ...(op.access === "admin" ? { "x-role": "admin" } : {}),
  };
}

/** Builds the document (every operation, then every alias from its primary's rows). */
export function buildOpenApiDocument(operations: readonly ApiOperation[] = API_OPERATIONS, aliases: readonly { alias: string; primary: string }[] = API_ALIASES): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  const add = (op: ApiOperation, path: string, aliasOf?: string) => {
    const item = (paths[path] ??= {});
    if (item[op.method]) throw new Error(`${op.method.toUpperCase()} ${path} documented twice`);
    item[op.method] = operationObject(op, path, aliasOf);
  };
  for (const op of operations) add(op, op.path);
  for (const { alias, primary } of aliases) {
    const rows = operations.filter((op) => op.path === primary);
    if (!rows.length) throw new Error(`alias ${alias}: no operation documents its primary ${primary}`);
    for (const op of rows) add(op, openApiPath(alias), primary);
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Forex IA API",
      version: "1.0.0",
      description:
        "The JSON API of Forex IA (PRODUCT.md §7): automatic forex trading through the user's OANDA account. Bodies are JSON; answers are JSON with `success`, errors `{success: false, message, error}` with `message` in the caller's language. Authenticate with the `token` of /api/auth/login as a bearer token (or `x-session`), or the session cookie in a browser.",
    },
    tags: TAGS,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "The `token` of POST /api/auth/login." },
        sessionHeader: { type: "apiKey", in: "header", name: "x-session", description: "The same token in the `x-session` header." },
        sessionCookie: { type: "apiKey", in: "cookie", name: "__session", description: "The signed session cookie set by login (browsers)." },
        stripeSignature: { type: "apiKey", in: "header", name: "Stripe-Signature", description: "Stripe's signature of the raw body." },
      },
    },
    paths,
  });
}

let cached: OpenApiDocument | undefined;

/** The document, built once per process. */
export function openApiDocument(): OpenApiDocument {
  cached ??= buildOpenApiDocument();
  return cached;
}
