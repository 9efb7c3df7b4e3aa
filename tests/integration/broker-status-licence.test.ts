/**
 * Issue 22 item 11b, PRODUCT.md §6 (account data needs a valid licence): GET /api/oanda-auth/status
 * tells a user without a valid licence that the broker account is connected (id, environment) but not
 * its balance, NAV, P&L or margin; with a licence the figures are there. Real server, simulator broker.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;

beforeAll(async () => {
  env = await createTradingEnv({ speed: 0 });
  app = await env.startApp({ WORKERS: "off" });
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

interface Status {
  success: boolean;
  isConnected: boolean;
  account: Record<string, unknown> | null;
  licenseRequired?: boolean;
  message?: string;
}

const FIGURES = ["balance", "nav", "unrealizedPL", "marginUsed", "marginAvailable", "openTradeCount", "openPositionCount", "lastTransactionID"];

describe("GET /api/oanda-auth/status and the licence", () => {
  it("licensed: connected, with the account's balance and NAV", async () => {
    const u = await userWithBroker(env, app, `licenciado${Date.now()}@teste.com`);
    const r = await u.call<Status>("GET", "/api/oanda-auth/status");
    expect(r.status).toBe(200);
    expect(r.body.isConnected).toBe(true);
    expect(r.body.account).toMatchObject({ id: u.accountId, environment: "practice" });
    expect(r.body.account!.balance).toBeDefined();
    expect(r.body.account!.nav).toBeDefined();
    expect(r.body.licenseRequired).toBeUndefined();
  });

  it("unlicensed (expired licence, no subscription): connected, account id and environment, no balance or NAV", async () => {
    const u = await userWithBroker(env, app, `semlicenca${Date.now()}@teste.com`);
    await env.db.sql`update licenses set end_date = now() - interval '1 day' where user_id = ${u.userId}`;
    await env.db.sql`update users set subscription_status = 'inactive' where id = ${u.userId}`;
    const r = await u.call<Status>("GET", "/api/oanda-auth/status");
    expect(r.status).toBe(200);
    expect(r.body.isConnected).toBe(true);
    expect(r.body.account).toMatchObject({ id: u.accountId, environment: "practice" });
    for (const f of FIGURES) expect(r.body.account, f).not.toHaveProperty(f);
    expect(r.body.licenseRequired).toBe(true);
    expect(r.body.message).toBe("Licença necessária para ver os dados da conta.");
    expect(JSON.stringify(r.body)).not.toMatch(/balance|"nav"|unrealizedPL/i);
  });
});
