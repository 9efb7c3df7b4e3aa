/** OANDA client over real HTTP on loopback: paths, headers, query, order bodies, retries, timeouts. */
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { MarketOrderRequest } from "../../../core/broker/port";
import type { Clock } from "../../../core/clock";
import type { OandaClientOptions } from "../../../core/oanda/client";
import { createOandaClient, formatUnits, OANDA_HOSTS } from "../../../core/oanda/client";
import { BrokerError } from "../../../core/oanda/errors";
import { OANDA_REQUESTS_PER_SECOND } from "../../../core/oanda/http";
import { oandaLimiter, processReservoir } from "../../../app/services/broker/oanda-limiter.server";

const FIXTURES = "/work/shared/oanda/fixtures";
const fixture = (p: string): unknown => JSON.parse(readFileSync(`${FIXTURES}/${p}`, "utf8"));
const TOKEN = "tok-abc-123";
const ACCOUNT = "101-004-1435156-001";
const NOW = "2026-01-05T12:00:00.000Z";

/** Clock frozen at NOW whose sleep returns at once and records the delay. */
class RecordingClock implements Clock {
  sleeps: number[] = [];
  now() {
    return new Date(NOW);
  }
  sleep(ms: number) {
    this.sleeps.push(ms);
    return Promise.resolve();
  }
}

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  hang?: boolean;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function serve(reply: (req: Seen, n: number) => Reply) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (c: string) => (body += c));
    req.on("end", () => {
      const s: Seen = { method: req.method!, url: req.url!, headers: req.headers, body };
      seen.push(s);
      const r = reply(s, seen.length - 1);
      if (r.hang) return;
      res.writeHead(r.status, { "Content-Type": "application/json", ...r.headers });
      res.end(typeof r.body === "string" ? r.body : JSON.stringify(r.body ?? {}));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { base: `http://127.0.0.1:${port}/practice`, seen };
}

function makeClient(base: string, extra: Partial<OandaClientOptions> = {}) {
  const clock = new RecordingClock();
  const client = createOandaClient({
    environment: "practice",
    token: TOKEN,
    apiUrl: `${base}/`,
    streamUrl: base,
    clock,
    random: () => 1,
    ...extra,
  });
  return { client, clock };
}

const query = (url: string) => Object.fromEntries(new URL(url, "http://x").searchParams);
const path = (url: string) => new URL(url, "http://x").pathname;

describe("hosts", () => {
  it("exports OANDA's real hosts", () => {
    expect(OANDA_HOSTS.practice).toEqual({ api: "https://api-fxpractice.oanda.com", stream: "https://stream-fxpractice.oanda.com" });
    expect(OANDA_HOSTS.live).toEqual({ api: "https://api-fxtrade.oanda.com", stream: "https://stream-fxtrade.oanda.com" });
  });
});

describe("GET endpoints", () => {
  it("accounts, summary, instruments: paths, headers, parsing", async () => {
    const s = await serve((req) => {
      if (req.url === "/practice/v3/accounts") return { status: 200, body: fixture("oandapyV20/accounts_list.json") };
      if (req.url.endsWith("/summary")) return { status: 200, body: fixture("async_v20/account_summary.json") };
      return { status: 200, body: fixture("async_v20/account_instruments.json") };
    });
    const { client } = makeClient(s.base);
    expect(client.environment).toBe("practice");
    expect((await client.listAccounts()).map((a) => a.id)).toEqual(["101-004-1435156-002", ACCOUNT]);
    expect((await client.getAccountSummary(ACCOUNT)).balance).toBe("97804.9448");
    expect((await client.getInstruments(ACCOUNT, ["EUR_USD", "USD_JPY"])).length).toBe(124);
    expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      "GET /practice/v3/accounts",
      `GET /practice/v3/accounts/${ACCOUNT}/summary`,
      `GET /practice/v3/accounts/${ACCOUNT}/instruments?instruments=EUR_USD%2CUSD_JPY`,
    ]);
    for (const r of s.seen) {
      expect(r.headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(r.headers["accept-datetime-format"]).toBe("RFC3339");
      expect(r.headers["content-type"]).toBe("application/json");
    }
  });

  it("pricing: instruments joined, first bucket", async () => {
    const s = await serve(() => ({ status: 200, body: fixture("async_v20/pricing_AUD_USD_non_tradeable.json") }));
    const { client } = makeClient(s.base);
    const [p] = await client.getPricing(ACCOUNT, ["AUD_USD"]);
    expect(p).toMatchObject({ instrument: "AUD_USD", bid: "0.76726", ask: "0.76822", tradeable: false });
    expect(s.seen[0]!.url).toBe(`/practice/v3/accounts/${ACCOUNT}/pricing?instruments=AUD_USD`);
  });

  it("trades: open, list with query, details by @clientId, transactions sinceid", async () => {
    const s = await serve((req) => {
      if (req.url.includes("/openTrades") || req.url.includes("/trades?"))
        return { status: 200, body: fixture("oandapyV20/open_trades.json") };
      if (req.url.includes("/trades/")) {
        const t = (fixture("oandapyV20/open_trades.json") as { trades: unknown[] }).trades[0];
        return { status: 200, body: { trade: t, lastTransactionID: "7582" } };
      }
      return { status: 200, body: fixture("async_v20/transactions_idrange.json") };
    });
    const { client } = makeClient(s.base);
    expect((await client.listOpenTrades(ACCOUNT))[0]!.id).toBe("7579");
    expect(await client.listTrades(ACCOUNT, { state: "CLOSED", count: 500, beforeID: "7000", instrument: "EUR_USD" })).toHaveLength(5);
    expect((await client.getTrade(ACCOUNT, "@dec-42")).stopLossOrder?.price).toBe("1.05000");
    const tx = await client.transactionsSinceId(ACCOUNT, "59");
    expect(tx.transactions).toHaveLength(41);
    expect(tx.lastTransactionID).toBe("4874");
    expect(path(s.seen[0]!.url)).toBe(`/practice/v3/accounts/${ACCOUNT}/openTrades`);
    expect(path(s.seen[1]!.url)).toBe(`/practice/v3/accounts/${ACCOUNT}/trades`);
    expect(query(s.seen[1]!.url)).toEqual({ state: "CLOSED", count: "500", beforeID: "7000", instrument: "EUR_USD" });
    expect(s.seen[2]!.url).toBe(`/practice/v3/accounts/${ACCOUNT}/trades/@dec-42`);
    expect(s.seen[3]!.url).toBe(`/practice/v3/accounts/${ACCOUNT}/transactions/sinceid?id=59`);
  });
});

