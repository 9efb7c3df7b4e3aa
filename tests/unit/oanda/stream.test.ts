/** Pricing stream: NDJSON framing, dispatch, heartbeat watchdog and reconnect (ManualClock, fake fetch). */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it, vi } from "vitest";
import type { ClientPrice } from "../../../core/broker/port";
import { ManualClock } from "../../../core/clock";
import { createOandaClient } from "../../../core/oanda/client";
import { systemClock } from "../../../app/services/platform/system-clock";
import { BrokerError } from "../../../core/oanda/errors";
import type { FetchLike } from "../../../core/oanda/http";
import { backoffDelay, NdjsonDecoder, parsePriceStreamLine, runPriceStream } from "../../../core/oanda/stream";

const enc = new TextEncoder();
const PRICE = (instrument: string, bid: string, ask: string, time = "2026-01-05T12:00:00.000000000Z") =>
  JSON.stringify({
    type: "PRICE", time, bids: [{ price: bid, liquidity: 10000000 }], asks: [{ price: ask, liquidity: 10000000 }],
    closeoutBid: bid, closeoutAsk: ask, status: "tradeable", tradeable: true, instrument,
  });
const HEARTBEAT = (time = "2026-01-05T12:00:05.000000000Z") => JSON.stringify({ type: "HEARTBEAT", time });

describe("NdjsonDecoder", () => {
  it("buffers a line split across chunks", () => {
    const d = new NdjsonDecoder();
    const line = PRICE("EUR_USD", "1.10000", "1.10010");
    expect(d.push(enc.encode(line.slice(0, 17)))).toEqual([]);
    expect(d.push(enc.encode(line.slice(17, 60)))).toEqual([]);
    expect(d.push(enc.encode(`${line.slice(60)}\n`))).toEqual([line]);
  });

  it("returns several lines of one chunk and keeps the tail; skips blanks and CR", () => {
    const d = new NdjsonDecoder();
    const a = PRICE("EUR_USD", "1.10000", "1.10010");
    const b = HEARTBEAT();
    const c = PRICE("USD_JPY", "150.100", "150.110");
    expect(d.push(enc.encode(`${a}\n\n${b}\r\n   \n${c.slice(0, 10)}`))).toEqual([a, b]);
    expect(d.push(enc.encode(`${c.slice(10)}\n`))).toEqual([c]);
    expect(d.end()).toEqual([]);
  });

  it("decodes a multi-byte UTF-8 character split across chunks", () => {
    const d = new NdjsonDecoder();
    const line = JSON.stringify({ type: "OTHER", text: "Negociação € 😀" });
    const bytes = enc.encode(`${line}\n`);
    const euro = bytes.indexOf(0xe2); // first byte of "€" (3 bytes)
    const emoji = bytes.indexOf(0xf0); // first byte of the emoji (4 bytes)
    const cuts = [euro + 1, euro + 2, emoji + 1, emoji + 3];
    const out: string[] = [];
    let prev = 0;
    for (const cut of [...cuts, bytes.length]) {
      out.push(...d.push(bytes.subarray(prev, cut)));
      prev = cut;
    }
    expect(out).toEqual([line]);
    expect(JSON.parse(out[0]!).text).toBe("Negociação € 😀");
  });

  it("one byte at a time", () => {
    const d = new NdjsonDecoder();
    const text = `${PRICE("EUR_USD", "1.1", "1.2")}\n${HEARTBEAT()}\n`;
    const out: string[] = [];
    for (const byte of enc.encode(text)) out.push(...d.push(new Uint8Array([byte])));
    expect(out.map((l) => parsePriceStreamLine(l).type)).toEqual(["PRICE", "HEARTBEAT"]);
  });

  it("end() flushes an unterminated last line", () => {
    const d = new NdjsonDecoder();
    d.push(enc.encode(HEARTBEAT()));
    expect(d.end()).toEqual([HEARTBEAT()]);
  });
});

