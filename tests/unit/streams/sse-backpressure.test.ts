/**
 * Back-pressure of one SSE connection (app/services/streams/sse-routes.server.ts, ADR 0017): while
 * the socket is full nothing is written and only the latest price per instrument is kept (trade
 * events by their own key); on `drain` the kept frames go out in order; a client that stays full
 * too long, or piles up too many distinct events, is disconnected.
 */
import { EventEmitter } from "node:events";
import pino from "pino";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { SseConnection } from "../../../app/services/streams/sse-routes.server";

/** A response whose socket accepts `room` more writes, then reports itself full until `drain()`. */
class FakeResponse extends EventEmitter {
  written: string[] = [];
  writableNeedDrain = false;
  destroyed = false;
  constructor(private room = Infinity) {
    super();
  }
  write(chunk: string | Buffer): boolean {
    this.written.push(String(chunk));
    this.room--;
    if (this.room <= 0) this.writableNeedDrain = true;
    return !this.writableNeedDrain;
  }
  drain(room = Infinity): void {
    this.room = room;
    this.writableNeedDrain = false;
    this.emit("drain");
  }
  destroy(): void {
    this.destroyed = true;
  }
  end(chunk?: string): void {
    if (chunk) this.written.push(chunk);
  }
}

const connection = (res: FakeResponse) => new SseConnection(res as never, "u1");

beforeAll(() => {
  globalThis.__logger = pino({ level: "silent" });
});
afterEach(() => vi.useRealTimers());

describe("SseConnection", () => {
  it("writes at once while the socket has room", () => {
    const res = new FakeResponse();
    const c = connection(res);
    c.send("p:EUR_USD", "a");
    c.send("p:EUR_USD", "b");
    expect(res.written).toEqual(["a", "b"]);
  });

  it("keeps only the latest price per instrument while full, and every trade event; flushes them on drain", () => {
    const res = new FakeResponse(1);
    const c = connection(res);
    c.send("p:EUR_USD", "eur1"); // fills the socket
    c.send("p:EUR_USD", "eur2");
    c.send("p:USD_JPY", "jpy1");
    c.send("t:order_fill:7", "fill7");
    c.send("p:EUR_USD", "eur3");
    expect(res.written).toEqual(["eur1"]);
    res.drain();
    expect(res.written).toEqual(["eur1", "jpy1", "fill7", "eur3"]);
  });

  it("skips heartbeats while full and disconnects a client full for more than 10 s", () => {
    vi.useFakeTimers();
    const res = new FakeResponse(1);
    const c = connection(res);
    c.send("p:EUR_USD", "eur1");
    c.heartbeat(Buffer.from("hb"));
    expect(res.written).toEqual(["eur1"]);
    expect(res.destroyed).toBe(false);
    vi.advanceTimersByTime(10_001);
    c.heartbeat(Buffer.from("hb"));
    expect(res.destroyed).toBe(true);
    c.send("p:EUR_USD", "late");
    expect(res.written).toEqual(["eur1"]);
  });

  it("disconnects a client with more than 64 distinct pending events", () => {
    const res = new FakeResponse(1);
    const c = connection(res);
    c.send("p:EUR_USD", "eur1");
    for (let i = 0; i < 64; i++) c.send(`t:order_fill:${i}`, `f${i}`);
    expect(res.destroyed).toBe(false);
    c.send("t:order_fill:x", "fx");
    expect(res.destroyed).toBe(true);
  });

  it("ends with server_shutdown", () => {
    const res = new FakeResponse();
    connection(res).shutdown();
    expect(res.written.at(-1)).toMatch(/^event: server_shutdown\ndata: \{.*"time"/);
  });
});
