/**
 * The egress plan for OANDA requests (issue 24, ADR 0041). OANDA allows 120 REST requests a second per
 * client IP (PROTOCOL.md §5; 429 beyond), so one IP caps a deployment at 120 broker requests a second
 * whatever its processes. With `OANDA_EGRESS_ADDRESSES` (local IPs of this host), each token's requests leave
 * from one of them, picked by a stable hash of the token (its connections and its share stay on one IP), and
 * each address has its own reservoir of `OANDA_IP_REQUESTS_PER_SECOND` (oanda-limiter.server.ts). Without it,
 * the OS picks the source address and the process has the one reservoir `oandaLimiter`.
 */
import { createHash } from "node:crypto";
import { Agent, fetch as undiciFetch } from "undici";
import type { FetchLike, RequestLimiter } from "../../../core/oanda/http";
import { config } from "../platform/config.server";
import { createOandaLimiter, oandaLimiter } from "./oanda-limiter.server";

/** Where a token's requests leave from: the address (undefined: the OS's choice), its fetch and its limiter. */
export interface Egress {
  address: string | undefined;
  fetch: FetchLike;
  limiter: RequestLimiter;
}

const defaultEgress: Egress = { address: undefined, fetch: (input, init) => globalThis.fetch(input, init), limiter: oandaLimiter };
let routes: { key: string; egresses: Egress[] } | undefined;

/** One Egress per configured address, built once per configuration (the agents keep their connections). */
function configuredEgresses(): Egress[] {
  const cfg = config();
  const key = `${cfg.OANDA_EGRESS_ADDRESSES.join(",")}|${cfg.OANDA_IP_REQUESTS_PER_SECOND}`;
  if (routes?.key === key) return routes.egresses;
  const egresses = cfg.OANDA_EGRESS_ADDRESSES.map((address): Egress => {
    const dispatcher = new Agent({ localAddress: address });
    return {
      address,
      // undici's own fetch with its own Agent (Node's bundled fetch may be another undici version).
      fetch: (input, init) => undiciFetch(input, { ...(init as object), dispatcher }) as unknown as Promise<Response>,
      limiter: createOandaLimiter(cfg.OANDA_IP_REQUESTS_PER_SECOND),
    };
  });
  routes = { key, egresses };
  return egresses;
}

/**
 * The egress of a token: always the same address for the same token and address list (the first 32 bits of
 * the token's SHA-256, modulo the list's length); the process default without OANDA_EGRESS_ADDRESSES.
 */
export function egressFor(token: string): Egress {
  const egresses = configuredEgresses();
  if (egresses.length === 0) return defaultEgress;
  const slot = createHash("sha256").update(token).digest().readUInt32BE(0) % egresses.length;
  return egresses[slot]!;
}