describe("candles", () => {
  const candleServer = () => serve(() => ({ status: 200, body: fixture("oandapyV20/candles_EUR_USD_H1_M_from_count10_includeFirst.json") }));

  it("count only: price M by default, instrument path; all candles mapped", async () => {
    const s = await candleServer();
    const { client } = makeClient(s.base);
    const candles = await client.getCandles("EUR_USD", { granularity: "H1", count: 10 });
    expect(candles).toHaveLength(10);
    expect(candles[0]).toMatchObject({ time: Date.UTC(2017, 0, 2, 23), open: 1.04684, complete: true });
    expect(path(s.seen[0]!.url)).toBe("/practice/v3/instruments/EUR_USD/candles");
    expect(query(s.seen[0]!.url)).toEqual({ price: "M", granularity: "H1", count: "10" });
  });

  it("from + count: includeFirst=true explicit, from in RFC3339 Z", async () => {
    const s = await candleServer();
    const { client } = makeClient(s.base);
    await client.getCandles("EUR_USD", { granularity: "H1", count: 10, from: "2017-01-02T20:00:00-03:00", price: "B" });
    expect(query(s.seen[0]!.url)).toEqual({
      price: "B", granularity: "H1", count: "10", from: "2017-01-02T23:00:00.000000000Z", includeFirst: "true",
    });
  });

  it("from + past to: no count; to in the future is omitted (count computed up to now)", async () => {
    const s = await candleServer();
    const { client } = makeClient(s.base);
    await client.getCandles("EUR_USD", { granularity: "H1", count: 10, from: "2026-01-05T00:00:00Z", to: "2026-01-05T06:00:00Z" });
    expect(query(s.seen[0]!.url)).toEqual({
      price: "M", granularity: "H1", from: "2026-01-05T00:00:00.000000000Z", to: "2026-01-05T06:00:00.000000000Z", includeFirst: "true",
    });
    await client.getCandles("EUR_USD", { granularity: "M5", from: "2026-01-05T11:00:00Z", to: "2026-01-05T12:00:01Z" });
    expect(query(s.seen[1]!.url)).toEqual({
      price: "M", granularity: "M5", from: "2026-01-05T11:00:00.000000000Z", includeFirst: "true", count: "13",
    });
    await client.getCandles("EUR_USD", { granularity: "M5", count: 3, to: NOW });
    expect(query(s.seen[2]!.url)).toEqual({ price: "M", granularity: "M5", count: "3" });
  });

  it("bad inputs fail locally without a request", async () => {
    const s = await candleServer();
    const { client } = makeClient(s.base);
    await expect(client.getCandles("EUR_USD", { granularity: "H1", from: "2018-07-02T00:00:00" })).rejects.toBeInstanceOf(RangeError);
    await expect(client.getCandles("EUR_USD", { granularity: "H1", count: 5001 })).rejects.toBeInstanceOf(RangeError);
    expect(s.seen).toHaveLength(0);
  });
});

