/**
 * The SSE endpoints (PRODUCT.md §7 Streaming, §4; ADR 0017), served at the Express level
 * (server/index.ts mounts `handleStreamRequest` on `/api/stream` before the Remix handler: a
 * long-lived response written as prices arrive, ended by the ordered shutdown):
 * - `GET /api/stream/prices[?instruments=EUR_USD,USD_JPY]`: `hello` {serverTime, environment,
 *   instruments, heartbeatMs}, then `price` {instrument,bid,ask,mid,time,tradeable,pub} with an `id`
 *   (a `Last-Event-ID` reconnect gets the latest price of each instrument newer than that id, a fresh
 *   connection the latest known), `heartbeat` {time} every `SSE_HEARTBEAT_MS`, `order_fill` /
 *   `trade_close` {tradeId} of the user's own trades, `server_shutdown` before the server closes it.
 *   Without `instruments` the user's environment's supported instruments; `POST /api/stream/ensure`
 *   adds more to the user's open connections.
 * - `GET /api/stream/open-trades[?instruments=…]`: `snapshot` {prices:[{instrument,bid,ask,mid,timestamp}]}
 *   of the user's open trades' instruments (plus those named), then `price` {instrument,bid,ask,mid,time} (same ids); a fill
 *   or close of the user's re-reads the instrument list.
 * The user's session is required (401 JSON otherwise, in the user's language). Abuse bounds (issue 24),
 * each slot taken synchronously when checked and given back on failure or close: `SSE_MAX_CONNECTIONS`
 * per process and an event-loop delay above `SSE_SHED_LOOP_DELAY_MS` → 503 + Retry-After (shed before the
 * loop starves); `SSE_MAX_PER_IP` per client IP and `SSE_MAX_PER_USER` per user → 429. Each heartbeat
 * re-checks the streams' sessions (one statement) and ends those revoked, expired or deactivated; a
 * logout, password reset, deactivation or deletion in this process ends them at once (platform/session-events.ts).
 *
 * Writes: after the headers, frames go straight to the socket as pre-framed HTTP chunks (`SocketSink`:
 * one `socket.write` per frame per subscriber; ADR 0017 "Writing the fan-out").
 *
 * Back-pressure: a connection whose socket buffer is full (`write` returned false, not drained yet)
 * gets nothing written; the latest price of each instrument waits in a small map (coalesced: a slow
 * client skips intermediate prices, never buffers them) and is written on `drain`. A client that
 * stays full for `SLOW_CLIENT_MS`, or piles up more than `MAX_PENDING` distinct pending events, is
 * disconnected (its EventSource reconnects and resumes with Last-Event-ID).
 */
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import type { Environment } from "../../../core/broker/port";
import { msg } from "../../../core/i18n/message";
import { SUPPORTED_INSTRUMENTS } from "../../../core/instruments";
import { translateMsg } from "~/i18n";
import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";
import { getUser, sessionToken, type UserRow } from "../identity/auth.server";
import { getConnection } from "../broker/broker.server";
import { config } from "../platform/config.server";
import { db } from "../platform/db.server";
import { openTradeInstruments } from "../../../db/queries/trades";
import { liveSessionHashes } from "../../../db/queries/sessions";
import { hashToken } from "../platform/crypto.server";
import { onSessionsEnded, type SessionEnd } from "../platform/session-events";
import { logger } from "../platform/logger.server";
import { countSseDrop, countSseSubscribersWith } from "../platform/metrics.server";
import { requestLanguage } from "../identity/request-language.server";
import { priceHub, stopPriceHub } from "./price-hub.server";
import type { HubPrice, HubSubscriber, TradeEvent } from "./price-hub-types";
import { sseFrame, sseRetry } from "../platform/sse";

