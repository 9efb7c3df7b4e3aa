/**
 * The long-history source of the backtest page (issue 21), over fixture folders the test writes into
 * temp dirs (never the real ../shared/data/fx-long): offered only when the folder (FX_LONG_DIR)
 * exists, each pair with its own dates; bid → mid by half the simulator's normal spread; a run steps
 * on H1 and decides on H1; crosses get their conversion pair; the request is refused in Portuguese
 * outside the chosen pairs' dates or beyond the source's limit, and accepted past the 92 days of
 * the shipped data.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conversionPairs, onH1 } from "../../../core/backtest/long-history";
import { runBacktest } from "../../../core/backtest/run";
import { defaultSettings } from "../../../core/settings";
import { parseConfig, setConfig } from "../../../app/services/platform/config.server";
import { longCandles, longRange, LONG_MAX_PERIOD_DAYS } from "../../../app/services/backtest/long-history.server";
import { validateRequest, type SourceOffer } from "../../../app/services/backtest/runs.server";
import { DomainError } from "../../../app/services/platform/errors.server";
import { writeLongFixture } from "../../setup/fx-long-fixture";

let dir: string;

beforeAll(() => {
  dir = writeLongFixture({
    EUR_USD: ["2014-01-01", "2016-01-01", 1.2, 5],
    GBP_USD: ["2015-01-01", "2016-01-01", 1.5, 5],
    USD_JPY: ["2015-01-01", "2016-01-01", 120, 3],
    EUR_GBP: ["2015-03-02", "2015-07-01", 0.75, 5],
  });
  writeFileSync(path.join(dir, "XAU_XYZ_H1.csv"), "time,open,high,low,close,volume\n2015-01-05T00:00:00Z,1,1,1,1,0\n");
  setConfig(parseConfig({ FX_LONG_DIR: dir }));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The Portuguese message of a refused request. */
function refusal(body: unknown, offer: SourceOffer): string {
  try {
    validateRequest(body, offer);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).status).toBe(400);
    return (err as DomainError).messageIn("pt");
  }
  throw new Error("aceito");
}

