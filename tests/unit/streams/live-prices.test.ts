/**
 * Live figures from streamed prices (app/lib/live-prices.ts): close-out side, P&L sign, quote →
 * account conversion from the streamed prices, fallbacks to the polled figures; and the SSE framing
 * and the `?instruments=` parsing of the streams.
 */
import { describe, expect, it } from "vitest";
import { liveAccount, liveTrade, quoteToAccountRate, withLivePrice, type LivePrices } from "../../../app/lib/live-prices";
import { sseFrame } from "../../../app/services/platform/sse";
import { tradeEventsOf } from "../../../app/services/notify/trade-events.server";

const prices: LivePrices = {
  EUR_USD: { instrument: "EUR_USD", bid: "1.10000", ask: "1.10020", mid: "1.10010", time: "t" },
  USD_JPY: { instrument: "USD_JPY", bid: "150.000", ask: "150.020", mid: "150.010", time: "t" },
};

describe("liveTrade", () => {
  it("values a buy at the bid and a sell at the ask, in the account currency", () => {
    expect(liveTrade({ instrument: "EUR_USD", side: "buy", units: "10000", openPrice: "1.09900" }, prices, "USD")).toEqual({ price: "1.1", pnl: "10.0000" });
    expect(liveTrade({ instrument: "EUR_USD", side: "sell", units: "10000", openPrice: "1.09900" }, prices, "USD")).toEqual({ price: "1.1002", pnl: "-12.0000" });
  });

  it("converts a JPY-quoted P&L to USD with the pair's own mid", () => {
    // 10 000 × (150.000 − 149.000) = 10 000 JPY; ÷ 150.010 = 66.6622 USD
    expect(liveTrade({ instrument: "USD_JPY", side: "buy", units: "10000", openPrice: "149.000" }, prices, "USD")!.pnl).toBe("66.6622");
    expect(quoteToAccountRate("JPY", "EUR", prices)).toBeNull();
    expect(quoteToAccountRate("USD", "EUR", prices)!.toFixed(6)).toBe("0.909008");
    expect(quoteToAccountRate("EUR", "USD", prices)!.toString()).toBe("1.1001");
  });

  it("keeps the polled figures when there is no price or no rate", () => {
    const trade = { instrument: "GBP_USD", side: "buy", units: "1000", openPrice: "1.3", currentPrice: "1.31", unrealizedPL: "10" };
    expect(withLivePrice(trade, prices, "USD")).toBe(trade);
    const eurAccount = withLivePrice({ ...trade, instrument: "USD_JPY", openPrice: "149" }, prices, "EUR");
    expect(eurAccount).toMatchObject({ currentPrice: "150", unrealizedPL: "10" });
  });
});

describe("liveAccount", () => {
  const account = { currency: "USD", balance: "1000.0000", nav: "1000.0000", unrealizedPL: "0.0000" };
  it("sums the trades' live P&L into unrealized and NAV", () => {
    const trades = [
      { instrument: "EUR_USD", side: "buy", units: "10000", openPrice: "1.09900" },
      { instrument: "EUR_USD", side: "sell", units: "10000", openPrice: "1.09900" },
    ];
    expect(liveAccount(account, trades, prices)).toMatchObject({ unrealizedPL: "-2.0000", nav: "998.0000" });
  });
  it("is the polled account when a trade cannot be valued", () => {
    expect(liveAccount(account, [{ instrument: "GBP_USD", side: "buy", units: "1", openPrice: "1" }], prices)).toBe(account);
    expect(liveAccount(account, [], prices)).toBe(account);
  });
});

describe("SSE framing and trade events", () => {
  it("frames id, event and one data line", () => {
    expect(sseFrame("price", { a: "x\ny" }, "42")).toBe('id: 42\nevent: price\ndata: {"a":"x\\ny"}\n\n');
    expect(sseFrame("heartbeat", {})).toBe("event: heartbeat\ndata: {}\n\n");
  });
  it("reads order_fill / trade_close from reconcile's notices", () => {
    expect(
      tradeEventsOf([
        { type: "trading", title: "a", message: "b", metadata: { tradeId: "7", units: "100", price: "1.1" } },
        { type: "success", title: "a", message: "b", metadata: { tradeId: "7", result: "WIN", pnl: "1" } },
        { type: "info", title: "a", message: "b" },
      ]),
    ).toEqual([
      { ev: "order_fill", t: "7" },
      { ev: "trade_close", t: "7" },
    ]);
  });
});

describe("the live catalog", () => {
  it("has the same keys and parameters in pt, en and es, with the §8 SSE texts in Portuguese", async () => {
    const load = async (lng: string) => (await import(`../../../app/i18n/locales/${lng}/live.json`)).default as Record<string, unknown>;
    const flat = (o: Record<string, unknown>, p = ""): string[] =>
      Object.entries(o).flatMap(([k, v]) => (typeof v === "object" && v ? flat(v as Record<string, unknown>, `${p}${k}.`) : [`${p}${k}:${[...String(v).matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort().join(",")}`]));
    const [pt, en, es] = await Promise.all(["pt", "en", "es"].map(load));
    expect(flat(en!).sort()).toEqual(flat(pt!).sort());
    expect(flat(es!).sort()).toEqual(flat(pt!).sort());
    expect(pt).toMatchObject({ sseError: "Erro na conexão SSE", sseClosed: "Conexão SSE foi fechada", reconnecting: "Tentando reconectar..." });
  });
});