/** A client stuck with a full socket buffer for this long is disconnected, ms. */
const SLOW_CLIENT_MS = 10_000;
/** Most distinct events waiting for a congested client before it is disconnected. */
const MAX_PENDING = 64;
/** Browser reconnect delay sent in `retry:`, ms. */
const RETRY_MS = 3_000;

/**
 * Where a connection's frames go: the Node response (`res.write`), or — for a live stream — its
 * socket, written with pre-framed HTTP/1.1 chunks (`SocketSink`). Both report back-pressure the same
 * way (`write` returns false, `writableNeedDrain`, `drain`).
 */
export interface SseSink {
  write(frame: string | Buffer): boolean;
  readonly writableNeedDrain: boolean;
  on(event: "drain", listener: () => void): unknown;
  destroy(): void;
}

/** Pre-framed chunks of shared frames (each price's frame is framed once for all its subscribers). */
const chunkCache = new WeakMap<Buffer, Buffer>();
let lastShared: Buffer | undefined;
let lastChunk: Buffer | undefined;

/**
 * One HTTP/1.1 chunk (RFC 9112 §7.1: size in hex, CRLF, data, CRLF) holding `frame`; without
 * chunked transfer coding (an HTTP/1.0 client: the connection's end delimits the body) the bytes as they are.
 */
export function httpChunk(frame: string | Buffer, chunked = true): Buffer {
  const data = typeof frame === "string" ? Buffer.from(frame) : frame;
  if (!chunked || data.length === 0) return data;
  if (frame === lastShared) return lastChunk!; // a fan-out frames one price for thousands of sockets in a row
  const cached = typeof frame === "string" ? undefined : chunkCache.get(frame);
  if (cached) return cached;
  const head = `${data.length.toString(16)}\r\n`;
  const out = Buffer.allocUnsafe(head.length + data.length + 2);
  out.write(head, 0, "latin1");
  data.copy(out, head.length);
  out.write("\r\n", head.length + data.length, "latin1");
  if (typeof frame !== "string") {
    chunkCache.set(frame, out);
    lastShared = frame;
    lastChunk = out;
  }
  return out;
}

/**
 * The socket of a streaming response whose headers are flushed: one `socket.write` of one
 * pre-framed buffer per frame. `res.write` would do four corked socket writes (size, CRLF, data,
 * CRLF), a `nextTick` and a `writev` per call — the bulk of a 5,000-subscriber fan-out (bench/sse.bench.ts).
 * The response still ends normally (`res.end` writes the last chunk and the terminating `0` chunk).
 */
export class SocketSink implements SseSink {
  private readonly socket: NodeJS.WritableStream & { writableNeedDrain: boolean; destroy(): void };
  private readonly chunked: boolean;

  constructor(res: ExpressResponse) {
    this.socket = res.socket!;
    this.chunked = (res as unknown as { chunkedEncoding: boolean }).chunkedEncoding;
  }

  write(frame: string | Buffer): boolean {
    return this.socket.write(httpChunk(frame, this.chunked));
  }

  get writableNeedDrain(): boolean {
    return this.socket.writableNeedDrain;
  }

