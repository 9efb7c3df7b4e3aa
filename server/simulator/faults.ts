/**
 * Broker fault injection for the OANDA simulator (issue 8, "prove it stays that way"): tests and demos
 * make the broker misbehave the way a real one and the network between do, through the control API
 * (control.ts, local callers only):
 * - `POST /sim/faults {kind, token?, accountId?, environment?, method?, path?, pathRegex?, count?,
 *   durationSeconds?, status?, retryAfterSeconds?, delaySeconds?, phase?, shape?}` → 201 the fault
 *   (`{id, kind, …, hits}`, the token shown as its last 4 characters);
 * - `GET /sim/faults` → `{faults: [...]}` (active ones, with `hits` and `lastHitAt`);
 * - `DELETE /sim/faults` → `{cleared: n}`; `DELETE /sim/faults/{id}` → `{cleared: 0|1}`.
 *
 * A fault applies to OANDA API requests only (`/practice/...`, `/live/...`, also under the embedded
 * `/oanda-sim` mount), never to `/sim/*`. Scope (all given conditions must hold): `token` (the
 * request's bearer token), `accountId` (the account in the path, or a token owning that account, so
 * `GET /v3/accounts` of its owner matches too), `environment`, `method`, `path` (a prefix of the
 * path, e.g. `/practice/v3/accounts` or `/v3/accounts/101-…/orders` — with or without the
 * environment), `pathRegex` (tested against `/practice/v3/...`). Lifetime: `count` matching requests,
 * or `durationSeconds` of real time, else until cleared. When several faults match, the oldest wins.
 *
 * Kinds:
 * - `http_5xx`: `status` (500, 502, 503 — default — or 504) with `{"errorMessage": …}`, and
 *   `Retry-After` when `retryAfterSeconds` is given; the request is not handled.
 * - `rate_limit`: 429 with `Retry-After: retryAfterSeconds` (default 1); not handled.
 * - `timeout`: with `delaySeconds`, the request is handled after that many seconds (even if the
 *   client gave up: like a slow broker, an order still executes); without it, never answered.
 * - `drop`: `phase: "body"` (default) handles the request, then sends the headers and half the body
 *   and destroys the socket (an order still executes; its answer is lost); `phase: "connect"`
 *   destroys the socket at once, unhandled.
 * - `stall_stream`: pricing streams in scope stop sending prices and heartbeats (open ones too) while
 *   the fault lasts, then resume; streams only, no `count`.
 * - `revoke_token`: 401 `{"errorMessage":"Insufficient authorization to perform request."}` (OANDA's
 *   body) for every request in scope, until cleared (or `durationSeconds`).
 * - `malformed_2xx`: the request is handled, then answered 200 with its body cut in half
 *   (`shape: "truncated"`, default) or with valid JSON of the wrong shape (`shape: "wrong_shape"`);
 *   REST replies only (not streams).
 */
import { randomUUID } from "node:crypto";
import type { NextFunction, Request, Response } from "express";
import { z } from "zod";
import { SimHttpError } from "../../core/simulator/accounts";
import type { Simulator } from "../../core/simulator/simulator";
import { sendJson } from "./http";

/** The fault kinds the simulator can inject. */
export const FAULT_KINDS = ["http_5xx", "rate_limit", "timeout", "drop", "stall_stream", "revoke_token", "malformed_2xx"] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** Body of `POST /sim/faults`. */
export const FaultSpecSchema = z
  .object({
    kind: z.enum(FAULT_KINDS),
    token: z.string().min(1).optional(),
    accountId: z.string().min(1).optional(),
    environment: z.enum(["practice", "live"]).optional(),
    method: z.string().min(1).transform((m) => m.toUpperCase()).optional(),
    path: z.string().startsWith("/").optional(),
    pathRegex: z
      .string()
      .max(500)
      .refine((s) => {
        try {
          new RegExp(s);
          return true;
        } catch {
          return false;
        }
      })
      .optional(),
    count: z.number().int().min(1).max(1_000_000).optional(),
    durationSeconds: z.number().positive().max(86_400).optional(),
    status: z.union([z.literal(500), z.literal(502), z.literal(503), z.literal(504)]).optional(),
    retryAfterSeconds: z.number().int().min(0).max(3600).optional(),
    delaySeconds: z.number().min(0).max(600).optional(),
    phase: z.enum(["body", "connect"]).optional(),
    shape: z.enum(["truncated", "wrong_shape"]).optional(),
  })
  .strict()
  .refine((f) => !(f.kind === "stall_stream" && f.count !== undefined), { path: ["count"] });
export type FaultSpec = z.output<typeof FaultSpecSchema>;

/** An active fault: its spec plus bookkeeping. */
export interface Fault extends FaultSpec {
  id: string;
  createdAt: number;
  expiresAt?: number;
  /** Requests it may still apply to (when created with `count`). */
  remaining?: number;
  hits: number;
  lastHitAt?: number;
}

