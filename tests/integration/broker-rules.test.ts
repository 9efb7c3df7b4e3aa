/**
 * Broker-rule check at connect (issue 22): connecting a simulator account whose EUR_USD minimum order
 * size (GET A/instruments minimumTradeSize) is above what the 1 % risk gives on its balance answers,
 * stores and serves (GET /api/oanda-auth/rules) what the AI will and will not do — FIFO account, USD,
 * EUR_USD skipped — /settings shows them ('Regras da sua conta'), and a bot tick that syncs checks again: once the broker lowers the minimum
 * (seen on the list read again after an hour, issue 24) the pair is traded again and the user is notified that the rules changed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, type AppServer } from "../setup/app-server";
import { createTradingEnv, type TradingEnv } from "../setup/trading-env";
import { registerVerifiedAndLogin } from "../setup/verify";

let env: TradingEnv;
let app: AppServer;

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp();
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

interface RulesView {
  mode: string;
  currency: string;
  will: string[];
  wont: string[];
  instruments: { instrument: string; skipped: boolean; minimumTradeSize: string | null; units: string | null }[];
}

describe("broker-rule check", () => {
  it("connect reports and stores the account's rules; a synced tick re-checks them and notifies the change", async () => {
    const login = await registerVerifiedAndLogin(app.url, env.db.url, { firstName: "Rita", lastName: "Lima", email: `rules${Date.now()}@teste.com`, password: "Senha123" });
    const call = apiClient(app.url, login.token);
    const sim = await env.simCall<{ token: string; accounts: { id: string }[] }>("POST", "/sim/users", { environment: "practice" });
    const accountId = sim.accounts[0]!.id;
    await env.simCall("POST", `/sim/accounts/${accountId}/instruments`, { minimumTradeSize: { EUR_USD: "10000000" } });

    // Before connecting there is nothing to read.
    expect((await call("GET", "/api/oanda-auth/rules")).status).toBe(400);

    const connected = await call("POST", "/api/oanda-auth/connect", { token: sim.token, environment: "practice", accountId });
    expect(connected.status).toBe(200);
    const atConnect = (connected.body as { rules: RulesView }).rules;
    expect(atConnect.mode).toBe("fifo");
    expect(atConnect.currency).toBe("USD");
    expect(atConnect.will[0]).toContain("Conta FIFO (sem hedge): a IA nunca mantém duas operações opostas no mesmo par");
    expect(atConnect.will).toContain("Moeda da conta: USD. Saldo, lucro e prejuízo, margem e risco são calculados em USD.");
    const eur = atConnect.instruments.find((i) => i.instrument === "EUR_USD")!;
    expect(eur).toMatchObject({ skipped: true, minimumTradeSize: "10000000" });
    expect(atConnect.wont).toEqual([`EUR_USD: a IA não opera este par — o tamanho mínimo da corretora (10000000 unidades) está acima das ${eur.units} unidades que o risco de 1% permite neste saldo.`]);

    // Stored: the GET serves the same verdict.
    const stored = await call("GET", "/api/oanda-auth/rules");
    expect(stored.status).toBe(200);
    expect((stored.body as { rules: RulesView }).rules.wont).toEqual(atConnect.wont);

    // /settings shows them, server-rendered: 'Regras da sua conta' with the skipped pair.
    const settingsPage = await fetch(`${app.url}/settings`, { headers: { authorization: `Bearer ${login.token}` }, redirect: "manual" });
    expect(settingsPage.status).toBe(200);
    const html = (await settingsPage.text()).replace(/<!-- -->/g, "");
    expect(html).toContain("Regras da sua conta");
    expect(html).toContain("EUR_USD: a IA não opera este par — o tamanho mínimo da corretora (10000000 unidades)");

    // The broker lowers the minimum. A forced tick syncs and re-checks the rules, on the list read less than an hour
    // ago (issue 24: the broker's instruments are re-read at most hourly, RULES_INSTRUMENTS_MAX_AGE_MS): still skipped.
    await env.simCall("POST", `/sim/accounts/${accountId}/instruments`, { minimumTradeSize: { EUR_USD: "1" } });
    expect((await call("POST", "/api/trades/ai/loop/run-once")).status).toBe(200);
    const within = (await call("GET", "/api/oanda-auth/rules")).body as { rules: RulesView };
    expect(within.rules.instruments.find((i) => i.instrument === "EUR_USD")).toMatchObject({ skipped: true, minimumTradeSize: "10000000" });
    // An hour later the re-check reads the broker's list again and sees the new minimum.
    await env.db.sql`update account_states set instruments_read_at = now() - interval '61 minutes'`;
    expect((await call("POST", "/api/trades/ai/loop/run-once")).status).toBe(200);
    const after = (await call("GET", "/api/oanda-auth/rules")).body as { rules: RulesView };
    expect(after.rules.wont).toEqual([]);
    expect(after.rules.instruments.find((i) => i.instrument === "EUR_USD")).toMatchObject({ skipped: false, minimumTradeSize: "1" });
    expect(after.rules.will.some((l) => l.startsWith("EUR_USD: a IA opera até"))).toBe(true);

    const notes = (await call("GET", "/api/notifications")).body as { notifications: { title: string; message: string }[] };
    expect(notes.notifications.map((n) => n.title)).toContain("Regras da conta mudaram");
  }, 120_000);
});