  on(event: "drain", listener: () => void): this {
    this.socket.on(event, listener);
    return this;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** Each price's frame, encoded once for all its subscribers (a fan-out to thousands writes the same bytes). */
const frames = new WeakMap<HubPrice, Buffer>();
let lastPrice: HubPrice | undefined;
let lastFrame: Buffer | undefined;
function priceFrame(p: HubPrice): Buffer {
  if (p === lastPrice) return lastFrame!; // the fan-out asks for the same price 5,000 times in a row
  let f = frames.get(p);
  if (!f) {
    f = Buffer.from(sseFrame("price", { instrument: p.instrument, bid: p.bid, ask: p.ask, mid: p.mid, time: p.time, tradeable: p.tradeable, pub: p.pub }, String(p.seq)));
    frames.set(p, f);
  }
  lastPrice = p;
  lastFrame = f;
  return f;
}

/** The coalescing key of an instrument's prices (one string per instrument, not one per send). */
const priceKeys = new Map<string, string>();
function priceKey(instrument: string): string {
  let k = priceKeys.get(instrument);
  if (!k) priceKeys.set(instrument, (k = `p:${instrument}`));
  return k;
}

/** One open SSE response with its coalescing buffer (exported for its unit test). */
export class SseConnection {
  private readonly pending = new Map<string, string | Buffer>();
  private congestedSince = 0;
  private readonly out: SseSink;
  closed = false;

  /** `out`: where frames are written (the response itself unless given; serve() passes its socket). */
  constructor(
    readonly res: ExpressResponse,
    readonly userId: string,
    out?: SseSink,
  ) {
    this.out = out ?? (res as unknown as SseSink);
    this.out.on("drain", () => this.flush());
  }

  /** Writes a frame now, or keeps it under `key` (replacing an older one) while the socket is full. */
  send(key: string, frame: string | Buffer): void {
    if (this.closed) return;
    if (this.out.writableNeedDrain) {
      this.pending.delete(key);
      this.pending.set(key, frame);
      if (this.pending.size > MAX_PENDING) this.drop("fila cheia");
      return;
    }
    if (!this.out.write(frame)) this.congestedSince = Date.now();
  }

  /** A heartbeat: skipped while congested; a client congested too long is disconnected. */
  heartbeat(frame: Buffer): void {
    if (this.closed) return;
    if (this.out.writableNeedDrain) {
      if (this.congestedSince && Date.now() - this.congestedSince > SLOW_CLIENT_MS) this.drop("cliente lento");
      return;
    }
    this.out.write(frame);
  }

  private flush(): void {
    this.congestedSince = 0;
    for (const [key, frame] of this.pending) {
      this.pending.delete(key);
      if (!this.out.write(frame)) {
        this.congestedSince = Date.now();
        return;
      }
    }
  }

  private drop(reason: string): void {
    countSseDrop(reason);
    logger().warn({ userId: this.userId, reason }, "SSE: conexão encerrada (back-pressure)");
    this.closed = true;
    this.out.destroy();
    this.res.destroy();
  }

  /** The SHA-256 hash of the session token that opened it (re-checked on each heartbeat; issue 24). */
  tokenHash?: string;

  /** The session ended (logout, password reset, deactivation): the response ends, nothing more is written. */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.res.end();
  }

  /** `server_shutdown` then the end of the response. */
  shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    this.res.end(sseFrame("server_shutdown", { message: "Servidor reiniciando", time: new Date().toISOString() }));
  }
}

const connections = new Set<SseConnection>();
/**
 * Stream slots by user, by client IP and in total, each taken synchronously — check and count in the same
 * turn of the event loop — and given back once when the open fails or the stream closes (issue 24: the
 * per-user limit was checked before two database waits and counted after them; 60 simultaneous opens gave
 * 58 streams, a burst of 2,000 gave 210). A slot counts from the check, not from the first byte.
 */
const perUser = new Map<string, number>();
const perIp = new Map<string, number>();
let slots = 0;
let heartbeatTimer: NodeJS.Timeout | undefined;
let shuttingDown = false;

function take(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}
function give(map: Map<string, number>, key: string): void {
  const n = (map.get(key) ?? 1) - 1;
  if (n > 0) map.set(key, n);
  else map.delete(key);
}

/**
 * The event loop's delay, p99 over the last second, ms (perf_hooks.monitorEventLoopDelay, sampled every
 * 20 ms): past SSE_SHED_LOOP_DELAY_MS new streams are refused with 503 + Retry-After before the loop
 * starves (issue 24: 2,000 open streams took `/api/auth/me` p90 from 55 ms to ~3 s).
 */
let loopDelay: IntervalHistogram | undefined;
let loopDelayMs = 0;
function watchLoopDelay(): void {
  if (loopDelay) return;
  loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  setInterval(() => {
    loopDelayMs = loopDelay!.percentile(99) / 1e6;
    loopDelay!.reset();
  }, 1_000).unref();
}

