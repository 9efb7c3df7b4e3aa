/**
 * Issue 13 (ADR 0025): a tick between transactions values the stored account read at the current
 * quotes (core/trading/account.ts) instead of asking the broker. Against the simulator's own figures
 * (core/simulator/accounts.ts, OANDA's rules) after the market moved: the same NAV and unrealized P&L
 * for a pair quoted in the account currency, within 0.0002 per trade for pairs converted at mid
 * (USD_JPY on a USD account: the simulator converts at the unrounded mid), and missing quotes or
 * margin rates make the tick read the broker instead.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AccountSummary, ClientPrice, Trade } from "../../../core/broker/port";
import { Decimal } from "../../../core/decimal";
import { accountSummaryJSON, MARGIN_RATE } from "../../../core/simulator/accounts";
import { createMarketOrder } from "../../../core/simulator/orders";
import { Simulator } from "../../../core/simulator/simulator";
import { tradeJSON } from "../../../core/simulator/trades";
import { markInstruments, markToMarket } from "../../../core/trading/account";
import { loadMarketData } from "../../../server/simulator/load-market-data";

const market = loadMarketData(path.resolve(import.meta.dirname, "../../../data"));

function simAt(startAt: string) {
  const sim = new Simulator({ market, now: () => 0, speed: 0, startAt });
  const user = sim.createUser("practice");
  const acct = sim.account(user.accountIDs[0]!)!;
  const read = () => {
    const now = sim.now();
    const summary = accountSummaryJSON(sim.pricing, acct, now) as unknown as AccountSummary;
    const trades = acct.trades.filter((t) => t.state === "OPEN").map((t) => tradeJSON(sim.pricing, acct, t, now) as unknown as Trade);
    return { summary, trades };
  };
  const prices = (instruments: string[]): ClientPrice[] =>
    instruments.map((i) => {
      const p = sim.pricing.clientPrice(sim.pricing.quote(i, sim.now()), acct.currency, sim.now()) as { bids: { price: string }[]; asks: { price: string }[]; time: string; tradeable: boolean };
      return { instrument: i, time: p.time, tradeable: p.tradeable, bid: p.bids[0]!.price, ask: p.asks[0]!.price };
    });
  const order = (instrument: string, units: string) => createMarketOrder(sim.pricing, acct, { order: { type: "MARKET", instrument, units } }, sim.now(), "1");
  return { sim, read, prices, order };
}

const rates = new Map(["EUR_USD", "GBP_USD", "USD_JPY"].map((i) => [i, MARGIN_RATE]));

describe("the stored account valued at current quotes", () => {
  it("gives the broker's NAV and unrealized P&L after the market moved", () => {
    const s = simAt("2026-01-14T10:00:00Z");
    s.order("EUR_USD", "10000");
    s.order("GBP_USD", "-7000");
    s.order("USD_JPY", "5000");
    const stored = s.read();
    for (const minutes of [7, 45, 190]) {
      s.sim.setClock({ advanceSeconds: minutes * 60 });
      const broker = s.read();
      const marked = markToMarket(stored.summary, stored.trades, s.prices(markInstruments(stored.trades, "USD")), rates)!;
      expect(marked.summary.balance).toBe(broker.summary.balance);
      expect(marked.summary.unrealizedPL).not.toBe(stored.summary.unrealizedPL);
      for (const t of marked.trades) {
        const b = broker.trades.find((x) => x.id === t.id)!;
        if (t.instrument === "USD_JPY") expect(new Decimal(t.unrealizedPL!).sub(b.unrealizedPL!).abs().toNumber()).toBeLessThanOrEqual(0.0002);
        else expect(t.unrealizedPL).toBe(b.unrealizedPL);
        expect(new Decimal(t.marginUsed!).sub(b.marginUsed!).abs().toNumber()).toBeLessThan(0.01);
      }
      expect(new Decimal(marked.summary.NAV).sub(broker.summary.NAV).abs().toNumber()).toBeLessThanOrEqual(0.0002);
      expect(new Decimal(marked.summary.marginAvailable).sub(broker.summary.marginAvailable).abs().toNumber()).toBeLessThan(0.02);
    }
  });

  it("is exact with only pairs quoted in the account currency, and asks for the conversion pairs it needs", () => {
    const s = simAt("2026-01-14T10:00:00Z");
    s.order("EUR_USD", "-12000");
    const stored = s.read();
    s.sim.setClock({ advanceSeconds: 3600 });
    const marked = markToMarket(stored.summary, stored.trades, s.prices(["EUR_USD"]), rates)!;
    expect(marked.summary.NAV).toBe(s.read().summary.NAV);
    expect(marked.summary.unrealizedPL).toBe(s.read().summary.unrealizedPL);
    expect(markInstruments([{ instrument: "USD_JPY" }, { instrument: "EUR_USD" }], "USD").sort()).toEqual(["EUR_USD", "USD_JPY"]);
    expect(markInstruments([{ instrument: "EUR_USD" }], "JPY", ["EUR_USD", "USD_JPY", "EUR_JPY"])).toContain("USD_JPY");
  });

  it("gives up (the tick reads the broker) without a quote or a margin rate for a held instrument", () => {
    const s = simAt("2026-01-14T10:00:00Z");
    s.order("GBP_USD", "3000");
    const stored = s.read();
    expect(markToMarket(stored.summary, stored.trades, s.prices(["EUR_USD"]), rates)).toBeUndefined();
    expect(markToMarket(stored.summary, stored.trades, s.prices(["GBP_USD"]), new Map())).toBeUndefined();
  });
});
