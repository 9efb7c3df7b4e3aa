/**
 * The pre-flight check reads the stored account and the shared quotes (issue 13 "Web under load",
 * ADR 0028), on a real server, PostgreSQL and the simulator (clock stopped) behind a counting proxy:
 * once a user's account was read and stored, their hero views (GET /_root.data: the hero's account
 * figures and its pre-flight card) and GET /api/trades/ai/preflight ask the broker for no summary,
 * open trades, transactions or instruments; the quotes of every view come from the environment's
 * shared pricing read (at most one per second). The figures are those of the simulator's own account, instruments and prices put
 * through the pre-flight rules (core/risk/preflight.ts), for default and fixed-lot settings.
 */
import { decode } from "turbo-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOandaClient } from "../../core/oanda/client";
import { preflight, type PreflightResult } from "../../core/risk/preflight";
import type { TradingSettings } from "../../core/settings";
import { systemClock } from "../../app/services/platform/system-clock";
import type { AppServer } from "../setup/app-server";
import { startCountedApp, stopCountedApp } from "../setup/counted-app";
import type { CountingProxy } from "../setup/counting-proxy";
import { userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;
let proxy: CountingProxy;

beforeAll(async () => {
  ({ env, proxy, app } = await startCountedApp({ WORKERS: "off" }));
}, 120_000);
afterAll(async () => {
  await stopCountedApp({ app, proxy, env });
});

type User = Awaited<ReturnType<typeof userWithBroker>>;

/** The hero's loader data (GET /_root.data, the index route), as its revalidation reads it. */
async function hero(u: User): Promise<{ broker: { account: { balance: string } }; preflight: PreflightResult | null; preflightError: string | null }> {
  const res = await fetch(`${app.url}/_root.data`, { headers: { authorization: `Bearer ${u.token}` } });
  expect(res.status).toBe(200);
  const decoded = await decode(res.body!);
  await decoded.done;
  const data = (decoded.value as Record<string, { data?: unknown }>)["routes/_index"]?.data;
  expect(data).toBeDefined();
  return data as Awaited<ReturnType<typeof hero>>;
}

/** GET /api/trades/ai/preflight of the user. */
async function api(u: User): Promise<PreflightResult & { warnings: { code: string; instrument?: string }[] }> {
  const r = await u.call<PreflightResult & { warnings: { code: string; instrument?: string }[] }>("GET", "/api/trades/ai/preflight");
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** The simulator's own client for the user's account (straight to it: not counted). */
const simClient = (u: User) =>
  createOandaClient({ environment: "practice", token: u.brokerToken, apiUrl: `${env.sim.url}/practice`, streamUrl: `${env.sim.url}/practice`, clock: systemClock });

/** The pre-flight figures the simulator's account, instruments and prices give for `settings`. */
async function expectedPreflight(u: User, settings: TradingSettings): Promise<PreflightResult> {
  const c = simClient(u);
  const [summary, list] = await Promise.all([c.getAccountSummary(u.accountId), c.getInstruments(u.accountId)]);
  // '*' kept to the simulator's pairs; USD_JPY is its own conversion pair for a USD account.
  const instruments = ["EUR_USD", "GBP_USD", "USD_JPY"];
  return preflight({
    settings,
    balance: summary.balance,
    accountCurrency: summary.currency,
    instruments,
    prices: await c.getPricing(u.accountId, instruments),
    marginRates: Object.fromEntries(list.filter((i) => instruments.includes(i.name)).map((i) => [i.name, i.marginRate])),
  });
}

describe("pre-flight views with a fresh stored account", () => {
  it("ask the broker for nothing but the shared pricing read, and show the simulator's figures", { timeout: 120_000 }, async () => {
    const users: User[] = [];
    for (let i = 0; i < 4; i++) users.push(await userWithBroker(env, app, `pfacct${i}-${Date.now()}@teste.com`));
    for (const [i, u] of users.entries()) {
      const c = simClient(u);
      // A closed trade (the spread paid: a balance that is not 100,000) and, for half, one still open.
      await c.createMarketOrder(u.accountId, { instrument: "EUR_USD", units: "10000" });
      for (const t of await c.listOpenTrades(u.accountId)) await c.closeTrade(u.accountId, t.id);
      if (i % 2) await c.createMarketOrder(u.accountId, { instrument: "USD_JPY", units: "-2000" });
      if (i >= 2) expect((await u.call("PUT", "/api/settings", { settings: { lotMode: "fixed", fixedLot: 3 } })).status).toBe(200);
    }
    // First views: each account is checked, read and stored (and its instruments listed).
    for (const u of users) {
      await hero(u);
      await api(u);
    }
    await new Promise((r) => setTimeout(r, 1100)); // past the per-user screen view and the quotes (1 s)

    proxy.counts.clear();
    proxy.state.counting = true;
    const started = Date.now();
    const views = await Promise.all(users.map(async (u) => ({ hero: await hero(u), api: await api(u) })));
    const seconds = (Date.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 300)); // background refreshes started by the views are counted too
    proxy.state.counting = false;
    const byKind = Object.fromEntries(proxy.counts);
    for (const k of Object.keys(byKind)) expect(["GET pricing"], JSON.stringify(byKind)).toContain(k);
    // Quotes are shared for a second: at most one read per second of views for every user (one on an idle machine).
    expect(byKind["GET pricing"] ?? 0, `${JSON.stringify(byKind)} in ${seconds} s`).toBeLessThanOrEqual(Math.floor(seconds) + 1);

    for (const [i, u] of users.entries()) {
      const settings = (await u.call<{ settings: TradingSettings }>("GET", "/api/settings")).body.settings;
      const { warnings, ...figures } = await expectedPreflight(u, settings);
      const v = views[i]!;
      expect(figures.balance).not.toBe("100000.00");
      expect(v.hero.preflightError).toBeNull();
      expect(v.hero.preflight).toMatchObject(figures);
      expect(v.hero.preflight!.warnings.map((w) => w.code)).toEqual(warnings.map((w) => w.code));
      expect(v.api).toMatchObject(figures);
      expect(v.api.warnings.map((w) => w.code)).toEqual(warnings.map((w) => w.code));
      if (i >= 2) expect(warnings.length).toBeGreaterThan(0);
    }
  });
});
