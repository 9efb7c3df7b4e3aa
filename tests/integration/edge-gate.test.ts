/**
 * The edge gate live (issue 21) on the real server and the simulator over HTTP: with the shipped edge
 * table, an opening the AI decides on a pair without a proven edge in the chosen style is recorded as
 * "none" with its reason ("Sem vantagem estatística comprovada para EUR/USD no estilo Swing", in the
 * user's language on the API) and no order reaches the broker; once the user overrides the pair
 * (aiSettings.edgeOverrides), the same AI orders it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasEdge } from "../../core/research/edge-table";
import { SHIPPED_EDGE_TABLE } from "../../core/trading/edge-gate";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, tickUntil, userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp({ WORKERS: "off" }); // ticks only through run-once
}, 120_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

// Swing pairs of the simulator's data that the shipped table shows no edge for (all of them until the study says otherwise).
const PAIRS = ["EUR_USD", "GBP_USD", "USD_JPY"].filter((i) => !hasEdge(SHIPPED_EDGE_TABLE, i, "swing"));
const STYLE_PT = "Swing";

describe("the edge gate on the live bot", () => {
  it.skipIf(PAIRS.length === 0)("records the no-edge decision and sends no order; with the override the AI orders the pair", { timeout: 300_000 }, async () => {
    const u = await userWithBroker(env, app, `edge-${Date.now()}@teste.com`);
    const saved = await u.call("PUT", "/api/settings", { settings: { instruments: PAIRS, aiSettings: { tradingStyle: "swing", news: { enabled: false } } } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const gated = () => env.db.sql<{ instrument: string; action: string; reason: string; reason_msg: { key: string }; executed: boolean }[]>`
      select instrument, action, reason, reason_msg, executed from decisions where user_id = ${u.userId} and risk_code = 'no_edge' order by id`;
    expect(await tickUntil(env, u.call, async () => (await gated()).length > 0, { advanceSeconds: 3600, maxIterations: 200 })).toBe(true);

    const [d] = await gated();
    expect(d).toMatchObject({ action: "none", executed: false, reason_msg: { key: "engine:decision.noEdge" } });
    expect(d!.reason).toBe(`Sem vantagem estatística comprovada para ${d!.instrument.replace("_", "/")} no estilo ${STYLE_PT}`);
    // Nothing reached the broker: no order intent, no trade, no open trade at the simulator.
    expect(await env.db.sql`select 1 from order_intents where user_id = ${u.userId}`).toHaveLength(0);
    expect(await env.db.sql`select 1 from trades where user_id = ${u.userId}`).toHaveLength(0);
    const open = await fetch(`${env.sim.url}/practice/v3/accounts/${u.accountId}/openTrades`, { headers: { authorization: `Bearer ${u.brokerToken}` } });
    expect(((await open.json()) as { trades: unknown[] }).trades).toHaveLength(0);
    // The hero's last decisions say why, in the user's language.
    const status = await u.call<{ lastDecisions: { instrument: string; reason: string }[] }>("GET", "/api/trades/ai/loop/status");
    expect(status.body.lastDecisions.map((x) => x.reason)).toContain(d!.reason);

    // The user trades the pairs anyway: the AI now orders them.
    const override = await u.call<{ settings: { aiSettings: { edgeOverrides: string[] } } }>("PUT", "/api/settings", { settings: { aiSettings: { edgeOverrides: PAIRS } } });
    expect(override.status).toBe(200);
    const opened = () => env.db.sql<{ instrument: string }[]>`select instrument from trades where user_id = ${u.userId}`;
    expect(await tickUntil(env, u.call, async () => (await opened()).length > 0, { advanceSeconds: 3600, maxIterations: 200 })).toBe(true);
    expect(PAIRS).toContain((await opened())[0]!.instrument);
  });
});
