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
 * The user's session is required (401 JSON otherwise, in the user's language); `SSE_MAX_PER_USER`
 * connections per user and `SSE_MAX_CONNECTIONS` per process (429 beyond).
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
import { getUser, type UserRow } from "../identity/auth.server";
import { getConnection } from "../broker/broker.server";
import { config } from "../platform/config.server";
import { db } from "../platform/db.server";
import { openTradeInstruments } from "../../../db/queries/trades";
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

  /** `server_shutdown` then the end of the response. */
  shutdown(): void {
    if (this.closed) return;
    this.closed = true;
    this.res.end(sseFrame("server_shutdown", { message: "Servidor reiniciando", time: new Date().toISOString() }));
  }
}

const connections = new Set<SseConnection>();
const perUser = new Map<string, number>();
let heartbeatTimer: NodeJS.Timeout | undefined;
let shuttingDown = false;

function startHeartbeats(): void {
  if (heartbeatTimer) return;
  heartbeatTimer = setInterval(() => {
    const frame = Buffer.from(sseFrame("heartbeat", { time: new Date().toISOString() }));
    for (const c of connections) c.heartbeat(frame);
  }, config().SSE_HEARTBEAT_MS);
  heartbeatTimer.unref();
}

/** A Fetch `Request` with the Express request's URL and headers (for the session and language helpers). */
function fetchRequest(req: ExpressRequest): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === "string") headers.set(k, v);
    else if (Array.isArray(v)) for (const x of v) headers.append(k, x);
  }
  return new Request(`http://${req.headers.host ?? "localhost"}${req.originalUrl}`, { headers });
}

async function jsonError(res: ExpressResponse, request: Request, status: number, key: string, user?: UserRow | null): Promise<void> {
  const language = user?.preferences?.language ?? (await requestLanguage(request).catch(() => "pt"));
  const message = translateMsg(msg(key), language);
  res.status(status).setHeader("Cache-Control", "no-store");
  if (status === 429) res.setHeader("Retry-After", "30");
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
  try {
    const user = await getUser(request);
    if (!user) return await jsonError(res, request, 401, "api:auth.sessionExpired");
    if (shuttingDown) return await jsonError(res, request, 503, "live:shuttingDown", user);
    const cfg = config();
    if (connections.size >= cfg.SSE_MAX_CONNECTIONS) return await jsonError(res, request, 429, "live:tooManyConnections", user);
    if ((perUser.get(user.id) ?? 0) >= cfg.SSE_MAX_PER_USER) return await jsonError(res, request, 429, "live:tooManyUserConnections", user);
    const asked = parseInstrumentsParam(req.query.instruments);
    if (asked === null) return await jsonError(res, request, 400, "live:invalidInstruments", user);
    // open-trades: the instruments of the user's open trades in our books, plus those the page names
    // (a trade opened at the broker shows on the page before the reconcile records it).
    const instruments =
      kind === "prices" ? (asked.length ? asked : [...SUPPORTED_INSTRUMENTS]) : [...new Set([...(await openTradeInstruments(db(), user.id)), ...asked])].sort();
    const environment = await environmentOf(user.id);
    if (res.headersSent || req.socket.destroyed) return;
    serve(kind, req, res, user, environment, instruments);
  } catch (err) {
    logger().error({ err }, "SSE: falha ao abrir o stream");
    if (!res.headersSent) await jsonError(res, request, 503, "api:databaseBusy").catch(() => res.status(503).end());
  }
}

function serve(kind: "prices" | "open-trades", req: ExpressRequest, res: ExpressResponse, user: UserRow, environment: Environment, instruments: string[]): void {
  res.status(200);
  res.setHeader("Content-Type", "text/event-stream; charset=utf-8");
  res.setHeader("Cache-Control", "no-cache, no-transform");
  res.setHeader("X-Accel-Buffering", "no");
  res.setHeader("Connection", "keep-alive");
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  req.socket.setTimeout(0);
  req.socket.setNoDelay(true);
  res.flushHeaders();
  // From here on frames go straight to the socket as pre-framed chunks (SocketSink).
  const conn = new SseConnection(res, user.id, new SocketSink(res));
  connections.add(conn);
  perUser.set(user.id, (perUser.get(user.id) ?? 0) + 1);
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
    const n = (perUser.get(user.id) ?? 1) - 1;
    if (n > 0) perUser.set(user.id, n);
    else perUser.delete(user.id);
  };
  res.on("close", close);
  res.on("error", close);
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
  await stopPriceHub();
}
