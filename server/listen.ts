/**
 * Runs an Express app on its own HTTP server (the standalone OANDA and Stripe simulators).
 * @returns `url` (e.g. "http://127.0.0.1:4001"), the bound `port` and `close()`, which calls
 *   `onClose` first (end streams, timers), then stops listening and drops open connections.
 *   `close()` is idempotent. @throws the listen error (e.g. EADDRINUSE)
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Express } from "express";

export async function listenApp(
  app: Express,
  opts: { port?: number; host?: string; onClose?: () => void },
): Promise<{ url: string; port: number; close(): Promise<void> }> {
  const host = opts.host ?? "127.0.0.1";
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      (closing ??= new Promise<void>((resolve, reject) => {
        opts.onClose?.();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections?.();
      })),
  };
}
