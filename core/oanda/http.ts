/**
 * The HTTP layer of the OANDA v20 client: headers, timeout, rate limit, retries, error mapping and
 * zod parsing of replies.
 *
 * Rules (oanda/PROTOCOL.md §2, §4, §5; PITFALLS.md §10):
 * - headers `Authorization: Bearer`, `Accept-Datetime-Format: RFC3339`, `Content-Type:
 *   application/json` on every request;
 * - every attempt (each retry counted) passes the `RequestLimiter` the caller gives: the process's
 *   one limiter of 120 requests per second (OANDA's per-IP REST limit) behind a per-token fair
 *   share (OANDA_TOKEN_REQUESTS_PER_SECOND), orders and closes ahead of reads; none by default;
 * - timeout per attempt (default 10 s) through `AbortSignal.timeout`;
 * - retries (p-retry) only for idempotent requests (GET) and only on network errors, 5xx and 429
 *   (honouring `Retry-After`); POST/PUT are never retried. Backoff waits go through the `Clock`.
 * - non-2xx → `BrokerError` (errors.ts); 2xx body that fails its schema → `BrokerError`
 *   `invalid_response`; a 2xx body cut off mid-way (connection dropped, timeout) → `network`.
 *   The token never appears in a log line or error message.
 * - every attempt is reported to the `RequestObserver` the caller gives (the process's metrics,
 *   app/services/platform/metrics.server.ts), by endpoint template (`endpointTemplate`: no account,
 *   trade or instrument id in it) — core itself keeps no metrics library (ADR 0038).
 */
import pRetry from "p-retry";
import type { z } from "zod";
import type { Clock } from "../clock";
import { BrokerError, kindForStatus, redact } from "./errors";
import { errorBodySchema, findRejectTransaction } from "./schemas";

/** pino-compatible subset: `logger.warn({ ...fields }, "message")`. Every method optional. */
export interface OandaLogger {
  debug?(obj: Record<string, unknown>, msg: string): void;
  info?(obj: Record<string, unknown>, msg: string): void;
  warn?(obj: Record<string, unknown>, msg: string): void;
  error?(obj: Record<string, unknown>, msg: string): void;
}

/** The `fetch` signature the client needs (global `fetch` by default; injectable for tests). */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** OANDA REST limit: 120 requests per second per client IP (PROTOCOL.md §5). */
export const OANDA_REQUESTS_PER_SECOND = 120;

/**
 * One token's share of the per-IP limit (issue 8 item 7: a user at 97 req/s made another's summary
 * wait 704 ms). Half of the OANDA limit: one user's burst always leaves the other half to everyone
 * else, and a bot tick (about ten requests) never feels it.
 */
export const OANDA_TOKEN_REQUESTS_PER_SECOND = 60;

/** What a request is for: orders and closes (POST/PUT) move money and go ahead of reads (GET). */
export type RequestPriority = "write" | "read";

/**
 * Admission of request attempts against OANDA's rate limits. The process owns one (its limits are
 * per client IP: app/services/broker/oanda-limiter.server.ts) and passes it to every client; core
 * keeps no module-level state (ADR 0038). `key` identifies the token without holding it.
 */
export interface RequestLimiter {
  /** Runs `attempt` when the limits admit it; resolves or rejects with its outcome. */
  schedule<T>(key: string, priority: RequestPriority, attempt: () => Promise<T>): Promise<T>;
}

/** How one attempt ended, for a `RequestObserver`: `status` is the HTTP status, 0 when none arrived. */
export interface RequestReport {
  method: "GET" | "POST" | "PUT";
  /** The path as a bounded template, e.g. `/v3/accounts/{id}/orders` (`endpointTemplate`). */
  endpoint: string;
  status: number;
  /** Wall time of the attempt on the client's `Clock`, seconds. */
  seconds: number;
  /** `ok`; `http` (a non-2xx status); `timeout`, `network`, `aborted` (no status); `invalid` (a 2xx body that failed parsing). */
  outcome: "ok" | "http" | "timeout" | "network" | "aborted" | "invalid";
}

