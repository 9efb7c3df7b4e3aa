/**
 * Issue 7 "done means": the same data and settings give the same trades from the backtest and
 * from the live bot driven by the simulator. One trading day (288 M5 closes) of the shipped 2026
 * data is replayed twice:
 * - live: the real app (HTTP, PostgreSQL, pg-boss off, run-once) against the standalone
 *   simulator over HTTP, its clock stopped and advanced 300 s before each tick;
 * - backtest: core/backtest/run.ts on the same MarketData, in process.
 * Scalper settings, so the day has entries on the three pairs, concurrent positions, stop loss /
 * take profit closes by the broker and max-hold closes by the executor. The trade lists (broker's
 * truth on the live side) must be equal: instrument, units, open time and price, and for every
 * trade the live run closed, close time, close price and realized P&L. (Writing this test found
 * that the backtest fed the engine the data files' 9-decimal prices while the broker serves
 * candles at displayPrecision: a stop 0.1 pip apart, and every later size.)
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBacktest } from "../../core/backtest/run";
import type { BacktestResult } from "../../core/backtest/run";
import { defaultSettings, parseSettingsUpdate, resolveInstruments } from "../../core/settings";
import { SUPPORTED_INSTRUMENTS } from "../../core/instruments";
import { loadMarketData } from "../../server/simulator/load-market-data";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

const START = "2026-01-14T10:00:00Z";
const TICKS = 288;
const STEP_SEC = 300;

let env: TradingEnv;
let app: AppServer;

beforeAll(async () => {
  env = await createTradingEnv({ speed: 0, startAt: START });
  app = await env.startApp({ WORKERS: "off" });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

interface SimTrade {
  id: string;
  instrument: string;
  initialUnits: string;
  price: string;
  openTime: string;
  state: "OPEN" | "CLOSED";
  averageClosePrice?: string;
  closeTime?: string;
  realizedPL: string;
}

const iso = (t: string) => new Date(Date.parse(t)).toISOString();

describe("one executor: the backtest is the live bot", () => {
  it("a replayed day gives the same trades live (app + simulator over HTTP) and in the backtest", { timeout: 600_000 }, async () => {
    // Every pair traded despite no proven edge (the user's override of the edge gate, issue 21): live and
    // backtest run the same gate on the same settings, so the override holds on both sides.
    const update = { aiSettings: { tradingStyle: "scalper" as const, edgeOverrides: [...SUPPORTED_INSTRUMENTS] } };
    const parsed = parseSettingsUpdate(update, defaultSettings());
    if (!parsed.ok) throw new Error(parsed.message);
    const settings = parsed.settings;

    const u = await userWithBroker(env, app);
    expect((await u.call("PUT", "/api/settings", { settings: update })).status).toBe(200);
    for (let i = 0; i < TICKS; i++) {
      await env.simCall("POST", "/sim/clock", { advanceSeconds: STEP_SEC });
      const r = await u.call("POST", "/api/trades/ai/loop/run-once");
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const res = await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}/trades?state=ALL&count=500`, {
      headers: { authorization: `Bearer ${u.brokerToken}` },
    });
    const live = ((await res.json()) as { trades: SimTrade[] }).trades.sort((a, b) => Number(a.id) - Number(b.id));

    const end = Date.parse(START) + TICKS * STEP_SEC * 1000;
    const market = loadMarketData(path.resolve(import.meta.dirname, "../../data"));
    const bt: BacktestResult = await runBacktest({
      // '*' is every supported pair; the live tick keeps those the simulator offers (its data).
      instruments: resolveInstruments(settings).filter((i) => market.has(i)),
      market,
      settings,
      from: START,
      to: new Date(end).toISOString(),
      initialBalance: "100000",
      accountCurrency: "USD",
    });

    const opened = (t: { instrument: string; units: string; at: string; price: string }) => `${t.instrument} ${t.units} ${t.at} ${t.price}`;
    const liveOpened = live.map((t) => opened({ instrument: t.instrument, units: t.initialUnits, at: iso(t.openTime), price: t.price }));
    const btOpened = bt.trades.map((t) => opened({ instrument: t.instrument, units: t.units, at: t.entryTime, price: t.entryPrice }));
    console.log(`live ${live.length} trades, backtest ${bt.trades.length}: ${btOpened.join("; ")}`);
    expect(liveOpened).toEqual(btOpened);
    expect(live.length).toBeGreaterThanOrEqual(5);
    expect(new Set(live.map((t) => t.instrument)).size).toBeGreaterThan(1);

    const closedLive = live.filter((t) => t.state === "CLOSED");
    expect(closedLive.length).toBeGreaterThanOrEqual(3);
    for (const t of closedLive) {
      const b = bt.trades[live.indexOf(t)]!;
      expect(`${iso(t.closeTime!)} ${t.averageClosePrice} ${t.realizedPL}`, `${t.instrument} ${t.openTime}`).toBe(`${b.exitTime} ${b.exitPrice} ${b.pnl}`);
      expect(b.exitReason).not.toBe("END");
    }
    // the day exercised both kinds of exit: the broker's (stop loss / take profit) and the executor's (max hold)
    const reasons = new Set(bt.trades.filter((_, i) => live[i]!.state === "CLOSED").map((t) => t.exitReason));
    expect(reasons.has("MAX_HOLD")).toBe(true);
    expect(reasons.has("STOP_LOSS") || reasons.has("TAKE_PROFIT")).toBe(true);
  });
});
