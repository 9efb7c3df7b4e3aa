/**
 * Issue 22, trading-day boundary the user chooses: `tradingDayBoundary` round-trips through
 * PUT /api/settings (default local midnight, also for a stored row written before the field existed;
 * a bad value is a 400 in Portuguese and nothing is saved), and the /settings page shows the select
 * "Início do dia de negociação" with its hint and saves it from a plain form post (no JavaScript).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { settingsFormFor } from "../setup/settings-form";
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

type SettingsBody = { settings: Record<string, unknown> & { tradingDayBoundary?: string }; message?: string };

async function page(path: string): Promise<{ status: number; html: string }> {
  const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${u.token}` }, redirect: "manual" });
  return { status: res.status, html: await res.text() };
}

async function postForm(path: string, body: URLSearchParams): Promise<{ status: number; html: string }> {
  const res = await fetch(app.url + path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Bearer ${u.token}` }, body, redirect: "manual" });
  return { status: res.status, html: await res.text() };
}

describe("tradingDayBoundary through PUT /api/settings", () => {
  it("defaults to local midnight, saves ny_close and keeps the other settings", async () => {
    const before = await u.call<SettingsBody>("GET", "/api/settings");
    expect(before.body.settings.tradingDayBoundary).toBe("local_midnight");
    const put = await u.call<SettingsBody>("PUT", "/api/settings", { settings: { tradingDayBoundary: "ny_close" } });
    expect(put.status).toBe(200);
    expect(put.body.settings.tradingDayBoundary).toBe("ny_close");
    const after = await u.call<SettingsBody>("GET", "/api/settings");
    expect(after.body.settings).toEqual({ ...before.body.settings, tradingDayBoundary: "ny_close" });
  });

  it("refuses an unknown boundary with a Portuguese 400 and saves nothing", async () => {
    const before = await u.call<SettingsBody>("GET", "/api/settings");
    const bad = await u.call<SettingsBody>("PUT", "/api/settings", { settings: { tradingDayBoundary: "tokyo_open" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("tradingDayBoundary deve ser um de local_midnight, ny_close");
    expect((await u.call<SettingsBody>("GET", "/api/settings")).body.settings).toEqual(before.body.settings);
  });

  it("a stored row written before the field existed loads as local midnight", async () => {
    await env.db.sql`update trading_settings set settings = settings - 'tradingDayBoundary' where user_id = ${u.userId}`;
    const r = await u.call<SettingsBody>("GET", "/api/settings");
    expect(r.body.settings.tradingDayBoundary).toBe("local_midnight");
  });
});

describe("/settings page (works without JavaScript)", () => {
  it("shows the select with both choices and the hint, and a plain form post saves the choice", async () => {
    const r = await page("/settings");
    expect(r.status).toBe(200);
    for (const text of ["Início do dia de negociação", "Meia-noite local", "Fechamento de Nova York (17:00)", "limite de perda diária, o número de trades por dia e as estatísticas de hoje"])
      expect(r.html).toContain(text);
    expect(r.html).toMatch(/<select[^>]*name="tradingDayBoundary"/);

    const saved = await postForm("/settings", await settingsFormFor(u.call, { language: "pt", timezone: "America/Sao_Paulo" }, { tradingDayBoundary: "ny_close" }));
    expect(saved.status).toBe(200);
    expect((await u.call<SettingsBody>("GET", "/api/settings")).body.settings.tradingDayBoundary).toBe("ny_close");
    // The page now shows the saved choice selected.
    expect((await page("/settings")).html).toMatch(/<option[^>]*value="ny_close"[^>]*selected|<select[^>]*name="tradingDayBoundary"[^>]*>[\s\S]*?<option value="ny_close" selected/);

    const back = await postForm("/settings", await settingsFormFor(u.call, { language: "pt", timezone: "America/Sao_Paulo" }, { tradingDayBoundary: "local_midnight" }));
    expect(back.status).toBe(200);
    expect((await u.call<SettingsBody>("GET", "/api/settings")).body.settings.tradingDayBoundary).toBe("local_midnight");
  });
});