/**
 * Watches a client's request attempts (each retry counted), e.g. the process's metrics. Both calls are
 * synchronous and must not throw; `sent` runs when an attempt leaves (after the limiter admitted it) with
 * the request's body, `done` when it ended.
 */
export interface RequestObserver {
  sent?(info: { method: RequestReport["method"]; endpoint: string; body: unknown }): void;
  done?(report: RequestReport): void;
}

/** Path segments of the OANDA v20 REST API kept as they are in an endpoint template; any other segment is an id. */
const STATIC_SEGMENTS = new Set([
  "v3", "accounts", "summary", "instruments", "candles", "pricing", "stream", "orders", "trades", "openTrades",
  "pendingOrders", "positions", "openPositions", "transactions", "sinceid", "idrange", "changes", "configuration",
  "close", "cancel", "clientExtensions", "latest", "orderBook", "positionBook",
]);

/**
 * A URL's path as a bounded template for metrics: from the `v3` segment on (the simulator's mount prefix
 * dropped), every segment outside the API's fixed vocabulary replaced by `{id}` — e.g.
 * `https://h/oanda-sim/practice/v3/accounts/101-004-1/trades/42/close` → `/v3/accounts/{id}/trades/{id}/close`.
 * A URL without `v3` (or unparsable) → `other`.
 */
export function endpointTemplate(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return "other";
  }
  const segs = path.split("/").filter(Boolean);
  const v3 = segs.indexOf("v3");
  if (v3 < 0) return "other";
  return "/" + segs.slice(v3, v3 + 8).map((s) => (STATIC_SEGMENTS.has(s) ? s : "{id}")).join("/");
}

/** No limits (tests, one-off CLIs): every attempt runs at once. */
export const UNLIMITED: RequestLimiter = { schedule: (_key, _priority, attempt) => attempt() };

/** A short, non-reversible key for a token (FNV-1a): a limiter never holds the token itself. */
export function tokenKey(token: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), 0x01000193) >>> 0;
  return `${h.toString(16)}:${token.length}`;
}

export interface HttpOptions {
  token: string;
  clock: Clock;
  fetch: FetchLike;
  logger?: OandaLogger;
  /** Per-attempt timeout, ms (default 10 000). */
  timeoutMs?: number;
  /** Retries after the first attempt for idempotent requests (default 3). */
  retries?: number;
  /** First backoff delay, ms (default 500), doubled per retry, capped at `maxRetryDelayMs` (default 8 000). */
  minRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Random source in [0,1) for jitter (default Math.random). */
  random?: () => number;
  /**
   * Cancels every request of this client, with its retries and backoff waits (e.g. a bot tick's
   * deadline): once aborted, a request rejects with the signal's reason and nothing more is sent.
   */
  signal?: AbortSignal;
  /** The process's rate limits (default UNLIMITED). */
  limiter?: RequestLimiter;
  /** Told of every attempt (default none): the process's metrics. */
  observer?: RequestObserver;
}

export interface RequestSpec<S extends z.ZodType> {
  method: "GET" | "POST" | "PUT";
  /** Absolute URL without the query string. */
  url: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Schema of the 2xx body. */
  schema: S;
  /** Caller's cancellation (independent of the per-attempt timeout). */
  signal?: AbortSignal;
}

export interface HttpClient {
  /** Sends one request; resolves with the parsed 2xx body. @throws BrokerError */
  request<S extends z.ZodType>(spec: RequestSpec<S>): Promise<z.output<S>>;
  /** Headers for a request made outside `request` (the stream). */
  headers(): Record<string, string>;
  /** Maps a non-2xx response to a BrokerError (reads the body). */
  errorFromResponse(res: Response, what: string): Promise<BrokerError>;
  /** Maps a thrown fetch error to a BrokerError `network`. */
  networkError(e: unknown, what: string): BrokerError;
}

/** Parses `Retry-After` (seconds or HTTP date) into ms, capped at 60 s; undefined if absent/unreadable. */
export function parseRetryAfter(value: string | null, now: Date): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(v)) ms = Number(v) * 1000;
  else {
    const at = Date.parse(v);
    if (Number.isNaN(at)) return undefined;
    ms = at - now.getTime();
  }
  return Math.min(Math.max(0, ms), 60_000);
}