/** The event-loop delay the shedding judges by (p99 of the last second, ms). */
export function eventLoopDelayMs(): number {
  return loopDelayMs;
}

let checkingSessions = false;

/**
 * The heartbeat: a `heartbeat` frame to every stream, then one statement re-checking the sessions of all
 * open streams; a stream whose session was revoked or expired, or whose user was deactivated (by any
 * process), ends (issue 24: 45 events reached a client in the 20 s after its logout). A failed check keeps
 * the streams (the database may be briefly away; the next heartbeat checks again).
 */
function startHeartbeats(): void {
  if (heartbeatTimer) return;
  heartbeatTimer = setInterval(() => {
    const frame = Buffer.from(sseFrame("heartbeat", { time: new Date().toISOString() }));
    for (const c of connections) c.heartbeat(frame);
    void recheckSessions();
  }, config().SSE_HEARTBEAT_MS);
  heartbeatTimer.unref();
}

async function recheckSessions(): Promise<void> {
  if (checkingSessions || connections.size === 0) return;
  checkingSessions = true;
  try {
    const hashes = new Set<string>();
    for (const c of connections) if (c.tokenHash) hashes.add(c.tokenHash);
    const live = await liveSessionHashes(db(), [...hashes]);
    endStreams((c) => !!c.tokenHash && !live.has(c.tokenHash));
  } catch (err) {
    logger().warn({ err: String(err) }, "SSE: falha ao reverificar as sessões (mantidas até o próximo heartbeat)");
  } finally {
    checkingSessions = false;
  }
}

/** Ends the open streams matching `which` (their `close` handlers give their slots back). */
function endStreams(which: (c: SseConnection) => boolean): number {
  let n = 0;
  for (const c of connections) {
    if (!which(c)) continue;
    c.end();
    n++;
  }
  return n;
}

/**
 * Ends this process's streams of a session (by token hash) or of every session of a user, at once
 * (logout, password reset, deactivation, deletion announce it: platform/session-events.ts). Returns how many.
 */
export function endSessionStreams(end: SessionEnd): number {
  return "tokenHash" in end ? endStreams((c) => c.tokenHash === end.tokenHash) : endStreams((c) => c.userId === end.userId);
}

declare global {
  var __sseSessionListener: (() => void) | undefined;
}
// One listener per process, even when a dev reload evaluates this module again.
globalThis.__sseSessionListener?.();
globalThis.__sseSessionListener = onSessionsEnded((end) => void endSessionStreams(end));

/** A Fetch `Request` with the Express request's URL and headers (for the session and language helpers). */
function fetchRequest(req: ExpressRequest): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === "string") headers.set(k, v);
    else if (Array.isArray(v)) for (const x of v) headers.append(k, x);
  }
  return new Request(`http://${req.headers.host ?? "localhost"}${req.originalUrl}`, { headers });
}

/**
 * The JSON refusal in the user's language; `user` null = before the session is read: Portuguese (a refusal
 * that sheds load must not cost a database read).
 */
async function jsonError(res: ExpressResponse, request: Request, status: number, key: string, user?: UserRow | null): Promise<void> {
  const language = user === null ? "pt" : (user?.preferences?.language ?? (await requestLanguage(request).catch(() => "pt")));
  const message = translateMsg(msg(key), language);
  res.status(status).setHeader("Cache-Control", "no-store");
  if (status === 429) res.setHeader("Retry-After", "30");
  else if (status === 503) res.setHeader("Retry-After", "5");
  res.json({ success: false, message, error: message });
}

