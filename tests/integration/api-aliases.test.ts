/**
 * PRODUCT.md §7's alias and fallback paths answer as their primary path does (issue 22 "The API of §7,
 * whole"), against the real server: same status and same shape for every read, the same effect for the
 * AI loop's start/stop/status, the query string kept (`days`), and `/api/trades/history` no longer
 * taken for a trade id ("Trade não encontrado."). Also §7 Settings: `PUT /api/settings` with both
 * `settings` and `timeframe` keeps both.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_ALIASES, primaryPathOf } from "../../server/api-aliases";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;
let u: Awaited<ReturnType<typeof userWithBroker>>;

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp();
  u = await userWithBroker(env, app);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

const READ_PRIMARIES = ["/api/account/summary", "/api/trades/account/open", "/api/trades/account/history", "/api/trades/ai/loop/status", "/api/billing/upcoming"];
/** Values that move between two calls (live prices, clocks): compared by type, not value. */
const shape = (v: unknown): unknown =>
  Array.isArray(v) ? v.map(shape) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, shape(x)])) : typeof v;

describe("§7 alias paths", () => {
  it("every read alias answers with its primary's status and shape (per-account variants with the caller's account id)", async () => {
    const reads = API_ALIASES.filter((a) => READ_PRIMARIES.includes(a.primary));
    expect(reads.length).toBeGreaterThanOrEqual(17);
    for (const { alias, primary } of reads) {
      const path = alias.replace(":id", u.accountId);
      const [a, p] = [await u.call("GET", path), await u.call("GET", primary)];
      expect(a.status, path).toBe(p.status);
      expect(a.status, path).toBeLessThan(500);
      expect(shape(a.body), path).toEqual(shape(p.body));
    }
  });

  it("GET /api/trades/history is the history, not a trade id, and keeps ?days", async () => {
    const r = await u.call<{ success: boolean; days: number; trades: unknown[]; message?: string }>("GET", "/api/trades/history?days=7");
    expect(r.status).toBe(200);
    expect(r.body.message).toBeUndefined();
    expect(r.body.days).toBe(7);
    expect(Array.isArray(r.body.trades)).toBe(true);
    const bad = await u.call<{ message: string }>("GET", "/trades/history?days=0");
    expect(bad.status).toBe(400);
  });

  it("the AI loop's aliases start, report and stop the same loop", async () => {
    expect((await u.call("POST", "/api/ai/loop/start", { intervalSec: 60 })).status).toBe(200);
    const on = await u.call<{ isRunning?: boolean; running?: boolean }>("GET", "/api/ai/status");
    const primary = await u.call<{ isRunning?: boolean; running?: boolean }>("GET", "/api/trades/ai/loop/status");
    expect(on.status).toBe(200);
    expect(on.body).toEqual(primary.body);
    expect((await u.call("POST", "/api/ai/loop/stop")).status).toBe(200);
    expect((await u.call("GET", "/api/ai/status")).body).toEqual((await u.call("GET", "/api/trades/ai/loop/status")).body);
    for (const path of ["/api/ai/run-once", "/api/trades/ai/run-once", "/api/trades/ai/start", "/api/ai/start"]) {
      const r = await u.call("POST", path);
      expect(r.status, path).toBe((await u.call("POST", "/api/trades/ai/loop/run-once")).status);
    }
  });

  it("a wrong method on an alias gets its primary's 405, and primaries are never re-addressed", async () => {
    const r = await u.call("DELETE", "/api/account/trades");
    expect(r.status).toBe((await u.call("DELETE", "/api/trades/account/open")).status);
    expect(primaryPathOf("/api/trades/account/open")).toBeUndefined();
    expect(primaryPathOf("/api/trades/account/history")).toBeUndefined();
    expect(primaryPathOf("/api/trades/123")).toBeUndefined();
    expect(primaryPathOf("/api/trades/account/101-001-1-001")).toBe("/api/trades/account/history");
  });
});

describe("§7 Settings", () => {
  it("PUT /api/settings with settings and timeframe keeps both; the same timeframe twice with two values is a 400 in Portuguese", async () => {
    const r = await u.call<{ settings: { maxTrades: number; timeframe: string | null } }>("PUT", "/api/settings", { settings: { maxTrades: 4 }, timeframe: "M30" });
    expect(r.status).toBe(200);
    expect(r.body.settings.maxTrades).toBe(4);
    expect(r.body.settings.timeframe).toBe("M30");
    const back = await u.call<{ settings: { maxTrades: number; timeframe: string | null } }>("GET", "/api/settings");
    expect([back.body.settings.maxTrades, back.body.settings.timeframe]).toEqual([4, "M30"]);
    const twice = await u.call<{ message: string }>("PUT", "/api/settings", { settings: { timeframe: "H1" }, timeframe: "M15" });
    expect(twice.status).toBe(400);
    expect(twice.body.message).toMatch(/timeframe uma vez/);
    expect((await u.call<{ settings: { timeframe: string | null } }>("GET", "/api/settings")).body.settings.timeframe).toBe("M30");
  });
});