/** Builds a URL with the query string; undefined values are skipped. */
export function withQuery(url: string, query?: Record<string, string | number | boolean | undefined>): string {
  if (!query) return url;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${url}?${s}` : url;
}

/** Creates the HTTP layer for one token. */
export function createHttp(opts: HttpOptions): HttpClient {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const retries = opts.retries ?? 3;
  const minDelay = opts.minRetryDelayMs ?? 500;
  const maxDelay = opts.maxRetryDelayMs ?? 8_000;
  const random = opts.random ?? Math.random;
  const r = (s: string) => redact(s, opts.token);
  const limiterKey = tokenKey(opts.token);
  const limiter = opts.limiter ?? UNLIMITED;

  const headers = (): Record<string, string> => ({
    Authorization: `Bearer ${opts.token}`,
    "Content-Type": "application/json",
    "Accept-Datetime-Format": "RFC3339",
  });

  const describe = (method: string, url: string) => {
    try {
      return `${method} ${new URL(url).pathname}`;
    } catch {
      return method;
    }
  };

  const networkError = (e: unknown, what: string): BrokerError => {
    if (e instanceof BrokerError) return e;
    const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
    const timedOut = err?.name === "TimeoutError";
    const detail = timedOut ? "timeout" : (err?.cause?.code ?? err?.cause?.message ?? err?.message ?? String(e));
    return new BrokerError(r(`OANDA ${what}: network error (${detail})`), { status: 0, kind: "network" });
  };

  const errorFromResponse = async (res: Response, what: string): Promise<BrokerError> => {
    let text = "";
    try {
      text = await res.text();
    } catch {
      /* body unreadable: keep the status only */
    }
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const env = errorBodySchema.safeParse(body);
    const reject = findRejectTransaction(body);
    const errorMessage = env.success ? env.data.errorMessage : undefined;
    const errorCode = reject?.rejectReason ?? (env.success ? env.data.errorCode : undefined);
    const lastTransactionID = env.success ? env.data.lastTransactionID : undefined;
    const retryAfterMs = parseRetryAfter(res.headers.get("retry-after"), opts.clock.now());
    const init = {
      status: res.status,
      kind: kindForStatus(res.status),
      ...(errorCode !== undefined && { errorCode }),
      ...(errorMessage !== undefined && { errorMessage: r(errorMessage) }),
      ...(reject !== undefined && { rejectTransaction: reject }),
      ...(lastTransactionID !== undefined && { lastTransactionID }),
      ...(retryAfterMs !== undefined && { retryAfterMs }),
    };
    const msg = `OANDA ${what} → ${res.status}${errorCode ? ` ${errorCode}` : ""}${errorMessage ? `: ${errorMessage}` : ""}`;
    return new BrokerError(r(msg), init);
  };

  /** One attempt, reported to the observer (its outcome, status and time) whatever its end. */
  async function attempt<S extends z.ZodType>(spec: RequestSpec<S>, url: string, what: string): Promise<z.output<S>> {
    const observer = opts.observer;
    if (!observer) return attemptOnce(spec, url, what, {});
    const endpoint = endpointTemplate(spec.url);
    const started = opts.clock.now().getTime();
    observer.sent?.({ method: spec.method, endpoint, body: spec.body });
    const report = (status: number, outcome: RequestReport["outcome"]) =>
      observer.done?.({ method: spec.method, endpoint, status, seconds: Math.max(0, opts.clock.now().getTime() - started) / 1000, outcome });
    const seen: { status?: number } = {};
    try {
      const out = await attemptOnce(spec, url, what, seen);
      report(seen.status ?? 200, "ok");
      return out;
    } catch (e) {
      if (e instanceof BrokerError) {
        const timedOut = e.kind === "network" && /\(timeout\)/.test(e.message);
        report(e.status, e.status > 0 && e.kind !== "invalid_response" ? "http" : e.kind === "invalid_response" ? "invalid" : timedOut ? "timeout" : "network");
      } else report(0, "aborted");
      throw e;
    }
  }

  /** One attempt; `seen.status` gets the reply's HTTP status when one arrives. */
  async function attemptOnce<S extends z.ZodType>(spec: RequestSpec<S>, url: string, what: string, seen: { status?: number }): Promise<z.output<S>> {
    const signals = [AbortSignal.timeout(timeoutMs)];
    if (spec.signal) signals.push(spec.signal);
    const started = opts.clock.now().getTime();
    let res: Response;
    try {
      res = await opts.fetch(url, {
        method: spec.method,
        headers: headers(),
        ...(spec.body !== undefined && { body: JSON.stringify(spec.body) }),
        signal: signals.length === 1 ? signals[0]! : AbortSignal.any(signals),
      });
    } catch (e) {
      if (spec.signal?.aborted) throw spec.signal.reason;
      throw networkError(e, what);
    }
    seen.status = res.status;
    opts.logger?.debug?.({ what, status: res.status, ms: opts.clock.now().getTime() - started }, "OANDA: resposta");
    if (!res.ok) throw await errorFromResponse(res, what);
    // The body is read first, then parsed: a connection cut (or timed out) mid-body is a network
    // error, retryable like any other; only bytes that arrived whole and are not JSON are invalid.
    let text: string;
    try {
      text = await res.text();
    } catch (e) {
      if (spec.signal?.aborted) throw spec.signal.reason;
      throw networkError(e, what);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new BrokerError(`OANDA ${what} → ${res.status}: body is not JSON`, {
        status: res.status,
        kind: "invalid_response",
      });
    }
    const parsed = spec.schema.safeParse(body);
    if (!parsed.success) {
      const issues = parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join(".")}: ${i.message}`)
        .join("; ");
      opts.logger?.warn?.({ what, status: res.status, issues }, "OANDA: resposta inválida");
      throw new BrokerError(r(`OANDA ${what} → ${res.status}: invalid body (${issues})`), {
        status: res.status,
        kind: "invalid_response",
      });
    }
    return parsed.data as z.output<S>;
  }

  async function request<S extends z.ZodType>(asked: RequestSpec<S>): Promise<z.output<S>> {
    // The client's signal (a tick's deadline) joins the caller's: a retry never outlives either.
    const signal = asked.signal && opts.signal ? AbortSignal.any([asked.signal, opts.signal]) : (asked.signal ?? opts.signal);
    const spec: RequestSpec<S> = signal ? { ...asked, signal } : asked;
    if (spec.signal?.aborted) throw spec.signal.reason;
    const url = withQuery(spec.url, spec.query);
    const what = describe(spec.method, spec.url);
    const priority: RequestPriority = spec.method === "GET" ? "read" : "write";
    const once = () => limiter.schedule(limiterKey, priority, () => attempt(spec, url, what));
    if (spec.method !== "GET") return once();

    const isRetryable = (e: unknown) => e instanceof BrokerError && e.retryable && !spec.signal?.aborted;
    return pRetry(once, {
      retries,
      // p-retry's own timer is disabled: the backoff is waited in onFailedAttempt on the Clock.
      minTimeout: 0,
      maxTimeout: 0,
      randomize: false,
      ...(spec.signal && { signal: spec.signal }),
      shouldRetry: (e) => isRetryable(e),
      onFailedAttempt: async (e) => {
        if (!isRetryable(e) || e.retriesLeft <= 0) return;
        const be = e as unknown as BrokerError;
        const backoff = Math.min(maxDelay, minDelay * 2 ** (e.attemptNumber - 1)) * (0.5 + random() / 2);
        const delay = Math.max(backoff, be.retryAfterMs ?? 0);
        opts.logger?.warn?.(
          { what, status: be.status, kind: be.kind, attempt: e.attemptNumber, delayMs: Math.round(delay) },
          "OANDA: nova tentativa",
        );
        await opts.clock.sleep(delay, spec.signal);
      },
    });
  }

  return { request, headers, errorFromResponse, networkError };
}