describe("market orders", () => {
  const filled = () => ({ status: 201, body: fixture("oandapyV20/order_create_market_201_filled.json") });

  it("body: MARKET/FOK/DEFAULT, prices rounded to precision (no float artefacts), JPY 3 dp, integer units", async () => {
    const s = await serve(filled);
    const { client } = makeClient(s.base);
    const r = await client.createMarketOrder(ACCOUNT, {
      instrument: "EUR_USD",
      units: "10000",
      stopLossOnFill: { price: "1.12247999999999" },
      takeProfitOnFill: { price: 1.1 as unknown as string },
      clientExtensions: { id: "dec-1", tag: "bot" },
      tradeClientExtensions: { id: "dec-1" },
    });
    expect(r.filled).toBe(true);
    expect(r.orderFillTransaction?.tradeOpened?.tradeID).toBe("7579");
    expect(s.seen[0]!.method).toBe("POST");
    expect(s.seen[0]!.url).toBe(`/practice/v3/accounts/${ACCOUNT}/orders`);
    expect(s.seen[0]!.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(s.seen[0]!.body)).toEqual({
      order: {
        type: "MARKET",
        instrument: "EUR_USD",
        units: "10000",
        timeInForce: "FOK",
        positionFill: "DEFAULT",
        stopLossOnFill: { price: "1.12248", timeInForce: "GTC" },
        takeProfitOnFill: { price: "1.10000", timeInForce: "GTC" },
        clientExtensions: { id: "dec-1", tag: "bot" },
        tradeClientExtensions: { id: "dec-1" },
      },
    });

    await client.createMarketOrder(ACCOUNT, {
      instrument: "USD_JPY",
      units: "-2500.0",
      stopLossOnFill: { distance: "0.19999999999998" },
      takeProfitOnFill: { price: "110.79999999999999" },
      trailingStopLossOnFill: { distance: 0.3 as unknown as string },
    });
    const jpy = JSON.parse(s.seen[1]!.body).order;
    expect(jpy.units).toBe("-2500");
    expect(jpy.stopLossOnFill).toEqual({ distance: "0.200", timeInForce: "GTC" });
    expect(jpy.takeProfitOnFill).toEqual({ price: "110.800", timeInForce: "GTC" });
    expect(jpy.trailingStopLossOnFill).toEqual({ distance: "0.300", timeInForce: "GTC" });
    expect(s.seen[1]!.body).not.toMatch(/\d\.\d{6,}/);
  });

  it("uses the broker's displayPrecision once instruments were read", async () => {
    const s = await serve((req) =>
      req.method === "GET"
        ? { status: 200, body: { instruments: [{ name: "XAU_USD", type: "METAL", displayName: "Gold", pipLocation: -2, displayPrecision: 3, tradeUnitsPrecision: 0, minimumTradeSize: "1", maximumOrderUnits: "500000", marginRate: "0.05" }] } }
        : filled(),
    );
    const { client } = makeClient(s.base);
    await client.getInstruments(ACCOUNT, ["XAU_USD"]);
    await client.createMarketOrder(ACCOUNT, { instrument: "XAU_USD", units: "1", stopLossOnFill: { price: "2000.12345" } });
    expect(JSON.parse(s.seen[1]!.body).order.stopLossOnFill.price).toBe("2000.123");
  });

  it("invalid units or stops fail locally without a request", async () => {
    const s = await serve(filled);
    const { client } = makeClient(s.base);
    const bad: MarketOrderRequest[] = [
      { instrument: "EUR_USD", units: "100.5" },
      { instrument: "EUR_USD", units: "0" },
      { instrument: "EUR_USD", units: "abc" },
      { instrument: "EUR_USD", units: "100", stopLossOnFill: {} },
      { instrument: "EUR_USD", units: "100", stopLossOnFill: { price: "1.1", distance: "0.001" } },
      { instrument: "EUR_USD", units: "100", takeProfitOnFill: { price: "NaN" } },
    ];
    for (const o of bad) await expect(client.createMarketOrder(ACCOUNT, o)).rejects.toBeInstanceOf(RangeError);
    expect(s.seen).toHaveLength(0);
  });

  it("201 with orderCancelTransaction → filled:false with cancelReason", async () => {
    const s = await serve(() => ({ status: 201, body: fixture("async_v20/order_create_market_cancelled_MARKET_HALTED.json") }));
    const { client } = makeClient(s.base);
    const r = await client.createMarketOrder(ACCOUNT, { instrument: "AUD_USD", units: "1" });
    expect(r).toMatchObject({ filled: false, cancelReason: "MARKET_HALTED", lastTransactionID: "4878" });
    expect(r.relatedTransactionIDs).toEqual(["4877", "4878"]);
  });

  it("400 with orderRejectTransaction → BrokerError errorCode = rejectReason, not retried", async () => {
    const s = await serve(() => ({ status: 400, body: fixture("issues/order_reject_400_PRICE_PRECISION_EXCEEDED.json") }));
    const { client } = makeClient(s.base);
    const e = await client.createMarketOrder(ACCOUNT, { instrument: "USD_JPY", units: "300" }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BrokerError);
    expect(e).toMatchObject({
      status: 400, kind: "bad_request", errorCode: "PRICE_PRECISION_EXCEEDED", lastTransactionID: "6864", retryable: false,
      messagePt: "Erro na API da Oanda (400). Tente novamente.",
    });
    expect((e as BrokerError).rejectTransaction?.rejectReason).toBe("PRICE_PRECISION_EXCEEDED");
    expect(s.seen).toHaveLength(1);
  });

  it("POST is never retried (503, 429, network timeout)", async () => {
    for (const reply of [{ status: 503 }, { status: 429, headers: { "Retry-After": "1" } }, { status: 200, hang: true }] as Reply[]) {
      const s = await serve(() => reply);
      const { client, clock } = makeClient(s.base, { timeoutMs: 150 });
      const e = await client.createMarketOrder(ACCOUNT, { instrument: "EUR_USD", units: "1" }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(BrokerError);
      expect((e as BrokerError).retryable).toBe(true);
      expect(s.seen).toHaveLength(1);
      expect(clock.sleeps).toEqual([]);
    }
  });
});

describe("trade close", () => {
  it("PUT .../close with ALL (default) or integer units; 200 parsed", async () => {
    const s = await serve(() => ({ status: 200, body: fixture("async_v20/trade_close_ALL.json") }));
    const { client } = makeClient(s.base);
    const r = await client.closeTrade(ACCOUNT, "6148");
    expect(r).toMatchObject({ filled: true, lastTransactionID: "6198" });
    await client.closeTrade(ACCOUNT, "@dec-1", "100");
    await client.closeTrade(ACCOUNT, "6148", "ALL");
    expect(s.seen.map((x) => [x.method, x.url, JSON.parse(x.body)])).toEqual([
      ["PUT", `/practice/v3/accounts/${ACCOUNT}/trades/6148/close`, { units: "ALL" }],
      ["PUT", `/practice/v3/accounts/${ACCOUNT}/trades/@dec-1/close`, { units: "100" }],
      ["PUT", `/practice/v3/accounts/${ACCOUNT}/trades/6148/close`, { units: "ALL" }],
    ]);
    await expect(client.closeTrade(ACCOUNT, "6148", "-5")).rejects.toBeInstanceOf(RangeError);
  });

  it("PUT close is never retried", async () => {
    const s = await serve(() => ({ status: 500, body: { errorMessage: "boom" } }));
    const { client } = makeClient(s.base);
    const e = await client.closeTrade(ACCOUNT, "6148").catch((x: unknown) => x);
    expect(e).toMatchObject({ kind: "server", status: 500 });
    expect(s.seen).toHaveLength(1);
  });

  it("404 NO_SUCH_TRADE", async () => {
    const s = await serve(() => ({ status: 404, body: { lastTransactionID: "2584", errorMessage: "The trade ID specified does not exist", errorCode: "NO_SUCH_TRADE" } }));
    const { client } = makeClient(s.base);
    await expect(client.closeTrade(ACCOUNT, "1")).rejects.toMatchObject({ kind: "not_found", errorCode: "NO_SUCH_TRADE" });
  });
});

describe("GET retries", () => {
  it("retries 503 with backoff on the clock, then succeeds", async () => {
    const s = await serve((_r, n) => (n < 2 ? { status: 503, body: "unavailable" } : { status: 200, body: fixture("async_v20/accounts_list.json") }));
    const { client, clock } = makeClient(s.base);
    expect(await client.listAccounts()).toHaveLength(1);
    expect(s.seen).toHaveLength(3);
    expect(clock.sleeps).toEqual([500, 1000]);
  });

  it("honours Retry-After on 429", async () => {
    const s = await serve((_r, n) =>
      n === 0 ? { status: 429, headers: { "Retry-After": "3" } } : { status: 200, body: fixture("async_v20/accounts_list.json") },
    );
    const { client, clock } = makeClient(s.base);
    await client.listAccounts();
    expect(clock.sleeps).toEqual([3000]);
  });

  it("gives up after `retries` and throws the last error", async () => {
    const s = await serve(() => ({ status: 502 }));
    const { client, clock } = makeClient(s.base, { retries: 2 });
    await expect(client.listAccounts()).rejects.toMatchObject({ kind: "server", status: 502 });
    expect(s.seen).toHaveLength(3);
    expect(clock.sleeps).toHaveLength(2);
  });

  it("does not retry 4xx", async () => {
    for (const status of [400, 401, 403, 404]) {
      const s = await serve(() => ({ status, body: { errorMessage: "no" } }));
      const { client, clock } = makeClient(s.base);
      await expect(client.listAccounts()).rejects.toBeInstanceOf(BrokerError);
      expect(s.seen).toHaveLength(1);
      expect(clock.sleeps).toEqual([]);
    }
  });

  it("times out a hanging GET (network), retrying it", async () => {
    const s = await serve((_r, n) => (n === 0 ? { status: 200, hang: true } : { status: 200, body: { accounts: [] } }));
    const { client } = makeClient(s.base, { timeoutMs: 150 });
    expect(await client.listAccounts()).toEqual([]);
    expect(s.seen).toHaveLength(2);
    const s2 = await serve(() => ({ status: 200, hang: true }));
    const c2 = makeClient(s2.base, { timeoutMs: 100, retries: 0 }).client;
    await expect(c2.listAccounts()).rejects.toMatchObject({ kind: "network", status: 0 });
  });
});

describe("formatUnits", () => {
  it("integer strings only", () => {
    expect(formatUnits("10000")).toBe("10000");
    expect(formatUnits("-2500.000")).toBe("-2500");
    expect(formatUnits(1e5)).toBe("100000");
    expect(() => formatUnits("1.5")).toThrow(RangeError);
    expect(() => formatUnits("0")).toThrow(RangeError);
    expect(() => formatUnits("-1", { positive: true })).toThrow(RangeError);
  });
});

describe("rate limiter", () => {
  it("the process's one limiter (120 req/s) schedules every request of every client it is given to", async () => {
    expect(OANDA_REQUESTS_PER_SECOND).toBe(120);
    const s = await serve(() => ({ status: 200, body: { accounts: [] } }));
    const a = makeClient(s.base, { limiter: oandaLimiter }).client;
    const b = makeClient(s.base, { limiter: oandaLimiter }).client;
    const spy = vi.spyOn(oandaLimiter, "schedule");
    try {
      await a.listAccounts();
      await b.listAccounts();
      await b.createMarketOrder(ACCOUNT, { instrument: "EUR_USD", units: "1" }).catch(() => undefined);
      expect(spy).toHaveBeenCalledTimes(3);
      expect(await processReservoir.currentReservoir()).toBeLessThanOrEqual(120);
    } finally {
      spy.mockRestore();
    }
  });
});