describe("long-history source", () => {
  it("is offered only when its folder exists, with the known pairs and each one's dates", () => {
    expect(longRange(path.join(os.tmpdir(), "fx-long-nao-existe"))).toBeNull();
    // FX_LONG_DIR (config) points at the fixture.
    const r = longRange()!;
    expect(r.instruments).toEqual(["EUR_GBP", "EUR_USD", "GBP_USD", "USD_JPY"]);
    expect(r.ranges.EUR_USD).toEqual({ minDate: "2014-01-01", maxDate: "2015-12-31" });
    expect(r.ranges.EUR_GBP).toEqual({ minDate: "2015-03-02", maxDate: "2015-06-30" });
    expect(r.minDate).toBe("2014-01-01");
    expect(r.maxDate).toBe("2015-12-31");
    expect(r.maxDays).toBe(LONG_MAX_PERIOD_DAYS);
    setConfig(parseConfig({ FX_LONG_DIR: path.join(dir, "ausente") }));
    expect(longRange()).toBeNull();
    setConfig(parseConfig({ FX_LONG_DIR: dir }));
  });

  it("turns bid bars into mid bars: + half the simulator's normal spread of the pair", () => {
    const from = Date.parse("2015-06-01T00:00:00Z");
    const eur = longCandles("EUR_USD", from, from + 86_400_000).H1!;
    const jpy = longCandles("USD_JPY", from, from + 86_400_000).H1!;
    // The fixture's bid closes, read back from its text.
    const bid = (pair: string, ms: number) => {
      const text = h1Text(pair);
      const line = text.split("\n").find((l) => l.startsWith(new Date(ms).toISOString().replace(".000Z", "Z")))!;
      return Number(line.split(",")[4]);
    };
    const lastEur = eur.at(-1)!;
    expect(lastEur.close).toBe(Math.round((bid("EUR_USD", lastEur.time) + 0.00005) * 1e9) / 1e9); // 1.0 pip / 2
    const lastJpy = jpy.at(-1)!;
    expect(lastJpy.close).toBe(Math.round((bid("USD_JPY", lastJpy.time) + 0.006) * 1e9) / 1e9); // 1.2 pip / 2
    // The period plus three weeks of warm-up, nothing after it, only H1.
    expect(eur[0]!.time).toBeGreaterThanOrEqual(from - 21 * 86_400_000);
    expect(eur[0]!.time).toBeLessThan(from - 14 * 86_400_000);
    expect(lastEur.time).toBeLessThan(from + 86_400_000);
    expect(Object.keys(longCandles("EUR_USD", from, from + 86_400_000))).toEqual(["H1"]);
  });

  it("runs on H1: the executor steps on H1 and the AI decides on H1 (the user's other settings kept)", async () => {
    const from = Date.parse("2015-02-02T00:00:00Z");
    const to = Date.parse("2015-05-01T00:00:00Z");
    const base = defaultSettings();
    const settings = onH1({ ...base, aiSettings: { ...base.aiSettings, edgeOverrides: ["EUR_USD"] as never } });
    expect(settings.maxTrades).toBe(base.maxTrades);
    expect(settings.aiSettings.tradingStyle).toBe(base.aiSettings.tradingStyle);
    const r = await runBacktest({
      instruments: ["EUR_USD"],
      candles: { EUR_USD: longCandles("EUR_USD", from, to) },
      settings,
      from: new Date(from),
      to: new Date(to),
      initialBalance: "10000",
      accountCurrency: "USD",
    });
    expect(r.stepTimeframe).toBe("H1");
    expect(r.ticks).toBeGreaterThan(0);
    expect(r.trades.length).toBeGreaterThan(0);
    for (const t of r.trades) {
      expect(t.timeframe).toBe("H1");
      expect(Date.parse(t.entryTime)).toBeGreaterThanOrEqual(from);
    }
  });

  it("adds the pair that converts a cross's quote currency to the account's", () => {
    const offered = ["EUR_GBP", "EUR_JPY", "EUR_USD", "GBP_USD", "USD_JPY"];
    expect(conversionPairs(["EUR_GBP"], "USD", offered)).toEqual(["GBP_USD"]);
    expect(conversionPairs(["EUR_JPY", "USD_JPY"], "USD", offered)).toEqual([]);
    expect(conversionPairs(["EUR_JPY"], "USD", offered)).toEqual(["USD_JPY"]);
    expect(conversionPairs(["EUR_USD"], "USD", offered)).toEqual([]);
    expect(conversionPairs(["USD_JPY"], "EUR", offered)).toEqual(["EUR_USD"]);
  });

  it("refuses a period outside the chosen pairs' dates or beyond the limit, in Portuguese; accepts more than 92 days", () => {
    const offer: SourceOffer = { shipped: null, broker: null, long: longRange() };
    const ok = validateRequest({ source: "long", instruments: ["EUR_USD"], from: "2014-01-01", to: "2015-12-31" }, offer);
    expect(ok).toMatchObject({ source: "long", instruments: ["EUR_USD"], from: "2014-01-01", to: "2015-12-31" });
    // GBP_USD starts in 2015: together with EUR_USD the period must fit both.
    expect(refusal({ source: "long", instruments: ["EUR_USD", "GBP_USD"], from: "2014-06-01", to: "2015-06-01" }, offer)).toBe(
      "O período deve ficar entre 2015-01-01 e 2015-12-31, com o início antes do fim.",
    );
    expect(refusal({ source: "long", instruments: ["EUR_USD"], from: "2013-12-01", to: "2014-06-01" }, offer)).toBe(
      "O período deve ficar entre 2014-01-01 e 2015-12-31, com o início antes do fim.",
    );
    expect(refusal({ source: "long", instruments: ["XAU_XYZ"], from: "2015-01-05", to: "2015-02-05" }, offer)).toBe("Par indisponível nesta fonte: XAU_XYZ.");
    const longer = { ...offer, long: { ...offer.long!, maxDays: 300 } };
    expect(refusal({ source: "long", instruments: ["EUR_USD"], from: "2014-01-01", to: "2015-12-31" }, longer)).toBe("O período pode ter no máximo 300 dias.");
    // The limit shrinks with the pairs (the run's cost grows with pairs × days): 300 / 2 = 150.
    expect(validateRequest({ source: "long", instruments: ["EUR_USD", "GBP_USD"], from: "2015-01-01", to: "2015-05-30" }, longer).to).toBe("2015-05-30");
    expect(refusal({ source: "long", instruments: ["EUR_USD", "GBP_USD"], from: "2015-01-01", to: "2015-05-31" }, longer)).toBe("O período pode ter no máximo 150 dias.");
    // Without the folder the source is refused, and the other sources keep their 92 days.
    expect(refusal({ source: "long", instruments: ["EUR_USD"], from: "2015-01-05", to: "2015-02-05" }, { ...offer, long: null })).toBe(
      "O histórico longo não está disponível neste servidor.",
    );
    const shipped = { shipped: { instruments: ["EUR_USD"], minDate: "2014-01-01", maxDate: "2015-12-31" }, broker: null, long: null };
    expect(refusal({ source: "shipped", instruments: ["EUR_USD"], from: "2014-01-01", to: "2015-12-31" }, shipped)).toBe("O período pode ter no máximo 92 dias.");
  });
});

/** The fixture file's text. */
function h1Text(pair: string): string {
  return readFileSync(path.join(dir, `${pair}_H1.csv`), "utf8");
}
