/**
 * Issue 11, server-sent events (PRODUCT.md §7 Streaming; ADR 0017), against two real server
 * processes on one database and a standalone OANDA simulator: hello → moving prices → heartbeats,
 * Last-Event-ID resume, 401 without a session, ensure validation and widening, order_fill and
 * trade_close of the user's own trades (from the reconcile's NOTIFY), the open-trades snapshot,
 * the per-user cap, one upstream stream in total while both processes serve subscribers (the
 * simulator counts its open pricing streams), takeover when the holder dies, server_shutdown on SIGTERM.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { openSse, type SseConnection } from "../setup/sse-client";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let a: AppServer;
let b: AppServer;
const APP_ENV = { WORKERS: "off", SSE_HEARTBEAT_MS: "400", PRICE_STREAM_IDLE_MS: "1000", SSE_MAX_PER_USER: "4" };
const open: SseConnection[] = [];

async function sse(url: string, opts: Parameters<typeof openSse>[1] = {}) {
  const c = await openSse(url, opts);
  open.push(c);
  return c;
}

beforeAll(async () => {
  // The simulator's clock runs 60× real time so prices move every few hundred ms.
  env = await createTradingEnv({ speed: 60 });
  // One after the other: two first boots at once race on the migrations and pg-boss's queues.
  a = await env.startApp(APP_ENV);
  b = await env.startApp(APP_ENV);
}, 120_000);
afterAll(async () => {
  for (const c of open) c.close();
  await env?.close();
});

const isPrice = (e: { event: string }) => e.event === "price";

describe("GET /api/stream/prices", () => {
  it("refuses an anonymous client with 401 JSON in Portuguese (both streams)", async () => {
    for (const p of ["/api/stream/prices", "/api/stream/open-trades"]) {
      const c = await sse(a.url + p);
      expect(c.status).toBe(401);
      expect(c.body).toMatchObject({ success: false, message: "Token inválido ou expirado" });
    }
  });

  it("sends hello, then prices that move (with increasing ids), then heartbeats; not compressed", async () => {
    const u = await userWithBroker(env, a);
    const c = await sse(`${a.url}/api/stream/prices?instruments=EUR_USD`, { token: u.token, headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(c.status).toBe(200);
    expect(c.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(c.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(c.headers.get("x-accel-buffering")).toBe("no");
    expect(c.headers.get("content-encoding")).toBeNull();
    const hello = await c.next((e) => e.event === "hello");
    expect(c.events[0]!.event).toBe("hello");
    expect(hello.data).toMatchObject({ environment: "practice", instruments: ["EUR_USD"] });
    expect(Math.abs(Date.parse(String(hello.data.serverTime)) - Date.now())).toBeLessThan(5_000);

    const first = await c.next(isPrice, 20_000);
    expect(first.data).toMatchObject({ instrument: "EUR_USD" });
    expect(String(first.data.bid)).toMatch(/^\d+\.\d+$/);
    expect(Number(first.data.ask)).toBeGreaterThan(Number(first.data.bid));
    // A different price arrives without any request from us.
    const moved = await c.next((e) => isPrice(e) && (e.data.bid !== first.data.bid || e.data.ask !== first.data.ask), 20_000);
    expect(Number(moved.id)).toBeGreaterThan(Number(first.id));
    await c.next((e) => e.event === "heartbeat", 5_000, c.events.indexOf(moved));
    c.close();
  }, 60_000);

  it("resumes with Last-Event-ID: only prices newer than that id", async () => {
    const u = await userWithBroker(env, a);
    const c1 = await sse(`${a.url}/api/stream/prices?instruments=EUR_USD`, { token: u.token });
    const p1 = await c1.next(isPrice, 20_000);
    c1.close();
    // Prices keep coming while the client is away.
    await new Promise((r) => setTimeout(r, 1_500));
    const c2 = await sse(`${b.url}/api/stream/prices?instruments=EUR_USD`, { token: u.token, lastEventId: p1.id });
    const p2 = await c2.next(isPrice, 20_000);
    expect(Number(p2.id)).toBeGreaterThan(Number(p1.id));
    expect(c2.events.filter(isPrice).every((e) => Number(e.id) > Number(p1.id))).toBe(true);
    // Resuming from the newest id replays nothing older.
    const c3 = await sse(`${a.url}/api/stream/prices?instruments=EUR_USD`, { token: u.token, lastEventId: p2.id });
    const p3 = await c3.next(isPrice, 20_000);
    expect(Number(p3.id)).toBeGreaterThan(Number(p2.id));
    c2.close();
    c3.close();
  }, 60_000);

  it("caps connections per user with 429 and a Portuguese message", async () => {
    const u = await userWithBroker(env, b);
    const held = [];
    for (let i = 0; i < 4; i++) held.push(await sse(`${b.url}/api/stream/prices`, { token: u.token }));
    expect(held.map((c) => c.status)).toEqual([200, 200, 200, 200]);
    const fifth = await sse(`${b.url}/api/stream/prices`, { token: u.token });
    expect(fifth.status).toBe(429);
    expect(String(fifth.body?.message)).toMatch(/conexões de preços ao vivo demais/);
    for (const c of held) c.close();
  }, 30_000);
});

describe("POST /api/stream/ensure", () => {
  it("validates the body (400 in Portuguese) and needs a session (401)", async () => {
    const u = await userWithBroker(env, a);
    expect((await fetch(`${a.url}/api/stream/ensure`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"instruments":["EUR_USD"]}' })).status).toBe(401);
    const bad: [unknown, RegExp][] = [
      [{}, /Informe a lista de instrumentos/],
      [{ instruments: [] }, /Informe a lista de instrumentos/],
      [{ instruments: "EUR_USD" }, /Informe a lista de instrumentos/],
      [{ instruments: ["XAU_USD"] }, /Instrumento não suportado: XAU_USD/],
      [{ instruments: Array.from({ length: 11 }, (_, i) => `AAA_B${String(i).padStart(2, "0")}`) }, /No máximo 10 instrumentos/],
    ];
    for (const [body, message] of bad) {
      const r = await u.call<{ success: boolean; message: string }>("POST", "/api/stream/ensure", body);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    const cross = await fetch(`${a.url}/api/stream/ensure`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: "x=1", origin: "https://evil.example" },
      body: '{"instruments":["EUR_USD"]}',
    });
    expect(cross.status).toBe(403);
  });

  it("adds instruments to the user's open price stream, through the other process too", async () => {
    const u = await userWithBroker(env, a);
    const c = await sse(`${b.url}/api/stream/prices?instruments=EUR_USD`, { token: u.token });
    await c.next((e) => e.event === "hello");
    const r = await u.call("POST", "/api/stream/ensure", { instruments: ["usd_jpy"] });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: true, instruments: ["USD_JPY"] });
    const jpy = await c.next((e) => isPrice(e) && e.data.instrument === "USD_JPY", 20_000);
    expect(String(jpy.data.bid)).toMatch(/^\d+\.\d+$/);
    c.close();
  }, 60_000);
});

describe("trade events and the open-trades stream", () => {
  it("order_fill and trade_close reach only the owner's stream; open-trades sends a snapshot of its instruments", async () => {
    const u = await userWithBroker(env, a);
    const other = await userWithBroker(env, a);
    const mine = await sse(`${b.url}/api/stream/prices?instruments=EUR_USD`, { token: u.token });
    const theirs = await sse(`${b.url}/api/stream/prices?instruments=EUR_USD`, { token: other.token });
    await mine.next((e) => e.event === "hello");
    await theirs.next((e) => e.event === "hello");

    // A manual trade at the broker; our partial close (process A) reconciles it: the fill is recorded.
    const base = `${env.sim.url}/practice/v3/accounts/${u.accountId}`;
    const order = await fetch(`${base}/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${u.brokerToken}`, "content-type": "application/json" },
      body: JSON.stringify({ order: { type: "MARKET", instrument: "EUR_USD", units: "1000", timeInForce: "FOK", positionFill: "DEFAULT" } }),
    });
    const tradeId = ((await order.json()) as { orderFillTransaction: { tradeOpened: { tradeID: string } } }).orderFillTransaction.tradeOpened.tradeID;
    expect((await u.call("POST", `/api/trades/${tradeId}/close`, { units: "100" })).status).toBe(200);
    const fill = await mine.next((e) => e.event === "order_fill", 10_000);
    expect(fill.data).toEqual({ tradeId });

    const trades = await sse(`${a.url}/api/stream/open-trades`, { token: u.token });
    const snap = await trades.next((e) => e.event === "snapshot");
    expect(trades.events[0]!.event).toBe("snapshot");
    const prices = snap.data.prices as { instrument: string; bid: string; ask: string; mid: string; timestamp: string }[];
    expect(prices.map((p) => p.instrument)).toEqual(["EUR_USD"]);
    expect(Number(prices[0]!.mid)).toBeCloseTo((Number(prices[0]!.bid) + Number(prices[0]!.ask)) / 2, 6);
    const live = await trades.next(isPrice, 20_000);
    expect(live.data).toMatchObject({ instrument: "EUR_USD" });
    expect(live.data.time).toBeTruthy();

    expect((await u.call("POST", `/api/trades/${tradeId}/close`, {})).status).toBe(200);
    const closed = await mine.next((e) => e.event === "trade_close", 10_000);
    expect(closed.data).toEqual({ tradeId });
    // The other user saw prices, never this user's trades.
    await theirs.next(isPrice, 20_000);
    expect(theirs.events.some((e) => e.event === "order_fill" || e.event === "trade_close")).toBe(false);
    for (const c of [mine, theirs, trades]) c.close();
  }, 90_000);
});

describe("one upstream across processes", () => {
  it("subscribers of both processes get prices over one upstream stream; the other process takes over when the holder dies", async () => {
    const u = await userWithBroker(env, a);
    const onA = await sse(`${a.url}/api/stream/prices`, { token: u.token });
    const onB = await sse(`${b.url}/api/stream/prices`, { token: u.token });
    const pa = await onA.next(isPrice, 20_000);
    const pb = await onB.next(isPrice, 20_000);
    expect(pa.data.bid).toBeTruthy();
    expect(pb.data.bid).toBeTruthy();
    // The same event (same id) reaches both processes' subscribers.
    const later = await onB.next((e) => isPrice(e) && Number(e.id) > Number(pb.id), 20_000);
    const same = await onA.next((e) => e.id === later.id, 10_000);
    expect(same.data).toEqual(later.data);
    // One stream at the broker for both processes (a widening re-open may overlap for an instant).
    await expect.poll(() => env.sim.openStreams(), { timeout: 10_000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(env.sim.openStreams()).toBe(1);

    // Kill whichever process holds it: the other opens its own within seconds, still one in total.
    const [holder] = await env.db.sql<{ pid: number }[]>`select l.pid from pg_locks l where l.locktype = 'advisory' and l.classid = ${0x50524943} and l.objsubid = 2`;
    expect(holder).toBeTruthy();
    // Kill A: if it held the stream, B takes over; either way B's subscriber keeps getting prices.
    await a.kill();
    const after = onB.events.length;
    const resumed = await onB.next(isPrice, 30_000, after);
    expect(resumed.data.instrument).toBeTruthy();
    await expect.poll(() => env.sim.openStreams(), { timeout: 10_000 }).toBe(1);
    onA.close();
    onB.close();
  }, 90_000);

  it("SIGTERM sends server_shutdown and ends the stream before the process exits", async () => {
    const u = await userWithBroker(env, b);
    const c = await sse(`${b.url}/api/stream/prices`, { token: u.token });
    await c.next((e) => e.event === "hello");
    const exit = b.stop();
    const bye = await c.next((e) => e.event === "server_shutdown", 10_000);
    expect(bye.data.time).toBeTruthy();
    await c.ended;
    expect(await exit).toBe(0);
    // The upstream closed with it.
    await expect.poll(() => env.sim.openStreams(), { timeout: 5_000 }).toBe(0);
  }, 60_000);
});
