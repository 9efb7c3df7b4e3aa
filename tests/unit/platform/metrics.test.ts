/**
 * Issue 24, metrics: the labels an operator's Prometheus stores stay bounded (route templates, broker
 * endpoint templates, no ids), the broker observer counts what the OANDA client really did (429, 5xx,
 * timeouts, the decision → order clock), and `/metrics` on the app's port is never public (404 without a
 * token, 401 with a wrong one, 200 in the text format with the right one; METRICS_PORT serves only /metrics).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import type { ServerBuild } from "@remix-run/node";
import { afterEach, describe, expect, it } from "vitest";
import type { Clock } from "../../../core/clock";
import { createOandaClient } from "../../../core/oanda/client";
import { endpointTemplate, type RequestReport } from "../../../core/oanda/http";
import { bounded, brokerObserver, methodLabel, metrics, metricsText, noteDecisionStored, noteOrderExpected, statusLabel } from "../../../app/services/platform/metrics.server";
import { routeLabeler } from "../../../server/http-metrics";
import { metricsHandler, sameSecret, startMetricsServer } from "../../../server/metrics-endpoint";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

/** The value of a counter (or histogram `_count`) series with exactly these labels; 0 when absent. */
async function value(name: string, labels: Record<string, string> = {}): Promise<number> {
  const metric = metrics().registry.getSingleMetric(name);
  if (!metric) throw new Error(`métrica ${name} ausente`);
  const { values } = await metric.get();
  const want = Object.entries(labels);
  const hit = values.find((v) => {
    const l = v.labels as Record<string, string | number>;
    const name = (v as { metricName?: unknown }).metricName;
    const isCount = typeof name !== "string" || name.endsWith("_count");
    return isCount && want.every(([k, x]) => String(l[k]) === x) && Object.keys(l).filter((k) => k !== "le").length === want.length;
  });
  return hit?.value ?? 0;
}

/** A route table shaped like the build's (Remix flat routes: ids, paths relative to the parent, index routes). */
const ROUTES = {
  root: { id: "root", path: "" },
  "routes/_index": { id: "routes/_index", parentId: "root", index: true },
  "routes/$": { id: "routes/$", parentId: "root", path: "*" },
  "routes/api.$": { id: "routes/api.$", parentId: "root", path: "api/*" },
  "routes/api.trades.$id": { id: "routes/api.trades.$id", parentId: "root", path: "api/trades/:id" },
  "routes/api.trades.$id.close": { id: "routes/api.trades.$id.close", parentId: "root", path: "api/trades/:id/close" },
  "routes/api.trades.account.open": { id: "routes/api.trades.account.open", parentId: "root", path: "api/trades/account/open" },
  "routes/api.openapi[.]json": { id: "routes/api.openapi[.]json", parentId: "root", path: "api/openapi.json" },
  "routes/admin": { id: "routes/admin", parentId: "root", path: "admin" },
  "routes/admin._index": { id: "routes/admin._index", parentId: "routes/admin", index: true },
  "routes/admin.usuarios_.$id": { id: "routes/admin.usuarios_.$id", parentId: "routes/admin", path: "usuarios/:id" },
} as unknown as ServerBuild["routes"];

