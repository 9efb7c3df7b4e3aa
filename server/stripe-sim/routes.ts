/**
 * The Stripe simulator's `/v1` API: Bearer secret key (401 otherwise), `Stripe-Version` read and
 * echoed (only the pinned version is spoken), form-encoded bodies in Stripe's bracket notation
 * (`line_items[0][price]`, `metadata[x]`, `expand[]`, parsed by qs), `Idempotency-Key` on POSTs,
 * `expand[]` of id fields, `list` objects with `limit`/`starting_after`/`ending_before`, and Stripe's
 * error bodies and status codes (errors.ts).
 */
import { createHash, randomBytes } from "node:crypto";
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import { StripeSimError, invalidParam, noSuch } from "./errors";
import { STRIPE_API_VERSION, type Obj, type StripeStore } from "./store";

type Params = Record<string, unknown>;
type Handler = (p: Params, req: Request, res: Response) => Obj;

/** Reply headers every Stripe answer carries. */
function stripeHeaders(req: Request, res: Response): void {
  res.setHeader("Request-Id", `req_${randomBytes(7).toString("hex")}`);
  res.setHeader("Stripe-Version", STRIPE_API_VERSION);
  res.setHeader("Cache-Control", "no-cache, no-store");
}

function sendError(res: Response, err: unknown): void {
  const e = err instanceof StripeSimError ? err : new StripeSimError(500, "api_error", "An unknown error occurred (Stripe simulator).");
  res.status(e.status).json(e.body());
}

/**
 * Middleware: the secret key. With `secretKey`, only that key; else any `sk_test_…` key.
 */
export function requireKey(secretKey: string | undefined) {
  return (req: Request, res: Response, next: NextFunction): void => {
    stripeHeaders(req, res);
    const auth = req.headers.authorization ?? "";
    const key = auth.startsWith("Bearer ") ? auth.slice(7) : auth.startsWith("Basic ") ? Buffer.from(auth.slice(6), "base64").toString().split(":")[0]! : "";
    if (!key) {
      sendError(res, new StripeSimError(401, "invalid_request_error", "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY')."));
      return;
    }
    if (secretKey ? key !== secretKey : !key.startsWith("sk_test_")) {
      sendError(res, new StripeSimError(401, "invalid_request_error", `Invalid API Key provided: ${key.slice(0, 8)}${"*".repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`, "api_key_invalid"));
      return;
    }
    res.locals.apiKey = key;
    const version = req.headers["stripe-version"];
    if (typeof version === "string" && version !== STRIPE_API_VERSION) {
      sendError(res, new StripeSimError(400, "invalid_request_error", `The Stripe simulator speaks API version ${STRIPE_API_VERSION} only (the stripe SDK's pinned version); got '${version}'.`, "api_version_unsupported"));
      return;
    }
    next();
  };
}

interface Stored { fingerprint: string; status: number; body: unknown }

/**
 * Middleware: `Idempotency-Key` on POST. Same key and same method/path/body → the stored reply again
 * (`Idempotent-Replayed: true`); same key, different request → 400 `idempotency_error`.
 */
export function idempotency(cache: Map<string, Stored>) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const key = req.headers["idempotency-key"];
    if (req.method !== "POST" || typeof key !== "string" || key === "") return next();
    const cacheKey = `${String(res.locals.apiKey)}\n${key}`;
    const fingerprint = createHash("sha256").update(`${req.method} ${req.baseUrl}${req.path}\n${JSON.stringify(req.body ?? {})}`).digest("hex");
    const hit = cache.get(cacheKey);
    if (hit) {
      if (hit.fingerprint !== fingerprint) {
        sendError(res, new StripeSimError(400, "idempotency_error", `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`));
        return;
      }
      res.setHeader("Idempotent-Replayed", "true");
      res.status(hit.status).json(hit.body);
      return;
    }
    res.setHeader("Idempotency-Key", key);
    const json = res.json.bind(res);
    res.json = (body: unknown) => {
      if (res.statusCode < 500) cache.set(cacheKey, { fingerprint, status: res.statusCode, body });
      return json(body);
    };
    next();
  };
}

/** `expand[]` paths applied to a reply: id strings replaced by their objects (`data.` prefix for lists). */
function expand(store: StripeStore, o: Obj, paths: string[]): Obj {
  for (const path of paths) {
    const parts = path.split(".");
    const walk = (node: unknown, i: number): unknown => {
      if (!node || typeof node !== "object") return node;
      const rec = node as Record<string, unknown>;
      const k = parts[i]!;
      if (k === "data" && Array.isArray(rec.data)) {
        rec.data = rec.data.map((x) => walk(x, i + 1));
        return rec;
      }
      if (i === parts.length - 1) {
        if (k === "line_items" && rec.object === "checkout.session") rec.line_items = store.sessionLineItems(store.get("checkout.session", rec.id as string));
        else if (typeof rec[k] === "string" && store.objects.has(rec[k] as string)) rec[k] = store.render(store.objects.get(rec[k] as string)!);
        else if (!(k in rec)) throw invalidParam("expand", `This property cannot be expanded (${k}).`);
        return rec;
      }
      if (typeof rec[k] === "string" && store.objects.has(rec[k] as string)) rec[k] = store.render(store.objects.get(rec[k] as string)!);
      rec[k] = walk(rec[k], i + 1);
      return rec;
    };
    walk(o, 0);
  }
  return o;
}