/** What a fault is matched against: one OANDA API request. */
export interface FaultContext {
  method: string;
  /** Path below the simulator root, e.g. `/practice/v3/accounts/101-…/summary`. */
  path: string;
  environment: "practice" | "live";
  token?: string;
  accountId?: string;
  stream: boolean;
}

/** 401 body of a revoked token (PROTOCOL.md §4). */
export const REVOKED_BODY = { errorMessage: "Insufficient authorization to perform request." };

const STATUS_TEXT: Record<number, string> = {
  500: "Internal server error",
  502: "Bad gateway",
  503: "Service unavailable",
  504: "Gateway timeout",
};

/**
 * The active faults of one simulator. `ownsAccount(token, accountId)` tells whether a token's user
 * holds an account (so an account-scoped fault also matches the owner's account-less requests).
 */
export class FaultRegistry {
  private faults: Fault[] = [];
  /** Requests held by a `timeout` fault without delay (ended by `stop()`). */
  readonly held = new Set<Response>();

  constructor(
    private readonly ownsAccount: (token: string, accountId: string) => boolean,
    private readonly now: () => number = Date.now,
  ) {}

  /** Adds a fault (already validated with `FaultSpecSchema`). */
  add(spec: FaultSpec): Fault {
    const now = this.now();
    const fault: Fault = {
      ...spec,
      id: randomUUID(),
      createdAt: now,
      hits: 0,
      ...(spec.durationSeconds !== undefined && { expiresAt: now + spec.durationSeconds * 1000 }),
      ...(spec.count !== undefined && { remaining: spec.count }),
    };
    this.faults.push(fault);
    return fault;
  }

  /** The active faults, oldest first (expired and spent ones are dropped). */
  list(): Fault[] {
    const now = this.now();
    this.faults = this.faults.filter((f) => (f.expiresAt === undefined || f.expiresAt > now) && (f.remaining === undefined || f.remaining > 0));
    return [...this.faults];
  }

  /** Removes one fault by id, or all; returns how many were removed. */
  clear(id?: string): number {
    const before = this.faults.length;
    this.faults = id === undefined ? [] : this.faults.filter((f) => f.id !== id);
    return before - this.faults.length;
  }

  private inScope(f: Fault, c: FaultContext): boolean {
    if (f.token !== undefined && f.token !== c.token) return false;
    if (f.accountId !== undefined && f.accountId !== c.accountId && !(c.token !== undefined && this.ownsAccount(c.token, f.accountId))) return false;
    if (f.environment !== undefined && f.environment !== c.environment) return false;
    if (f.method !== undefined && f.method !== c.method) return false;
    if (f.path !== undefined && !c.path.startsWith(f.path) && !c.path.slice(c.environment.length + 1).startsWith(f.path)) return false;
    if (f.pathRegex !== undefined && !new RegExp(f.pathRegex).test(c.path)) return false;
    return true;
  }

  /**
   * The fault to apply to a request (not `stall_stream`, which the stream asks for with `stalls`),
   * counting the hit. `malformed_2xx` never applies to a stream.
   */
  take(c: FaultContext): Fault | undefined {
    const f = this.list().find((x) => x.kind !== "stall_stream" && !(x.kind === "malformed_2xx" && c.stream) && this.inScope(x, c));
    if (f) {
      f.hits++;
      f.lastHitAt = this.now();
      if (f.remaining !== undefined) f.remaining--;
    }
    return f;
  }

  /** True while a `stall_stream` fault covers this stream (checked on every price tick and heartbeat). */
  stalls(c: FaultContext): boolean {
    const f = this.list().find((x) => x.kind === "stall_stream" && this.inScope(x, c));
    if (f) f.lastHitAt = this.now();
    return f !== undefined;
  }

  /** Ends the requests held by a never-answering `timeout` fault (server shutdown). */
  stop(): void {
    for (const res of this.held) res.destroy();
    this.held.clear();
  }
}

/** A fault as shown by the control API: the token reduced to its last 4 characters. */
export function faultJSON(f: Fault): Record<string, unknown> {
  const { token, ...rest } = f;
  return {
    ...rest,
    ...(token !== undefined && { token: `…${token.slice(-4)}` }),
    createdAt: new Date(f.createdAt).toISOString(),
    ...(f.expiresAt !== undefined && { expiresAt: new Date(f.expiresAt).toISOString() }),
    ...(f.lastHitAt !== undefined && { lastHitAt: new Date(f.lastHitAt).toISOString() }),
  };
}

/** A registry whose account scope follows the simulator's users. */
export function faultRegistryFor(sim: Simulator, now: () => number = Date.now): FaultRegistry {
  return new FaultRegistry((token, accountId) => sim.state.users.some((u) => u.token === token && u.accountIDs.includes(accountId)), now);
}