describe("bounded labels", () => {
  it("labels a request by its route template, never by the ids in its path", () => {
    const label = routeLabeler(ROUTES);
    expect(label("/api/trades/123")).toBe("/api/trades/:id");
    expect(label("/api/trades/9f1c2d3e-aaaa-bbbb-cccc-1234567890ab/close")).toBe("/api/trades/:id/close");
    expect(label("/api/trades/account/open")).toBe("/api/trades/account/open"); // the static route outranks :id
    expect(label("/API/Trades/77")).toBe("/api/trades/:id");
    expect(label("/api/openapi.json")).toBe("/api/openapi.json");
    expect(label("/admin/usuarios/5b0e")).toBe("/admin/usuarios/:id");
    expect(label("/admin")).toBe("/admin");
    expect(label("/")).toBe("/");
    expect(label("/api/nao/existe/42")).toBe("/api/*");
    expect(label("/qualquer/coisa/ana@exemplo.com")).toBe("/*");
    expect(label("/api/stream/prices")).toBe("/api/stream/*");
    expect(label("/assets/entry.client-AbC123.js")).toBe("/assets/*");
    expect(label("/metrics")).toBe("/metrics");
    // Without a splat route, an unknown path is one fixed label.
    const noSplat = routeLabeler({ root: ROUTES.root, "routes/api.trades.$id": ROUTES["routes/api.trades.$id"] } as unknown as ServerBuild["routes"]);
    expect(noSplat("/x/ana@exemplo.com")).toBe("other");
  });

  it("templates broker endpoints: no account, trade or instrument id, whatever the mount prefix", () => {
    expect(endpointTemplate("http://127.0.0.1:3000/oanda-sim/practice/v3/accounts/101-004-1435156-001/orders")).toBe("/v3/accounts/{id}/orders");
    expect(endpointTemplate("https://api-fxpractice.oanda.com/v3/accounts/101-004-1/trades/42/close")).toBe("/v3/accounts/{id}/trades/{id}/close");
    expect(endpointTemplate("https://api-fxpractice.oanda.com/v3/instruments/EUR_USD/candles")).toBe("/v3/instruments/{id}/candles");
    expect(endpointTemplate("https://api-fxpractice.oanda.com/v3/accounts/101-004-1/transactions/sinceid")).toBe("/v3/accounts/{id}/transactions/sinceid");
    expect(endpointTemplate("https://api-fxpractice.oanda.com/v3/accounts/101-004-1/trades/@ia-abc")).toBe("/v3/accounts/{id}/trades/{id}");
    expect(endpointTemplate("https://evil.example/x/y")).toBe("other");
    expect(endpointTemplate("not a url")).toBe("other");
  });

  it("keeps free-text label values to short words, methods and statuses to fixed sets", () => {
    expect(bounded("customer.subscription.updated")).toBe("customer.subscription.updated");
    expect(bounded("ana@exemplo.com")).toBe("other");
    expect(bounded("x".repeat(60))).toBe("other");
    expect(bounded(null)).toBe("none");
    expect(bounded("invoice.created", new Set(["invoice.paid"]))).toBe("other");
    expect(methodLabel("propfind")).toBe("other");
    expect(methodLabel("post")).toBe("POST");
    expect(statusLabel(404)).toBe("404");
    expect(statusLabel(0)).toBe("other");
  });
});

/** Clock of the OANDA client: real time, sleeps skipped (retries at once). */
const clock: Clock = { now: () => new Date(), sleep: () => Promise.resolve() };

