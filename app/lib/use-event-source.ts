/**
 * Server-sent events in the browser (issue 11; PRODUCT.md §7 Streaming, §8 SSE messages): the
 * browser's EventSource with our own reconnect on top of its built-in one. While the browser retries
 * by itself (network drop) the status is "reconnecting"; when it gives up (an HTTP error such as 401
 * or 429) or the server says `server_shutdown`, the hook reconnects after 1, 2, 4 … 30 s. Polling
 * stays the fallback: pages keep their loader refresh, the stream only makes figures move sooner.
 */
import { useEffect, useRef, useState } from "react";
import { apiFetchFirst } from "./api-multi";
import type { LivePrice, LivePrices, LiveTradeInput } from "./live-prices";

/** idle: no stream (no URL, no EventSource); error/closed: waiting to reconnect. */
export type SseStatus = "idle" | "connecting" | "open" | "reconnecting" | "error" | "closed";

/** Longest wait between our reconnect attempts, ms. */
const MAX_BACKOFF_MS = 30_000;

/**
 * Opens `url` (null: nothing) and calls `handlers[event](data)` with each event's JSON data.
 * The handler names are read when the stream opens; the functions may change between renders.
 */
export function useEventSource(url: string | null, handlers: Record<string, (data: unknown) => void>): SseStatus {
  const [status, setStatus] = useState<SseStatus>("idle");
  const ref = useRef(handlers);
  useEffect(() => {
    ref.current = handlers;
  });
  const names = Object.keys(handlers).sort().join(",");
  useEffect(() => {
    if (!url || typeof window === "undefined" || typeof window.EventSource === "undefined") return;
    let es: EventSource | null = null;
    let timer: number | undefined;
    let attempt = 0;
    let stopped = false;
    const retry = (next: SseStatus) => {
      es?.close();
      es = null;
      setStatus(next);
      attempt += 1;
      timer = window.setTimeout(connect, Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (attempt - 1)));
    };
    function connect() {
      if (stopped) return;
      setStatus(attempt ? "reconnecting" : "connecting");
      const source = new EventSource(url!, { withCredentials: true });
      es = source;
      source.onopen = () => {
        attempt = 0;
        setStatus("open");
      };
      source.onerror = () => {
        if (source.readyState === EventSource.CLOSED) retry("error");
        else setStatus("reconnecting");
      };
      for (const name of names.split(",").filter(Boolean)) {
        source.addEventListener(name, (ev) => {
          let data: unknown = null;
          try {
            data = JSON.parse((ev as MessageEvent<string>).data);
          } catch {
            return;
          }
          ref.current[name]?.(data);
        });
      }
      source.addEventListener("server_shutdown", () => retry("closed"));
    }
    connect();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      es?.close();
    };
  }, [url, names]);
  return status;
}

/**
 * Latest streamed price per instrument from `/api/stream/open-trades` or `/api/stream/prices`
 * (`snapshot` and `price` events); `onTrade` is called on `order_fill` / `trade_close`.
 */
export function useLivePrices(url: string | null, onTrade?: () => void): { prices: LivePrices; status: SseStatus } {
  const [prices, setPrices] = useState<LivePrices>({});
  const status = useEventSource(url, {
    snapshot: (d) => {
      const list = (d as { prices?: (Omit<LivePrice, "time"> & { timestamp: string })[] }).prices ?? [];
      setPrices((prev) => ({ ...prev, ...Object.fromEntries(list.map((p) => [p.instrument, { ...p, time: p.timestamp }])) }));
    },
    price: (d) => {
      const p = d as LivePrice;
      if (p && typeof p.instrument === "string") setPrices((prev) => ({ ...prev, [p.instrument]: p }));
    },
    order_fill: () => onTrade?.(),
    trade_close: () => onTrade?.(),
  });
  return { prices, status };
}

/**
 * The hero's live figures: the open trades (GET /api/trades/account/open, then /api/account/trades; re-read whenever
 * `refreshKey` changes, i.e. after each loader refresh) and their prices over
 * `/api/stream/prices?instruments=…`; a fill or close calls `onTrade` (the page re-reads at once).
 */
export function useOpenTradesLive(enabled: boolean, refreshKey: unknown, onTrade?: () => void): { trades: LiveTradeInput[]; prices: LivePrices; status: SseStatus } {
  const [trades, setTrades] = useState<LiveTradeInput[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    apiFetchFirst<{ trades?: LiveTradeInput[] }>(["/api/trades/account/open", "/api/account/trades"])
      .then((r) => !cancelled && setTrades(r.trades ?? []))
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [enabled, refreshKey]);
  const instruments = [...new Set(trades.map((t) => t.instrument))].sort().join(",");
  const live = useLivePrices(enabled && instruments ? `/api/stream/prices?instruments=${instruments}` : null, onTrade);
  return { trades: enabled ? trades : [], ...live };
}
