/**
 * The backtest's broker-candle source offers the account's own instruments (issue 22 item 7), on the real
 * server and the OANDA simulator with an account that offers 2 of the 3 pairs its market has: GET /api/backtest
 * offers exactly those 2, a pair the account does not trade is refused with a Portuguese 400 naming the
 * account's pairs (not "Erro na API da Oanda (400)"), nothing is queued, and one of its pairs runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, type AppServer } from "../setup/app-server";
import { createTradingEnv, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

let env: TradingEnv;
let app: AppServer;
let call: ReturnType<typeof apiClient>;
/** The simulator's market has EUR_USD, GBP_USD and USD_JPY (the shipped candles); this account offers two of them. */
const OFFERED = ["EUR_USD", "USD_JPY"];

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp();
  const login = await registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Bia", lastName: "Teste", email: `offer${Date.now()}@teste.com`, password: "Senha123" });
  call = apiClient(app.url, login.token);
  const sim = await env.simCall<{ token: string; accounts: { id: string }[] }>("POST", "/sim/users", { environment: "practice" });
  const accountId = sim.accounts[0]!.id;
  const set = await env.simCall<{ offered: string[] }>("POST", `/sim/accounts/${accountId}/instruments`, { offered: OFFERED });
  expect(set.offered).toEqual(OFFERED);
  expect((await call("POST", "/api/oanda-auth/connect", { token: sim.token, environment: "practice", accountId })).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await app?.stop();
  await env?.close();
});

type Offer = { offer: { broker: { instruments: string[]; minDate: string; maxDate: string } | null; shipped: { instruments: string[] } | null } };

describe("backtest broker source (issue 22 item 7)", () => {
  it("offers the account's two pairs, not every pair the broker's market has", async () => {
    const r = await call<Offer>("GET", "/api/backtest");
    expect(r.status).toBe(200);
    expect([...r.body.offer.broker!.instruments].sort()).toEqual(OFFERED);
    expect(r.body.offer.shipped!.instruments).toContain("GBP_USD"); // the shipped data still has its own pairs
  });

  it("a pair the account does not trade: a Portuguese 400 naming the account's pairs, before any run", async () => {
    const offer = (await call<Offer>("GET", "/api/backtest")).body.offer.broker!;
    const runsBefore = (await env.db.sql<{ n: number }[]>`select count(*)::int as n from backtest_runs`)[0]!.n;
    const r = await call<{ message: string }>("POST", "/api/backtest", { source: "broker", instruments: ["GBP_USD"], from: offer.minDate, to: offer.maxDate });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(`A sua conta OANDA não oferece GBP_USD: escolha um dos pares da conta (${offer.instruments.join(", ")}).`);
    expect(r.body.message).not.toContain("Erro na API da Oanda");
    expect((await env.db.sql<{ n: number }[]>`select count(*)::int as n from backtest_runs`)[0]!.n).toBe(runsBefore);
  });

  it("one of the account's pairs is accepted and queued", async () => {
    const offer = (await call<Offer>("GET", "/api/backtest")).body.offer.broker!;
    const to = offer.maxDate;
    const from = new Date(Date.parse(to) - 7 * 86_400_000).toISOString().slice(0, 10);
    const r = await call<{ run: { id: string; params: { source: string; instruments: string[] } } }>("POST", "/api/backtest", { source: "broker", instruments: ["USD_JPY"], from, to });
    expect(r.status).toBeLessThan(300);
    expect(r.body.run.params).toMatchObject({ source: "broker", instruments: ["USD_JPY"] });
  });
});
