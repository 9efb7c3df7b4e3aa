/**
 * A small SSE client for tests: fetch + eventsource-parser (the same framing rules as the browser's
 * EventSource), recording every event with its id; `next(pred)` waits for a matching event.
 */
import { createParser, type EventSourceMessage } from "eventsource-parser";

export interface SseEvent {
  event: string;
  id?: string;
  data: Record<string, unknown>;
  at: number;
}

export interface SseConnection {
  status: number;
  headers: Headers;
  /** The body when the answer was not a stream (401/429 JSON). */
  body?: Record<string, unknown>;
  events: SseEvent[];
  /** Resolves with the first event (already received or future) after index `from` matching `pred`. */
  next(pred: (e: SseEvent) => boolean, timeoutMs?: number, from?: number): Promise<SseEvent>;
  /** Resolves when the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `url` as an event stream with a bearer session token (and optionally `Last-Event-ID`). */
export async function openSse(url: string, opts: { token?: string; lastEventId?: string; headers?: Record<string, string> } = {}): Promise<SseConnection> {
  const abort = new AbortController();
  const res = await fetch(url, {
    headers: {
      accept: "text/event-stream",
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      ...(opts.lastEventId ? { "last-event-id": opts.lastEventId } : {}),
      ...opts.headers,
    },
    signal: abort.signal,
  });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  if (!res.headers.get("content-type")?.startsWith("text/event-stream")) {
    const text = await res.text();
    let body: Record<string, unknown> | undefined;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      body = { text };
    }
    return { status: res.status, headers: res.headers, body, events, next: () => Promise.reject(new Error(`não é SSE (${res.status})`)), ended: Promise.resolve(), close: () => {} };
  }
  const parser = createParser({
    onEvent(m: EventSourceMessage) {
      let data: Record<string, unknown> = {};
      try {
        data = JSON.parse(m.data) as Record<string, unknown>;
      } catch {
        data = { raw: m.data };
      }
      events.push({ event: m.event ?? "message", id: m.id, data, at: Date.now() });
      for (const w of [...waiters]) w();
    },
  });
  let finished = false;
  const ended = (async () => {
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } catch {
      // aborted by close()
    }
    finished = true;
    for (const w of [...waiters]) w();
  })();
  return {
    status: res.status,
    headers: res.headers,
    events,
    ended,
    close: () => abort.abort(),
    next(pred, timeoutMs = 15_000, from = 0) {
      return new Promise<SseEvent>((resolve, reject) => {
        const check = () => {
          const hit = events.slice(from).find(pred);
          if (hit) {
            cleanup();
            resolve(hit);
          } else if (finished) {
            cleanup();
            reject(new Error(`stream terminou sem o evento esperado; recebidos: ${events.map((e) => e.event).join(",")}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`evento esperado não chegou em ${timeoutMs} ms; recebidos: ${events.map((e) => e.event).join(",")}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}
