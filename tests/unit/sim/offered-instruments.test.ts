/**
 * The simulator replays whatever candle files it is given (issue 12): a market of EUR_GBP and GBP_USD
 * offers exactly those two (supported-table order), converts EUR_GBP's quote GBP into USD through
 * GBP_USD, and an empty folder is an error.
 */
import { describe, expect, it } from "vitest";
import { MarketData } from "../../../core/simulator/market-data";
import { Pricing } from "../../../core/simulator/pricing";

const csv = (rows: [string, number][]) => `time,open,high,low,close,volume\n${rows.map(([t, p]) => `${t},${p},${p},${p},${p},10`).join("\n")}\n`;
const times = ["2026-01-05T10:00:00Z", "2026-01-05T10:05:00Z", "2026-01-05T10:10:00Z"];

describe("simulator market from any candle files", () => {
  const md = MarketData.fromCsv([
    { instrument: "EUR_GBP", granularity: "M5", text: csv(times.map((t) => [t, 0.86])) },
    { instrument: "GBP_USD", granularity: "M5", text: csv(times.map((t) => [t, 1.26])) },
    { instrument: "not a pair", granularity: "M5", text: "" },
  ]);

  it("offers exactly the instruments it has data for", () => {
    expect(md.instruments).toEqual(["GBP_USD", "EUR_GBP"]);
    expect(md.has("EUR_USD")).toBe(false);
  });

  it("converts a cross's quote currency through USD", () => {
    const at = Date.parse("2026-01-05T10:06:00Z");
    expect(new Pricing(md).rate("GBP", "USD", at).toString()).toBe("1.26");
    expect(new Pricing(md).currencies().sort()).toEqual(["GBP", "USD"]);
  });

  it("refuses a folder without any candle file", () => {
    expect(() => MarketData.fromCsv([], "data/")).toThrow("No candle file in data/");
  });
});
