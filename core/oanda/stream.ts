/**
 * OANDA pricing stream: NDJSON framing, message dispatch, heartbeat watchdog and reconnection.
 *
 * Rules (oanda/PROTOCOL.md §7.6, §5; PITFALLS.md §1, §2, §3):
 * - the body is newline-delimited JSON; TCP chunks may split a line (even inside a multi-byte UTF-8
 *   character) or carry several lines: bytes are decoded in streaming mode, buffered up to `\n`,
 *   blank lines skipped;
 * - `type` is `PRICE` or `HEARTBEAT` (every 5 s); other types are ignored;
 * - no data for 10 s (two missed heartbeats) ⇒ the connection is considered stalled, aborted and
 *   reopened; reconnection uses exponential backoff with jitter capped at 30 s, reset after a
 *   connection that delivered data;
 * - 401/403/404/400 on connect are not transient: the promise rejects with that BrokerError;
 * - all waiting goes through the injected `Clock` (DESIGN.md §2), so tests drive it with ManualClock.
 */
import type { ClientPrice, PriceStreamHandlers } from "../broker/port";
import type { Clock } from "../clock";
import { BrokerError, kindForStatus } from "./errors";
import type { FetchLike, OandaLogger } from "./http";
import { parseRetryAfter } from "./http";
import { clientPriceSchema, heartbeatSchema } from "./schemas";

/**
 * Splits a byte stream into complete NDJSON lines. `push` returns the lines completed by a chunk
 * (without `\n`/`\r\n`, blanks skipped); `end` returns a last unterminated line, if any.
 */
export class NdjsonDecoder {
  private readonly decoder = new TextDecoder("utf-8");
  private buffer = "";

  push(chunk: Uint8Array | string): string[] {
    this.buffer += typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    const parts = this.buffer.split("\n");
    this.buffer = parts.pop() ?? "";
    return parts.map((l) => l.replace(/\r$/, "")).filter((l) => l.trim() !== "");
  }

  end(): string[] {
    this.buffer += this.decoder.decode();
    const rest = this.buffer.trim();
    this.buffer = "";
    return rest ? [rest] : [];
  }
}

/** One decoded stream line. `OTHER` = valid JSON of another type; `INVALID` = unreadable line. */
export type PriceStreamMessage =
  | { type: "PRICE"; price: ClientPrice }
  | { type: "HEARTBEAT"; time: string }
  | { type: "OTHER"; value: unknown }
  | { type: "INVALID"; line: string; reason: string };

/** Parses one NDJSON line of the pricing stream (PROTOCOL.md §7.6). Never throws. */
export function parsePriceStreamLine(line: string): PriceStreamMessage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { type: "INVALID", line, reason: "JSON inválido" };
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (type === "PRICE") {
    const p = clientPriceSchema.safeParse(value);
    return p.success ? { type: "PRICE", price: p.data } : { type: "INVALID", line, reason: p.error.message };
  }
  if (type === "HEARTBEAT") {
    const h = heartbeatSchema.safeParse(value);
    return h.success ? { type: "HEARTBEAT", time: h.data.time } : { type: "INVALID", line, reason: h.error.message };
  }
  return { type: "OTHER", value };
}

/** Resolves after `ms` on `clock`, or as soon as `signal` aborts (never rejects). */
export function sleepOrAbort(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener("abort", done);
      resolve();
    };
    signal.addEventListener("abort", done, { once: true });
    clock.sleep(ms, signal).then(done, done);
  });
}

/** Reconnect delay for attempt n ≥ 1: min(max, initial·2^(n−1)) scaled by a jitter in [0.5, 1). */
export function backoffDelay(attempt: number, random: () => number, initialMs = 1_000, maxMs = 30_000): number {
  const base = Math.min(maxMs, initialMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.5 + random() / 2));
}

export interface PriceStreamOptions {
  /** Full stream URL including `?instruments=...&snapshot=true`. */
  url: string;
  /** Request headers (Authorization etc.). */
  headers: Record<string, string>;
  fetch: FetchLike;
  clock: Clock;
  handlers: PriceStreamHandlers;
  /** Caller's signal: aborting it ends the stream; the promise then resolves. */
  signal: AbortSignal;
  /** Silence after which the connection is reopened, ms (default 10 000; PROTOCOL.md §5). */
  heartbeatTimeoutMs?: number;
  /** Backoff: first delay (default 1 000 ms) and cap (default 30 000 ms). */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Jitter source in [0,1) (default Math.random). */
  random?: () => number;
  logger?: OandaLogger;
  /** Maps a non-2xx connect response to a BrokerError (the client passes its own, with redaction). */
  errorFromResponse?: (res: Response) => Promise<BrokerError>;
}

