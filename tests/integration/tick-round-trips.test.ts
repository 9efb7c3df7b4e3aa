/**
 * Issue 7: the SQL round trips of one bot tick, counted by the app's pool (db.server.ts
 * `sqlQueryCount`, logged per tick at debug level) on a real server, PostgreSQL and simulator,
 * with the three default instruments. Before the executor work a tick made about 50; the issue's
 * target is ≤ 10.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;

beforeAll(async () => {
  env = await createTradingEnv({ speed: 0 });
  app = await env.startApp({ WORKERS: "off", LOG_LEVEL: "debug" });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

/** Round trips logged for the ticks of `userId` so far. */
function logged(userId: string): number[] {
  return app
    .output()
    .split("\n")
    .filter((l) => l.includes('"sqlRoundTrips"') && l.includes(userId))
    .map((l) => JSON.parse(l.slice(l.indexOf("{"))).sqlRoundTrips as number);
}

describe("SQL round trips per bot tick", () => {
  it("a steady-state tick over EUR_USD, GBP_USD and USD_JPY stays within the budget", async () => {
    const u = await userWithBroker(env, app);
    // The first tick fills the shared candle cache; later ticks in the same candle read it.
    for (let i = 0; i < 3; i++) expect((await u.call("POST", "/api/trades/ai/loop/run-once")).status).toBe(200);
    const counts = logged(u.userId);
    expect(counts.length).toBe(3);
    const steady = counts[counts.length - 1]!;
    console.log(`SQL round trips per tick: ${counts.join(", ")}`);
    expect(steady).toBeGreaterThan(0);
    expect(steady).toBeLessThanOrEqual(Number(process.env.TICK_SQL_BUDGET ?? 10));
  });
});
