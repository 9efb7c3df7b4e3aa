/**
 * The user's own backtest (issue 12) on the real server (production build), real PostgreSQL and
 * real pg-boss workers: a run is created with the user's current settings, progresses, finishes
 * with statistics, trades and the random baseline band; another user cannot see it (404); bad
 * requests get Portuguese 400s; one run at a time per user (429); the broker source reads the
 * user's own connection (the simulator). The long history (issue 21) comes from FX_LONG_DIR, here a
 * fixture folder written into a temp dir: offered with each pair's dates, refused outside them in
 * Portuguese, run on H1 past the 92 days of the other sources, and named on the result.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServer } from "../setup/app-server";
import { rmSync } from "node:fs";
import { createTradingEnv, userWithBroker, type TradingEnv, tradeWithoutEdge } from "../setup/trading-env";
import { writeLongFixture } from "../setup/fx-long-fixture";

let env: TradingEnv;
let app: AppServer;
let a: Awaited<ReturnType<typeof userWithBroker>>;
let b: Awaited<ReturnType<typeof userWithBroker>>;
let longDir: string;

interface Run {
  id: string;
  status: string;
  progress: number;
  error: string | null;
  params: { instruments: string[]; settings: { maxTrades: number; tradingStyle: string }; seeds: number; source: string };
  result?: {
    stats: { trades: number; profitFactor: string | null; netPnl: string; finalBalance: string };
    trades: { reasonMsg: { key: string }; reasonText: string; exitReason: string; pnl: string; rMultiple: string | null }[];
    equity: { time: number; value: number }[];
    drawdown: { time: number; value: number }[];
    band: { time: number[]; p5: number[]; p50: number[]; p95: number[] };
    baseline: { seeds: number; netPnlPercentile: number; medianNetPnl: number };
    calendar?: { newsFilter: boolean; events: number; inPeriod: number };
  };
}

/** Polls a run until it is done or failed; returns it and the statuses/progress seen on the way. */
async function waitDone(call: typeof a.call, id: string, timeoutMs = 120_000) {
  const seen: { status: string; progress: number }[] = [];
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = await call<{ run: Run }>("GET", `/api/backtest/${id}`);
    expect(r.status).toBe(200);
    seen.push({ status: r.body.run.status, progress: r.body.run.progress });
    if (r.body.run.status === "done" || r.body.run.status === "failed") return { run: r.body.run, seen };
    if (Date.now() > until) throw new Error(`backtest ${id} não terminou: ${JSON.stringify(seen.slice(-3))}`);
    await new Promise((res) => setTimeout(res, 150));
  }
}

beforeAll(async () => {
  env = await createTradingEnv();
  longDir = writeLongFixture({ EUR_USD: ["2014-06-02", "2015-07-01", 1.2, 5], GBP_USD: ["2015-01-05", "2015-07-01", 1.5, 5] });
  app = await env.startApp({ FX_LONG_DIR: longDir });
  a = await userWithBroker(env, app, `bt-a-${Date.now()}@teste.com`);
  b = await userWithBroker(env, app, `bt-b-${Date.now()}@teste.com`);
  // The AI trades these pairs despite no proven edge (the user's override of the edge gate, issue 21).
  for (const u of [a, b]) await tradeWithoutEdge(u.call);
  // A's current settings: a recognisable risk, which the run must use.
  const saved = await a.call("PUT", "/api/settings", { settings: { maxTrades: 5 } });
  expect(saved.status).toBe(200);
}, 180_000);

afterAll(async () => {
  await app?.stop();
  await env?.close();
  if (longDir) rmSync(longDir, { recursive: true, force: true });
});