/** Parses `?instruments=A,B` against the supported list; null when a name is not supported. */
export function parseInstrumentsParam(raw: unknown): string[] | null {
  if (raw === undefined || raw === "") return [];
  if (typeof raw !== "string") return null;
  const names = [...new Set(raw.split(",").map((s) => s.trim().toUpperCase()).filter(Boolean))];
  if (names.length > SUPPORTED_INSTRUMENTS.length) return null;
  return names.every((n) => (SUPPORTED_INSTRUMENTS as readonly string[]).includes(n)) ? names : null;
}

/** The environment of the user's broker connection (practice without one). */
async function environmentOf(userId: string): Promise<Environment> {
  return (await getConnection(userId))?.environment ?? "practice";
}

/**
 * Express handler for `/api/stream/*` (mounted at `/api/stream`): serves the two GET streams and
 * passes anything else on (`POST /api/stream/ensure` is a Remix resource route).
 */
export async function handleStreamRequest(req: ExpressRequest, res: ExpressResponse, next: NextFunction): Promise<void> {
  const kind = req.path === "/prices" ? "prices" : req.path === "/open-trades" ? "open-trades" : null;
  if (!kind || (req.method !== "GET" && req.method !== "HEAD")) return next();
  const request = fetchRequest(req);
  const cfg = config();
  watchLoopDelay();
  // Before any await (issue 24): refusals that cost nothing, then the process's and the IP's slots.
  if (shuttingDown) return jsonError(res, request, 503, "live:shuttingDown", null);
  if (cfg.SSE_SHED_LOOP_DELAY_MS > 0 && loopDelayMs > cfg.SSE_SHED_LOOP_DELAY_MS) return jsonError(res, request, 503, "live:overloaded", null);
  if (slots >= cfg.SSE_MAX_CONNECTIONS) return jsonError(res, request, 503, "live:tooManyConnections", null);
  const ip = req.ip ?? req.socket.remoteAddress ?? "?";
  if ((perIp.get(ip) ?? 0) >= cfg.SSE_MAX_PER_IP) return jsonError(res, request, 429, "live:tooManyIpConnections", null);
  slots++;
  take(perIp, ip);
  let userSlot: string | undefined;
  let released = false;
  /** Gives the slots back, once (a failed open, or the stream's close). */
  const release = () => {
    if (released) return;
    released = true;
    slots--;
    give(perIp, ip);
    if (userSlot) give(perUser, userSlot);
  };
  let served = false;
  try {
    const user = await getUser(request);
    if (!user) return await jsonError(res, request, 401, "api:auth.sessionExpired");
    // Checked and counted in the same turn: no await between them.
    if ((perUser.get(user.id) ?? 0) >= cfg.SSE_MAX_PER_USER) return await jsonError(res, request, 429, "live:tooManyUserConnections", user);
    take(perUser, (userSlot = user.id));
    const asked = parseInstrumentsParam(req.query.instruments);
    if (asked === null) return await jsonError(res, request, 400, "live:invalidInstruments", user);
    const token = await sessionToken(request);
    // open-trades: the instruments of the user's open trades in our books, plus those the page names
    // (a trade opened at the broker shows on the page before the reconcile records it).
    const instruments =
      kind === "prices" ? (asked.length ? asked : [...SUPPORTED_INSTRUMENTS]) : [...new Set([...(await openTradeInstruments(db(), user.id)), ...asked])].sort();
    const environment = await environmentOf(user.id);
    if (res.headersSent || req.socket.destroyed || shuttingDown) return;
    served = serve(kind, req, res, user, environment, instruments, token ? hashToken(token) : undefined, release);
  } catch (err) {
    logger().error({ err }, "SSE: falha ao abrir o stream");
    if (!res.headersSent) await jsonError(res, request, 503, "api:databaseBusy").catch(() => res.status(503).end());
  } finally {
    if (!served) release();
  }
}

