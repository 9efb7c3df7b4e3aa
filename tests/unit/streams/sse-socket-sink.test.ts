/**
 * SSE frames written straight to the socket as pre-framed HTTP/1.1 chunks
 * (app/services/streams/sse-routes.server.ts `SocketSink`, `httpChunk`; ADR 0017): a real HTTP
 * client reads exactly the frames, in order, mixed with `res.write` ones, and the response ends
 * cleanly with `server_shutdown`; an HTTP/1.0 client (no chunked coding) gets the bare frames.
 */
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import pino from "pino";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { httpChunk, SocketSink, SseConnection } from "../../../app/services/streams/sse-routes.server";

let server: http.Server | undefined;

beforeAll(() => {
  globalThis.__logger = pino({ level: "silent" });
});
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** A server whose one response writes `retry` through res, then frames through the socket sink, then shuts down. */
async function serve(frames: (string | Buffer)[]): Promise<number> {
  server = http.createServer((_req, res) => {
    res.setHeader("Content-Type", "text/event-stream");
    res.flushHeaders();
    const conn = new SseConnection(res as never, "u1", new SocketSink(res as never));
    res.write("retry: 3000\n\n");
    for (const [i, f] of frames.entries()) conn.send(`k${i}`, f);
    setTimeout(() => conn.shutdown(), 20);
  });
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", r));
  return (server.address() as AddressInfo).port;
}

describe("httpChunk", () => {
  it("frames data as one chunk (hex size, CRLF, data, CRLF), once per shared buffer", () => {
    expect(httpChunk("abc").toString()).toBe("3\r\nabc\r\n");
    const big = Buffer.from("x".repeat(300));
    const a = httpChunk(big);
    expect(a.toString()).toBe(`12c\r\n${"x".repeat(300)}\r\n`);
    expect(httpChunk(big)).toBe(a);
    expect(httpChunk("é").toString()).toBe("2\r\né\r\n");
    expect(httpChunk("abc", false).toString()).toBe("abc");
  });
});

describe("SocketSink", () => {
  it("a real HTTP client reads every frame in order and the end of the stream", async () => {
    const shared = Buffer.from('id: 1\nevent: price\ndata: {"bid":"1.1"}\n\n');
    const port = await serve([shared, 'event: order_fill\ndata: {"tradeId":"7"}\n\n', shared]);
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(res.headers.get("transfer-encoding")).toBe("chunked");
    const body = await res.text();
    expect(body.startsWith(`retry: 3000\n\n${shared}event: order_fill\ndata: {"tradeId":"7"}\n\n${shared}event: server_shutdown\ndata: {`)).toBe(true);
  });

  it("an HTTP/1.0 client gets the bare frames, ended by the connection's close", async () => {
    const port = await serve(["event: a\ndata: 1\n\n"]);
    const raw = await new Promise<string>((resolve, reject) => {
      let out = "";
      const s = net.connect(port, "127.0.0.1", () => s.write("GET / HTTP/1.0\r\n\r\n"));
      s.on("data", (d) => (out += d.toString()));
      s.on("end", () => resolve(out));
      s.on("error", reject);
    });
    expect(raw).not.toMatch(/transfer-encoding/i);
    expect(raw.slice(raw.indexOf("\r\n\r\n") + 4)).toMatch(/^retry: 3000\n\nevent: a\ndata: 1\n\nevent: server_shutdown\ndata: \{/);
  });
});
