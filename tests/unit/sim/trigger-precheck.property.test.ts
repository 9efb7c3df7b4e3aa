/**
 * The triggers' pre-check (core/simulator/triggers.ts `mayTrigger` over `midRange`) only skips
 * scans that could not fill: on random price paths, random stop loss / take profit levels and
 * random intervals, whenever the full scan finds a hit the pre-check said "may trigger".
 */
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../../core/backtest/baseline";
import type { Candle } from "../../../core/candles";
import { createUser } from "../../../core/simulator/accounts";
import { MarketData } from "../../../core/simulator/market-data";
import { createMarketOrder } from "../../../core/simulator/orders";
import { Pricing } from "../../../core/simulator/pricing";
import { emptyState } from "../../../core/simulator/state";
import { mayTrigger, midRange, scanTrade } from "../../../core/simulator/triggers";

function randomWalk(seed: number): Candle[] {
  const rnd = mulberry32(seed);
  const out: Candle[] = [];
  let price = 1.1;
  const start = Date.UTC(2026, 0, 5);
  for (let i = 0; i < 400; i++) {
    const open = price;
    const close = open + (rnd() - 0.5) * 0.0012;
    const high = Math.max(open, close) + rnd() * 0.0006;
    const low = Math.min(open, close) - rnd() * 0.0006;
    out.push({ time: start + i * 300_000, open: +open.toFixed(5), high: +high.toFixed(5), low: +low.toFixed(5), close: +close.toFixed(5), volume: 1, complete: true });
    price = close;
  }
  return out;
}

describe("trigger pre-check", () => {
  it("never skips a scan that would fill (40 paths × 30 trades × 20 intervals)", () => {
    let hits = 0;
    let skipped = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = mulberry32(1000 + seed);
      const bars = randomWalk(seed);
      const pricing = new Pricing(MarketData.fromCandles({ EUR_USD: { M5: bars } }));
      const state = emptyState();
      const t0 = bars[10]!.time + 60_000;
      createUser(state, pricing, t0, "practice", [{ currency: "USD", balance: "1000000" }]);
      const acct = state.accounts[0]!;
      for (let k = 0; k < 30; k++) {
        const at = bars[10 + Math.floor(rnd() * 300)]!.time + Math.floor(rnd() * 300_000);
        const q = pricing.quote("EUR_USD", at);
        const buy = rnd() < 0.5;
        const entry = Number((buy ? q.ask : q.bid).toString());
        const d = () => 0.0002 + rnd() * 0.003;
        const sl = (buy ? entry - d() : entry + d()).toFixed(5);
        const tp = (buy ? entry + d() : entry - d()).toFixed(5);
        const order = { type: "MARKET", instrument: "EUR_USD", units: buy ? "1000" : "-1000", stopLossOnFill: { price: sl }, takeProfitOnFill: { price: tp } };
        createMarketOrder(pricing, acct, { order }, at, "t");
        const trade = acct.trades.at(-1)!;
        if (trade.state !== "OPEN" || trade.openTime !== new Date(at).toISOString().replace("Z", "000000Z")) continue;
        for (let j = 0; j < 20; j++) {
          const from = at + Math.floor(rnd() * 3_600_000);
          const to = from + 1 + Math.floor(rnd() * 1_800_000);
          const hit = scanTrade(acct, trade, [...pricing.path("EUR_USD", from, to)]);
          const may = mayTrigger(acct, trade, midRange(pricing, "EUR_USD", from, to));
          if (hit) {
            hits++;
            expect(may, `seed ${seed} trade ${trade.id} (${from}, ${to}]`).toBe(true);
          } else if (!may) skipped++;
        }
      }
    }
    // the property was exercised both ways: real hits, and scans the pre-check saved
    expect(hits).toBeGreaterThan(500);
    expect(skipped).toBeGreaterThan(500);
  });
});
