/**
 * `Cache-Control: no-store` by default (issue 8 item 10): pages and API replies carry personal data
 * (balances, trades, e-mail), so neither the browser nor a shared cache may keep them. Every response
 * that does not set its own `Cache-Control` gets `no-store` just before its headers go out; what
 * sets one keeps it — the static files (`/assets` immutable for a year, the rest of build/client an
 * hour) and Remix's route manifest (`/__manifest`, immutable).
 */
import type { RequestHandler } from "express";

/** Express middleware: `Cache-Control: no-store` on every response without a Cache-Control of its own. */
export const noStoreByDefault: RequestHandler = (_req, res, next) => {
  const writeHead = res.writeHead;
  res.writeHead = function (this: typeof res, ...args: Parameters<typeof writeHead>) {
    if (!res.hasHeader("cache-control") && !headersArgSetsCacheControl(args)) res.setHeader("Cache-Control", "no-store");
    return writeHead.apply(this, args);
  } as typeof writeHead;
  next();
};

/** Whether `writeHead(status, [message], headers)` itself names a Cache-Control header. */
function headersArgSetsCacheControl(args: unknown[]): boolean {
  const headers = args.find((a, i) => i > 0 && typeof a === "object" && a !== null);
  if (!headers) return false;
  if (Array.isArray(headers)) {
    // [[name, value], …] or the raw [name, value, name, value, …]
    const names = Array.isArray(headers[0]) ? headers.map((h: unknown[]) => h[0]) : headers.filter((_, i) => i % 2 === 0);
    return names.some((n) => String(n).toLowerCase() === "cache-control");
  }
  return Object.keys(headers).some((k) => k.toLowerCase() === "cache-control");
}
