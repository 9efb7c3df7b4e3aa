/**
 * The streamed quote → account rate (app/lib/live-prices.ts) is core/conversion.ts's one-pair rule
 * (issue 23 item 3): 1, the direct pair's mid, or 1 / the inverse pair's mid; no route through USD.
 */
import { describe, expect, it } from "vitest";
import { directRate, midsOf } from "../../../core/conversion";
import { quoteToAccountRate, type LivePrices } from "../../../app/lib/live-prices";

const prices: LivePrices = {
  EUR_USD: { instrument: "EUR_USD", bid: "1.10000", ask: "1.10020", mid: "1.10010", time: "t" },
  USD_JPY: { instrument: "USD_JPY", bid: "150.000", ask: "150.020", mid: "150.010", time: "t" },
  GBP_USD: { instrument: "GBP_USD", bid: "0", ask: "0", mid: "0", time: "t" },
};

describe("one-pair conversion rate", () => {
  it("core: equal → 1, direct mid, inverse 1/mid, else undefined", () => {
    const mid = midsOf(Object.values(prices));
    expect(directRate("USD", "USD", mid)!.toString()).toBe("1");
    expect(directRate("EUR", "USD", mid)!.toString()).toBe("1.1001");
    expect(directRate("JPY", "USD", mid)!.toFixed(8)).toBe("0.00666622");
    expect(directRate("JPY", "EUR", mid)).toBeUndefined();
  });
  it("live prices read the same rule from the streamed mids; a zero mid is no rate", () => {
    expect(quoteToAccountRate("JPY", "USD", prices)!.toFixed(8)).toBe("0.00666622");
    expect(quoteToAccountRate("JPY", "EUR", prices)).toBeNull();
    expect(quoteToAccountRate("USD", "GBP", prices)).toBeNull();
  });
});
