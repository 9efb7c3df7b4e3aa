/**
 * Remix server entry. Besides rendering, it exports `configure` (the config parsed at boot) and
 * `startBackground`/`stopBackground`, which the Express server calls so the in-process workers share
 * this module graph (one config, one DB pool, one pg-boss).
 */
import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "./lib/nonce";

export { startBackground, stopBackground } from "./services/background.server";
/** The SSE endpoints, mounted by the Express server on `/api/stream`, and their graceful close (ADR 0017). */
export { closeStreams, handleStreamRequest } from "./services/streams/sse-routes.server";
/** The Express server hands its boot config to this module graph (ADR 0009): `configure(cfg)`. */
export { setConfig as configure } from "./services/config.server";

const ABORT_DELAY = 5_000;

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
          const body = new PassThrough();
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
