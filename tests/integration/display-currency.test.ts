/**
 * Issue 22 item 11 on the real server, PostgreSQL and the simulator (frozen clock: prices stand still):
 * - the trader chooses the display currency: PUT /api/preferences and the /settings no-JS form save it
 *   (a bad value: 400 with the field's message, nothing saved);
 * - EUR on a USD account: GET /api/account/summary carries the amounts converted at 1 / mid(EUR_USD) as
 *   the simulator prices it (decimals, cents), and the dashboard shows "≈ €" beside them, no notice;
 * - BRL (the default) on the simulator, which has no USD_BRL: no rate, no converted figure, and the
 *   notice "Cotação USD/BRL indisponível na corretora: valores em USD" once, on the API and the pages;
 * - "Por que a IA entrou?": the trade detail carries the filled stop/target distances (fill price → the
 *   trade's SL/TP in the books) beside the planned ones: different after a slipped fill, equal otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Decimal } from "../../core/decimal";
import type { AppServer } from "../setup/app-server";
import { settingsFormFor } from "../setup/settings-form";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;
let u: Awaited<ReturnType<typeof userWithBroker>>;

const NOTICE = "Cotação USD/BRL indisponível na corretora: valores em USD";

interface Summary {
  currency: string;
  balance: string;
  NAV: string;
  unrealizedPL: string;
  display: null | { currency: string; rate: string | null; unavailable: boolean; notice: string | null; balance: string | null; NAV: string | null; unrealizedPL: string | null; instruments: string[] };
}

beforeAll(async () => {
  env = await createTradingEnv({ speed: 0 });
  app = await env.startApp();
  u = await userWithBroker(env, app, `moeda-${Date.now()}@teste.com`);
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

async function page(path: string) {
  const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${u.token}` }, redirect: "manual" });
  return { status: res.status, html: await res.text() };
}
const count = (html: string, needle: string) => html.split(needle).length - 1;

/** The simulator's own EUR_USD mid (straight to the simulator with the user's broker token). */
async function eurUsdMid(): Promise<Decimal> {
  const res = await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}/pricing?instruments=EUR_USD`, { headers: { authorization: `Bearer ${u.brokerToken}` } });
  const body = (await res.json()) as { prices: { bids: { price: string }[]; asks: { price: string }[] }[] };
  const p = body.prices[0]!;
  return new Decimal(p.bids[0]!.price).plus(p.asks[0]!.price).div(2);
}

describe("display currency", () => {
  it("BRL by default on the simulator (no USD_BRL): no rate, no converted amount, the notice once", async () => {
    const prefs = await u.call<{ preferences: { currency: string } }>("GET", "/api/preferences");
    expect(prefs.body.preferences.currency).toBe("BRL");
    const s = await u.call<Summary>("GET", "/api/account/summary");
    expect(s.status).toBe(200);
    expect(s.body.currency).toBe("USD");
    expect(s.body.display).toMatchObject({ currency: "BRL", rate: null, unavailable: true, notice: NOTICE, balance: null, NAV: null });
    for (const path of ["/dashboard", "/"]) {
      const { status, html } = await page(path);
      expect(status, path).toBe(200);
      expect(count(html, `data-testid="display-rate-notice"`), path).toBe(1);
      expect(html, path).toContain(NOTICE);
      expect(html, path).not.toContain(`data-testid="converted-amount"`);
    }
  });

  it("PUT /api/preferences currency EUR → the summary carries the amounts at 1 / mid(EUR_USD), the dashboard shows them", async () => {
    const put = await u.call<{ success: boolean; message: string; preferences: { currency: string; language: string; timezone: string } }>("PUT", "/api/preferences", { currency: "EUR" });
    expect(put.status).toBe(200);
    expect(put.body.preferences).toEqual({ language: "pt", currency: "EUR", timezone: "America/Sao_Paulo" });
    expect(put.body.message).toBe("Preferências salvas com sucesso!");

    const s = await u.call<Summary>("GET", "/api/account/summary");
    expect(s.status).toBe(200);
    const d = s.body.display!;
    expect(d).toMatchObject({ currency: "EUR", unavailable: false, notice: null, instruments: ["EUR_USD"] });
    const rate = new Decimal(1).div(await eurUsdMid());
    expect(new Decimal(d.rate!).minus(rate).abs().lt("1e-11")).toBe(true);
    expect(d.balance).toBe(new Decimal(s.body.balance).mul(d.rate!).toDecimalPlaces(2).toFixed(2));
    expect(d.NAV).toBe(new Decimal(s.body.NAV).mul(d.rate!).toDecimalPlaces(2).toFixed(2));
    expect(Number(d.balance)).toBeLessThan(Number(s.body.balance)); // a euro is worth more than a dollar here

    const { html } = await page("/dashboard");
    expect(html).toContain(`data-testid="converted-amount"`);
    const euros = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "EUR", minimumFractionDigits: 2 }).format(Number(d.balance)).replace(/\u00a0/g, " ");
    expect(html).toContain(`≈ <!-- -->${euros}`);
    expect(html).not.toContain(NOTICE);
  });

  it("USD (the account's own): nothing converted, no notice", async () => {
    expect((await u.call("PUT", "/api/preferences", { preferences: { currency: "USD" } })).status).toBe(200);
    const s = await u.call<Summary>("GET", "/api/account/summary");
    expect(s.body.display).toMatchObject({ currency: "USD", rate: null, unavailable: false, notice: null, balance: null });
    const { html } = await page("/dashboard");
    expect(html).not.toContain(`data-testid="converted-amount"`);
    expect(html).not.toContain(`data-testid="display-rate-notice"`);
  });

  it("a bad currency is refused with the field's message and nothing is saved", async () => {
    const r = await u.call<{ message: string }>("PUT", "/api/preferences", { currency: "JPY" });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe("A moeda deve ser BRL, USD ou EUR.");
    expect((await u.call<{ preferences: { currency: string } }>("GET", "/api/preferences")).body.preferences.currency).toBe("USD");
  });

  it("the /settings form (no JavaScript) offers and saves the display currency", async () => {
    const before = await page("/settings");
    expect(before.html).toContain(`name="preferences.currency"`);
    expect(before.html).toContain("Moeda de exibição");
    const form = await settingsFormFor(u.call, { language: "pt", timezone: "America/Sao_Paulo" }, { "preferences.currency": "EUR" });
    const res = await fetch(app.url + "/settings", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Bearer ${u.token}` }, body: form, redirect: "manual" });
    expect(res.status).toBe(200);
    expect((await u.call<{ preferences: { currency: string } }>("GET", "/api/preferences")).body.preferences.currency).toBe("EUR");
    const bad = await settingsFormFor(u.call, { language: "pt", timezone: "America/Sao_Paulo" }, { "preferences.currency": "GBP" });
    const refused = await fetch(app.url + "/settings", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Bearer ${u.token}` }, body: bad, redirect: "manual" });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("A moeda deve ser BRL, USD ou EUR.");
    expect((await u.call<{ preferences: { currency: string } }>("GET", "/api/preferences")).body.preferences.currency).toBe("EUR");
  });
});

describe("'Por que a IA entrou?': planned and filled distances", () => {
  interface Detail {
    trade: { filledStopPips: string | null; filledTargetPips: string | null };
    decision: { stopPips: string | null; targetPips: string | null };
  }
  /** A closed AI trade filled at `fill` with its decision planned at 1.10000, stop 1.09880, target 1.10180. */
  async function trade(id: string, fill: string) {
    const decisionId = `dec-${id}`;
    const payload = { entryPrice: "1.10000", stopLoss: "1.09880", takeProfit: "1.10180", stopPips: "12.0", targetPips: "18.0" };
    await env.db.sql`insert into decisions (user_id, decision_id, instrument, action, side, confidence, timeframe, reason, executed, payload)
      values (${u.userId}, ${decisionId}, 'EUR_USD', 'buy', 'buy', 0.7, 'M15', 'Compra com confiança 70%', true, ${env.db.sql.json(payload)})`;
    await env.db.sql`insert into trades (user_id, account_id, environment, broker_trade_id, decision_id, instrument, side, units, open_price, close_price, stop_loss, take_profit, realized_pl, status, result, open_time, close_time, ai_timeframe)
      values (${u.userId}, ${u.accountId}, 'practice', ${id}, ${decisionId}, 'EUR_USD', 'buy', 10000, ${fill}, 1.10180, 1.09880, 1.10180, 16, 'closed', 'WIN', '2026-01-13T10:00:00Z', '2026-01-13T11:00:00Z', 'M15')`;
  }

  beforeAll(async () => {
    await trade("770001", "1.10020"); // filled 2 pips worse than planned; SL/TP orders at the planned prices
    await trade("770002", "1.10000"); // filled as planned
  });

  it("a slipped fill: the filled distances differ from the planned ones (API and page)", async () => {
    const r = await u.call<Detail>("GET", "/api/trades/770001");
    expect(r.status).toBe(200);
    expect(r.body.decision).toMatchObject({ stopPips: "12.0", targetPips: "18.0" });
    expect(r.body.trade).toMatchObject({ filledStopPips: "14.0", filledTargetPips: "16.0" });
    const { html } = await page("/history/770001");
    const text = html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toContain("planejado 12,0 pips · executado 14,0 pips");
    expect(text).toContain("planejado 18,0 pips · executado 16,0 pips");
  });

  it("a fill at the planned price: equal, and the page says so briefly", async () => {
    const r = await u.call<Detail>("GET", "/api/trades/770002");
    expect(r.body.trade).toMatchObject({ filledStopPips: "12.0", filledTargetPips: "18.0" });
    const { html } = await page("/history/770002");
    const text = html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(text).toContain("planejado 12,0 pips · executado igual ao planejado");
    expect(count(html, `data-same="true"`)).toBe(2);
  });
});