describe("backtest runs", () => {
  it("offers the shipped pairs and dates, and the broker source for a connected user", async () => {
    const r = await a.call<{ runs: unknown[]; offer: { shipped: { instruments: string[]; minDate: string; maxDate: string }; broker: { instruments: string[] } | null } }>("GET", "/api/backtest");
    expect(r.status).toBe(200);
    expect(r.body.runs).toEqual([]);
    expect(r.body.offer.shipped.instruments).toEqual(expect.arrayContaining(["EUR_USD", "GBP_USD", "USD_JPY"]));
    expect(r.body.offer.shipped.minDate).toBe("2026-01-04");
    expect(r.body.offer.shipped.maxDate).toBe("2026-04-03");
    expect(r.body.offer.broker?.instruments).toContain("EUR_USD");
  });

  it("refuses bad requests with Portuguese 400s, nothing stored", async () => {
    const cases: [unknown, string][] = [
      [{ source: "arquivo", instruments: ["EUR_USD"], from: "2026-01-12", to: "2026-02-06" }, "Fonte de candles inválida: use os dados do simulador ou a sua corretora."],
      [{ source: "shipped", instruments: [], from: "2026-01-12", to: "2026-02-06" }, "Escolha de 1 a 3 pares."],
      [{ source: "shipped", instruments: ["EUR_USD", "GBP_USD", "USD_JPY", "AUD_USD"], from: "2026-01-12", to: "2026-02-06" }, "Escolha de 1 a 3 pares."],
      [{ source: "shipped", instruments: ["XAU_USD"], from: "2026-01-12", to: "2026-02-06" }, "Par indisponível nesta fonte: XAU_USD."],
      [{ source: "shipped", instruments: ["EUR_USD"], from: "12/01/2026", to: "2026-02-06" }, "Informe o período com datas válidas (AAAA-MM-DD)."],
      // Issue 24: impossible calendar days are not rolled over into the next month.
      [{ source: "shipped", instruments: ["EUR_USD"], from: "2026-01-12", to: "2026-02-31" }, "Informe o período com datas válidas (AAAA-MM-DD)."],
      [{ source: "shipped", instruments: ["EUR_USD"], from: "2026-01-00", to: "2026-02-06" }, "Informe o período com datas válidas (AAAA-MM-DD)."],
      [{ source: "shipped", instruments: ["EUR_USD"], from: "2025-12-01", to: "2026-02-06" }, "O período deve ficar entre 2026-01-04 e 2026-04-03, com o início antes do fim."],
      [{ source: "shipped", instruments: ["EUR_USD"], from: "2026-02-06", to: "2026-01-12" }, "O período deve ficar entre 2026-01-04 e 2026-04-03, com o início antes do fim."],
      [{ source: "shipped", instruments: ["EUR_USD"], from: "2026-01-12", to: "2026-02-06", initialBalance: 5 }, "Saldo inicial inválido: use um valor entre 100 e 10.000.000."],
    ];
    for (const [body, message] of cases) {
      const r = await a.call<{ message: string }>("POST", "/api/backtest", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toBe(message);
    }
    const offer = await a.call<{ offer: { broker: { minDate: string; maxDate: string } } }>("GET", "/api/backtest");
    const long = await a.call<{ message: string }>("POST", "/api/backtest", { source: "broker", instruments: ["EUR_USD"], from: offer.body.offer.broker.minDate, to: offer.body.offer.broker.maxDate });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe("O período pode ter no máximo 92 dias.");
    const [n] = await env.db.sql<{ n: number }[]>`select count(*)::int as n from backtest_runs`;
    expect(n!.n).toBe(0);
  });

  let runId: string;
  it("runs the user's current settings as a job: queued → running with progress → done with stats, trades and the band", { timeout: 180_000 }, async () => {
    const created = await a.call<{ run: Run; message: string }>("POST", "/api/backtest", { source: "shipped", instruments: ["EUR_USD"], from: "2026-01-12", to: "2026-02-06" });
    expect(created.status).toBe(202);
    expect(created.body.message).toBe("Backtest enfileirado.");
    runId = created.body.run.id;
    expect(created.body.run.status).toBe("queued");
    expect(created.body.run.params.settings.maxTrades).toBe(5);

    // One run at a time: a second one while this one is queued or running is refused.
    const busy = await fetch(`${app.url}/api/backtest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${a.token}` },
      body: JSON.stringify({ source: "shipped", instruments: ["GBP_USD"], from: "2026-01-12", to: "2026-02-06" }),
    });
    expect(busy.status).toBe(429);
    expect(((await busy.json()) as { message: string }).message).toBe("Você já tem um backtest em andamento. Aguarde ele terminar para rodar outro.");
    expect(Number(busy.headers.get("retry-after"))).toBeGreaterThan(0);

    const { run, seen } = await waitDone(a.call, runId);
    expect(run.error).toBeNull();
    expect(run.status).toBe("done");
    expect(run.progress).toBe(100);
    expect(seen.some((s) => s.status === "running" && s.progress > 0 && s.progress < 100), JSON.stringify(seen)).toBe(true);
    const progress = seen.map((s) => s.progress);
    expect([...progress].sort((x, y) => x - y)).toEqual(progress);

    const r = run.result!;
    expect(r.stats.trades).toBe(r.trades.length);
    expect(r.trades.length).toBeGreaterThan(0);
    for (const t of r.trades) {
      expect(t.reasonMsg.key).toMatch(/:/);
      expect(t.reasonText.length).toBeGreaterThan(5);
      expect(["STOP_LOSS", "TAKE_PROFIT", "TRAILING_STOP", "MAX_HOLD", "WEEKEND_FLAT", "END"]).toContain(t.exitReason);
    }
    expect(r.equity.length).toBeGreaterThan(100);
    expect(r.equity[0]!.value).toBe(10000);
    expect(r.equity.at(-1)!.value).toBeCloseTo(Number(r.stats.finalBalance), 2);
    expect(r.drawdown).toHaveLength(r.equity.length);
    expect(Math.max(...r.drawdown.map((p) => p.value))).toBeLessThanOrEqual(0);
    expect(r.band.time).toEqual(r.equity.map((p) => p.time));
    expect(r.band.p5.every((v, i) => v <= r.band.p50[i]! && r.band.p50[i]! <= r.band.p95[i]!)).toBe(true);
    expect(r.baseline.seeds).toBe(run.params.seeds);
    // The result says which calendar it ran with (issue 22 item 12): the shipped one, with events in the period.
    expect(r.calendar).toMatchObject({ newsFilter: true, events: 1665 });
    expect(r.calendar!.inPeriod).toBeGreaterThan(0);
    expect(r.baseline.netPnlPercentile).toBeGreaterThanOrEqual(0);
    expect(r.baseline.netPnlPercentile).toBeLessThanOrEqual(100);

    const list = await a.call<{ runs: Run[] }>("GET", "/api/backtest");
    expect(list.body.runs.map((x) => x.id)).toEqual([runId]);
    expect(list.body.runs[0]!.result).toBeUndefined();
  });

  it("another user cannot read, list or delete it (404)", async () => {
    const get = await b.call<{ message: string }>("GET", `/api/backtest/${runId}`);
    expect(get.status).toBe(404);
    expect(get.body.message).toBe("Backtest não encontrado.");
    expect((await b.call<{ runs: Run[] }>("GET", "/api/backtest")).body.runs).toEqual([]);
    expect((await b.call("DELETE", `/api/backtest/${runId}`)).status).toBe(404);
    const page = await fetch(`${app.url}/backtest/${runId}`, { headers: { authorization: `Bearer ${b.token}` }, redirect: "manual" });
    expect(page.status).toBe(404);
    expect((await a.call("GET", `/api/backtest/${runId}`)).status).toBe(200);
  });

  it("runs on the user's broker candles (the simulator serves them)", { timeout: 180_000 }, async () => {
    const created = await b.call<{ run: Run }>("POST", "/api/backtest", { source: "broker", instruments: ["EUR_USD"], from: "2026-01-06", to: "2026-01-13" });
    expect(created.status).toBe(202);
    const { run } = await waitDone(b.call, created.body.run.id);
    expect(run.error).toBeNull();
    expect(run.status).toBe("done");
    expect(run.params.source).toBe("broker");
    expect(run.result!.equity.length).toBeGreaterThan(50);
  });

  it("a run left 'running' by a dead process is failed with a Portuguese message, freeing the user", async () => {
    const [row] = await env.db.sql<{ id: string }[]>`
      insert into backtest_runs (user_id, status, progress, params, started_at, updated_at)
      values (${a.userId}, 'running', 40, ${env.db.sql.json({ instruments: ["EUR_USD"], source: "shipped", from: "2026-01-12", to: "2026-02-06" })}, now() - interval '1 hour', now() - interval '1 hour')
      returning id`;
    const r = await a.call<{ run: Run }>("GET", `/api/backtest/${row!.id}`);
    expect(r.body.run.status).toBe("failed");
    expect(r.body.run.error).toBe("O backtest foi interrompido (o servidor reiniciou). Rode de novo.");
  });

  it("deletes a finished run of the user's", async () => {
    const del = await a.call("DELETE", `/api/backtest/${runId}`);
    expect(del.status).toBe(200);
    expect((await a.call("GET", `/api/backtest/${runId}`)).status).toBe(404);
  });

  it("runs on the long history (FX_LONG_DIR): each pair's dates, Portuguese 400 outside them, H1 past 92 days, source named", { timeout: 240_000 }, async () => {
    const offer = await b.call<{ offer: { long: { instruments: string[]; minDate: string; maxDate: string; ranges: Record<string, { minDate: string; maxDate: string }>; maxDays: number } | null } }>("GET", "/api/backtest");
    const long = offer.body.offer.long!;
    expect(long.instruments).toEqual(["EUR_USD", "GBP_USD"]);
    expect(long.ranges.GBP_USD).toEqual({ minDate: "2015-01-05", maxDate: "2015-06-30" });
    expect([long.minDate, long.maxDate]).toEqual(["2014-06-02", "2015-06-30"]);
    expect(long.maxDays).toBeGreaterThan(92);

    const before = await b.call<{ message: string }>("POST", "/api/backtest", { source: "long", instruments: ["EUR_USD", "GBP_USD"], from: "2014-09-01", to: "2015-03-01" });
    expect(before.status).toBe(400);
    expect(before.body.message).toBe("O período deve ficar entre 2015-01-05 e 2015-06-30, com o início antes do fim.");
    const after = await b.call<{ message: string }>("POST", "/api/backtest", { source: "long", instruments: ["EUR_USD"], from: "2015-01-05", to: "2015-07-31" });
    expect(after.status).toBe(400);
    expect(after.body.message).toBe("O período deve ficar entre 2014-06-02 e 2015-06-30, com o início antes do fim.");

    // 119 days: more than the shipped data's 92.
    const created = await b.call<{ run: Run }>("POST", "/api/backtest", { source: "long", instruments: ["EUR_USD"], from: "2014-09-01", to: "2014-12-28" });
    expect(created.status).toBe(202);
    const { run } = await waitDone(b.call, created.body.run.id, 200_000);
    expect(run.error).toBeNull();
    expect(run.status).toBe("done");
    expect(run.params.source).toBe("long");
    const result = run.result as Run["result"] & { stepTimeframe: string; candles: number };
    expect(result.stepTimeframe).toBe("H1");
    // H1 bars of the 17 weeks traded (5 days × 24 h a week, minus the Friday/Sunday closure).
    expect(result.candles).toBeGreaterThan(1900);
    expect(result.candles).toBeLessThan(2100);
    expect(result.equity[0]!.time * 1000).toBeGreaterThanOrEqual(Date.parse("2014-09-01"));
    expect(result.equity.at(-1)!.time * 1000).toBeLessThanOrEqual(Date.parse("2014-12-29"));

    // The page names the source and the period.
    const page = await fetch(`${app.url}/backtest/${run.id}`, { headers: { authorization: `Bearer ${b.token}` } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Histórico longo (H1)");
    expect(html).toContain("Fonte: histórico longo em H1, de 2014-09-01 a 2014-12-28.");
  });
});
