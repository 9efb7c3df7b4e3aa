/**
 * Broker fault injection in the simulator (server/simulator/faults.ts, `/sim/faults`): each kind on
 * the wire, its scope (token, account, path, method) and lifetime (count, duration, clear), and how
 * the OANDA client (core/oanda) classifies it — retryable 5xx/429/network, `auth` on a revoked token,
 * `invalid_response` on a malformed 2xx body, a stalled pricing stream reopened by the watchdog.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { createOandaClient } from "../../../core/oanda/client";
import { BrokerError } from "../../../core/oanda/errors";
import { startSimulator } from "../../../server/simulator/server";
import { systemClock } from "../../../app/services/platform/system-clock";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;

beforeAll(async () => {
  sim = await startSimulator({ dataDir: join(process.cwd(), "data"), startAt: "2026-01-14T10:00:00Z", speed: 60 });
});
afterAll(async () => {
  await sim?.close();
});

async function control(method: string, path: string, body?: unknown) {
  const res = await fetch(sim.url + path, { method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}
async function user() {
  const r = await control("POST", "/sim/users", { environment: "practice" });
  return { token: String(r.body.token), id: String(r.body.accounts[0].id) };
}
const summary = (u: { token: string; id: string }) =>
  fetch(`${sim.url}/practice/v3/accounts/${u.id}/summary`, { headers: { authorization: `Bearer ${u.token}` } });
const client = (u: { token: string }, extra: Partial<Parameters<typeof createOandaClient>[0]> = {}) =>
  createOandaClient({
    environment: "practice", token: u.token, apiUrl: `${sim.url}/practice`, streamUrl: `${sim.url}/practice`, clock: systemClock,
    timeoutMs: 1000, retries: 0, ...extra,
  });
const brokerError = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(BrokerError);
  return e as BrokerError;
};

describe("the fault API", () => {
  it("adds, lists (token masked), and clears faults; bad specs are 400 with OANDA's envelope", async () => {
    const u = await user();
    const add = await control("POST", "/sim/faults", { kind: "http_5xx", token: u.token, count: 2 });
    expect(add.status).toBe(201);
    expect(add.body).toMatchObject({ kind: "http_5xx", remaining: 2, hits: 0, token: `…${u.token.slice(-4)}` });
    const list = await control("GET", "/sim/faults");
    expect(list.body.faults.map((f: { id: string }) => f.id)).toContain(add.body.id);
    expect(JSON.stringify(list.body)).not.toContain(u.token);
    expect((await control("DELETE", `/sim/faults/${String(add.body.id)}`)).body).toEqual({ cleared: 1 });
    for (const bad of [{ kind: "nope" }, { kind: "stall_stream", count: 1 }, { kind: "http_5xx", status: 501 }, { kind: "timeout", pathRegex: "(" }, { kind: "drop", extra: 1 }]) {
      const r = await control("POST", "/sim/faults", bad);
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect(r.body.errorMessage).toMatch(/^Invalid value specified for/);
    }
    expect((await control("PUT", "/sim/faults")).status).toBe(405);
  });

  it("is local-only like the rest of /sim", async () => {
    const r = await fetch(`${sim.url}/sim/faults`, { headers: { origin: "https://evil.example" } });
    expect(r.status).toBe(403);
    const proxied = await fetch(`${sim.url}/sim/faults`, { method: "DELETE", headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(proxied.status).toBe(403);
  });

  it("scopes by token, account, path and method; count and duration end a fault; the oldest match wins", async () => {
    const a = await user(), b = await user();
    await control("POST", "/sim/faults", { kind: "http_5xx", accountId: a.id, count: 2 });
    await control("POST", "/sim/faults", { kind: "rate_limit", accountId: a.id, count: 1 });
    expect((await summary(b)).status).toBe(200); // another user: clean
    expect((await summary(a)).status).toBe(503);
    // The account's owner listing its accounts is in the account's scope too.
    expect((await fetch(`${sim.url}/practice/v3/accounts`, { headers: { authorization: `Bearer ${a.token}` } })).status).toBe(503);
    expect((await summary(a)).status).toBe(429); // 5xx spent, the next fault applies
    expect((await summary(a)).status).toBe(200);

    await control("POST", "/sim/faults", { kind: "http_5xx", token: b.token, path: "/v3/accounts/", method: "POST", status: 500 });
    expect((await summary(b)).status).toBe(200); // GET: not in scope
    const order = await fetch(`${sim.url}/practice/v3/accounts/${b.id}/orders`, {
      method: "POST", headers: { authorization: `Bearer ${b.token}`, "content-type": "application/json" },
      body: JSON.stringify({ order: { type: "MARKET", instrument: "EUR_USD", units: "1" } }),
    });
    expect(order.status).toBe(500);
    expect(await order.json()).toEqual({ errorMessage: "Internal server error" });
    await control("DELETE", "/sim/faults");

    await control("POST", "/sim/faults", { kind: "http_5xx", pathRegex: `^/practice/v3/accounts/${b.id}/summary$`, durationSeconds: 0.3 });
    expect((await summary(b)).status).toBe(503);
    expect((await summary(a)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 350));
    expect((await summary(b)).status).toBe(200);
    expect((await control("GET", "/sim/faults")).body.faults).toEqual([]);
  });

  it("applies under the other environment's prefix only when in scope, never to /sim", async () => {
    await control("POST", "/sim/faults", { kind: "http_5xx", environment: "live" });
    const u = await user();
    expect((await summary(u)).status).toBe(200);
    expect((await control("GET", "/sim/clock")).status).toBe(200);
    await control("DELETE", "/sim/faults");
  });
});

describe("each fault kind, on the wire and through the OANDA client", () => {
  it("http_5xx: 503 OANDA envelope (+Retry-After when asked) → BrokerError server, retryable; retried GETs succeed after it", async () => {
    const u = await user();
    await control("POST", "/sim/faults", { kind: "http_5xx", token: u.token, count: 1, retryAfterSeconds: 2 });
    const r = await summary(u);
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("2");
    expect(await r.json()).toEqual({ errorMessage: "Service unavailable" });
    await control("POST", "/sim/faults", { kind: "http_5xx", token: u.token, count: 1 });
    const e = await brokerError(client(u).getAccountSummary(u.id));
    expect(e).toMatchObject({ kind: "server", status: 503, retryable: true });
    await control("POST", "/sim/faults", { kind: "http_5xx", token: u.token, count: 2 });
    const s = await client(u, { retries: 2, minRetryDelayMs: 10 }).getAccountSummary(u.id);
    expect(s.id).toBe(u.id);
  });

  it("rate_limit: 429 with Retry-After → rate_limited with retryAfterMs", async () => {
    const u = await user();
    await control("POST", "/sim/faults", { kind: "rate_limit", token: u.token, count: 1, retryAfterSeconds: 3 });
    const e = await brokerError(client(u).getAccountSummary(u.id));
    expect(e).toMatchObject({ kind: "rate_limited", status: 429, retryable: true, retryAfterMs: 3000 });
  });

  it("timeout: never answered → network error at the client's timeout; with delaySeconds the answer comes late", async () => {
    const u = await user();
    await control("POST", "/sim/faults", { kind: "timeout", token: u.token, count: 1 });
    const t0 = Date.now();
    const e = await brokerError(client(u, { timeoutMs: 500 }).getAccountSummary(u.id));
    expect(e).toMatchObject({ kind: "network", status: 0, retryable: true });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(450);
    // The client's abort closes the held request: the simulator sees the socket close a moment after the client rejects.
    await expect.poll(() => sim.faults.held.size, { timeout: 2000, interval: 20 }).toBe(0);
    await control("POST", "/sim/faults", { kind: "timeout", token: u.token, count: 1, delaySeconds: 0.4 });
    const t1 = Date.now();
    expect((await summary(u)).status).toBe(200);
    expect(Date.now() - t1).toBeGreaterThanOrEqual(380);
  });

  it("drop: the connection is cut mid-body (the order still executes) or before any answer → network error, retryable", async () => {
    const u = await user();
    await control("POST", "/sim/faults", { kind: "drop", token: u.token, count: 1 });
    const raw = await fetch(`${sim.url}/practice/v3/accounts/${u.id}/summary`, { headers: { authorization: `Bearer ${u.token}` } });
    expect(raw.status).toBe(200);
    await expect(raw.text()).rejects.toThrow();
    await control("POST", "/sim/faults", { kind: "drop", token: u.token, count: 1 });
    expect(await brokerError(client(u).getAccountSummary(u.id))).toMatchObject({ kind: "network", retryable: true });
    await control("POST", "/sim/faults", { kind: "drop", token: u.token, count: 1, phase: "connect" });
    expect(await brokerError(client(u).getAccountSummary(u.id))).toMatchObject({ kind: "network", retryable: true });
    // A dropped order reply: the order was filled at the broker though the client saw an error.
    await control("POST", "/sim/faults", { kind: "drop", token: u.token, method: "POST", count: 1 });
    await brokerError(client(u).createMarketOrder(u.id, { instrument: "EUR_USD", units: "10" }));
    expect((await client(u).listOpenTrades(u.id)).length).toBe(1);
  });

  it("revoke_token: 401 with OANDA's body for that token until cleared → auth, not retryable", async () => {
    const u = await user(), other = await user();
    await control("POST", "/sim/faults", { kind: "revoke_token", token: u.token });
    for (let i = 0; i < 3; i++) {
      const r = await summary(u);
      expect(r.status).toBe(401);
      expect(await r.json()).toEqual({ errorMessage: "Insufficient authorization to perform request." });
    }
    expect((await summary(other)).status).toBe(200);
    expect(await brokerError(client(u).listAccounts())).toMatchObject({ kind: "auth", status: 401, retryable: false });
    await control("DELETE", "/sim/faults");
    expect((await summary(u)).status).toBe(200);
  });

  it("malformed_2xx: 200 with a truncated or wrong-shape body → invalid_response", async () => {
    const u = await user();
    await control("POST", "/sim/faults", { kind: "malformed_2xx", token: u.token, count: 1 });
    const r = await summary(u);
    expect(r.status).toBe(200);
    await expect(r.json()).rejects.toThrow();
    await control("POST", "/sim/faults", { kind: "malformed_2xx", token: u.token, count: 1 });
    expect(await brokerError(client(u).getAccountSummary(u.id))).toMatchObject({ kind: "invalid_response", status: 200 });
    await control("POST", "/sim/faults", { kind: "malformed_2xx", token: u.token, count: 1, shape: "wrong_shape" });
    expect(await brokerError(client(u).getAccountSummary(u.id))).toMatchObject({ kind: "invalid_response", status: 200 });
  });

  it("stall_stream: open streams go silent (no price, no heartbeat); the client's watchdog reopens; prices flow again after the fault", async () => {
    const u = await user();
    const abort = new AbortController();
    const events: string[] = [];
    let prices = 0;
    const done = client(u, { heartbeatTimeoutMs: 700, streamInitialBackoffMs: 50, streamMaxBackoffMs: 200 }).streamPricing(u.id, ["EUR_USD"], {
      onPrice: () => void prices++,
      onReconnect: () => void events.push("reconnect"),
    }, abort.signal);
    const until = async (cond: () => boolean, ms: number) => {
      const end = Date.now() + ms;
      while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
      return cond();
    };
    expect(await until(() => prices > 0, 3000)).toBe(true);
    const f = await control("POST", "/sim/faults", { kind: "stall_stream", accountId: u.id, durationSeconds: 2 });
    await new Promise((r) => setTimeout(r, 300));
    const during = prices;
    expect(await until(() => events.length >= 1, 2000)).toBe(true); // the watchdog saw the silence
    expect(prices).toBe(during);
    expect((await control("GET", "/sim/faults")).body.faults[0]).toMatchObject({ id: f.body.id, kind: "stall_stream" });
    expect(await until(() => prices > during, 5000)).toBe(true);
    abort.abort();
    await done;
  });
});
