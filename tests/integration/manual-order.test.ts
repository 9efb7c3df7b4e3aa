/**
 * Manual orders and the instruments endpoint of PRODUCT.md §7 (issue 22), against the real server
 * and the OANDA simulator: GET /api/account/instruments; POST /api/orders/market (and its alias
 * /api/trading/order) opens at the broker with stop loss and take profit attached, through the AI's
 * risk gate and order intents (same idempotency key → one trade, the first answer again), and the
 * trade is marked manual in /api/trades/history, /history and the CSV; a refusal (leverage cap,
 * daily trade count) places nothing; bad input is a 400 in Portuguese.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { apiClient } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

let env: TradingEnv;
let app: AppServer;
let u: Awaited<ReturnType<typeof userWithBroker>>;

interface OrderBody {
  success: boolean;
  message: string;
  status: string;
  replayed: boolean;
  origin: string;
  code?: string;
  stopLoss: string;
  takeProfit: string;
  stopLossPips: string;
  defaulted: { stopLoss: boolean; takeProfit: boolean };
  notices: string[];
  trade: { id: string; side: string; units: string; openPrice: string; stopLoss: string | null; takeProfit: string | null; origin: string } | null;
}

/** The trades open at the broker (read live through the app). */
async function brokerOpen(call: typeof u.call) {
  const r = await call<{ trades?: { id: string; instrument: string; stopLoss: string | null; takeProfit: string | null }[] } | { id: string; instrument: string; stopLoss: string | null; takeProfit: string | null }[]>("GET", "/api/trades/account/open");
  expect(r.status).toBe(200);
  return Array.isArray(r.body) ? r.body : (r.body.trades ?? []);
}

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp();
  u = await userWithBroker(env, app, `manual-${Date.now()}@teste.com`);
  // No cooldown between this user's trades: the tests open several in a row.
  expect((await u.call("PUT", "/api/settings", { settings: { aiSettings: { cooldownSec: 0 } } })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

describe("GET /api/account/instruments", () => {
  it("lists the account's instruments with pip location, minimum size, margin rate and whether the AI trades them", async () => {
    const r = await u.call<{ instruments: { name: string; displayName: string; pipLocation: number; minimumTradeSize: string; marginRate: string; aiTrades: boolean }[] }>(
      "GET",
      "/api/account/instruments",
    );
    expect(r.status).toBe(200);
    const eur = r.body.instruments.find((i) => i.name === "EUR_USD")!;
    expect(eur).toMatchObject({ pipLocation: -4, aiTrades: true });
    expect(eur.displayName).toMatch(/EUR/);
    expect(Number(eur.marginRate)).toBeGreaterThan(0);
    expect(Number(eur.minimumTradeSize)).toBeGreaterThan(0);
    expect(r.body.instruments.find((i) => i.name === "USD_JPY")?.pipLocation).toBe(-2);

    // The AI trades only the pairs of the user's settings.
    expect((await u.call("PUT", "/api/settings", { settings: { instruments: "EUR_USD" } })).status).toBe(200);
    const after = await u.call<{ instruments: { name: string; aiTrades: boolean }[] }>("GET", "/api/account/instruments");
    expect(after.body.instruments.find((i) => i.name === "GBP_USD")?.aiTrades).toBe(false);
    expect(after.body.instruments.find((i) => i.name === "EUR_USD")?.aiTrades).toBe(true);
    expect((await u.call("PUT", "/api/settings", { settings: { instruments: "*" } })).status).toBe(200);
  });

  it("without a broker: 400 in Portuguese", async () => {
    const login = await registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Sem", lastName: "Corretora", email: `sem-${Date.now()}@teste.com`, password: "Senha123" });
    const call = apiClient(app.url, login.token);
    const r = await call<{ message: string }>("GET", "/api/account/instruments");
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("Nenhuma conta Oanda conectada.");
    const o = await call<{ message: string }>("POST", "/api/orders/market", { instrument: "EUR_USD", units: 1000 });
    expect(o.status).toBe(400);
    expect(o.body.message).toBe("Nenhuma conta Oanda conectada.");
  });
});

describe("POST /api/orders/market", () => {
  let first: OrderBody;

  it("opens at the broker with the stop loss and take profit asked, marked manual", async () => {
    const r = await u.call<OrderBody>("POST", "/api/orders/market", { instrument: "EUR_USD", units: 1000, stopLossPips: 20, takeProfitPips: 40, idempotencyKey: "ordem-1" });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    first = r.body;
    expect(first).toMatchObject({ success: true, status: "filled", replayed: false, origin: "manual", defaulted: { stopLoss: false, takeProfit: false } });
    expect(first.trade).toMatchObject({ side: "buy", units: "1000", origin: "manual" });
    const entry = Number(first.trade!.openPrice);
    expect(Number(first.stopLoss)).toBeCloseTo(entry - 0.002, 4);
    expect(Number(first.takeProfit)).toBeCloseTo(entry + 0.004, 4);
    const open = await brokerOpen(u.call);
    const atBroker = open.find((t) => t.id === first.trade!.id)!;
    expect(Number(atBroker.stopLoss)).toBeCloseTo(Number(first.stopLoss), 5);
    expect(Number(atBroker.takeProfit)).toBeCloseTo(Number(first.takeProfit), 5);
  });

  it("the same idempotency key twice opens one trade and answers the first result", async () => {
    const before = (await brokerOpen(u.call)).length;
    const again = await u.call<OrderBody>("POST", "/api/orders/market", { instrument: "EUR_USD", units: 1000, stopLossPips: 20, takeProfitPips: 40, idempotencyKey: "ordem-1" });
    expect(again.status).toBe(200);
    expect(again.body.replayed).toBe(true);
    expect(again.body.trade!.id).toBe(first.trade!.id);
    expect(again.body.stopLoss).toBe(first.stopLoss);
    expect((await brokerOpen(u.call)).length).toBe(before);
    const n = (await env.db.sql<{ n: number }[]>`select count(*)::int as n from trades where user_id = ${u.userId} and origin = 'manual'`)[0]!.n;
    expect(n).toBe(1);
    // The key used for another order: a 409, nothing sent.
    const other = await u.call<{ message: string }>("POST", "/api/orders/market", { instrument: "EUR_USD", units: 2000, idempotencyKey: "ordem-1" });
    expect(other.status).toBe(409);
    expect(other.body.message).toBe("Esta chave de idempotência já foi usada para outra ordem.");
  });

  it("/api/trading/order is the same handler: side + lots, the Idempotency-Key header, the AI's stop when none is given", async () => {
    const headers = { "Idempotency-Key": "ordem-2" };
    const res = await fetch(app.url + "/api/trading/order", {
      method: "POST",
      headers: { authorization: `Bearer ${u.token}`, "content-type": "application/json", ...headers },
      body: JSON.stringify({ instrument: "GBP/USD", side: "sell", lots: 0.01 }),
    });
    const body = (await res.json()) as OrderBody;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ success: true, origin: "manual", defaulted: { stopLoss: true, takeProfit: true } });
    expect(body.trade).toMatchObject({ side: "sell", units: "1000" });
    expect(Number(body.stopLoss)).toBeGreaterThan(Number(body.trade!.openPrice));
    expect(Number(body.takeProfit)).toBeLessThan(Number(body.trade!.openPrice));
    expect(body.notices[0]).toMatch(/^Stop loss não informado: usado o stop da IA/);
    // The same key on the primary path: the same order.
    const again = await u.call<OrderBody>("POST", "/api/orders/market", { instrument: "GBP_USD", side: "sell", lots: 0.01, idempotencyKey: "ordem-2" });
    expect(again.status).toBe(200);
    expect(again.body.trade!.id).toBe(body.trade!.id);
    const open = await brokerOpen(u.call);
    expect(open.filter((t) => t.instrument === "GBP_USD")).toHaveLength(1);
    expect(Number(open.find((t) => t.instrument === "GBP_USD")!.stopLoss)).toBeCloseTo(Number(body.stopLoss), 5);
  });

  it("units above the leverage cap: 409 with the reason, nothing placed", async () => {
    const before = await brokerOpen(u.call);
    const r = await u.call<{ message: string; code: string }>("POST", "/api/orders/market", { instrument: "USD_JPY", units: 50_000_000, stopLossPips: 20 });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("leverage_cap");
    expect(r.body.message).toMatch(/^Tamanho de 500\.00 lotes acima do máximo de [\d.]+ lotes .*alavancagem máxima de 5× por trade/);
    expect(await brokerOpen(u.call)).toHaveLength(before.length);
    const n = (await env.db.sql<{ n: number }[]>`select count(*)::int as n from order_intents where user_id = ${u.userId} and instrument = 'USD_JPY'`)[0]!.n;
    expect(n).toBe(0);
  });

  it("bad input: 400 in Portuguese, nothing placed", async () => {
    const before = (await brokerOpen(u.call)).length;
    const cases: [unknown, string][] = [
      [{ instrument: "EURUSD", units: 1000 }, "Instrumento inválido: use o formato EUR_USD."],
      [{ instrument: "EUR_USD", units: 10.5 }, "Unidades inválidas: um número inteiro diferente de zero (positivo compra, negativo vende)."],
      [{ instrument: "EUR_USD" }, "Informe as unidades (units) ou os lotes (lots) da ordem."],
      [{ instrument: "EUR_USD", lots: 0.5 }, "Informe a direção (side: buy ou sell) junto com os lotes."],
      [{ instrument: "EUR_USD", units: 1000, stopLossPips: 0 }, "stopLossPips inválido: entre 1 e 10000 pips."],
      [{ instrument: "USD_JPY", units: 1000, stopLoss: "500" }, "Stop loss do lado errado do preço de entrada"],
      [{ instrument: "XAU_USD", units: 1 }, "XAU_USD não é oferecido pela sua conta Oanda."],
    ];
    for (const [body, message] of cases) {
      const r = await u.call<{ message: string }>("POST", "/api/orders/market", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message.startsWith(message), `${r.body.message} ≠ ${message}`).toBe(true);
    }
    expect((await brokerOpen(u.call)).length).toBe(before);
  });

  it("closed, the manual trade is marked manual in /api/trades/history, /history and the CSV", async () => {
    const id = first.trade!.id;
    expect((await u.call("POST", `/api/trades/${id}/close`, { units: "ALL" })).status).toBe(200);
    const h = await u.call<{ trades: { id: string; origin: string | null }[] }>("GET", "/api/trades/history?days=30");
    expect(h.status).toBe(200);
    expect(h.body.trades.find((t) => t.id === id)?.origin).toBe("manual");

    const page = await fetch(app.url + "/history", { headers: { authorization: `Bearer ${u.token}` } });
    const html = await page.text();
    const row = html.slice(html.indexOf(`data-trade-id="${id}"`));
    expect(row.slice(0, row.indexOf("</li>"))).toContain('data-testid="manual-badge"');
    expect(html).toContain('data-testid="origin-split-manual"');

    const detail = await (await fetch(app.url + `/history/${id}`, { headers: { authorization: `Bearer ${u.token}` } })).text();
    expect(detail).toContain('data-testid="manual-badge"');

    const csv = await (await fetch(app.url + "/history.csv", { headers: { authorization: `Bearer ${u.token}` } })).text();
    const lines = csv.replace("\uFEFF", "").trim().split("\r\n");
    expect(lines[0]!.split(";").at(-1)).toBe("Origem");
    expect(lines.find((l) => l.startsWith(`${id};`))!.split(";").at(-1)).toBe("Manual");
  });
});

describe("the AI's risk gate refuses a manual order", () => {
  it("the daily trade count reached: 409 with the gate's reason, nothing placed at the broker", async () => {
    const v = await userWithBroker(env, app, `manual-limite-${Date.now()}@teste.com`);
    expect((await v.call("PUT", "/api/settings", { settings: { maxDailyTrades: 1, aiSettings: { cooldownSec: 0 } } })).status).toBe(200);
    expect((await v.call("POST", "/api/orders/market", { instrument: "EUR_USD", units: 1000 })).status).toBe(200);
    const r = await v.call<{ message: string; code: string }>("POST", "/api/trading/order", { instrument: "USD_JPY", units: -1000, stopLossPips: 15 });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe("Limite diário de 1 trades atingido");
    expect(r.body.code).toBe("max_daily_trades");
    const open = await brokerOpen(v.call);
    expect(open.map((t) => t.instrument)).toEqual(["EUR_USD"]);
  });
});
