/**
 * /history, /history.csv and /settings on the real server (production build) over HTTP: filters in
 * the URL (server-rendered, so they work without JavaScript), the row rules (other accounts and other
 * users out), the CSV download (BOM, header, filtered rows), and the settings page action (a POST
 * form: out-of-range rejected with the server's message and nothing saved; language saved).
 * Closed trades: real ones from the simulator (AI ticks) plus rows placed at known times.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import Papa from "papaparse";
import { localDate as zonedDate } from "../../core/risk/trading-day";
import { zonedDayStart } from "../../app/lib/history";
import type { AppServer } from "../setup/app-server";
import { settingsFormFor } from "../setup/settings-form";
import { createTradingEnv, tickUntil, userWithBroker, type TradingEnv, tradeWithoutEdge } from "../setup/trading-env";

const TZ = "America/Sao_Paulo";
const DAY = 86_400_000;

let env: TradingEnv;
let app: AppServer;
let u: Awaited<ReturnType<typeof userWithBroker>>;
let other: Awaited<ReturnType<typeof userWithBroker>>;
let simClosed: { broker_trade_id: string; close_time: Date }[] = [];
/** Local date (São Paulo) two days ago; the WIN row closes at 23:30 local on that day. */
let winDay: string;

async function page(path: string, token = u.token): Promise<{ status: number; html: string; headers: Headers }> {
  const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${token}` }, redirect: "manual" });
  return { status: res.status, html: await res.text(), headers: res.headers };
}
const rowIds = (html: string) => [...html.matchAll(/data-trade-id="([^"]+)"/g)].map((m) => m[1]);
const count = (html: string) => /data-testid="history-count"[^>]*>([^<]*(?:<!-- -->[^<]*)*)</.exec(html)?.[1]?.replace(/<!-- -->/g, "");

async function insertTrade(userId: string, accountId: string, id: string, over: { instrument?: string; side?: string; pnl: string; result: string; close: Date; open?: string; closePrice?: string }) {
  await env.db.sql`insert into trades (user_id, account_id, environment, broker_trade_id, instrument, side, units, open_price, close_price, realized_pl, status, result, open_time, close_time, ai_timeframe, ai_reason)
    values (${userId}, ${accountId}, 'practice', ${id}, ${over.instrument ?? "EUR_USD"}, ${over.side ?? "buy"}, 10000, ${over.open ?? "1.08000"}, ${over.closePrice ?? "1.08250"},
            ${over.pnl}, 'closed', ${over.result}, ${new Date(over.close.getTime() - 3_600_000)}, ${over.close}, 'M15', 'Teste de integração')`;
}

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp();
  u = await userWithBroker(env, app, `hist-${Date.now()}@teste.com`);
  other = await userWithBroker(env, app, `outro-${Date.now()}@teste.com`);
  // The AI trades these pairs despite no proven edge (the user's override of the edge gate, issue 21).
  await tradeWithoutEdge(u.call);

  // Real closed trades from the simulator (bounded loop; the sim clock is in January 2026).
  const closed = await tickUntil(
    env,
    u.call,
    async () => {
      simClosed = await env.db.sql`select broker_trade_id, close_time from trades where user_id = ${u.userId} and status = 'closed'`;
      return simClosed.length > 0;
    },
    { advanceSeconds: 3600, maxIterations: 150 },
  );
  expect(closed, "o simulador deveria fechar ao menos um trade").toBe(true);

  // The rows below are placed on our clock: make the connection's broker clock ours (as on real OANDA),
  // so the simulator's January 2026 trades fall outside the default 30-day window.
  await env.db.sql`update broker_connections set market_clock_offset_ms = 0 where user_id = ${u.userId}`;
  const now = Date.now();
  winDay = zonedDate(now - 2 * DAY, TZ);
  await insertTrade(u.userId, u.accountId, "900001", { pnl: "25.50", result: "WIN", close: new Date(zonedDayStart(winDay, TZ) + 23.5 * 3_600_000) });
  await insertTrade(u.userId, u.accountId, "900002", { instrument: "USD_JPY", side: "sell", pnl: "-10.00", result: "LOSS", close: new Date(now - 5 * DAY), open: "151.2345", closePrice: "151.3" });
  await insertTrade(u.userId, u.accountId, "900003", { instrument: "GBP_USD", pnl: "0", result: "BE", close: new Date(now - 40 * DAY) });
  await insertTrade(u.userId, "001-001-9999999-001", "900004", { pnl: "99.00", result: "WIN", close: new Date(now - DAY) }); // another account of the same user
  await insertTrade(other.userId, other.accountId, "900005", { pnl: "77.00", result: "WIN", close: new Date(now - DAY) }); // another user
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await env?.close();
});

describe("/history", () => {
  it("default window is 30 days, only the connected account's own trades", async () => {
    const r = await page("/history");
    expect(r.status).toBe(200);
    expect(r.html).toContain("Histórico de Trades");
    expect(r.html).toContain("Trades Executados");
    expect(rowIds(r.html)).toEqual(["900001", "900002"]);
    expect(count(r.html)).toBe("2 de 2 trade(s)");
    expect(r.html).not.toContain('data-testid="filtered-badge"');
    // Display: lots 0.10, JPY prices with 3 decimals.
    expect(r.html).toContain("151.235");
    expect(r.html).toContain("0.10");
  });

  it("filters from the URL: result, side, instrument substring, P&L bounds, the whole end day", async () => {
    const win = await page("/history?result=WIN");
    expect(rowIds(win.html)).toEqual(["900001"]);
    expect(count(win.html)).toBe("1 de 2 trade(s)");
    expect(win.html).toContain('data-testid="filtered-badge"');
    expect(rowIds((await page("/history?side=sell")).html)).toEqual(["900002"]);
    expect(rowIds((await page("/history?instrument=jpy")).html)).toEqual(["900002"]);
    expect(rowIds((await page("/history?minPnL=-10&maxPnL=0")).html)).toEqual(["900002"]);
    expect(rowIds((await page(`/history?dateFrom=${winDay}&dateTo=${winDay}`)).html)).toEqual(["900001"]);
    expect(rowIds((await page("/history?q=venda")).html)).toEqual(["900002"]);
  });

  it("dateFrom widens the window (older and simulator trades appear); an empty match offers 'Limpar Filtros'", async () => {
    const r = await page("/history?dateFrom=2026-01-01");
    const ids = rowIds(r.html);
    expect(ids).toEqual(expect.arrayContaining(["900001", "900002", "900003", ...simClosed.map((t) => t.broker_trade_id)]));
    expect(ids).not.toContain("900004");
    expect(ids).not.toContain("900005");
    const none = await page("/history?instrument=AUD");
    expect(none.html).toContain("Nenhum resultado para os filtros aplicados");
    expect(none.html).toContain("Limpar Filtros");
  });

  it("a bad filter answers 400 with the Portuguese message", async () => {
    const r = await page("/history?side=long");
    expect(r.status).toBe(400);
    expect(r.html).toContain("side deve ser buy ou sell");
  });

  it("logged out goes to /auth", async () => {
    const res = await fetch(app.url + "/history", { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/auth");
  });
});

describe("/history.csv", () => {
  it("downloads the filtered rows: BOM, ';' header, decimal comma, attachment name", async () => {
    const r = await page("/history.csv?result=LOSS");
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(r.headers.get("content-disposition")).toMatch(/^attachment; filename="historico-trades-\d{4}-\d{2}-\d{2}\.csv"$/);
    const res = await fetch(app.url + "/history.csv?result=LOSS", { headers: { authorization: `Bearer ${u.token}` } });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = Papa.parse<string[]>(r.html.replace(/^\uFEFF/, ""), { delimiter: ";", skipEmptyLines: true }).data;
    expect(rows[0]).toEqual(["ID", "Instrumento", "Direção", "Lotes", "Unidades", "Preço de entrada", "Preço de saída", "P&L", "Resultado", "Abertura", "Fechamento", "Timeframe IA", "Motivo IA", "Origem"]);
    expect(rows.slice(1).map((x) => x[0])).toEqual(["900002"]);
    expect(rows[1]!.slice(1, 9)).toEqual(["USD/JPY", "VENDA", "0,10", "10000", "151,235", "151,300", "-10,00", "LOSS"]);
  });

  it("same window rule as the page, never another user's or account's trades", async () => {
    const all = await page("/history.csv?dateFrom=2026-01-01");
    const ids = Papa.parse<string[]>(all.html.replace(/^\uFEFF/, ""), { delimiter: ";", skipEmptyLines: true }).data.slice(1).map((x) => x[0]);
    expect(ids).toEqual(expect.arrayContaining(["900001", "900002", "900003", ...simClosed.map((t) => t.broker_trade_id)]));
    expect(ids).not.toContain("900004");
    expect(ids).not.toContain("900005");
    const theirs = await page("/history.csv", other.token);
    expect(theirs.html).toContain("900005");
    expect(theirs.html).not.toContain("900001");
    const bad = await page("/history.csv?minPnL=abc");
    expect(bad.status).toBe(400);
    expect(bad.html).toBe("minPnL deve ser um número");
  });
});

/** The settings form as the page posts it, from the current settings, with overrides. */
const settingsForm = (over: Record<string, string | null>) => settingsFormFor(u.call, { language: "pt", timezone: TZ }, over);

async function post(path: string, body: URLSearchParams, headers: Record<string, string> = { authorization: `Bearer ${u.token}` }) {
  const res = await fetch(app.url + path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body, redirect: "manual" });
  return { status: res.status, html: await res.text() };
}

describe("/settings page action", () => {
  it("renders the sections with the §5 HTML bounds", async () => {
    const r = await page("/settings");
    expect(r.status).toBe(200);
    for (const text of ["Configurações Avançadas", "Gestão de Risco", "Parâmetros de Trading e IA", "Recarregar", "Salvar Tudo", "Salvar Todas as Configurações", "Válida"])
      expect(r.html).toContain(text);
    expect(r.html).toMatch(/name="maxTrades"[^>]*min="1"[^>]*max="20"[^>]*step="1"/);
    expect(r.html).toMatch(/name="dailyLossLimitPct"[^>]*min="0.5"[^>]*max="20"[^>]*step="0.5"/);
    expect(r.html).toMatch(/name="aiSettings.cooldownSec"[^>]*min="0"[^>]*max="3600"[^>]*step="5"/);
    // Issue 7: trading hours, weekend guard and the unrealized-loss option in 'Gestão de Risco'.
    for (const text of ["Horário de negociação", "Início", "Fim", "Dias", "Fim de semana", "Não abrir novas posições antes do fechamento", "Zerar posições antes do fechamento", "Desligado", "Minutos antes do fechamento", "Incluir P&amp;L não realizado no limite diário"])
      expect(r.html).toContain(text);
    expect(r.html).toMatch(/name="tradingHours.start"[^>]*type="time"[^>]*value="00:00"/);
    expect(r.html).toMatch(/name="weekend.minutesBeforeClose"[^>]*min="0"[^>]*max="720"[^>]*step="5"/);
    expect([...r.html.matchAll(/name="tradingHours.days"/g)]).toHaveLength(7);
  });

  it("rejects out-of-range input with the server's Portuguese message and saves nothing", async () => {
    const before = await u.call<{ settings: { maxTrades: number; slRatio: number } }>("GET", "/api/settings");
    const r = await post("/settings", await settingsForm({ maxTrades: "25", slRatio: "2", "preferences.language": "es" }));
    expect(r.status).toBe(400);
    expect(r.html).toContain("Erro ao salvar configurações: maxTrades deve estar entre 1 e 20");
    const after = await u.call<{ settings: { maxTrades: number; slRatio: number } }>("GET", "/api/settings");
    expect(after.body.settings).toEqual(before.body.settings);
    const [row] = await env.db.sql`select preferences from users where id = ${u.userId}`;
    expect(row!.preferences.language).toBe("pt");
  });

  it("saves valid input (unticked checkbox = false), the language preference, and scalper follows a chosen style", async () => {
    const r = await post(
      "/settings",
      await settingsForm({ maxTrades: "5", tpRatio: "2.5", "aiSettings.indicators.ema": null, "aiSettings.tradingStyle": "scalper", "preferences.language": "en", "preferences.timezone": "Europe/Lisbon" }),
    );
    expect(r.status).toBe(200);
    const saved = await u.call<{ settings: { maxTrades: number; tpRatio: number; aiSettings: { tradingStyle: string; indicators: { ema: boolean; rsi: boolean }; scalper: { enabled: boolean } } } }>("GET", "/api/settings");
    expect(saved.body.settings).toMatchObject({ maxTrades: 5, tpRatio: 2.5, aiSettings: { tradingStyle: "scalper", indicators: { ema: false, rsi: true }, scalper: { enabled: true } } });
    const [row] = await env.db.sql`select preferences from users where id = ${u.userId}`;
    expect(row!.preferences).toMatchObject({ language: "en", timezone: "Europe/Lisbon", currency: "BRL" });
    // The page now speaks English.
    expect((await page("/settings")).html).toContain("Advanced Settings");

    const day = await post("/settings", await settingsForm({ "aiSettings.tradingStyle": "day", "preferences.language": "pt" }));
    expect(day.status).toBe(200);
    const after = await u.call<{ settings: { aiSettings: { scalper: { enabled: boolean } } } }>("GET", "/api/settings");
    expect(after.body.settings.aiSettings.scalper.enabled).toBe(false);
  });

  it("saves trading hours, weekend mode and the unrealized option from the form (issue 7); rejects a bad time", async () => {
    const r = await post(
      "/settings",
      await settingsForm({ "tradingHours.enabled": "on", "tradingHours.start": "22:00", "tradingHours.end": "06:00", "tradingHours.days": "1,3,7", "weekend.mode": "flat", "weekend.minutesBeforeClose": "60", dailyLossIncludesUnrealized: "on" }),
    );
    expect(r.status).toBe(200);
    const saved = await u.call<{ settings: Record<string, unknown> }>("GET", "/api/settings");
    expect(saved.body.settings).toMatchObject({
      tradingHours: { enabled: true, start: "22:00", end: "06:00", days: [1, 3, 7] },
      weekend: { mode: "flat", minutesBeforeClose: 60 },
      dailyLossIncludesUnrealized: true,
    });
    const bad = await post("/settings", await settingsForm({ "tradingHours.start": "25:00" }));
    expect(bad.status).toBe(400);
    expect(bad.html).toContain("Erro ao salvar configurações: tradingHours.start deve ser um horário entre 00:00 e 23:59 (HH:MM)");
    expect((await u.call<{ settings: unknown }>("GET", "/api/settings")).body.settings).toEqual(saved.body.settings);
    // back to the defaults for the other tests
    const reset = await post("/settings", await settingsForm({ "tradingHours.enabled": null, "tradingHours.start": "00:00", "tradingHours.end": "23:59", "tradingHours.days": "1,2,3,4,5", "weekend.mode": "no_entry", "weekend.minutesBeforeClose": "120", dailyLossIncludesUnrealized: null }));
    expect(reset.status).toBe(200);
  });

  it("refuses a cross-site form post and saves nothing", async () => {
    const before = await u.call<{ settings: { maxTrades: number } }>("GET", "/api/settings");
    const r = await post("/settings", await settingsForm({ maxTrades: "9" }), { authorization: `Bearer ${u.token}`, origin: "https://evil.example" });
    // server/origin-check.ts refuses it before Remix runs the action.
    expect(r.status).toBe(403);
    const after = await u.call<{ settings: { maxTrades: number } }>("GET", "/api/settings");
    expect(after.body.settings.maxTrades).toBe(before.body.settings.maxTrades);
    expect(after.body.settings.maxTrades).not.toBe(9);
  });
});
