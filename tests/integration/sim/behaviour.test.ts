/**
 * Behaviour of the simulator over real HTTP: stops/targets triggered by later prices with exact
 * Decimal P&L, auth by environment and account owner, consecutive transaction ids, weekend
 * MARKET_HALTED, state persistence across restarts, the clock endpoint, data replay past the end.
 * Time moves with `POST /sim/clock {advanceSeconds}`, never by sleeping.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Decimal } from "../../../core/decimal";
import type { MarketData } from "../../../core/simulator/market-data";
import { loadMarketData } from "../../../server/simulator/load-market-data";
import { startSimulator } from "../../../server/simulator/server";

const DATA = join(process.cwd(), "data");
type Sim = Awaited<ReturnType<typeof startSimulator>>;
type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let market: MarketData;
const open: Sim[] = [];
async function start(opts: Partial<Parameters<typeof startSimulator>[0]> = {}): Promise<Sim> {
  const s = await startSimulator({ dataDir: DATA, market, ...opts });
  open.push(s);
  return s;
}

async function call(s: Sim, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: Body; headers: Headers }> {
  const res = await fetch(s.url + path, {
    method,
    headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Body) : {}, headers: res.headers };
}

async function user(s: Sim, environment = "practice", accounts?: unknown) {
  const r = await call(s, "POST", "/sim/users", undefined, { environment, accounts });
  expect(r.status).toBe(201);
  return { token: String(r.body.token), id: String(r.body.accounts[0].id), body: r.body };
}

async function quote(s: Sim, u: { token: string; id: string }, inst: string) {
  const r = await call(s, "GET", `/practice/v3/accounts/${u.id}/pricing?instruments=${inst}`, u.token);
  const p = r.body.prices[0];
  return { bid: new Decimal(p.bids[0].price), ask: new Decimal(p.asks[0].price), tradeable: p.tradeable as boolean, time: p.time as string };
}

beforeAll(() => {
  market = loadMarketData(DATA);
});
afterAll(async () => {
  for (const s of open) await s.close();
});

describe("OANDA simulator behaviour", () => {
  it("creates users with OANDA-like ids and tokens, rejects unconvertible currencies", async () => {
    const s = await start();
    const p = await user(s, "practice");
    expect(p.id).toMatch(/^101-004-\d+-001$/);
    expect(p.token).toMatch(/^[0-9a-f]{32}-[0-9a-f]{32}$/);
    expect(p.body.accounts[0]).toEqual({ id: p.id, currency: "USD", balance: "100000.0000" });
    const l = await user(s, "live", [{ currency: "EUR", balance: "5000" }, { currency: "JPY", balance: "1000000" }]);
    expect(l.body.accounts.map((a: Body) => a.id)).toEqual([expect.stringMatching(/^001-001-\d+-001$/), expect.stringMatching(/^001-001-\d+-002$/)]);
    const bad = await call(s, "POST", "/sim/users", undefined, { environment: "practice", accounts: [{ currency: "CHF", balance: "1" }] });
    expect(bad.status).toBe(400);
  });

  it("401 for the wrong environment or a missing token, 403 for another user's account", async () => {
    const s = await start();
    const a = await user(s), b = await user(s);
    expect((await call(s, "GET", "/live/v3/accounts", a.token)).status).toBe(401);
    const wrongEnv = await call(s, "GET", `/live/v3/accounts/${a.id}/summary`, a.token);
    expect(wrongEnv).toMatchObject({ status: 401, body: { errorMessage: "Insufficient authorization to perform request." } });
    expect((await call(s, "GET", "/practice/v3/accounts")).status).toBe(401);
    const other = await call(s, "GET", `/practice/v3/accounts/${b.id}/summary`, a.token);
    expect(other).toMatchObject({ status: 403, body: { errorMessage: "The provided request was forbidden." } });
  });

  it("headers: RequestID, CORS preflight, 405, 404 NO_SUCH_TRADE", async () => {
    const s = await start();
    const u = await user(s);
    const r = await call(s, "GET", "/practice/v3/accounts", u.token);
    expect(r.headers.get("requestid")).toMatch(/^\d{17}$/);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    const pre = await fetch(`${s.url}/practice/v3/accounts/${u.id}/orders`, { method: "OPTIONS" });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-headers")).toContain("Authorization");
    expect((await call(s, "DELETE", `/practice/v3/accounts/${u.id}/orders`, u.token)).status).toBe(405);
    const nt = await call(s, "GET", `/practice/v3/accounts/${u.id}/trades/999`, u.token);
    expect(nt).toMatchObject({ status: 404, body: { errorCode: "NO_SUCH_TRADE", lastTransactionID: "2" } });
  });

  it("consecutive transaction ids: create N, fill N+1 = trade, TP N+2, SL N+3, TSL N+4, one batch", async () => {
    const s = await start();
    const u = await user(s);
    const q = await quote(s, u, "EUR_USD");
    const r = await call(s, "POST", `/practice/v3/accounts/${u.id}/orders`, u.token, {
      order: {
        type: "MARKET", instrument: "EUR_USD", units: "10000", clientExtensions: { id: "ord-1" }, tradeClientExtensions: { id: "t-1", tag: "bot" },
        takeProfitOnFill: { price: q.ask.add("0.01").toFixed(5) }, stopLossOnFill: { distance: "0.01000" }, trailingStopLossOnFill: { distance: "0.02000" },
      },
    });
    expect(r.status).toBe(201);
    expect(r.body.relatedTransactionIDs).toEqual(["3", "4", "5", "6", "7"]);
    expect(r.body.orderFillTransaction).toMatchObject({ id: "4", batchID: "3", orderID: "3", tradeOpened: { tradeID: "4", units: "10000", price: q.ask.toFixed(5) } });
    expect(r.body.lastTransactionID).toBe("7");
    const txs = (await call(s, "GET", `/practice/v3/accounts/${u.id}/transactions/sinceid?id=2`, u.token)).body.transactions as Body[];
    expect(txs.map((t) => [t.id, t.type, t.batchID])).toEqual([
      ["3", "MARKET_ORDER", "3"], ["4", "ORDER_FILL", "3"], ["5", "TAKE_PROFIT_ORDER", "3"], ["6", "STOP_LOSS_ORDER", "3"], ["7", "TRAILING_STOP_LOSS_ORDER", "3"],
    ]);
    const byClient = await call(s, "GET", `/practice/v3/accounts/${u.id}/trades/@t-1`, u.token);
    expect(byClient.body.trade).toMatchObject({ id: "4", clientExtensions: { id: "t-1", tag: "bot" }, stopLossOrder: { id: "6", price: q.ask.sub("0.01").toFixed(5), distance: "0.01000" } });
    const dup = await call(s, "POST", `/practice/v3/accounts/${u.id}/orders`, u.token, { order: { type: "MARKET", instrument: "EUR_USD", units: "1", clientExtensions: { id: "ord-1" } } });
    expect(dup).toMatchObject({ status: 400, body: { errorCode: "CLIENT_ORDER_ID_ALREADY_EXISTS", lastTransactionID: "8" } });
  });

  it("rejects bad units and precision, cancels on insufficient margin, nets opposite orders", async () => {
    const s = await start();
    const u = await user(s, "practice", [{ currency: "USD", balance: "1000" }]);
    const A = `/practice/v3/accounts/${u.id}/orders`;
    const post = (order: Body) => call(s, "POST", A, u.token, { order: { type: "MARKET", instrument: "EUR_USD", ...order } });
    expect((await post({ units: "0" })).body).toMatchObject({ errorCode: "UNITS_INVALID", orderRejectTransaction: { type: "MARKET_ORDER_REJECT", rejectReason: "UNITS_INVALID" } });
    expect((await post({ units: "1.5" })).body.errorCode).toBe("UNITS_PRECISION_EXCEEDED");
    expect((await post({ units: "10", stopLossOnFill: { price: "1.123456" } })).body.errorCode).toBe("STOP_LOSS_ON_FILL_PRICE_PRECISION_EXCEEDED");
    const big = await post({ units: "1000000" });
    expect(big.status).toBe(201);
    expect(big.body.orderCancelTransaction.reason).toBe("INSUFFICIENT_MARGIN");
    await post({ units: "3000" });
    const net = await post({ units: "-5000" });
    expect(net.body.orderFillTransaction.tradesClosed).toHaveLength(1);
    expect(net.body.orderFillTransaction.tradeOpened.units).toBe("-2000");
    const opened = (await call(s, "GET", `/practice/v3/accounts/${u.id}/openTrades`, u.token)).body.trades as Body[];
    expect(opened.map((t) => t.currentUnits)).toEqual(["-2000"]);
  });

  it("stop loss / take profit trigger on later prices with exact realized P&L", async () => {
    const s = await start({ startAt: "2026-01-13T10:00:00Z" });
    const u = await user(s);
    const A = `/practice/v3/accounts/${u.id}`;
    const q = await quote(s, u, "EUR_USD");
    const sl = q.bid.sub("0.0015"), tp = q.ask.add("0.0015");
    const o = await call(s, "POST", `${A}/orders`, u.token, { order: { type: "MARKET", instrument: "EUR_USD", units: "25000", stopLossOnFill: { price: sl.toFixed(5) }, takeProfitOnFill: { price: tp.toFixed(5) } } });
    const tradeID = o.body.orderFillTransaction.tradeOpened.tradeID as string;
    const openPrice = new Decimal(o.body.orderFillTransaction.tradeOpened.price);
    let trade: Body = {};
    for (let i = 0; i < 96 && trade.state !== "CLOSED"; i++) {
      await call(s, "POST", "/sim/clock", undefined, { advanceSeconds: 1800 });
      trade = (await call(s, "GET", `${A}/trades/${tradeID}`, u.token)).body.trade;
    }
    expect(trade.state).toBe("CLOSED");
    const txs = (await call(s, "GET", `${A}/transactions/sinceid?id=${o.body.lastTransactionID}`, u.token)).body.transactions as Body[];
    const fill = txs.find((t) => t.type === "ORDER_FILL")!;
    expect(["STOP_LOSS_ORDER", "TAKE_PROFIT_ORDER"]).toContain(fill.reason);
    const level = fill.reason === "STOP_LOSS_ORDER" ? sl : tp;
    const price = new Decimal(fill.price);
    // Continuous crossing fills at the level; a gap can only fill at a worse (SL) or better (TP) price.
    if (fill.reason === "STOP_LOSS_ORDER") expect(price.lte(level)).toBe(true);
    else expect(price.gte(level)).toBe(true);
    const expected = price.sub(openPrice).mul(25000).toDecimalPlaces(4);
    expect(fill.tradesClosed[0]).toMatchObject({ tradeID, units: "-25000", realizedPL: expected.toFixed(4) });
    expect(fill.pl).toBe(expected.toFixed(4));
    expect(fill.accountBalance).toBe(new Decimal("100000").add(expected).toFixed(4));
    expect(fill.orderID).toBe(fill.reason === "STOP_LOSS_ORDER" ? trade.stopLossOrder.id : trade.takeProfitOrder.id);
    const cancel = txs.find((t) => t.type === "ORDER_CANCEL")!;
    expect(cancel).toMatchObject({ reason: "LINKED_TRADE_CLOSED", batchID: fill.id, orderID: fill.reason === "STOP_LOSS_ORDER" ? trade.takeProfitOrder.id : trade.stopLossOrder.id });
    expect(trade.realizedPL).toBe(expected.toFixed(4));
    const summary = (await call(s, "GET", `${A}/summary`, u.token)).body.account;
    expect(summary).toMatchObject({ balance: fill.accountBalance, openTradeCount: 0, pl: expected.toFixed(4), unrealizedPL: "0.0000", marginUsed: "0.0000" });
    const closed = (await call(s, "GET", `${A}/trades?state=CLOSED`, u.token)).body.trades as Body[];
    expect(closed.map((t) => t.id)).toEqual([tradeID]);
  });

  it("trade close via API on USD_JPY converts P&L into the account currency", async () => {
    const s = await start();
    const u = await user(s);
    const A = `/practice/v3/accounts/${u.id}`;
    const o = await call(s, "POST", `${A}/orders`, u.token, { order: { type: "MARKET", instrument: "USD_JPY", units: "-10000" } });
    await call(s, "POST", "/sim/clock", undefined, { advanceSeconds: 3600 });
    const c = await call(s, "PUT", `${A}/trades/${o.body.orderFillTransaction.tradeOpened.tradeID}/close`, u.token, {});
    expect(c.status).toBe(200);
    expect(c.body.orderCreateTransaction).toMatchObject({ type: "MARKET_ORDER", reason: "TRADE_CLOSE", units: "10000", positionFill: "REDUCE_ONLY", tradeClose: { units: "ALL" } });
    const f = c.body.orderFillTransaction;
    expect(f.reason).toBe("MARKET_ORDER_TRADE_CLOSE");
    const quotePL = new Decimal(f.price).sub(o.body.orderFillTransaction.price).mul(-10000);
    expect(new Decimal(f.quotePL).eq(quotePL)).toBe(true);
    const usd = new Decimal(f.pl);
    expect(usd.sub(quotePL.div(f.price)).abs().lt("0.05")).toBe(true); // JPY→USD at mid ≈ fill price
    expect(f.accountBalance).toBe(new Decimal("100000").add(usd).toFixed(4));
  });

  it("weekend: non-tradeable frozen prices, MARKET_HALTED orders and closes", async () => {
    const s = await start({ startAt: "2026-01-16T20:00:00Z" });
    const u = await user(s);
    const o = await call(s, "POST", `/practice/v3/accounts/${u.id}/orders`, u.token, { order: { type: "MARKET", instrument: "GBP_USD", units: "100" } });
    expect(o.body.orderFillTransaction).toBeDefined();
    await call(s, "POST", "/sim/clock", undefined, { advanceSeconds: 20 * 3600 }); // Saturday 16:00 UTC
    const q1 = await quote(s, u, "GBP_USD");
    expect(q1.tradeable).toBe(false);
    await call(s, "POST", "/sim/clock", undefined, { advanceSeconds: 3600 });
    const q2 = await quote(s, u, "GBP_USD");
    expect(q2.time).toBe(q1.time);
    expect(Date.parse(q2.time)).toBeLessThanOrEqual(Date.parse("2026-01-16T22:00:00Z"));
    const m = await call(s, "POST", `/practice/v3/accounts/${u.id}/orders`, u.token, { order: { type: "MARKET", instrument: "EUR_USD", units: "1" } });
    expect(m).toMatchObject({ status: 201, body: { orderCancelTransaction: { reason: "MARKET_HALTED" } } });
    expect(m.body.orderFillTransaction).toBeUndefined();
    const c = await call(s, "PUT", `/practice/v3/accounts/${u.id}/trades/${o.body.orderFillTransaction.tradeOpened.tradeID}/close`, u.token, { units: "ALL" });
    expect(c).toMatchObject({ status: 200, body: { orderCancelTransaction: { reason: "MARKET_HALTED" } } });
    await call(s, "POST", "/sim/clock", undefined, { advanceSeconds: 34 * 3600 }); // Monday 03:00 UTC
    expect((await quote(s, u, "GBP_USD")).tradeable).toBe(true);
  });

  it("clock endpoint: speed and advance; time never goes back", async () => {
    let real = 1_000_000;
    const s = await start({ now: () => real, speed: 1 });
    const c0 = await call(s, "GET", "/sim/clock");
    expect(c0.body.now).toMatch(/^2026-01-12T08:00:00\.000000000Z$/);
    real += 10_000;
    const c1 = await call(s, "POST", "/sim/clock", undefined, { speed: 60 });
    expect(c1.body).toEqual({ now: "2026-01-12T08:00:10.000000000Z", speed: 60 });
    real += 1000;
    const c2 = await call(s, "POST", "/sim/clock", undefined, { advanceSeconds: 3600 });
    expect(c2.body).toEqual({ now: "2026-01-12T09:01:10.000000000Z", speed: 60 });
    expect((await call(s, "POST", "/sim/clock", undefined, { advanceSeconds: -5 })).status).toBe(400);
  });

  it("replays the data shifted by 91 days past its end; candles stay ordered and up to now", async () => {
    const s = await start({ startAt: "2026-04-03T18:00:00Z" });
    const u = await user(s);
    await call(s, "POST", "/sim/clock", undefined, { advanceSeconds: 3 * 86400 }); // Monday 2026-04-06 18:00
    const q = await quote(s, u, "EUR_USD");
    expect(q.tradeable).toBe(true);
    const c = await call(s, "GET", "/practice/v3/instruments/EUR_USD/candles?granularity=H1&count=100&price=BA", u.token);
    const candles = c.body.candles as Body[];
    expect(candles).toHaveLength(100);
    const times = candles.map((x) => Date.parse(x.time));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(candles.at(-1)!.complete).toBe(false);
    expect(candles.slice(0, -1).every((x) => x.complete)).toBe(true);
    expect(times.at(-1)).toBe(Date.parse("2026-04-06T18:00:00Z"));
    expect(new Decimal(candles[0]!.ask.o).gt(candles[0]!.bid.o)).toBe(true);
    const m5 = await call(s, "GET", "/practice/v3/instruments/USD_JPY/candles?granularity=M5&count=5", u.token);
    expect((m5.body.candles as Body[]).map((x) => x.time.slice(14, 16))).toEqual(["40", "45", "50", "55", "00"]);
    expect((m5.body.candles as Body[]).at(-1)!.complete).toBe(false);
  });

  it("state persisted to statePath survives a restart", async () => {
    const statePath = join(mkdtempSync(join(tmpdir(), "sim-state-")), "state.json");
    const s1 = await start({ statePath, startAt: "2026-01-14T09:00:00Z" });
    const u = await user(s1);
    const o = await call(s1, "POST", `/practice/v3/accounts/${u.id}/orders`, u.token, { order: { type: "MARKET", instrument: "EUR_USD", units: "1000", tradeClientExtensions: { id: "keep" } } });
    expect(o.status).toBe(201);
    await call(s1, "POST", "/sim/clock", undefined, { advanceSeconds: 600 });
    const before = (await call(s1, "GET", "/sim/clock")).body.now as string;
    await s1.close();
    const s2 = await start({ statePath, startAt: "2026-01-14T09:00:00Z" });
    const after = (await call(s2, "GET", "/sim/clock")).body.now as string;
    expect(Date.parse(after)).toBeGreaterThanOrEqual(Date.parse(before));
    const t = await call(s2, "GET", `/practice/v3/accounts/${u.id}/trades/@keep`, u.token);
    expect(t.body.trade).toMatchObject({ id: "4", state: "OPEN", currentUnits: "1000" });
    const next = await call(s2, "POST", `/practice/v3/accounts/${u.id}/orders`, u.token, { order: { type: "MARKET", instrument: "EUR_USD", units: "-1000" } });
    expect(next.body.orderCreateTransaction.id).toBe("5");
    expect(next.body.orderFillTransaction.tradesClosed[0].tradeID).toBe("4");
  });
});