describe("parsePriceStreamLine", () => {
  it("dispatches on type, tolerates unknown types and bad lines", () => {
    expect(parsePriceStreamLine(PRICE("EUR_USD", "1.10000", "1.10010"))).toEqual({
      type: "PRICE",
      price: {
        instrument: "EUR_USD", time: "2026-01-05T12:00:00.000000000Z", tradeable: true,
        bid: "1.10000", ask: "1.10010", closeoutBid: "1.10000", closeoutAsk: "1.10010",
      },
    });
    expect(parsePriceStreamLine(HEARTBEAT("1509281144.757577547"))).toEqual({
      type: "HEARTBEAT",
      time: "2017-10-29T12:45:44.757577547Z",
    });
    expect(parsePriceStreamLine('{"type":"SOMETHING_NEW"}').type).toBe("OTHER");
    expect(parsePriceStreamLine("{not json").type).toBe("INVALID");
    expect(parsePriceStreamLine('{"type":"PRICE","instrument":"EUR_USD"}').type).toBe("INVALID");
  });
});

describe("backoffDelay", () => {
  it("doubles from 1 s, caps at 30 s, jitter in [0.5, 1)", () => {
    const max = () => 1;
    expect([1, 2, 3, 4, 5, 6, 7, 10].map((n) => backoffDelay(n, max))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect(backoffDelay(3, () => 0)).toBe(2000);
  });
});

/** A fetch whose responses the test drives: each call opens a controllable body. */
function fakeFetch(plan: ((n: number) => Response | undefined) = () => undefined) {
  const conns: { url: string; init: RequestInit; push(s: string | Uint8Array): void; close(): void }[] = [];
  const fetch: FetchLike = async (url, init) => {
    const planned = plan(conns.length);
    let ctrl!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (ctrl = c) });
    const conn = {
      url,
      init,
      push: (s: string | Uint8Array) => ctrl.enqueue(typeof s === "string" ? enc.encode(s) : s),
      close: () => ctrl.close(),
    };
    conns.push(conn);
    if (planned) return planned;
    const signal = init.signal!;
    if (signal.aborted) throw signal.reason;
    signal.addEventListener("abort", () => {
      try {
        ctrl.error(signal.reason);
      } catch {
        /* already closed */
      }
    });
    return new Response(body, { status: 200, headers: { "content-type": "application/octet-stream" } });
  };
  return { fetch, conns };
}

function recorder() {
  const prices: ClientPrice[] = [];
  const heartbeats: string[] = [];
  const reconnects: { attempt: number; delayMs: number; error: unknown }[] = [];
  return {
    prices,
    heartbeats,
    reconnects,
    handlers: {
      onPrice: (p: ClientPrice) => void prices.push(p),
      onHeartbeat: (t: string) => void heartbeats.push(t),
      onReconnect: (attempt: number, delayMs: number, error: unknown) => void reconnects.push({ attempt, delayMs, error }),
    },
  };
}

const URL0 = "http://stream.test/v3/accounts/A/pricing/stream?instruments=EUR_USD&snapshot=true";

