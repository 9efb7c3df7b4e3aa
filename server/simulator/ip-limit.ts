/**
 * OANDA's per-IP REST limit in the simulator (PROTOCOL.md §5, PITFALLS.md 10: 120 requests a second per
 * client IP, HTTP 429 beyond; the body is not documented, so the simulator answers OANDA's usual
 * `{ errorMessage }` envelope with `Retry-After: 1`). Off unless `SimulatorAppOptions.ipRequestsPerSecond`
 * (`SIM_IP_REQUESTS_PER_SECOND` for `npm run sim`) is set: the product's egress plan (ADR 0041) is measured
 * against it. Counts, per source address, the requests answered and refused (tests, bench).
 * Pricing streams are not counted (OANDA limits them apart: 20 open streams per IP).
 */
import type { RequestHandler } from "express";
import { rateLimit } from "express-rate-limit";

/** Requests seen per source address since the simulator started. */
export interface IpCounts {
  [address: string]: { answered: number; limited: number };
}

/** The source address as the simulator sees it (IPv4-mapped IPv6 shown as IPv4). */
function sourceAddress(ip: string | undefined): string {
  return (ip ?? "").replace(/^::ffff:/, "");
}

/**
 * The middleware (mounted on `/practice` and `/live`) and its counts. A fixed one-second window per source
 * address (express-rate-limit), like OANDA's "per second".
 * @param perSecond requests a second allowed per source address (> 0)
 */
export function ipRequestLimit(perSecond: number): { middleware: RequestHandler; counts: () => IpCounts } {
  const counts: IpCounts = {};
  const entry = (ip: string) => (counts[ip] ??= { answered: 0, limited: 0 });
  const limiter = rateLimit({
    windowMs: 1000,
    limit: perSecond,
    standardHeaders: false,
    legacyHeaders: false,
    // The socket's own address: the simulator stands for OANDA, which sees the TCP peer, never a header.
    keyGenerator: (req) => sourceAddress(req.socket.remoteAddress),
    validate: false,
    handler: (req, res) => {
      entry(sourceAddress(req.socket.remoteAddress)).limited++;
      res.setHeader("Retry-After", "1");
      res.status(429).json({ errorMessage: "Rate limit violation: too many requests" });
    },
  });
  const middleware: RequestHandler = (req, res, next) => {
    if (req.path.endsWith("/pricing/stream")) return next();
    void limiter(req, res, () => {
      entry(sourceAddress(req.socket.remoteAddress)).answered++;
      next();
    });
  };
  return { middleware, counts: () => structuredClone(counts) };
}