/** Starts the stream; returns whether it is open (then `release` runs when it closes). */
function serve(
  kind: "prices" | "open-trades",
  req: ExpressRequest,
  res: ExpressResponse,
  user: UserRow,
  environment: Environment,
  instruments: string[],
  tokenHash: string | undefined,
  release: () => void,
): boolean {
  res.status(200);
  res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache, no-transform");
  res.setHeader("X-Accel-Buffering", "no");
  res.setHeader("Connection", "keep-alive");
  if (req.method === "HEAD") {
    res.end();
    return false;
  }
  req.socket.setTimeout(0);
  req.socket.setNoDelay(true);
  res.flushHeaders();
  // From here on frames go straight to the socket as pre-framed chunks (SocketSink).
  const conn = new SseConnection(res, user.id, new SocketSink(res));
  conn.tokenHash = tokenHash;
  connections.add(conn);
  startHeartbeats();
  const hub = priceHub();
  const wanted = new Set(instruments);
  const lastEventId = Number(req.headers["last-event-id"] ?? (typeof req.query.lastEventId === "string" ? req.query.lastEventId : NaN));
  const resumeAfter = Number.isFinite(lastEventId) && lastEventId > 0 ? lastEventId : 0;

  let refreshing = false;
  const sub: HubSubscriber = {
    environment,
    instruments: wanted,
    userId: user.id,
    onPrice: (p) => conn.send(priceKey(p.instrument), priceFrame(p)),
    onTrade: (e: TradeEvent) => {
      if (kind === "prices") conn.send(`t:${e.event}:${e.tradeId}`, sseFrame(e.event, { tradeId: e.tradeId }));
      else if (!refreshing) {
        // A fill or close changes which instruments the open trades have.
        refreshing = true;
        void openTradeInstruments(db(), user.id)
          .then((list) => {
            for (const i of list) wanted.add(i);
            for (const p of hub.latestFor(environment, list)) conn.send(priceKey(p.instrument), priceFrame(p));
          })
          .catch(() => {})
          .finally(() => (refreshing = false));
      }
    },
    onEnsure: kind === "prices" ? (list: string[]) => {
      const added = list.filter((i) => !wanted.has(i));
      for (const i of added) wanted.add(i);
      for (const p of hub.latestFor(environment, added)) conn.send(priceKey(p.instrument), priceFrame(p));
    } : undefined,
  };

  res.write(sseRetry(RETRY_MS));
  if (kind === "prices") {
    res.write(sseFrame("hello", { serverTime: new Date().toISOString(), environment, instruments: [...wanted], heartbeatMs: config().SSE_HEARTBEAT_MS }));
    for (const p of hub.latestFor(environment, wanted, resumeAfter)) conn.send(priceKey(p.instrument), priceFrame(p));
  } else {
    const latest = hub.latestFor(environment, wanted);
    res.write(sseFrame("snapshot", { prices: latest.map((p) => ({ instrument: p.instrument, bid: p.bid, ask: p.ask, mid: p.mid, timestamp: p.time })) }, latest.length ? String(Math.max(...latest.map((p) => p.seq))) : undefined));
  }
  const unsubscribe = hub.subscribe(sub);
  const close = () => {
    if (!connections.delete(conn)) return;
    conn.closed = true;
    unsubscribe();
    release();
  };
  res.on("close", close);
  res.on("error", close);
  return true;
}

/** Open SSE connections of this process (health and tests). */
export function openStreamCount(): number {
  return connections.size;
}
countSseSubscribersWith(openStreamCount); // the metrics' gauge reads it on each scrape

/**
 * Graceful shutdown (server/index.ts, before the HTTP server closes): every connection gets
 * `server_shutdown` and its response ends; the hub closes its upstream and releases its lock.
 */
export async function closeStreams(): Promise<void> {
  shuttingDown = true;
  clearInterval(heartbeatTimer);
  heartbeatTimer = undefined;
  for (const c of connections) c.shutdown();
  connections.clear();
  perUser.clear();
  perIp.clear();
  slots = 0;
  await stopPriceHub();
}
