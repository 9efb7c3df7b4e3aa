/**
 * `/metrics` (issue 24): the process's registry in the Prometheus text format
 * (app/services/platform/metrics.server.ts), never public —
 * - on the app's port only with `METRICS_TOKEN`, as `Authorization: Bearer <token>` (compared in constant time;
 *   401 without it or with another), and 404 when no token is configured;
 * - on `METRICS_PORT`, a second small HTTP server bound to `HOST` that answers only `GET /metrics` (no token:
 *   keep that port off the public network, e.g. the compose network only).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { RequestHandler } from "express";
import { metricsText } from "../app/services/platform/metrics.server";

/** Whether `given` equals `expected`, in time independent of where they differ (both hashed first: equal lengths). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The bearer token of an `Authorization` header, or undefined. */
function bearer(header: string | undefined): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return m?.[1];
}

/**
 * The app port's `/metrics` handler: 404 without a configured token, 401 (with `WWW-Authenticate: Bearer`) for a
 * missing or wrong token, else 200 with the metrics.
 */
export function metricsHandler(token: string | undefined): RequestHandler {
  return (req, res, next) => {
    // Mounted on /metrics: only the path itself (req.path "/"), read with GET or HEAD.
    if ((req.method !== "GET" && req.method !== "HEAD") || req.path !== "/") return next();
    if (!token) return void res.status(404).json({ message: "Não encontrado." });
    const given = bearer(req.headers.authorization);
    if (given === undefined || !sameSecret(given, token)) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="metrics"');
      return void res.status(401).json({ message: "Token de métricas ausente ou inválido." });
    }
    metricsText().then(
      ({ contentType, body }) => {
        res.status(200).setHeader("Content-Type", contentType);
        res.setHeader("Cache-Control", "no-store");
        res.end(req.method === "HEAD" ? undefined : body);
      },
      next,
    );
  };
}

/**
 * Starts the METRICS_PORT server on `host` (port 0: any free port); resolves once it listens.
 * @throws the listen error (e.g. EADDRINUSE)
 */
export async function startMetricsServer(port: number, host: string): Promise<{ server: Server; port: number; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "").split("?", 1)[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Não encontrado.\n");
      return;
    }
    metricsText().then(
      ({ contentType, body }) => res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store" }).end(req.method === "HEAD" ? undefined : body),
      () => res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("Falha ao coletar as métricas.\n"),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as { port: number }).port;
  return {
    server,
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
