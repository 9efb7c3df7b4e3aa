/** Every relevant recorded OANDA body (/work/shared/oanda/fixtures) through the client's zod schemas. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  accountsResponseSchema,
  accountSummaryResponseSchema,
  candlesResponseSchema,
  clientPriceSchema,
  errorBodySchema,
  findRejectTransaction,
  heartbeatSchema,
  instrumentsResponseSchema,
  normaliseTime,
  orderCreateResponseSchema,
  pricingResponseSchema,
  timeToEpochMs,
  tradeCloseResponseSchema,
  tradeResponseSchema,
  tradesResponseSchema,
  transactionSchema,
  transactionsResponseSchema,
} from "../../../core/oanda/schemas";
import { parsePriceStreamLine } from "../../../core/oanda/stream";

const FIXTURES = "/work/shared/oanda/fixtures";
const json = (p: string): unknown => JSON.parse(readFileSync(join(FIXTURES, p), "utf8"));
const lines = (p: string) =>
  readFileSync(join(FIXTURES, p), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");

describe("datetimes", () => {
  it("normalises UNIX and RFC3339 strings to RFC3339 UTC with 9 digits", () => {
    expect(normaliseTime("1509281144.757577547")).toBe("2017-10-29T12:45:44.757577547Z");
    expect(normaliseTime("1509126185")).toBe("2017-10-27T17:43:05.000000000Z");
    expect(normaliseTime("2017-03-09T13:22:13.832587780Z")).toBe("2017-03-09T13:22:13.832587780Z");
    expect(normaliseTime("2017-03-09T13:22:13Z")).toBe("2017-03-09T13:22:13.000000000Z");
    expect(normaliseTime("2017-03-09T10:22:13.5-03:00")).toBe("2017-03-09T13:22:13.500000000Z");
    expect(normaliseTime("2018-07-02T00:00:00")).toBeUndefined();
    expect(normaliseTime("yesterday")).toBeUndefined();
  });
  it("converts both forms to epoch ms", () => {
    expect(timeToEpochMs("1509126185.000000000")).toBe(1509126185000);
    expect(timeToEpochMs("2017-01-03T00:00:00.000000000Z")).toBe(Date.UTC(2017, 0, 3));
    expect(timeToEpochMs("2017-01-03T00:00:00.123456789Z")).toBe(Date.UTC(2017, 0, 3) + 123);
  });
});

describe("orders", () => {
  it("201 filled (oandapyV20): filled by presence of orderFillTransaction", () => {
    const r = orderCreateResponseSchema.parse(json("oandapyV20/order_create_market_201_filled.json"));
    expect(r.filled).toBe(true);
    expect(r.cancelReason).toBeUndefined();
    expect(r.orderCancelTransaction).toBeUndefined();
    expect(r.orderFillTransaction?.id).toBe("7579");
    expect(r.orderFillTransaction?.tradeOpened).toEqual({ tradeID: "7579", units: "10000" });
    expect(r.orderFillTransaction?.price).toBe("1.05563");
    expect(r.orderFillTransaction?.accountBalance).toBe("102107.4442");
    expect(r.orderCreateTransaction?.stopLossOnFill).toEqual({ timeInForce: "GTC", price: "1.05000" });
    expect(r.relatedTransactionIDs).toEqual(["7578", "7579", "7580", "7581"]);
    expect(r.lastTransactionID).toBe("7581");
  });

  it("201 cancelled MARKET_HALTED (async_v20, UNIX times, integer orderID)", () => {
    const r = orderCreateResponseSchema.parse(json("async_v20/order_create_market_cancelled_MARKET_HALTED.json"));
    expect(r.filled).toBe(false);
    expect(r.cancelReason).toBe("MARKET_HALTED");
    expect(r.orderCancelTransaction?.orderID).toBe("4877");
    expect(r.orderCancelTransaction?.time).toBe("2017-10-29T12:45:44.757577547Z");
    expect(r.orderCreateTransaction?.units).toBe("1.0");
    expect(r.lastTransactionID).toBe("4878");
  });

  it("201 cancelled STOP_LOSS_ON_FILL_LOSS", () => {
    const r = orderCreateResponseSchema.parse(
      json("oandapyV20/order_create_market_201_cancel_STOP_LOSS_ON_FILL_LOSS.json"),
    );
    expect(r.filled).toBe(false);
    expect(r.cancelReason).toBe("STOP_LOSS_ON_FILL_LOSS");
    expect(r.orderFillTransaction).toBeUndefined();
    expect(r.relatedTransactionIDs).toEqual(["7576", "7577"]);
  });

  it("400 reject body: envelope + reject transaction with rejectReason", () => {
    const body = json("issues/order_reject_400_PRICE_PRECISION_EXCEEDED.json");
    const env = errorBodySchema.parse(body);
    expect(env.errorCode).toBe("PRICE_PRECISION_EXCEEDED");
    expect(env.lastTransactionID).toBe("6864");
    const rej = findRejectTransaction(body);
    expect(rej?.rejectReason).toBe("PRICE_PRECISION_EXCEEDED");
    expect(rej?.price).toBe("110.79999999999999"); // kept verbatim
    expect(rej?.id).toBe("6864");
  });
});

describe("error bodies", () => {
  it.each([
    ["issues/error_401_insufficient_authorization.json", "Insufficient authorization to perform request."],
    ["issues/error_400_candles_max_count_exceeded.json", "Maximum value for 'count' exceeded"],
    ["issues/error_400_candles_to_in_future.json", "Invalid value specified for 'to'. Time is in the future"],
    ["oandapyV20/error_400_invalid_instrument.json", "Invalid value specified for 'order.instrument'"],
  ])("%s", (file, message) => {
    const env = errorBodySchema.parse(json(file));
    expect(env.errorMessage).toBe(message);
    expect(env.errorCode).toBeUndefined();
    expect(findRejectTransaction(json(file))).toBeUndefined();
  });
});

describe("candles", () => {
  it("RFC3339 H1 mid candles (from, count 10, without/with includeFirst)", () => {
    const a = candlesResponseSchema.parse(json("oandapyV20/candles_EUR_USD_H1_M_from_count10.json"));
    const b = candlesResponseSchema.parse(json("oandapyV20/candles_EUR_USD_H1_M_from_count10_includeFirst.json"));
    expect(a).toHaveLength(9);
    expect(b).toHaveLength(10);
    expect(a[0]).toEqual({
      time: Date.UTC(2017, 0, 3, 0),
      open: 1.04577,
      high: 1.04712,
      low: 1.04572,
      close: 1.04662,
      volume: 481,
      complete: true,
    });
    expect(b[0]!.time).toBe(Date.UTC(2017, 0, 2, 23));
  });

  it("UNIX-time S5 candles (async_v20): all 500 kept, ascending", () => {
    const c = candlesResponseSchema.parse(json("async_v20/candles_AUD_USD_S5_M.json"));
    expect(c).toHaveLength(500);
    expect(c[0]!.time).toBe(1509126185000);
    expect(c[499]!.time).toBe(1509137985000);
    expect(c[0]!.close).toBe(0.76596);
    for (let i = 1; i < c.length; i++) expect(c[i]!.time).toBeGreaterThan(c[i - 1]!.time);
  });

  it("bid-only candles read bid; incomplete candle kept with complete:false", () => {
    const c = candlesResponseSchema.parse({
      instrument: "USD_JPY",
      granularity: "M5",
      candles: [
        { time: "2026-01-05T12:00:00.000000000Z", volume: 3, complete: true, bid: { o: "150.100", h: "150.200", l: "150.000", c: "150.150" } },
        { time: "2026-01-05T12:05:00.000000000Z", volume: 1, complete: false, bid: { o: "150.150", h: "150.150", l: "150.150", c: "150.150" } },
      ],
    });
    expect(c.map((x) => [x.open, x.complete])).toEqual([[150.1, true], [150.15, false]]);
  });

  it("a candle without any price object is an invalid body", () => {
    expect(
      candlesResponseSchema.safeParse({ candles: [{ time: "2026-01-05T12:00:00Z", volume: 1, complete: true }] }).success,
    ).toBe(false);
  });
});

describe("accounts and instruments", () => {
  it("accounts list (both captures)", () => {
    expect(accountsResponseSchema.parse(json("async_v20/accounts_list.json"))).toEqual([
      { id: "123-123-1234567-123", tags: [] },
    ]);
    expect(accountsResponseSchema.parse(json("oandapyV20/accounts_list.json")).map((a) => a.id)).toEqual([
      "101-004-1435156-002",
      "101-004-1435156-001",
    ]);
  });

  it("account summary (UNIX createdTime) and full account body", () => {
    for (const file of ["async_v20/account_summary.json", "async_v20/account_details.json"]) {
      const s = accountSummaryResponseSchema.parse(json(file));
      expect(s).toMatchObject({
        id: "123-123-1234567-123",
        alias: "Primary",
        currency: "AUD",
        balance: "97804.9448",
        NAV: "97804.9448",
        marginAvailable: "97804.9448",
        openTradeCount: 0,
        lastTransactionID: "4874",
        hedgingEnabled: false,
      });
      expect(s.createdTime).toBe("2017-08-11T15:04:31.639182352Z");
      expect(s).not.toHaveProperty("trades");
    }
  });

  it("124 account instruments with precision", () => {
    const list = instrumentsResponseSchema.parse(json("async_v20/account_instruments.json"));
    expect(list).toHaveLength(124);
    const jpy = list.find((i) => i.name === "USD_JPY")!;
    expect(jpy).toMatchObject({ displayPrecision: 3, pipLocation: -2, tradeUnitsPrecision: 0, marginRate: "0.02" });
    expect(list.find((i) => i.name === "EUR_USD")!.displayPrecision).toBe(5);
  });
});

describe("pricing", () => {
  it("non-tradeable poll (UNIX times)", () => {
    const [p] = pricingResponseSchema.parse(json("async_v20/pricing_AUD_USD_non_tradeable.json"));
    expect(p).toEqual({
      instrument: "AUD_USD",
      time: "2017-10-27T20:59:58.126267519Z",
      tradeable: false,
      bid: "0.76726",
      ask: "0.76822",
      closeoutBid: "0.76711",
      closeoutAsk: "0.76837",
    });
  });

  it("stream lines (2017 and 2019 captures) and transaction-stream heartbeats", () => {
    const all = [...lines("async_v20/pricing_stream_price.jsonl"), ...lines("issues/pricing_stream_curl_2019.jsonl")];
    const msgs = all.map(parsePriceStreamLine);
    expect(msgs.every((m) => m.type === "PRICE")).toBe(true);
    expect(msgs[0]).toMatchObject({ type: "PRICE", price: { instrument: "EUR_USD", bid: "1.18724", ask: "1.18736", tradeable: true } });
    for (const l of lines("oandapyV20/transactions_stream_heartbeats.CONVERTED.jsonl")) {
      expect(heartbeatSchema.parse(JSON.parse(l)).time).toMatch(/^2017-03-09T15:/);
    }
  });

  it("liquidity may be a number, a float-looking number or a string", () => {
    for (const liquidity of [10000000, 10000000.0, "10000000"]) {
      const p = clientPriceSchema.parse({
        type: "PRICE",
        instrument: "EUR_USD",
        time: "2026-01-05T12:00:00.000000000Z",
        tradeable: true,
        bids: [{ price: "1.10000", liquidity }],
        asks: [{ price: "1.10010", liquidity }],
        newFieldFromTheFuture: { x: 1 },
      });
      expect(p.bid).toBe("1.10000");
      expect(p).not.toHaveProperty("newFieldFromTheFuture");
    }
  });
});

describe("trades", () => {
  it("open trades with integer ids (async_v20) → string ids", () => {
    const t = tradesResponseSchema.parse(json("async_v20/open_trades.json"));
    expect(t).toHaveLength(40);
    expect(t[0]).toMatchObject({ id: "6148", instrument: "AUD_USD", price: "0.75864", state: "OPEN", currentUnits: "1.0" });
    expect(t[0]!.openTime).toBe("2017-11-15T03:56:35.576504057Z");
    expect(t[0]).not.toHaveProperty("takeProfitOrder");
  });

  it("open trades with embedded stop loss (oandapyV20)", () => {
    const t = tradesResponseSchema.parse(json("oandapyV20/open_trades.json"));
    expect(t).toHaveLength(5);
    expect(t[0]).toMatchObject({ id: "7579", price: "1.05563", unrealizedPL: "-0.8526" });
    expect(t[0]!.stopLossOrder).toEqual({ id: "7581", price: "1.05000", state: "PENDING" });
  });

  it("trade details with TP/SL/TSL and nulls read as absent", () => {
    const t = tradeResponseSchema.parse({
      trade: {
        id: "10", instrument: "USD_JPY", price: "150.123", openTime: "2026-01-05T12:00:00.000000000Z", state: "CLOSED",
        initialUnits: "-1000", currentUnits: "0", realizedPL: "1.2345", averageClosePrice: "150.000",
        closeTime: "2026-01-05T13:00:00.000000000Z", marginUsed: null,
        clientExtensions: { id: "dec-1", tag: "bot" },
        takeProfitOrder: { id: "12", type: "TAKE_PROFIT", price: "149.000", state: "CANCELLED", tradeID: "10" },
        stopLossOrder: { id: "13", type: "STOP_LOSS", distance: "0.500", state: "FILLED", tradeID: "10" },
        trailingStopLossOrder: { id: "14", distance: "0.300", trailingStopValue: "150.423", state: "CANCELLED" },
      },
      lastTransactionID: "20",
    });
    expect(t).toEqual({
      id: "10", instrument: "USD_JPY", price: "150.123", openTime: "2026-01-05T12:00:00.000000000Z", state: "CLOSED",
      initialUnits: "-1000", currentUnits: "0", realizedPL: "1.2345", averageClosePrice: "150.000",
      closeTime: "2026-01-05T13:00:00.000000000Z", clientExtensions: { id: "dec-1", tag: "bot" },
      takeProfitOrder: { id: "12", price: "149.000", state: "CANCELLED" },
      stopLossOrder: { id: "13", distance: "0.500", state: "FILLED" },
      trailingStopLossOrder: { id: "14", distance: "0.300", trailingStopValue: "150.423", state: "CANCELLED" },
    });
  });

  it("trade close ALL (async_v20) and partial (oandapyV20)", () => {
    const all = tradeCloseResponseSchema.parse(json("async_v20/trade_close_ALL.json"));
    expect(all.filled).toBe(true);
    expect(all.orderFillTransaction?.reason).toBe("MARKET_ORDER_TRADE_CLOSE");
    expect(all.orderFillTransaction?.tradesClosed).toEqual([
      { tradeID: "6148", units: "-1.0", realizedPL: "-0.0002", financing: "0.0" },
    ]);
    expect(all.lastTransactionID).toBe("6198");
    const partial = tradeCloseResponseSchema.parse(
      (json("oandapyV20/trade_close_partial_200.CONVERTED.json") as { response: unknown }).response,
    );
    expect(partial.filled).toBe(true);
    expect(partial.orderFillTransaction?.tradesClosed?.[0]?.realizedPL).toBe("-0.1455");
  });

  it("trade close cancelled (MARKET_HALTED)", () => {
    const r = tradeCloseResponseSchema.parse({
      orderCreateTransaction: { id: "61", type: "MARKET_ORDER", time: "1506163044.041927777" },
      orderCancelTransaction: { id: "62", type: "ORDER_CANCEL", time: "1506163044.041927777", orderID: 61, reason: "MARKET_HALTED" },
      relatedTransactionIDs: ["61", "62"],
      lastTransactionID: "62",
    });
    expect(r).toMatchObject({ filled: false, cancelReason: "MARKET_HALTED", lastTransactionID: "62" });
  });
});

describe("transactions", () => {
  it("41 transactions of every type kept in order, unknown fields kept, ids as strings", () => {
    const r = transactionsResponseSchema.parse(json("async_v20/transactions_idrange.json"));
    expect(r.transactions).toHaveLength(41);
    expect(r.lastTransactionID).toBe("4874");
    const ids = r.transactions.map((t) => Number(t.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const halted = r.transactions[0]!;
    expect(halted).toMatchObject({ id: "60", type: "ORDER_CANCEL", reason: "MARKET_HALTED", orderID: "59" });
    const financing = r.transactions.find((t) => t.type === "DAILY_FINANCING")!;
    expect(financing.positionFinancings).toBeDefined();
    expect(financing).not.toHaveProperty("requestID");
    const opened = r.transactions.find((t) => t.tradeOpened)!;
    expect(opened.tradeOpened).toEqual({ tradeID: "70", units: "100000.0" });
    const sl = r.transactions.find((t) => t.type === "STOP_LOSS_ORDER")!;
    expect(sl.tradeID).toBe("70");
    expect(sl.reason).toBe("ON_FILL");
  });

  it("order cancel transactions (RFC3339)", () => {
    for (const f of ["oandapyV20/order_cancel_200.json", "oandapyV20/order_cancel_GTD_200.json"]) {
      const body = json(f) as { orderCancelTransaction: unknown };
      const t = transactionSchema.parse(body.orderCancelTransaction);
      expect(t.type).toBe("ORDER_CANCEL");
      expect(t.reason).toBe("CLIENT_REQUEST");
    }
  });

  it("a transaction without id/type/time is rejected", () => {
    expect(transactionSchema.safeParse({ type: "ORDER_FILL" }).success).toBe(false);
  });
});
