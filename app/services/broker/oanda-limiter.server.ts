/**
 * The OANDA rate limits (PROTOCOL.md §5: 120 REST requests per second per client IP), given to every
 * client this process builds (broker.server.ts `clientFor`). One limiter per egress address
 * (egress.server.ts; a single one, `oandaLimiter`, when the OS picks the source address): the limit is the
 * address's, shared by every user and tick leaving from it. Two Bottleneck stages:
 * - one limiter per token (a user's fair share, OANDA_TOKEN_REQUESTS_PER_SECOND; idle ones dropped
 *   after 5 minutes), so a user flooding the API cannot queue everyone else behind their requests;
 * - chained into the address's one reservoir of OANDA_REQUESTS_PER_SECOND (or the configured budget),
 *   refilled every second, its attempts spaced so that no rolling second holds more than the budget.
 * Orders and closes (priority "write") go ahead of reads. Every attempt is counted, retries included.
 * Core only sees the `RequestLimiter` interface (core/oanda/http.ts, ADR 0038).
 */
import Bottleneck from "bottleneck";
import { OANDA_REQUESTS_PER_SECOND, OANDA_TOKEN_REQUESTS_PER_SECOND, type RequestLimiter, type RequestPriority } from "../../../core/oanda/http";

/** Bottleneck priorities (0 runs first): what moves money before what reads it. */
const PRIORITY: Record<RequestPriority, number> = { write: 1, read: 5 };

/** A limiter for one source address, with its reservoir (tests read what is left of it). */
export interface AddressLimiter extends RequestLimiter {
  reservoir: Bottleneck;
}

/**
 * A limiter for one egress address: per-token shares chained into one reservoir of `perSecond` attempts a second.
 * @param perSecond the address's budget (OANDA: 120 a second per client IP)
 */
export function createOandaLimiter(perSecond = OANDA_REQUESTS_PER_SECOND): AddressLimiter {
  // The reservoir alone allowed 2 × perSecond within one second straddling its refresh (the broker's window is
  // not ours): attempts are also spaced by minTime, with 10 % slack for arrival jitter (5 % still drew 429s in
  // bench/egress.bench.ts on a loaded machine), so no rolling second holds more than perSecond
  // (tests/integration/oanda-egress.test.ts showed 429s without it).
  const reservoir = new Bottleneck({
    reservoir: perSecond,
    reservoirRefreshAmount: perSecond,
    reservoirRefreshInterval: 1000,
    minTime: Math.ceil((1000 / perSecond) * 1.1),
  });
  const share = Math.min(OANDA_TOKEN_REQUESTS_PER_SECOND, perSecond);
  const tokenLimiters = new Bottleneck.Group({ reservoir: share, reservoirRefreshAmount: share, reservoirRefreshInterval: 1000, timeout: 5 * 60_000 });
  tokenLimiters.on("created", (limiter) => limiter.chain(reservoir));
  return {
    reservoir,
    schedule: (key, priority, attempt) => tokenLimiters.key(key).schedule({ priority: PRIORITY[priority] }, attempt),
  };
}

/** The process's limiter when the OS picks the source address (no OANDA_EGRESS_ADDRESSES): 120 attempts a second across every token. */
export const oandaLimiter = createOandaLimiter();

/** Its reservoir (tests). */
export const processReservoir = oandaLimiter.reservoir;
