/**
 * Trade detail (issue 12) on the real server: GET /api/trades/:id and the /history/:id page for a trade the AI
 * really opened and closed on the simulator. Read through the owner (another user's id: 404, same message as
 * an unknown id); "Por que a IA entrou?" fields present (regime, timeframe, confidence, stop/target pips,
 * indicator values, risk verdict) and rendered in the user's language (pt, then en); a trade without a stored
 * decision says so; the page server-renders the chart's text fallback and the decision values.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { createTradingEnv, tickUntil, userWithBroker, type TradingEnv, tradeWithoutEdge } from "../setup/trading-env";

let env: TradingEnv;
let app: AppServer;
let u: Awaited<ReturnType<typeof userWithBroker>>;
let other: Awaited<ReturnType<typeof userWithBroker>>;
let tradeId = "";

interface DetailJson {
  message?: string;
  trade: { id: string; instrument: string; side: string; entryPrice: string; exitPrice: string | null; pips: string | null; realizedPL: string | null; status: string; decisionId: string | null };
  decision: null | {
    timeframe: string;
    confidence: number;
    reason: string;
    regime: { volatility: string; trend: string; label: string; reason: string };
    stopPips: string | null;
    targetPips: string | null;
    indicators: Record<string, number>;
    risk: { allowed: boolean; reason: string };
  };
  decisionMissing: string | null;
}

async function page(path: string, token: string) {
  const res = await fetch(app.url + path, { headers: { authorization: `Bearer ${token}` }, redirect: "manual" });
  return { status: res.status, html: await res.text() };
}

beforeAll(async () => {
  env = await createTradingEnv();
  app = await env.startApp();
  u = await userWithBroker(env, app, `detalhe-${Date.now()}@teste.com`);
  other = await userWithBroker(env, app, `intruso-${Date.now()}@teste.com`);
  // The AI trades these pairs despite no proven edge (the user's override of the edge gate, issue 21).
  await tradeWithoutEdge(u.call);
  const closed = await tickUntil(
    env,
    u.call,
    async () => {
      const rows = await env.db.sql<{ broker_trade_id: string }[]>`
        select broker_trade_id from trades where user_id = ${u.userId} and status = 'closed' and decision_id is not null order by close_time limit 1`;
      tradeId = rows[0]?.broker_trade_id ?? "";
      return tradeId !== "";
    },
    { advanceSeconds: 3600, maxIterations: 150 },
  );
  expect(closed, "o simulador deveria fechar ao menos um trade aberto pela IA").toBe(true);
}, 300_000);

afterAll(async () => {
  await app?.stop();
  await env?.close();
});

describe("GET /api/trades/:id", () => {
  it("gives the owner the trade and the decision that opened it, in Portuguese", async () => {
    const r = await u.call<DetailJson>("GET", `/api/trades/${tradeId}`);
    expect(r.status).toBe(200);
    expect(r.body.trade.id).toBe(tradeId);
    expect(r.body.trade.status).toBe("closed");
    expect(r.body.trade.exitPrice).toMatch(/^\d+\.\d+$/);
    expect(r.body.trade.pips).toMatch(/^-?\d+\.\d$/);
    const d = r.body.decision!;
    expect(d).not.toBeNull();
    expect(["M5", "M15", "M30", "H1"]).toContain(d.timeframe);
    expect(d.confidence).toBeGreaterThan(0);
    expect(d.confidence).toBeLessThanOrEqual(1);
    expect(d.reason).toMatch(/^(Compra|Venda) com confiança/);
    expect(d.regime.label).toMatch(/^Volatilidade (baixa|normal|alta) · (em tendência|lateral)$/);
    expect(d.regime.reason).toMatch(/Volatilidade|Seleção automática/);
    expect(Number(d.stopPips)).toBeGreaterThan(0);
    expect(Number(d.targetPips)).toBeGreaterThan(0);
    for (const k of ["close", "emaFast", "emaSlow", "rsi", "macd", "adx", "atr"]) expect(typeof d.indicators[k], k).toBe("number");
    expect(d.risk).toMatchObject({ allowed: true, reason: "Todas as proteções de risco aprovadas" });
    expect(r.body.decisionMissing).toBeNull();
  });

  it("renders the decision in English for a user who reads English", async () => {
    await env.db.sql`update users set preferences = preferences || '{"language":"en"}'::jsonb where id = ${u.userId}`;
    try {
      const r = await u.call<DetailJson>("GET", `/api/trades/${tradeId}`);
      expect(r.status).toBe(200);
      const d = r.body.decision!;
      expect(d.reason).toMatch(/^(Buy|Sell) with confidence/);
      expect(d.regime.label).toMatch(/^(Low|Normal|High) volatility · (trending|ranging)$/);
      expect(d.risk.reason).toBe("All risk protections passed");
      const html = (await page(`/history/${tradeId}`, u.token)).html;
      expect(html).toContain("Why did the AI enter?");
      expect(html).toContain("All risk protections passed");
    } finally {
      await env.db.sql`update users set preferences = preferences || '{"language":"pt"}'::jsonb where id = ${u.userId}`;
    }
  });

  it("answers 404 to another user (same message as an unknown id) and changes nothing", async () => {
    const theirs = await other.call<DetailJson>("GET", `/api/trades/${tradeId}`);
    expect(theirs.status).toBe(404);
    expect(theirs.body.message).toBe("Trade não encontrado.");
    expect(JSON.stringify(theirs.body)).not.toContain(u.accountId);
    const unknown = await u.call<DetailJson>("GET", "/api/trades/999999999");
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Trade não encontrado.");
    const bad = await u.call<DetailJson>("GET", "/api/trades/..%2Fx");
    expect(bad.status).toBe(404);
  });

  it("says when a trade was not opened by the AI", async () => {
    await env.db.sql`insert into trades (user_id, account_id, environment, broker_trade_id, instrument, side, units, open_price, close_price, realized_pl, status, result, open_time, close_time)
      values (${u.userId}, ${u.accountId}, 'practice', '880001', 'EUR_USD', 'sell', 5000, 1.1, 1.099, 5, 'closed', 'WIN', '2026-01-13T10:00:00Z', '2026-01-13T11:00:00Z')`;
    const r = await u.call<DetailJson>("GET", "/api/trades/880001");
    expect(r.status).toBe(200);
    expect(r.body.decision).toBeNull();
    expect(r.body.decisionMissing).toContain("não foi aberto pela IA");
    expect(r.body.trade.pips).toBe("10.0");
  });
});

describe("/history/:id", () => {
  it("server-renders the figures, the chart's text fallback and 'Por que a IA entrou?' for the owner", async () => {
    const r = await page(`/history/${tradeId}`, u.token);
    expect(r.status).toBe(200);
    expect(r.html).toContain("Por que a IA entrou?");
    expect(r.html).toContain('data-testid="trade-chart"');
    expect(r.html).toContain('data-testid="trade-chart-fallback"');
    expect(r.html).toContain('data-testid="why-indicators"');
    expect(r.html).toContain("Todas as proteções de risco aprovadas");
  });

  it("is the 404 page for another user's trade", async () => {
    const r = await page(`/history/${tradeId}`, other.token);
    expect(r.status).toBe(404);
    expect(r.html).toContain("Trade não encontrado.");
    expect(r.html).not.toContain("Por que a IA entrou?");
  });
});
