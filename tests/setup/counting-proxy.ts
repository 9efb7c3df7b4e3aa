/**
 * A reverse proxy in front of the OANDA simulator that counts the broker requests passing through it
 * while `state.counting` is on, by kind: method + path, the environment prefix and the account id
 * dropped and numeric ids elided (`GET transactions/sinceid`, `GET pricing`, `GET summary`…). Used by
 * the tick-cost test (tests/integration/tick-round-trips.test.ts) and the benches (bench/bots.bench.ts,
 * bench/web.bench.ts) to measure broker requests per bot tick or per page view (issue 13).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The kind of a broker request URL (see the module docstring). */
export function requestKind(method: string | undefined, url: string): string {
  const p = url.split("?")[0]!.replace(/^\/(practice|live)/, "");
  const m = /^\/v3\/accounts\/[^/]+\/(.+)$/.exec(p);
  return `${method ?? "GET"} ${(m ? m[1]! : p).replace(/\/\d+(?=\/|$)/g, "/:id")}`;
}

export interface CountingProxy {
  /** Base URL of the proxy (append `/practice` or `/live` as for the simulator). */
  url: string;
  /** Requests counted so far, by kind. */
  counts: Map<string, number>;
  /**
   * Counting switch: requests pass through either way. `before`, when set, runs before a request is
   * forwarded (a test acting at the broker at that exact moment, e.g. a transaction just before an order).
   */
  state: { counting: boolean; before?: (method: string, url: string) => Promise<void> | void };
  /** All requests counted so far. */
  total(): number;
  close(): Promise<void>;
}

/** Starts a counting proxy to `target` (the simulator's base URL) on a free local port. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const t = new URL(target);
  const counts = new Map<string, number>();
  const state: CountingProxy["state"] = { counting: false };
  const server = http.createServer(async (req, res) => {
    if (state.counting) {
      const k = requestKind(req.method, req.url ?? "/");
      counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    if (state.before) await state.before(req.method ?? "GET", req.url ?? "/");
    const up = http.request({ hostname: t.hostname, port: t.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
    res.on("close", () => up.destroy());
  });
  server.keepAliveTimeout = 65_000; // as the product's own server: the app's keep-alive sockets are reused
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    state,
    total: () => [...counts.values()].reduce((a, b) => a + b, 0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
