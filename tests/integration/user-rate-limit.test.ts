/**
 * Issue 8 item 10 (f) over real HTTP: POST /api/notifications/test and POST
 * /api/trades/ai/loop/run-once are limited per user (USER_ACTION_RATE_LIMIT, 10 a minute), counted in
 * PostgreSQL so a second app process sees the same count; past it 429 with a Portuguese message and
 * Retry-After; other users are not affected; a new window counts from zero.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiClient, type AppServer } from "../setup/app-server";
import { createTradingEnv, userWithBroker, type TradingEnv } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;
let user: Awaited<ReturnType<typeof userWithBroker>>;

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp({ WORKERS: "off", USER_ACTION_RATE_LIMIT: "10" });
  user = await userWithBroker(env, app, "limite@teste.com");
}, 180_000);
afterAll(async () => {
  await app?.stop();
  await env?.close();
});

describe("(f) per-user limits on notifications/test and run-once, shared across processes", () => {
  const TOO_MANY = /^Muitas requisições\. Aguarde \d+ segundos e tente novamente\.$/;

  it("POST /api/notifications/test: 10 a minute, the 11th is 429 with Retry-After; another process agrees", async () => {
    for (let i = 0; i < 10; i++) expect((await user.call("POST", "/api/notifications/test")).status, `#${i + 1}`).toBe(201);
    const refused = await fetch(`${app.url}/api/notifications/test`, { method: "POST", headers: { authorization: `Bearer ${user.token}` } });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toMatch(TOO_MANY);
    const retry = Number(refused.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(60);
    const [{ n }] = (await env.db.sql`select count(*)::int as n from notifications where user_id = ${user.userId} and title = 'Notificação de teste'`) as unknown as [{ n: number }];
    expect(n).toBe(10);

    // A second process on the same database sees the same count.
    const second = await env.startApp({ WORKERS: "off", USER_ACTION_RATE_LIMIT: "10" });
    try {
      const other = await apiClient(second.url, user.token)<{ message: string }>("POST", "/api/notifications/test");
      expect(other.status).toBe(429);
      expect(other.body.message).toMatch(TOO_MANY);
    } finally {
      await second.stop();
    }
    // Another user is not affected.
    const b = await userWithBroker(env, app, "outro-limite@teste.com");
    expect((await b.call("POST", "/api/notifications/test")).status).toBe(201);
  });

  it("POST /api/trades/ai/loop/run-once: 10 a minute, then 429; the window ends and calls pass again", async () => {
    for (let i = 0; i < 10; i++) expect((await user.call("POST", "/api/trades/ai/loop/run-once")).status, `#${i + 1}`).not.toBe(429);
    const refused = await user.call<{ message: string }>("POST", "/api/trades/ai/loop/run-once");
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(TOO_MANY);
    // The window started a minute ago: counting starts over.
    await env.db.sql`update user_rate_limits set window_start = now() - interval '61 seconds' where user_id = ${user.userId}`;
    expect((await user.call("POST", "/api/trades/ai/loop/run-once")).status).not.toBe(429);
  });
});