describe("runPriceStream", () => {
  it("dispatches prices and heartbeats; watchdog reconnects after 10 s of silence; backoff grows; abort resolves", async () => {
    const clock = new ManualClock();
    const { fetch, conns } = fakeFetch();
    const rec = recorder();
    const ac = new AbortController();
    let resolved = false;
    const run = runPriceStream({ url: URL0, headers: { Authorization: "Bearer x" }, fetch, clock, handlers: rec.handlers, signal: ac.signal, random: () => 1 })
      .then(() => void (resolved = true));

    await vi.waitFor(() => expect(conns).toHaveLength(1));
    expect(conns[0]!.url).toBe(URL0);
    conns[0]!.push(`${PRICE("EUR_USD", "1.10000", "1.10010")}\n${HEARTBEAT().slice(0, 5)}`);
    await vi.waitFor(() => expect(rec.prices).toHaveLength(1));
    clock.advance(4_000);
    conns[0]!.push(`${HEARTBEAT().slice(5)}\n`);
    await vi.waitFor(() => expect(rec.heartbeats).toHaveLength(1));

    // 9.999 s after the last data: still connected.
    clock.advance(9_999);
    await new Promise((r) => setTimeout(r, 20));
    expect(rec.reconnects).toHaveLength(0);
    expect(conns).toHaveLength(1);

    // 10 s of silence: stalled → abort + reconnect after backoff (attempt 1 → 1 s).
    clock.advance(1);
    await vi.waitFor(() => expect(rec.reconnects).toHaveLength(1));
    expect(rec.reconnects[0]!.attempt).toBe(1);
    expect(rec.reconnects[0]!.delayMs).toBe(1000);
    expect(rec.reconnects[0]!.error).toBeInstanceOf(BrokerError);
    expect((rec.reconnects[0]!.error as BrokerError).kind).toBe("network");
    expect(conns[0]!.init.signal!.aborted).toBe(true);
    clock.advance(999);
    await new Promise((r) => setTimeout(r, 20));
    expect(conns).toHaveLength(1);
    clock.advance(1);
    await vi.waitFor(() => expect(conns).toHaveLength(2));

    // Second connection never sends anything: stalls again, backoff doubles (no data delivered).
    clock.advance(10_000);
    await vi.waitFor(() => expect(rec.reconnects).toHaveLength(2));
    expect(rec.reconnects[1]!).toMatchObject({ attempt: 2, delayMs: 2000 });

    // Abort during the backoff wait: resolves without a new connection (ManualClock ignores signals).
    ac.abort();
    await run;
    expect(resolved).toBe(true);
    expect(conns).toHaveLength(2);
  });

  it("reconnects when the server ends the body, resetting backoff after a healthy connection", async () => {
    const clock = new ManualClock();
    const { fetch, conns } = fakeFetch();
    const rec = recorder();
    const ac = new AbortController();
    const run = runPriceStream({ url: URL0, headers: {}, fetch, clock, handlers: rec.handlers, signal: ac.signal, random: () => 0 });
    await vi.waitFor(() => expect(conns).toHaveLength(1));
    conns[0]!.push(`${HEARTBEAT()}\n`);
    conns[0]!.close();
    await vi.waitFor(() => expect(rec.reconnects).toHaveLength(1));
    expect(rec.reconnects[0]).toMatchObject({ attempt: 1, delayMs: 500 });
    clock.advance(500);
    await vi.waitFor(() => expect(conns).toHaveLength(2));
    conns[1]!.push(PRICE("EUR_USD", "1.1", "1.2")); // unterminated last line is flushed at end
    conns[1]!.close();
    await vi.waitFor(() => expect(rec.reconnects).toHaveLength(2));
    expect(rec.prices).toHaveLength(1);
    expect(rec.reconnects[1]).toMatchObject({ attempt: 1 });
    ac.abort();
    await run;
  });

  it("retries 503 and 429 (Retry-After) with backoff", async () => {
    const clock = new ManualClock();
    const { fetch, conns } = fakeFetch((n) =>
      n === 0
        ? new Response('{"errorMessage":"down"}', { status: 503 })
        : n === 1
          ? new Response("{}", { status: 429, headers: { "Retry-After": "7" } })
          : undefined,
    );
    const rec = recorder();
    const ac = new AbortController();
    const run = runPriceStream({ url: URL0, headers: {}, fetch, clock, handlers: rec.handlers, signal: ac.signal, random: () => 1 });
    await vi.waitFor(() => expect(rec.reconnects).toHaveLength(1));
    expect((rec.reconnects[0]!.error as BrokerError).kind).toBe("server");
    clock.advance(1000);
    await vi.waitFor(() => expect(rec.reconnects).toHaveLength(2));
    expect(rec.reconnects[1]).toMatchObject({ attempt: 2, delayMs: 7000 });
    clock.advance(7000);
    await vi.waitFor(() => expect(conns).toHaveLength(3));
    ac.abort();
    await run;
  });

  it("rejects on 401 (not transient) without reconnecting", async () => {
    const clock = new ManualClock();
    const { fetch, conns } = fakeFetch(() =>
      new Response('{"errorMessage":"Insufficient authorization to perform request."}', { status: 401 }),
    );
    const rec = recorder();
    const err = await runPriceStream({ url: URL0, headers: {}, fetch, clock, handlers: rec.handlers, signal: new AbortController().signal })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BrokerError);
    expect((err as BrokerError).kind).toBe("auth");
    expect(conns).toHaveLength(1);
    expect(rec.reconnects).toHaveLength(0);
  });

  it("a throwing handler does not kill the stream", async () => {
    const clock = new ManualClock();
    const { fetch, conns } = fakeFetch();
    const ac = new AbortController();
    const seen: string[] = [];
    const run = runPriceStream({
      url: URL0, headers: {}, fetch, clock, signal: ac.signal,
      handlers: {
        onPrice: (p) => {
          seen.push(p.instrument);
          throw new Error("boom");
        },
      },
    });
    await vi.waitFor(() => expect(conns).toHaveLength(1));
    conns[0]!.push(`${PRICE("EUR_USD", "1.1", "1.2")}\n${PRICE("USD_JPY", "150.1", "150.2")}\n`);
    await vi.waitFor(() => expect(seen).toEqual(["EUR_USD", "USD_JPY"]));
    expect(conns).toHaveLength(1);
    ac.abort();
    await run;
  });

  it("resolves at once when the signal is already aborted", async () => {
    const { fetch, conns } = fakeFetch();
    const ac = new AbortController();
    ac.abort();
    await runPriceStream({ url: URL0, headers: {}, fetch, clock: new ManualClock(), handlers: recorder().handlers, signal: ac.signal });
    expect(conns).toHaveLength(0);
  });
});

