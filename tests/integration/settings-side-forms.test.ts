/**
 * The /settings page action's side forms, posted as plain HTML forms (no JavaScript), through
 * `pageAction` (issue 23 item 5): the "Operar mesmo assim" switch (issue 21: the warning step for a
 * pair without an edge, its Cancelar that saves nothing, ON after the confirmation, OFF at once, an
 * unknown pair refused with its message), the push topics (issue 11: saved, an unknown topic refused)
 * and the broker disconnect (then 'not connected' with 400). Each answer shows in its own card.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;
let u: Awaited<ReturnType<typeof userWithBroker>>;

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp();
  u = await userWithBroker(env, app, `lados-${Date.now()}@teste.com`);
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await env?.close();
});

async function page(): Promise<string> {
  const res = await fetch(app.url + "/settings", { headers: { authorization: `Bearer ${u.token}` } });
  expect(res.status).toBe(200);
  return res.text();
}

async function post(fields: [string, string][]): Promise<{ status: number; html: string }> {
  const res = await fetch(app.url + "/settings", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Bearer ${u.token}` },
    body: new URLSearchParams(fields),
    redirect: "manual",
  });
  return { status: res.status, html: await res.text() };
}

const overrides = async () => (await u.call<{ settings: { aiSettings: { edgeOverrides: string[] } } }>("GET", "/api/settings")).body.settings.aiSettings.edgeOverrides;

describe("/settings side forms through the page action", () => {
  it("edge switch: warning step, Cancelar saves nothing, ON after confirming, OFF at once; an unknown pair is refused", async () => {
    // The switches are the forms of the pairs without a proven edge in the chosen style.
    const pair = /name="instrument" value="([A-Z]{3}_[A-Z]{3})"/.exec(await page())?.[1];
    expect(pair, "ao menos um par sem vantagem no estilo padrão").toBeTruthy();
    const name = pair!.replace("_", "/");

    const step = await post([["intent", "edge-override"], ["instrument", pair!], ["enable", "1"]]);
    expect(step.status).toBe(200);
    expect(step.html).toContain('data-testid="edge-warning"');
    expect(await overrides()).not.toContain(pair);

    const cancel = await post([["intent", "edge-override"], ["instrument", pair!], ["enable", "1"], ["confirmed", "1"], ["cancel", "1"]]);
    expect(cancel.status).toBe(200);
    expect(cancel.html).not.toContain('data-testid="edge-warning"');
    expect(await overrides()).not.toContain(pair);

    const on = await post([["intent", "edge-override"], ["instrument", pair!], ["enable", "1"], ["confirmed", "1"]]);
    expect(on.status).toBe(200);
    expect(on.html).toContain(`${name}: a IA vai operar mesmo sem vantagem comprovada.`);
    expect(await overrides()).toContain(pair);

    const off = await post([["intent", "edge-override"], ["instrument", pair!], ["enable", "0"]]);
    expect(off.status).toBe(200);
    expect(off.html).toContain(`${name}: a IA volta a operar só com vantagem comprovada.`);
    expect(await overrides()).not.toContain(pair);

    const unknown = await post([["intent", "edge-override"], ["instrument", "XXX_YYY"], ["enable", "0"]]);
    expect(unknown.status).toBe(400);
    expect(unknown.html).toContain("Par desconhecido: escolha entre");
  });

  it("push topics: saved for the user; an unknown topic is refused and changes nothing", async () => {
    const saved = await post([["intent", "push-topics"], ["pushTopics", "trades"], ["pushTopics", "risk"]]);
    expect(saved.status).toBe(200);
    expect(saved.html).toContain("Preferências de notificação salvas.");
    const stored = async () => (await env.db.sql`select preferences from users where id = ${u.userId}`)[0]!.preferences.pushTopics;
    expect(await stored()).toEqual(["trades", "risk"]);

    const bad = await post([["intent", "push-topics"], ["pushTopics", "trades"], ["pushTopics", "tudo"]]);
    expect(bad.status).toBe(400);
    expect(bad.html).toContain("Tópicos de notificação inválidos.");
    expect(await stored()).toEqual(["trades", "risk"]);
  });

  it("disconnect: the connection goes, a second time answers 400", async () => {
    const first = await post([["intent", "disconnect"]]);
    expect(first.status).toBe(200);
    expect(first.html).toContain("Conta Oanda desconectada.");
    expect((await u.call<{ isConnected: boolean }>("GET", "/api/oanda-auth/status")).body.isConnected).toBe(false);
    const again = await post([["intent", "disconnect"]]);
    expect(again.status).toBe(400);
  });
});
