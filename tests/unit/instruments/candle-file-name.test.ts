/**
 * core/candle-file-name.ts: the `<XXX_YYY>_<GRAN>.csv` names the simulator's folder and the backtest's
 * folders share — what is read as a candle file, what is passed over, and the name built back.
 */
import { describe, expect, it } from "vitest";
import { candleFileName, parseCandleFileName } from "../../../core/candle-file-name";

describe("parseCandleFileName", () => {
  it("reads the pair and the granularity of a candle file", () => {
    expect(parseCandleFileName("EUR_GBP_M5.csv")).toEqual({ instrument: "EUR_GBP", granularity: "M5" });
    expect(parseCandleFileName("USD_JPY_M3.csv")).toEqual({ instrument: "USD_JPY", granularity: "M3" });
    expect(parseCandleFileName("GBP_USD_H12.csv")).toEqual({ instrument: "GBP_USD", granularity: "H12" });
    expect(parseCandleFileName("AUD_USD_D.csv")).toEqual({ instrument: "AUD_USD", granularity: "D" });
  });

  it("passes over the folder's other files and unknown granularities", () => {
    for (const name of ["NOTICE.md", "SOURCE.md", "EUR_USD_M5.csv.gz", "EUR_USD_M5.txt", "eur_usd_M5.csv", "EURUSD_M5.csv", "EUR_USD.csv", "EUR_USD_M7.csv", "EUR_USD_X1.csv", "DE30_EUR_M5.csv", "EUR_USD_M5_old.csv", "histdata_2016"]) {
      expect(parseCandleFileName(name), name).toBeNull();
    }
  });

  it("reads back the name it builds", () => {
    expect(candleFileName("EUR_USD", "M15")).toBe("EUR_USD_M15.csv");
    expect(parseCandleFileName(candleFileName("EUR_JPY", "H1"))).toEqual({ instrument: "EUR_JPY", granularity: "H1" });
  });
});
