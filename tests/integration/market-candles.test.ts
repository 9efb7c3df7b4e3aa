/**
 * The AI's candle store (app/services/broker/market-data.server.ts `completeCandleSets`, db/queries/market-candles.ts)
 * for a bot trading all 8 pairs on the 4 AI timeframes (issue 24, found by the realistic bench:bots): on an empty
 * store (and at the top of an hour, when M5…H1 close together) the 32 series' candles went to PostgreSQL in one
 * multi-row insert of 9 parameters per candle — 8 × 4 × 251 × 9 ≈ 72,000, over the protocol's 65,535 — and every
 * such tick failed with MAX_PARAMETERS_EXCEEDED. Now one statement of nine arrays; and a series stored up to a few
 * candles ago asks the broker for the missing ones only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrokerPort, CandleRequest } from "../../core/broker/port";
import type { Candle } from "../../core/candles";
import { AI_TIMEFRAMES, GRANULARITY_SECONDS, SUPPORTED_INSTRUMENTS } from "../../core/instruments";
import { completeCandleSets, seriesKey } from "../../app/services/broker/market-data.server";
import { parseConfig, setConfig } from "../../app/services/platform/config.server";
import { closeDb } from "../../app/services/platform/db.server";
import { createTestDatabase, type TestDatabase } from "../setup/db";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  setConfig(parseConfig({ DATABASE_URL: db.url, NODE_ENV: "test", LOG_LEVEL: "silent" }));
}, 60_000);
afterAll(async () => {
  await closeDb();
  globalThis.__forexIaConfig = undefined;
  await db?.drop();
});

/** A broker whose candles end at `now()`'s forming candle; it records every request's instrument, granularity and count. */
function fakeBroker(now: () => Date) {
  const asked: { instrument: string; granularity: string; count: number }[] = [];
  const client = {
    async getCandles(instrument: string, req: CandleRequest): Promise<Candle[]> {
      const count = req.count ?? 500;
      asked.push({ instrument, granularity: req.granularity, count });
      const step = GRANULARITY_SECONDS[req.granularity]! * 1000;
      const forming = Math.floor(now().getTime() / step) * step;
      return Array.from({ length: count }, (_, i) => {
        const time = forming - (count - 1 - i) * step;
        const p = 1.1 + (time / step) % 100 / 10_000;
        return { time, open: p, high: p + 0.0005, low: p - 0.0005, close: p + 0.0001, volume: 10 + i, complete: time !== forming };
      });
    },
  } as unknown as BrokerPort;
  return { client, asked };
}

describe("completeCandleSets for 8 pairs × 4 timeframes", () => {
  it("fills an empty store in one tick (no MAX_PARAMETERS_EXCEEDED) and later asks only for the missing candles", async () => {
    let now = new Date("2026-01-14T11:00:30Z"); // the top of an hour: M5, M15, M30 and H1 all just closed
    const { client, asked } = fakeBroker(() => now);
    const first = await completeCandleSets(client, "practice", SUPPORTED_INSTRUMENTS, AI_TIMEFRAMES, now);
    expect(first.size).toBe(SUPPORTED_INSTRUMENTS.length * AI_TIMEFRAMES.length);
    for (const candles of first.values()) expect(candles.length).toBeGreaterThanOrEqual(250);
    const [stored] = await db.sql<{ n: number }[]>`select count(*)::int as n from market_candles`;
    expect(stored!.n).toBeGreaterThan(7_000 * 1.1); // more rows than one multi-row insert could carry (65,535 / 9 parameters)

    // An hour later: 12 new M5 candles, 4 M15, 2 M30, 1 H1 per pair; the broker is asked for those (plus the forming one and one spare).
    asked.length = 0;
    now = new Date("2026-01-14T12:00:30Z");
    const later = await completeCandleSets(client, "practice", SUPPORTED_INSTRUMENTS, AI_TIMEFRAMES, now);
    const byGranularity = Object.fromEntries(AI_TIMEFRAMES.map((g) => [g, Math.max(...asked.filter((a) => a.granularity === g).map((a) => a.count))]));
    expect(byGranularity).toEqual({ M5: 14, M15: 6, M30: 4, H1: 3 });
    const m5 = later.get(seriesKey("EUR_USD", "M5"))!;
    expect(Math.max(...m5.map((c) => c.time))).toBe(new Date("2026-01-14T11:55:00Z").getTime());
  }, 60_000);
});
