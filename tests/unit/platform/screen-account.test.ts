/**
 * When a screen stops trusting a stored open trade (ADR 0028): the price that would close it (bid for
 * a buy, ask for a sell) at or beyond its stop loss or take profit means the broker has probably
 * closed it, so the screen checks the account's transactions at once.
 */
import { describe, expect, it } from "vitest";
import { crossedExit } from "../../../app/services/trading/account-view.server";

const quote = (bid: string, ask: string) => [{ instrument: "EUR_USD", time: "2026-01-14T10:00:00Z", tradeable: true, bid, ask }];
const trade = (units: string, sl?: string, tp?: string) => ({
  instrument: "EUR_USD",
  currentUnits: units,
  ...(sl ? { stopLossOrder: { price: sl } } : {}),
  ...(tp ? { takeProfitOrder: { price: tp } } : {}),
});

describe("crossedExit", () => {
  it("a buy closes at the bid: crossed at or below its stop, at or above its target", () => {
    expect(crossedExit(trade("1000", "1.09000", "1.11000"), quote("1.10000", "1.10020"))).toBe(false);
    expect(crossedExit(trade("1000", "1.09000", "1.11000"), quote("1.09000", "1.09020"))).toBe(true);
    expect(crossedExit(trade("1000", "1.09000", "1.11000"), quote("1.11005", "1.11025"))).toBe(true);
    // The ask past the target is not enough: the buy would close at the bid.
    expect(crossedExit(trade("1000", undefined, "1.11000"), quote("1.10990", "1.11010"))).toBe(false);
  });

  it("a sell closes at the ask: crossed at or above its stop, at or below its target", () => {
    expect(crossedExit(trade("-1000", "1.11000", "1.09000"), quote("1.10000", "1.10020"))).toBe(false);
    expect(crossedExit(trade("-1000", "1.11000", "1.09000"), quote("1.10990", "1.11000"))).toBe(true);
    expect(crossedExit(trade("-1000", "1.11000", "1.09000"), quote("1.08970", "1.08990"))).toBe(true);
  });

  it("no quote or no levels: not crossed", () => {
    expect(crossedExit(trade("1000"), quote("0.5", "0.6"))).toBe(false);
    expect(crossedExit(trade("1000", "1.09000"), [])).toBe(false);
  });
});
