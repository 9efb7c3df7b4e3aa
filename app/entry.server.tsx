/**
 * Remix server entry. Besides rendering, it exports `configure` (the config parsed at boot) and
 * `startBackground`/`stopBackground`, which the Express server calls so the in-process workers share
 * this module graph (one config, one DB pool, one pg-boss).
 */
import { Transform, type TransformCallback } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "./lib/nonce";

export { startBackground, stopBackground } from "../server/background";
/** The SSE endpoints, mounted by the Express server on `/api/stream`, and their graceful close (ADR 0017). */
export { closeStreams, handleStreamRequest } from "./services/streams/sse-routes.server";
/** The Express server hands its boot config to this module graph (ADR 0009): `configure(cfg)`. */
export { setConfig as configure } from "./services/platform/config.server";
/** Shutdown began: `/ready` answers 503 "encerrando" from now on (server/index.ts, first thing on SIGTERM). */
export { markShuttingDown } from "./services/platform/readiness-state";

const ABORT_DELAY = 5_000;

/**
 * The HTML stream between React and the response, handing the document on in as few chunks as it can
 * (issue 13, ADR 0031): what React wrote goes on when the document ends, or HOLD_MS after the oldest chunk
 * not yet handed on. React writes in 2 kB pieces and the hydration data in one more turn per piece of it;
 * each chunk cost its own zlib call (a thread-pool round trip), ~30 for the dashboard. A page whose render
 * ends within HOLD_MS (all of ours: their loaders return plain data) arrives exactly when it did; a longer
 * render sends its first bytes at most HOLD_MS later.
 */
const HOLD_MS = 10;

class CoalescingStream extends Transform {
  private parts: Buffer[] = [];
  private pending: NodeJS.Timeout | undefined;
  constructor() {
    // React stops writing at a full buffer until "drain"; a document fits under 1 MB in one turn.
    super({ writableHighWaterMark: 1 << 20 });
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.parts.push(chunk);
    this.pending ??= setTimeout(() => this.handOn(), HOLD_MS);
    done();
  }
  override _flush(done: TransformCallback) {
    if (this.pending) clearTimeout(this.pending);
    this.handOn();
    done();
  }
  override _destroy(err: Error | null, done: (err: Error | null) => void) {
    if (this.pending) clearTimeout(this.pending);
    this.parts = [];
    done(err);
  }
  private handOn() {
    this.pending = undefined;
    if (this.parts.length === 0) return;
    const parts = this.parts;
    this.parts = [];
    this.push(parts.length === 1 ? parts[0] : Buffer.concat(parts));
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // The CSP nonce of this response (server/index.ts); Remix's inline scripts carry it.
  const nonce = typeof loadContext?.cspNonce === "string" ? loadContext.cspNonce : undefined;
  const bot = isbot(request.headers.get("user-agent") || "");
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce ?? ""}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        [bot ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new CoalescingStream();
          const stream = createReadableStreamFromReadable(body);
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(new Response(stream, { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}