/** A loopback OANDA stand-in answering each request with `reply(method, path, n)`; `hang` never answers. */
async function fakeOanda(reply: (method: string, path: string, n: number) => { status: number; body?: unknown } | "hang"): Promise<string> {
  let n = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const r = reply(req.method!, req.url!, n++);
      if (r === "hang") return;
      res.writeHead(r.status, { "content-type": "application/json" }).end(JSON.stringify(r.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/oanda-sim/practice`;
}

describe("broker observer", () => {
  it("counts each attempt by endpoint template and status, and the 429s, 5xx and timeouts an operator alerts on", async () => {
    const account = "101-004-9999999-001";
    const base = await fakeOanda((method, path, n) => {
      if (path.endsWith("/summary")) return n === 0 ? { status: 429, body: { errorMessage: "devagar" } } : n === 1 ? { status: 503 } : { status: 500 };
      if (path.endsWith("/openTrades")) return "hang";
      return { status: 404 };
    });
    const reports: RequestReport[] = [];
    const observer = { done: (r: RequestReport) => (reports.push(r), brokerObserver.done!(r)), sent: brokerObserver.sent! };
    const client = createOandaClient({ environment: "practice", token: "t0k3n-secreto", apiUrl: base, streamUrl: base, clock, retries: 2, timeoutMs: 300, observer });
    const endpoint = "/v3/accounts/{id}/summary";
    const before = {
      summary429: await value("forexia_broker_requests_total", { method: "GET", endpoint, status: "429" }),
      rate: await value("forexia_broker_rate_limited_total", { endpoint }),
      server: await value("forexia_broker_server_errors_total", { endpoint }),
      timeouts: await value("forexia_broker_timeouts_total", { endpoint: "/v3/accounts/{id}/openTrades" }),
    };
    await expect(client.getAccountSummary(account)).rejects.toMatchObject({ status: 500 });
    await expect(client.listOpenTrades(account)).rejects.toMatchObject({ kind: "network" });
    expect(reports.map((r) => [r.endpoint, r.status, r.outcome])).toEqual([
      [endpoint, 429, "http"],
      [endpoint, 503, "http"],
      [endpoint, 500, "http"],
      ["/v3/accounts/{id}/openTrades", 0, "timeout"],
      ["/v3/accounts/{id}/openTrades", 0, "timeout"],
      ["/v3/accounts/{id}/openTrades", 0, "timeout"],
    ]);
    expect(await value("forexia_broker_requests_total", { method: "GET", endpoint, status: "429" })).toBe(before.summary429 + 1);
    expect(await value("forexia_broker_rate_limited_total", { endpoint })).toBe(before.rate + 1);
    expect(await value("forexia_broker_server_errors_total", { endpoint })).toBe(before.server + 2);
    expect(await value("forexia_broker_timeouts_total", { endpoint: "/v3/accounts/{id}/openTrades" })).toBe(before.timeouts + 3);
    const text = (await metricsText()).body;
    expect(text).not.toContain(account);
    expect(text).not.toContain("t0k3n");
  });

  it("times a decision → order: from the stored decision to the order's request leaving, matched by its client id", async () => {
    const before = await value("forexia_decision_to_order_seconds");
    noteDecisionStored("user-1:decision-1", Date.now() - 250);
    noteOrderExpected("user-1:decision-1", "ia-0123456789abcdef01234567");
    // Another order (a manual one, no decision) and a GET are not observed.
    brokerObserver.sent!({ method: "POST", endpoint: "/v3/accounts/{id}/orders", body: { order: { clientExtensions: { id: "manual-x" } } } });
    brokerObserver.sent!({ method: "GET", endpoint: "/v3/accounts/{id}/summary", body: undefined });
    expect(await value("forexia_decision_to_order_seconds")).toBe(before);
    brokerObserver.sent!({ method: "POST", endpoint: "/v3/accounts/{id}/orders", body: { order: { clientExtensions: { id: "ia-0123456789abcdef01234567" } } } });
    expect(await value("forexia_decision_to_order_seconds")).toBe(before + 1);
    const sum = (await metrics().decisionToOrder.get()).values.find((v) => v.metricName === "forexia_decision_to_order_seconds_sum")!.value;
    expect(sum).toBeGreaterThanOrEqual(0.25);
    // A retry of the same order is not a second observation.
    brokerObserver.sent!({ method: "POST", endpoint: "/v3/accounts/{id}/orders", body: { order: { clientExtensions: { id: "ia-0123456789abcdef01234567" } } } });
    expect(await value("forexia_decision_to_order_seconds")).toBe(before + 1);
  });
});

describe("/metrics is never public", () => {
  async function appWith(token: string | undefined): Promise<string> {
    const app = express();
    app.use("/metrics", metricsHandler(token));
    app.use((_req, res) => void res.status(418).end());
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    closers.push(() => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("answers 404 on the app's port when no METRICS_TOKEN is configured", async () => {
    const base = await appWith(undefined);
    const res = await fetch(`${base}/metrics`, { headers: { authorization: "Bearer qualquer-coisa-longa" } });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("forexia_");
  });

  it("answers 401 without the token or with a wrong one, 200 in the Prometheus text format with it", async () => {
    const token = "um-token-de-metricas-bem-longo";
    const base = await appWith(token);
    const none = await fetch(`${base}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(((await none.json()) as { message: string }).message).toBe("Token de métricas ausente ou inválido.");
    expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: `Basic ${token}` } })).status).toBe(401);
    const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const body = await ok.text();
    expect(body).toContain("# TYPE forexia_tick_lag_seconds histogram");
    expect(body).toContain("process_cpu_seconds_total");
    // Only /metrics itself: a deeper path goes on to the app.
    expect((await fetch(`${base}/metrics/x`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(418);
    expect(sameSecret(token, token)).toBe(true);
    expect(sameSecret(token.slice(0, -1), token)).toBe(false);
  });

  it("METRICS_PORT serves GET /metrics and nothing else", async () => {
    const s = await startMetricsServer(0, "127.0.0.1");
    closers.push(s.close);
    const base = `http://127.0.0.1:${s.port}`;
    const ok = await fetch(`${base}/metrics`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("# TYPE forexia_http_requests_total counter");
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/api/auth/me`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: "POST" })).status).toBe(404);
  });
});
