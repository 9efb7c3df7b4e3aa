/**
 * Issue 21 "risk the user can read", on the real server with the simulator (100,000 USD practice account):
 * - the leverage cap is a setting: PUT /api/settings takes maxLeveragePerTrade within 1–30 and refuses
 *   31 with a Portuguese 400; GET /api/trades/ai/preflight then shows the real risk per trade at the
 *   typical stop (0.59 % at 5×, capped; the full 1 % at 30×);
 * - the live AI sizes with it: with 2× no trade's notional passes 2 × the balance at entry;
 * - GET /api/trades/:id and /history/:id show the risk at entry: |entry − stop loss| × units × rate, in
 *   money and % of the balance at entry the decision stored; a trade whose decision predates that shows "—".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Decimal } from "../../core/decimal";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, tickUntil, userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;
let u: Awaited<ReturnType<typeof userWithBroker>>;
let tradeId = "";

interface RiskJson {
  amount: string | null;
  pct: string | null;
  currency: string | null;
  balance: string | null;
  maxLeverage: number | null;
  capped: boolean;
}
interface DetailJson {
  trade: { id: string; instrument: string; units: string; entryPrice: string; decisionId: string | null; riskAtEntry: RiskJson };
  decision: { stopLoss: string | null } | null;
}
interface PreflightJson {
  maxLeveragePerTrade: number;
  realRisk: { instrument: string; pct: string; amount: string; stopPips: number; capped: boolean; maxLeverage: number } | null;
}

async function page(path: string, token: string) {
  const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${token}` }, redirect: "manual" });
  return { status: res.status, html: await res.text() };
}

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp();
  u = await userWithBroker(env, app, `risco-${Date.now()}@teste.com`);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await env?.close();
});

describe("maxLeveragePerTrade in the settings API and the pre-flight", () => {
  it("refuses 31 in Portuguese; 5 (default) shows a capped real risk below 1 %, 30 shows the full 1 %", async () => {
    const bad = await u.call<{ message: string }>("PUT", "/api/settings", { settings: { maxLeveragePerTrade: 31 } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("maxLeveragePerTrade deve estar entre 1 e 30");

    const def = await u.call<PreflightJson>("GET", "/api/trades/ai/preflight");
    expect(def.status, JSON.stringify(def.body)).toBe(200);
    expect(def.body.maxLeveragePerTrade).toBe(5);
    // Swing's typical stop is 13 pips (M30); the 5× cap leaves well under the 1 % (≈ 0.59 % on EUR_USD).
    expect(def.body.realRisk).toMatchObject({ stopPips: 13, capped: true, maxLeverage: 5 });
    expect(Number(def.body.realRisk!.pct)).toBeGreaterThan(0.3);
    expect(Number(def.body.realRisk!.pct)).toBeLessThan(0.7);

    const ok = await u.call("PUT", "/api/settings", { settings: { maxLeveragePerTrade: 30 } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const wide = await u.call<PreflightJson>("GET", "/api/trades/ai/preflight");
    expect(wide.body.realRisk).toMatchObject({ pct: "1.00", amount: "1000.00", capped: false, maxLeverage: 30 });
  });
});

describe("risk at entry of a trade the AI opened", () => {
  beforeAll(async () => {
    // 2× cap, and trading allowed on the simulator's pairs whatever the edge table says (the override).
    const set = await u.call("PUT", "/api/settings", { settings: { maxLeveragePerTrade: 2, aiSettings: { edgeOverrides: ["EUR_USD", "GBP_USD", "USD_JPY"] } } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const opened = await tickUntil(
      env,
      u.call,
      async () => {
        const rows = await env.db.sql<{ broker_trade_id: string }[]>`
          select broker_trade_id from trades where user_id = ${u.userId} and decision_id is not null order by open_time limit 1`;
        tradeId = rows[0]?.broker_trade_id ?? "";
        return tradeId !== "";
      },
      { advanceSeconds: 3600, maxIterations: 150 },
    );
    expect(opened, "a IA deveria abrir ao menos um trade no simulador").toBe(true);
  }, 300_000);

  it("GET /api/trades/:id: |entry − SL| × units × rate, and % of the balance at entry, within the 2× cap", async () => {
    const r = await u.call<DetailJson>("GET", `/api/trades/${tradeId}`);
    expect(r.status).toBe(200);
    const { trade, decision } = r.body;
    const risk = trade.riskAtEntry;
    expect(risk.currency).toBe("USD");
    expect(risk.maxLeverage).toBe(2);
    expect(Number(risk.balance)).toBeGreaterThan(90_000);
    const rate = trade.instrument.endsWith("_USD") ? new Decimal(1) : new Decimal(1).div(trade.entryPrice); // USD_JPY: JPY → USD
    const expected = new Decimal(trade.entryPrice).minus(decision!.stopLoss!).abs().mul(trade.units).mul(rate);
    expect(Math.abs(Number(risk.amount) - expected.toNumber())).toBeLessThan(0.02 + expected.toNumber() * 1e-6);
    expect(risk.pct).toBe(new Decimal(risk.amount!).div(risk.balance!).mul(100).toDecimalPlaces(2).toFixed(2));
    // The 2× cap: the notional never passes twice the balance, so the risk stays at or under 1 %.
    expect(new Decimal(trade.units).mul(trade.entryPrice).mul(rate).lte(new Decimal(risk.balance!).mul(2))).toBe(true);
    expect(Number(risk.pct)).toBeLessThanOrEqual(1);
  });

  it("/history/:id server-renders 'Risco na entrada' with the money and the %", async () => {
    const r = await u.call<DetailJson>("GET", `/api/trades/${tradeId}`);
    const pct = r.body.trade.riskAtEntry.pct!.replace(".", ",");
    const html = (await page(`/history/${tradeId}`, u.token)).html;
    expect(html).toContain("Risco na entrada");
    expect(html).toMatch(new RegExp(`data-testid="trade-risk">US\\$(&nbsp;|\\s| )[\\d.,]+ · ${pct} % do saldo<`));
    expect(html).toContain("saldo na entrada");
  });

  it("a trade whose decision was stored before the balance was shows '—'", async () => {
    const [row] = await env.db.sql<{ decision_id: string }[]>`select decision_id from trades where user_id = ${u.userId} and broker_trade_id = ${tradeId}`;
    await env.db.sql`update decisions set payload = payload - 'entryRisk' where user_id = ${u.userId} and decision_id = ${row!.decision_id}`;
    const r = await u.call<DetailJson>("GET", `/api/trades/${tradeId}`);
    expect(r.body.trade.riskAtEntry).toEqual({ amount: null, pct: null, currency: null, balance: null, maxLeverage: null, capped: false });
    const html = (await page(`/history/${tradeId}`, u.token)).html;
    expect(html).toContain('data-testid="trade-risk">—<');
    expect(html).toContain("saldo na entrada não registrado");
  });
});
