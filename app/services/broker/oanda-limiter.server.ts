/**
 * The process's OANDA rate limits (PROTOCOL.md §5: 120 REST requests per second per client IP),
 * given to every client this process builds (broker.server.ts `clientFor`). Module-level on purpose:
 * the limit is the process's IP's, shared by every user and tick. Two Bottleneck stages:
 * - one limiter per token (a user's fair share, OANDA_TOKEN_REQUESTS_PER_SECOND; idle ones dropped
 *   after 5 minutes), so a user flooding the API cannot queue everyone else behind their requests;
 * - chained into the one process-wide reservoir of OANDA_REQUESTS_PER_SECOND, refilled every second.
 * Orders and closes (priority "write") go ahead of reads. Every attempt is counted, retries included.
 * Core only sees the `RequestLimiter` interface (core/oanda/http.ts, ADR 0038).
 */
import Bottleneck from "bottleneck";
import { OANDA_REQUESTS_PER_SECOND, OANDA_TOKEN_REQUESTS_PER_SECOND, type RequestLimiter, type RequestPriority } from "../../../core/oanda/http";

/** The process-wide reservoir: 120 attempts a second across every token. */
export const processReservoir = new Bottleneck({
  reservoir: OANDA_REQUESTS_PER_SECOND,
  reservoirRefreshAmount: OANDA_REQUESTS_PER_SECOND,
  reservoirRefreshInterval: 1000,
});

/** Bottleneck priorities (0 runs first): what moves money before what reads it. */
const PRIORITY: Record<RequestPriority, number> = { write: 1, read: 5 };

const tokenLimiters = new Bottleneck.Group({
  reservoir: OANDA_TOKEN_REQUESTS_PER_SECOND,
  reservoirRefreshAmount: OANDA_TOKEN_REQUESTS_PER_SECOND,
  reservoirRefreshInterval: 1000,
  timeout: 5 * 60_000,
});
tokenLimiters.on("created", (limiter) => limiter.chain(processReservoir));

/** The limiter every OANDA client of this process uses: the token's share, then the process's reservoir. */
export const oandaLimiter: RequestLimiter = {
  schedule: (key, priority, attempt) => tokenLimiters.key(key).schedule({ priority: PRIORITY[priority] }, attempt),
};
