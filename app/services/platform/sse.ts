/**
 * Server-sent events framing (WHATWG HTML §9.2 "Server-sent events"): `id:`, `event:`, `data:`
 * lines ended by a blank line. Data is one JSON line (JSON.stringify never emits a raw newline).
 */

/** The wire frame of one event. `id` sets the browser's `Last-Event-ID` for a reconnect. */
export function sseFrame(event: string, data: unknown, id?: string): string {
  return `${id !== undefined ? `id: ${id}\n` : ""}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The `retry:` line that sets the browser's reconnect delay, ms. */
export function sseRetry(ms: number): string {
  return `retry: ${Math.max(0, Math.round(ms))}\n\n`;
}

/** The price as the streams send it (PRODUCT.md §3 Live price, §7 Streaming): decimals as strings. */
export interface StreamPrice {
  instrument: string;
  bid: string;
  ask: string;
  mid: string;
  /** Broker time of the price (RFC3339). */
  time: string;
  tradeable: boolean;
  /** When the hub published it, ms since the epoch (latency measurements: bench/sse.bench.ts). */
  pub: number;
}

/** The NOTIFY channel of the price hub: prices, demand and trade events (price-hub.server.ts). */
export const HUB_CHANNEL = "price_hub";
