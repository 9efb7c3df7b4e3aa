/**
 * The dashboard's account reads (issue 13 "Web under load", ADR 0028), on a real server, PostgreSQL
 * and the simulator (clock stopped) behind a counting proxy:
 * - a view whose stored account state was looked at within SCREEN_CHECK_MAX_AGE_MS asks the broker
 *   for nothing about the account (no summary, open trades or transactions); its open trades are
 *   valued at the environment's shared quotes, so many users' views share at most one pricing read;
 * - the figures are the broker's: balance, NAV, unrealized P&L and the open trade's P&L equal the
 *   simulator's own, as decimal strings;
 * - a trade closed through the product leaves the open list on the next view (the cursor moved:
 *   the stored state is read again).
 */
import { decode } from "turbo-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { startCountedApp, stopCountedApp } from "../setup/counted-app";
import type { CountingProxy } from "../setup/counting-proxy";
import { apiClient } from "../setup/app-server";
import { userWithBroker, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

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

interface DashboardData {
  broker: { isConnected: boolean; account: { balance: string; nav: string; unrealizedPL: string; openTradeCount: number } };
  open: { id: string; instrument: string; unrealizedPL: string; currentPrice: string | null }[];
}

/** The dashboard's loader data, as the page's 15 s revalidation reads it (GET /dashboard.data). */
async function dashboard(u: User): Promise<DashboardData> {
  const res = await fetch(`${app.url}/dashboard.data`, { headers: { authorization: `Bearer ${u.token}` } });
  if (res.status !== 200) console.log(app.output().split("\n").filter((l) => /error|Error/.test(l)).slice(-5).join("\n"));
  expect(res.status).toBe(200);
  const decoded = await decode(res.body!);
  await decoded.done;
  const value = decoded.value as Record<string, { data?: DashboardData }>;
  const data = value["routes/dashboard"]?.data;
  expect(data, JSON.stringify(Object.keys(value))).toBeDefined();
  return data!;
}

/** A request straight to the simulator with the user's broker token (not through the proxy: not counted). */
async function atBroker(u: User, method: string, path: string, body?: unknown) {
  const res = await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}${path}`, {
    method,
    headers: { authorization: `Bearer ${u.brokerToken}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as Record<string, unknown>;
}

describe("dashboard account reads", () => {
  it("views with a freshly looked-at stored state ask the broker nothing about the account and show the broker's figures", { timeout: 120_000 }, async () => {
    const users: User[] = [];
    for (let i = 0; i < 5; i++) users.push(await userWithBroker(env, app, `dash${i}-${Date.now()}@teste.com`));
    for (const u of users) await atBroker(u, "POST", "/orders", { order: { type: "MARKET", instrument: "EUR_USD", units: i2units(u), timeInForce: "FOK", positionFill: "DEFAULT" } });
    // First views: the account is checked and read once, and stored.
    for (const u of users) await dashboard(u);
    await new Promise((r) => setTimeout(r, 1100)); // past the per-user screen cache (ACCOUNT_STATE_TTL_MS)

    proxy.counts.clear();
    proxy.state.counting = true;
    const views = await Promise.all(users.map((u) => dashboard(u)));
    proxy.state.counting = false;
    const byKind = Object.fromEntries(proxy.counts);
    // Quotes are shared by the environment (one read serves every view); nothing else is asked.
    for (const k of Object.keys(byKind)) expect(["GET pricing"], JSON.stringify(byKind)).toContain(k);
    expect(byKind["GET pricing"] ?? 0).toBeLessThanOrEqual(1);

    for (const [i, u] of users.entries()) {
      const sim = (await atBroker(u, "GET", "/summary")).account as { balance: string; NAV: string; unrealizedPL: string };
      const simTrades = (await atBroker(u, "GET", "/openTrades")).trades as { id: string; unrealizedPL: string }[];
      const v = views[i]!;
      expect(v.broker.account).toMatchObject({ balance: sim.balance, nav: sim.NAV, unrealizedPL: sim.unrealizedPL, openTradeCount: 1 });
      expect(v.open).toHaveLength(1);
      expect(v.open[0]).toMatchObject({ id: simTrades[0]!.id, instrument: "EUR_USD", unrealizedPL: simTrades[0]!.unrealizedPL });
      expect(v.open[0]!.currentPrice).toMatch(/^\d+\.\d+$/);
    }
  });

  it("a trade closed through the product leaves the open list on the next view", { timeout: 60_000 }, async () => {
    const u = await userWithBroker(env, app, `dash-close-${Date.now()}@teste.com`);
    await atBroker(u, "POST", "/orders", { order: { type: "MARKET", instrument: "USD_JPY", units: "1000", timeInForce: "FOK", positionFill: "DEFAULT" } });
    const before = await dashboard(u);
    expect(before.open).toHaveLength(1);
    expect((await u.call("POST", `/api/trades/${before.open[0]!.id}/close`, { units: "ALL" })).status).toBe(200);
    const after = await dashboard(u);
    expect(after.open).toHaveLength(0);
    const sim = (await atBroker(u, "GET", "/summary")).account as { balance: string };
    expect(after.broker.account.balance).toBe(sim.balance);
  });
});

describe("the hero right after connecting or disconnecting", () => {
  /** The hero's loader data (GET /_root.data, the index route), as its revalidation reads it. */
  async function heroBroker(token: string): Promise<{ isConnected: boolean }> {
    const res = await fetch(`${app.url}/_root.data`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const decoded = await decode(res.body!);
    await decoded.done;
    const data = (decoded.value as Record<string, { data?: { broker: { isConnected: boolean } } }>)["routes/_index"]?.data;
    expect(data).toBeDefined();
    return data!.broker;
  }

  it("shows the account at once after connecting and none at once after disconnecting (no 1 s cached view)", { timeout: 60_000 }, async () => {
    const login = await registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Ana", lastName: "Souza", email: `dash-conn-${Date.now()}@teste.com`, password: "Senha123" });
    const call = apiClient(app.url, login.token);
    expect((await heroBroker(login.token)).isConnected).toBe(false);
    const simUser = await env.simCall<{ token: string; accounts: { id: string }[] }>("POST", "/sim/users", { environment: "practice" });
    const connected = await call("POST", "/api/oanda-auth/connect", { token: simUser.token, environment: "practice", accountId: simUser.accounts[0]!.id });
    expect(connected.status).toBe(200);
    expect((await heroBroker(login.token)).isConnected).toBe(true);
    expect((await call("POST", "/api/oanda-auth/disconnect")).status).toBe(200);
    expect((await heroBroker(login.token)).isConnected).toBe(false);
  });
});

/** Alternating long and short orders. */
function i2units(u: User): string {
  return Number.parseInt(u.accountId.replace(/\D/g, "").slice(-1) || "0", 10) % 2 ? "-1000" : "1000";
}