function defaultErrorFromResponse(res: Response): Promise<BrokerError> {
  const kind = kindForStatus(res.status);
  return Promise.resolve(new BrokerError(`OANDA pricing stream → ${res.status}`, { status: res.status, kind }));
}

/**
 * Runs the pricing stream until `signal` aborts: connects, dispatches PRICE/HEARTBEAT lines to
 * `handlers`, reconnects on drops/stalls/5xx/429/network errors with backoff (calling
 * `handlers.onReconnect(attempt, delayMs, error)` before each wait).
 * @returns resolves once `signal` has aborted.
 * @throws BrokerError when the connect answer is not transient (401, 403, 404, other 4xx).
 */
export async function runPriceStream(opts: PriceStreamOptions): Promise<void> {
  const { clock, handlers, signal } = opts;
  const hbTimeout = opts.heartbeatTimeoutMs ?? 10_000;
  const random = opts.random ?? Math.random;
  const toError = opts.errorFromResponse ?? defaultErrorFromResponse;
  let attempt = 0;

  while (!signal.aborted) {
    const conn = new AbortController();
    const onCallerAbort = () => conn.abort(signal.reason);
    signal.addEventListener("abort", onCallerAbort, { once: true });
    const stopWatchdog = new AbortController();
    let lastActivity = clock.now().getTime();
    let stalled = false;
    let delivered = false;

    const watchdog = (async () => {
      while (!stopWatchdog.signal.aborted) {
        const wait = lastActivity + hbTimeout - clock.now().getTime();
        if (wait <= 0) {
          stalled = true;
          conn.abort(new Error("heartbeat timeout"));
          return;
        }
        await sleepOrAbort(clock, wait, stopWatchdog.signal);
      }
    })();

    let error: unknown;
    let retryAfterMs: number | undefined;
    try {
      const res = await opts.fetch(opts.url, { method: "GET", headers: opts.headers, signal: conn.signal });
      if (!res.ok) {
        const be = await toError(res);
        if (!be.retryable) throw be;
        retryAfterMs = be.retryAfterMs ?? parseRetryAfter(res.headers.get("retry-after"), clock.now());
        error = be;
      } else if (!res.body) {
        error = new BrokerError("OANDA pricing stream: no body", { status: res.status, kind: "invalid_response" });
      } else {
        lastActivity = clock.now().getTime();
        const reader = res.body.getReader();
        const decoder = new NdjsonDecoder();
        const dispatch = (lines: string[]) => {
          for (const line of lines) {
            delivered = true;
            const msg = parsePriceStreamLine(line);
            try {
              if (msg.type === "PRICE") handlers.onPrice(msg.price);
              else if (msg.type === "HEARTBEAT") handlers.onHeartbeat?.(msg.time);
              else if (msg.type === "INVALID")
                opts.logger?.warn?.({ reason: msg.reason, length: line.length }, "OANDA stream: linha inválida ignorada");
            } catch (e) {
              opts.logger?.error?.({ err: String(e) }, "OANDA stream: erro no handler");
            }
          }
        };
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          lastActivity = clock.now().getTime();
          dispatch(decoder.push(value));
        }
        dispatch(decoder.end());
        error = new BrokerError("OANDA pricing stream ended by the server", { status: 0, kind: "network" });
      }
    } catch (e) {
      if (e instanceof BrokerError && !e.retryable) throw e;
      if (stalled) {
        error = new BrokerError(`OANDA pricing stream: no data for ${hbTimeout} ms`, { status: 0, kind: "network" });
      } else if (e instanceof BrokerError) {
        error = e;
      } else {
        const name = (e as { name?: string })?.name ?? "Error";
        error = new BrokerError(`OANDA pricing stream: network error (${name})`, { status: 0, kind: "network", cause: e });
      }
    } finally {
      stopWatchdog.abort();
      signal.removeEventListener("abort", onCallerAbort);
      conn.abort();
      await watchdog;
    }

    if (signal.aborted) break;
    if (delivered) attempt = 0;
    attempt += 1;
    const delay = Math.max(
      backoffDelay(attempt, random, opts.initialBackoffMs, opts.maxBackoffMs),
      retryAfterMs ?? 0,
    );
    opts.logger?.warn?.(
      { attempt, delayMs: delay, reason: error instanceof Error ? error.message : String(error) },
      "OANDA stream: reconectando",
    );
    handlers.onReconnect?.(attempt, delay, error);
    await sleepOrAbort(clock, delay, signal);
  }
}
