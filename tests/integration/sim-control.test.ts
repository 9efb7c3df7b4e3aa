/**
 * Issue 8 item 3: the simulator control API (`/sim/*`, embedded at `/oanda-sim/sim/*`) is for local
 * callers only — loopback socket, no proxy, same-origin — sends no wildcard CORS, bounds
 * `advanceSeconds` (31 days) and `speed`, walks a jump a day at a time without blocking the event
 * loop; and `NODE_ENV=production` refuses to boot without `OANDA_MODE=oanda`.
 */
import { networkInterfaces } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadMarketData } from "../../server/simulator/load-market-data";
import { startSimulator } from "../../server/simulator/server";
import { startAppServer, type AppServer } from "../setup/app-server";
import { createTestDatabase, type TestDatabase } from "../setup/db";

let db: TestDatabase;
let app: AppServer;

beforeAll(async () => {
  db = await createTestDatabase();
  // Listening on every interface, so a non-loopback address of this machine can reach it.
  app = await startAppServer({ DATABASE_URL: db.url, WORKERS: "off", OANDA_MODE: "sim", HOST: "0.0.0.0" });
});
afterAll(async () => {
  await app?.stop();
  await db?.drop();
});

const post = (base: string, p: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(base + p, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("embedded control API", () => {
  it("answers a local caller without CORS headers; OANDA's own paths keep theirs", async () => {
    const res = await post(app.url, "/oanda-sim/sim/users", { environment: "practice" });
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
    const { token, accounts } = (await res.json()) as { token: string; accounts: { id: string }[] };
    const preflight = await fetch(`${app.url}/oanda-sim/sim/clock`, { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "POST" } });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const summary = await fetch(`${app.url}/oanda-sim/practice/v3/accounts/${accounts[0]!.id}/summary`, { headers: { authorization: `Bearer ${token}` } });
    expect(summary.status).toBe(200);
    expect(summary.headers.get("access-control-allow-origin")).toBe("*");
  });

  it.each([
    ["another site's Origin", { origin: "https://evil.example" }],
    ["Origin: null", { origin: "null" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site (another port)", { "sec-fetch-site": "same-site" }],
    ["a proxy's X-Forwarded-For", { "x-forwarded-for": "203.0.113.9" }],
    ["a proxy's Forwarded", { forwarded: "for=203.0.113.9" }],
  ])("refuses %s with 403", async (_label, headers) => {
    const before = (await (await fetch(`${app.url}/oanda-sim/sim/clock`)).json()) as { now: string };
    const res = await post(app.url, "/oanda-sim/sim/clock", { advanceSeconds: 86_400 }, headers);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { errorMessage: string }).errorMessage).toMatch(/local callers|Cross-origin/);
    const after = (await (await fetch(`${app.url}/oanda-sim/sim/clock`)).json()) as { now: string };
    expect(Date.parse(after.now) - Date.parse(before.now)).toBeLessThan(60_000);
  });

  it("refuses a caller that is not on loopback", async () => {
    const lan = Object.values(networkInterfaces()).flat().find((i) => i && i.family === "IPv4" && !i.internal);
    if (!lan) return; // no non-loopback interface on this machine
    const port = new URL(app.url).port;
    const res = await post(`http://${lan.address}:${port}`, "/oanda-sim/sim/users", { environment: "practice" });
    expect(res.status).toBe(403);
    // The app itself still answers on that address.
    expect((await fetch(`http://${lan.address}:${port}/api/health`)).status).toBe(200);
  });

  it("bounds advanceSeconds (31 days) and speed with a 400 that says so", async () => {
    const tooFar = await post(app.url, "/oanda-sim/sim/clock", { advanceSeconds: 31 * 86_400 + 1 });
    expect(tooFar.status).toBe(400);
    expect(((await tooFar.json()) as { errorMessage: string }).errorMessage).toMatch(/advanceSeconds.*at most 2678400/);
    const huge = await post(app.url, "/oanda-sim/sim/clock", { advanceSeconds: 1e13 });
    expect(huge.status).toBe(400);
    expect((await post(app.url, "/oanda-sim/sim/clock", { speed: 1e9 })).status).toBe(400);
    expect((await post(app.url, "/oanda-sim/sim/clock", { advanceSeconds: 31 * 86_400 })).status).toBe(200);
  });
});

describe("advancing the clock", () => {
  it("a 31-day jump with open trades yields to the event loop between days", async () => {
    const sim = await startSimulator({ market: loadMarketData(join(process.cwd(), "data")), startAt: "2026-01-13T10:00:00Z" });
    try {
      const u = (await (await post(sim.url, "/sim/users", { environment: "practice" })).json()) as { token: string; accounts: { id: string }[] };
      const orders = [["EUR_USD", "0.50000", "3.00000"], ["GBP_USD", "0.50000", "3.00000"], ["USD_JPY", "50.000", "300.000"]] as const;
      for (const [instrument, sl, tp] of [...orders, ...orders, ...orders, ...orders]) {
        const o = await post(sim.url, `/practice/v3/accounts/${u.accounts[0]!.id}/orders`, { order: { type: "MARKET", instrument, units: "1000", stopLossOnFill: { price: sl }, takeProfitOnFill: { price: tp } } }, { authorization: `Bearer ${u.token}` });
        expect(o.status).toBe(201);
      }
      let turns = 0;
      let counting = true;
      const countTurn = () => {
        turns++;
        if (counting) setImmediate(countTurn);
      };
      setImmediate(countTurn);
      const res = await post(sim.url, "/sim/clock", { advanceSeconds: 31 * 86_400 });
      counting = false;
      expect(res.status).toBe(200);
      expect(((await res.json()) as { now: string }).now).toMatch(/^2026-02-13T10:00/);
      // One synchronous block per simulated day, not one for the whole month: other work (here a chain of
      // setImmediate callbacks) gets an event-loop turn between the 31 days. Counted in turns, not in
      // milliseconds, so a loaded machine's preemptions do not fail it (one block: a handful of turns).
      expect(turns).toBeGreaterThanOrEqual(31);
    } finally {
      await sim.close();
    }
  });
});

describe("production", () => {
  it("refuses to boot on the embedded simulator, naming OANDA_MODE", async () => {
    const env = { DATABASE_URL: db.url, WORKERS: "off", NODE_ENV: "production", SESSION_SECRET: "s".repeat(32), ENCRYPTION_KEY: "a".repeat(64) };
    await expect(startAppServer(env, 30_000)).rejects.toThrow(/OANDA_MODE: defina OANDA_MODE=oanda quando NODE_ENV=production/);
    await expect(startAppServer({ ...env, OANDA_MODE: "sim" }, 30_000)).rejects.toThrow(/OANDA_MODE:/);
  });
});
