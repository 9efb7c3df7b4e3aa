/**
 * Issue 8 item 10: two app users could connect the same broker account, and two bots would then
 * trade it, each counting only its own trades against the risk limits. One app user per broker
 * account: the second connect is refused (409, Portuguese), also when both arrive at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, type AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

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

async function newUser(name: string) {
  const email = `${name}${Date.now()}${Math.round(Math.random() * 1e6)}@teste.com`;
  const body = await registerVerifiedAndLogin(app.url, env.db.url, { firstName: name, lastName: "Teste", email, password: "Senha123" });
  return apiClient(app.url, body.token);
}

describe("one app user per broker account", () => {
  it("refuses a second user on a connected account, with the reason", async () => {
    const owner = await userWithBroker(env, app);
    const other = await newUser("Bia");
    const r = await other<{ success: boolean; message: string }>("POST", "/api/oanda-auth/connect", { token: owner.brokerToken, environment: "practice", accountId: owner.accountId });
    expect(r.status).toBe(409);
    expect(r.body.message).toBe("Esta conta Oanda já está conectada a outro usuário do Forex IA.");
    // the owner keeps the account; after the owner disconnects, the other user may take it
    expect((await owner.call<{ isConnected: boolean }>("GET", "/api/oanda-auth/status")).body.isConnected).toBe(true);
    expect((await owner.call("POST", "/api/oanda-auth/disconnect")).status).toBe(200);
    expect((await other("POST", "/api/oanda-auth/connect", { token: owner.brokerToken, environment: "practice", accountId: owner.accountId })).status).toBe(200);
  });

  it("two users connecting one account at the same moment: exactly one succeeds", async () => {
    const sim = await env.simCall<{ token: string; accounts: { id: string }[] }>("POST", "/sim/users", { environment: "practice" });
    const users = await Promise.all(["Caio", "Duda", "Enzo"].map(newUser));
    const results = await Promise.all(users.map((u) => u("POST", "/api/oanda-auth/connect", { token: sim.token, environment: "practice", accountId: sim.accounts[0]!.id })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });
});