describe("streamPricing over real HTTP (loopback)", () => {
  it("sends snapshot=true and auth headers, frames chunked NDJSON, resolves on abort", async () => {
    const seen: { url?: string; auth?: string; accept?: string } = {};
    const server = createServer((req, res) => {
      seen.url = req.url;
      seen.auth = req.headers.authorization;
      seen.accept = req.headers["accept-datetime-format"] as string;
      res.writeHead(200, { "Content-Type": "application/octet-stream" });
      const text = `${PRICE("EUR_USD", "1.10000", "1.10010")}\n${PRICE("USD_JPY", "150.100", "150.110")}\n${HEARTBEAT()}\n`;
      const bytes = Buffer.from(text);
      res.write(bytes.subarray(0, 50));
      setTimeout(() => res.write(bytes.subarray(50, 300)), 10);
      setTimeout(() => res.write(bytes.subarray(300)), 20);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const { port } = server.address() as AddressInfo;
    try {
      const client = createOandaClient({
        environment: "practice",
        token: "secret-token",
        apiUrl: `http://127.0.0.1:${port}/practice`,
        streamUrl: `http://127.0.0.1:${port}/practice/`,
        clock: systemClock,
      });
      const rec = recorder();
      const ac = new AbortController();
      const run = client.streamPricing("101-004-1435156-001", ["EUR_USD", "USD_JPY"], rec.handlers, ac.signal);
      await vi.waitFor(() => expect(rec.heartbeats).toHaveLength(1));
      expect(rec.prices.map((p) => [p.instrument, p.bid])).toEqual([["EUR_USD", "1.10000"], ["USD_JPY", "150.100"]]);
      expect(seen.url).toBe("/practice/v3/accounts/101-004-1435156-001/pricing/stream?instruments=EUR_USD%2CUSD_JPY&snapshot=true");
      expect(seen.auth).toBe("Bearer secret-token");
      expect(seen.accept).toBe("RFC3339");
      ac.abort();
      await run;
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
