/**
 * Pre-flight check API and unknown instruments (issue 12) over real HTTP: GET /api/trades/ai/preflight
 * for a simulator practice account (100,000 USD; the simulator offers EUR_USD, GBP_USD and USD_JPY,
 * the shipped data), with the default settings and with fixed lots; 400 in Portuguese without a
 * broker, 401 without a session; a listed pair the broker does not offer is left out of the check
 * and skipped by the bot with a decision saying so, while the tick goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, type AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

interface Preflight {
  success: boolean;
  accountCurrency: string;
  balance: string;
  riskAmount: string;
  instruments: { instrument: string; units: string; lossPerTrade: string; margin: string }[];
  worstTradeLoss: string;
  concurrent: number;
  marginNeeded: string;
  dailyLossLimit: string;
  worstDayLoss: string;
  binding: string;
  warnings: { code: string; instrument?: string; message: string }[];
  needsConfirmation: boolean;
}

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

describe("GET /api/trades/ai/preflight", () => {
  it("default settings on 100,000 USD: 1 % per trade, 6 % worst day, no warning", async () => {
    const r = await u.call<Preflight>("GET", "/api/trades/ai/preflight");
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const p = r.body;
    expect([p.accountCurrency, p.balance, p.riskAmount]).toEqual(["USD", "100000.00", "1000.00"]);
    // '*' = the eight supported pairs, kept to the three the simulator offers.
    expect(p.instruments.map((i) => i.instrument)).toEqual(["EUR_USD", "GBP_USD", "USD_JPY"]);
    expect(p.instruments.map((i) => i.lossPerTrade)).toEqual(["1000.00", "1000.00", "1000.00"]);
    expect([p.worstTradeLoss, p.concurrent, p.dailyLossLimit]).toEqual(["1000.00", 3, "3000.00"]);
    // 15 trades × 1 000 vs 3 000 + 3 open × 1 000.
    expect([p.worstDayLoss, p.binding]).toEqual(["6000.00", "dailyLossLimit"]);
    // Largest automatic position = 5 × balance of notional, margin 0.0333 of it: 3 × 16 650 ≈ 49 950.
    expect(Math.abs(Number(p.marginNeeded) - 49_950)).toBeLessThan(2);
    expect(p.warnings).toEqual([]);
    expect(p.needsConfirmation).toBe(false);
  });

  it("fixed 3 lots: a 50-pip stop loses 1,500 USD on EUR_USD and GBP_USD, above the 1 % risk; the open risk passes the daily limit", async () => {
    expect((await u.call("PUT", "/api/settings", { settings: { lotMode: "fixed", fixedLot: 3 } })).status).toBe(200);
    const p = (await u.call<Preflight>("GET", "/api/trades/ai/preflight")).body;
    expect(p.instruments.slice(0, 2).map((i) => [i.instrument, i.units, i.lossPerTrade])).toEqual([
      ["EUR_USD", "300000", "1500.00"],
      ["GBP_USD", "300000", "1500.00"],
    ]);
    const codes = p.warnings.map((w) => `${w.code}:${w.instrument ?? ""}`);
    expect(codes).toEqual(expect.arrayContaining(["lossAboveRisk:EUR_USD", "lossAboveRisk:GBP_USD", "openRiskAboveDailyLimit:"]));
    expect(p.warnings.find((w) => w.instrument === "EUR_USD")!.message).toBe(
      "EUR_USD: o lote fixo perde 1500.00 USD (1.50 % do saldo) num stop de 50 pips, acima do risco de 1 % por trade",
    );
    expect(p.needsConfirmation).toBe(true);
    expect((await u.call("PUT", "/api/settings", { settings: { lotMode: "auto" } })).status).toBe(200);
  });

  it("400 in Portuguese without a broker, 401 without a session", async () => {
    const other = await registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Bia", lastName: "Lima", email: `pf${Date.now()}@teste.com`, password: "Senha123" });
    const r = await apiClient(app.url, other.token)<{ message: string }>("GET", "/api/trades/ai/preflight");
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("Nenhuma conta Oanda conectada.");
    const anon = await apiClient(app.url)("GET", "/api/trades/ai/preflight");
    expect(anon.status).toBe(401);
  });
});

describe("a pair the broker does not offer", () => {
  it("is left out of the check, and the tick records it as skipped instead of failing", async () => {
    expect((await u.call("PUT", "/api/settings", { settings: { instruments: "EUR_USD, AUD_USD" } })).status).toBe(200);
    const p = (await u.call<Preflight>("GET", "/api/trades/ai/preflight")).body;
    expect(p.instruments.map((i) => i.instrument)).toEqual(["EUR_USD"]);
    const tick = await u.call<{ success?: boolean }>("POST", "/api/trades/ai/loop/run-once");
    expect(tick.status, JSON.stringify(tick.body)).toBe(200);
    const rows = await env.db.sql<{ instrument: string; action: string; reason: string }[]>`
      select instrument, action, reason from decisions where user_id = ${u.userId} order by id`;
    expect(rows.map((r) => r.instrument)).toEqual(expect.arrayContaining(["EUR_USD", "AUD_USD"]));
    expect(rows.find((r) => r.instrument === "AUD_USD")).toMatchObject({
      action: "none",
      reason: "AUD_USD não é oferecido pela sua conta na corretora: instrumento ignorado",
    });
  });
});