/** A Stripe `list` of `items` (newest first) with `limit` (1–100, default 10), `starting_after`, `ending_before`. */
function list(items: Obj[], p: Params, url: string, render: (o: Obj) => Obj = (o) => o): Obj {
  const limit = p.limit === undefined ? 10 : Number(p.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidParam("limit", "This value must be less than or equal to 100.", "parameter_invalid_integer");
  let from = 0, to = items.length;
  if (typeof p.starting_after === "string") {
    const i = items.findIndex((o) => o.id === p.starting_after);
    if (i < 0) throw noSuch("object", p.starting_after, "starting_after");
    from = i + 1;
  }
  if (typeof p.ending_before === "string") {
    const i = items.findIndex((o) => o.id === p.ending_before);
    if (i < 0) throw noSuch("object", p.ending_before, "ending_before");
    to = i;
    from = Math.max(0, to - limit);
  }
  const page = items.slice(from, Math.min(to, from + limit)).map(render);
  return { object: "list", data: page, has_more: from + limit < to, url } as unknown as Obj;
}

const eq = (p: Params, k: string) => (o: Obj) => p[k] === undefined || o[k] === p[k];

/**
 * Router for `/v1` (mount behind `requireKey`, a urlencoded parser and `idempotency`).
 * `baseUrl(req)` is the simulator's public root, for hosted page URLs.
 */
export function v1Router(store: StripeStore, baseUrl: (req: Request) => string): Router {
  const r = express.Router();
  const handle = (method: "get" | "post" | "delete", path: string, fn: Handler) =>
    r[method](path, (req, res) => {
      try {
        const p = (method === "post" ? { ...req.query, ...(req.body as Params) } : req.query) as Params;
        const out = store.render(fn(p, req, res));
        const paths = Array.isArray(p.expand) ? (p.expand as string[]) : typeof p.expand === "string" ? [p.expand] : [];
        res.status(200).json(expand(store, out, paths));
      } catch (err) {
        sendError(res, err);
      }
    });
  const id = (req: Request) => String(req.params.id);

  handle("post", "/products", (p) => store.createProduct(p));
  handle("get", "/products", (p) => list(store.all("product").filter((o) => p.active === undefined || String(o.active) === p.active), p, "/v1/products", (o) => store.render(o)));
  handle("get", "/products/:id", (_p, req) => store.get("product", id(req)));
  handle("post", "/products/:id", (p, req) => store.updateProduct(id(req), p));

  handle("post", "/prices", (p) => store.createPrice(p));
  handle("get", "/prices", (p) => list(store.all("price").filter((o) => eq(p, "product")(o) && (p.active === undefined || String(o.active) === p.active)), p, "/v1/prices", (o) => store.render(o)));
  handle("get", "/prices/:id", (_p, req) => store.get("price", id(req)));
  handle("post", "/prices/:id", (p, req) => store.updatePrice(id(req), p));

  handle("post", "/customers", (p) => store.createCustomer(p));
  handle("get", "/customers", (p) => list(store.all("customer").filter(eq(p, "email")), p, "/v1/customers", (o) => store.render(o)));
  handle("get", "/customers/:id", (_p, req) => store.get("customer", id(req)));
  handle("post", "/customers/:id", (p, req) => store.updateCustomer(id(req), p));

  handle("post", "/checkout/sessions", (p, req) => store.createCheckoutSession(p, baseUrl(req)));
  handle("get", "/checkout/sessions", (p) => list(store.all("checkout.session").filter((o) => eq(p, "customer")(o) && eq(p, "subscription")(o) && eq(p, "status")(o)), p, "/v1/checkout/sessions", (o) => store.render(o)));
  handle("get", "/checkout/sessions/:id", (_p, req) => store.get("checkout.session", id(req), "checkout session"));
  handle("get", "/checkout/sessions/:id/line_items", (_p, req) => store.sessionLineItems(store.get("checkout.session", id(req), "checkout session")));

  handle("post", "/subscriptions", (p) => store.createSubscription(p));
  handle("get", "/subscriptions", (p) =>
    list(store.all("subscription").filter((o) => eq(p, "customer")(o) && (p.status === "all" || (p.status === undefined ? o.status !== "canceled" : o.status === p.status))), p, "/v1/subscriptions", (o) => store.render(o)));
  handle("get", "/subscriptions/:id", (_p, req) => store.get("subscription", id(req)));
  handle("post", "/subscriptions/:id", (p, req) => store.updateSubscription(id(req), p));
  handle("delete", "/subscriptions/:id", (_p, req) => store.cancelSubscription(id(req)));

  handle("post", "/invoices/create_preview", (p) => store.previewInvoice(p));
  handle("get", "/invoices", (p) =>
    list(store.all("invoice").filter((o) => eq(p, "customer")(o) && eq(p, "status")(o) &&
      (p.subscription === undefined || (o.parent as { subscription_details?: { subscription?: string } }).subscription_details?.subscription === p.subscription)), p, "/v1/invoices", (o) => store.render(o)));
  handle("get", "/invoices/:id", (_p, req) => store.get("invoice", id(req)));
  handle("post", "/invoices/:id/pay", (_p, req) => store.payInvoice(id(req)));

  handle("post", "/billing_portal/sessions", (p, req) => store.createPortalSession(p, baseUrl(req)));

  handle("get", "/events", (p) => list([...store.events].reverse().filter(eq(p, "type")), p, "/v1/events", (o) => store.render(o)));
  handle("get", "/events/:id", (_p, req) => {
    const e = store.events.find((x) => x.id === id(req));
    if (!e) throw noSuch("event", id(req));
    return e;
  });

  r.use((req, res) => sendError(res, new StripeSimError(404, "invalid_request_error", `Unrecognized request URL (${req.method}: ${req.baseUrl}${req.path}). The Stripe simulator speaks a subset of the API (server/stripe-sim).`)));
  return r;
}