/**
 * The request's fault context, for a path below the simulator root (`/practice/...`, `/live/...`),
 * or undefined for any other path (e.g. `/sim/...`).
 */
export function faultContext(req: Request, path: string): FaultContext | undefined {
  const env = /^\/(practice|live)(\/|$)/.exec(path)?.[1] as "practice" | "live" | undefined;
  if (!env) return undefined;
  const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "")?.[1];
  const accountId = /^\/(?:practice|live)\/v3\/accounts\/([^/]+)/.exec(path)?.[1];
  return {
    method: req.method.toUpperCase(),
    path,
    environment: env,
    ...(token !== undefined && { token }),
    ...(accountId !== undefined && { accountId: decodeURIComponent(accountId) }),
    stream: /\/pricing\/stream\/?$/.test(path),
  };
}

/** The bytes of a `res.end`/`res.write` chunk. */
function bytesOf(chunk: unknown, encoding: unknown): Buffer {
  if (chunk === undefined || chunk === null || typeof chunk === "function") return Buffer.alloc(0);
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk);
  return Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8");
}

/** Lets the handler run, then sends the headers and half of the first body bytes and destroys the socket. */
function dropMidBody(res: Response): void {
  let done = false;
  const cut = (buf: Buffer, whole: boolean) => {
    if (done) return;
    done = true;
    if (whole) res.setHeader("Content-Length", buf.length);
    const part = buf.subarray(0, Math.floor(buf.length / 2));
    const kill = () => res.socket?.destroy();
    // The headers and a partial body go out, then the connection is cut.
    if (part.length) Reflect.apply(originalWrite, res, [part, kill]);
    else {
      res.flushHeaders();
      setImmediate(kill);
    }
  };
  const originalWrite = res.write;
  res.write = ((chunk: unknown, encoding?: unknown) => {
    cut(bytesOf(chunk, encoding), false);
    return true;
  }) as Response["write"];
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    cut(bytesOf(chunk, encoding), true);
    return res;
  }) as Response["end"];
}

/** Lets the handler run, then answers 200 with its body cut in half or replaced by JSON of another shape. */
function malformBody(res: Response, shape: "truncated" | "wrong_shape"): void {
  const originalEnd = res.end;
  res.end = ((chunk?: unknown, encoding?: unknown) => {
    const buf = bytesOf(chunk, encoding);
    const body = shape === "truncated" ? buf.subarray(0, Math.floor(buf.length / 2)) : Buffer.from(JSON.stringify({ unexpected: [1, 2, 3], lastTransactionID: 7 }));
    res.statusCode = 200;
    res.setHeader("Content-Type", "application/json");
    res.setHeader("Content-Length", body.length);
    return Reflect.apply(originalEnd, res, [body]) as Response;
  }) as Response["end"];
}

/**
 * Express middleware applying the registry's faults to the OANDA API requests below it (mount it at
 * the simulator's root, after the OANDA headers and the JSON parser, before the v3 routers). Stores
 * the request's context in `res.locals.faultContext` for the stream handler.
 */
export function faultMiddleware(registry: FaultRegistry) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const ctx = faultContext(req, req.path);
    if (!ctx) return next();
    res.locals.faultContext = ctx;
    const f = registry.take(ctx);
    if (!f) return next();
    switch (f.kind) {
      case "http_5xx": {
        const status = f.status ?? 503;
        if (f.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(f.retryAfterSeconds));
        return sendJson(req, res, status, { errorMessage: STATUS_TEXT[status] });
      }
      case "rate_limit":
        res.setHeader("Retry-After", String(f.retryAfterSeconds ?? 1));
        return sendJson(req, res, 429, { errorMessage: "Rate limit violation: too many requests" });
      case "revoke_token":
        return sendJson(req, res, 401, REVOKED_BODY);
      case "timeout": {
        if (f.delaySeconds === undefined) {
          registry.held.add(res);
          res.on("close", () => registry.held.delete(res));
          return; // never answered
        }
        const t = setTimeout(next, f.delaySeconds * 1000);
        t.unref?.();
        return;
      }
      case "drop":
        if (f.phase === "connect") {
          req.socket.destroy();
          return;
        }
        dropMidBody(res);
        return next();
      case "malformed_2xx":
        malformBody(res, f.shape ?? "truncated");
        return next();
      default:
        return next();
    }
  };
}

/** Parses a `POST /sim/faults` body. @throws SimHttpError 400 naming the first bad field */
export function parseFaultSpec(body: unknown): FaultSpec {
  const r = FaultSpecSchema.safeParse(body ?? {});
  if (!r.success) {
    const path = r.error.issues[0]?.path.join(".") ?? "";
    throw new SimHttpError(400, { errorMessage: `Invalid value specified for '${path}'` });
  }
  return r.data;
}
