/**
 * The price hub's shapes (ADR 0017): the price it holds and hands to listeners, a trade event, a
 * listener, its counters, and the payloads on its NOTIFY channel (`HUB_CHANNEL`, platform/sse.ts).
 */
import type { Environment } from "../../../core/broker/port";
import type { StreamPrice } from "../platform/sse";

/** A trade event for one user (PRODUCT.md §7 Streaming: order_fill, trade_close). */
export interface TradeEvent {
  event: "order_fill" | "trade_close";
  userId: string;
  tradeId: string;
}

/** A price as the hub holds it: the SSE event id (`seq`, increasing) and its environment. */
export interface HubPrice extends StreamPrice {
  seq: number;
  environment: Environment;
  /** The upstream connection it came on (absent: unknown, never served to ticks). */
  gen?: string;
}

/** One listener: its environment and instruments; callbacks run synchronously in the fan-out. */
export interface HubSubscriber {
  environment: Environment;
  instruments: Set<string>;
  userId: string;
  onPrice(p: HubPrice): void;
  onTrade?(e: TradeEvent): void;
  /** The user ensured more instruments (POST /api/stream/ensure, any process). */
  onEnsure?(instruments: string[]): void;
}

/** Payloads on the channel. */
export type Wire =
  | { k: "p"; o: string; e: Environment; s: number; i: string; b: string; a: string; m: string; t: string; tr: boolean; pub: number; g?: string }
  | { k: "h"; o: string; e: Environment; g: string; pub: number }
  | { k: "x"; o: string; e: Environment; g: string }
  | { k: "d"; o: string; e: Environment; i: string[] }
  | { k: "q"; o: string }
  | { k: "e"; o: string; u: string; e: Environment; i: string[] }
  | { k: "t"; ev: TradeEvent["event"]; u: string; t: string };

/** Counters (tests and logs). */
export interface HubStats {
  holding: Environment[];
  upstreamOpens: number;
  published: number;
  received: number;
  /** Upstream heartbeats seen by this process (its own stream's and relayed ones). */
  heartbeats: number;
}
