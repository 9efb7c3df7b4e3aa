/**
 * Issue 11, news calendar end to end: the `calendar-refresh` pg-boss job fetches a ForexFactory-style
 * feed from a local HTTP server into PostgreSQL (UTC times, impacts, deduplicated on refresh, a feed
 * failure keeps the stored events), and the live bot (real server, simulator over HTTP at 2026-01-14
 * 10:00Z, clock frozen) refuses entries during a blackout with a reason that names the event, and
 * trades again after it. The hero shows the same blackout. Without a feed (the embedded default)
 * the shipped data/calendar files are loaded, once, into the same table.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import PgBoss from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { calendarIndex, calendarUsedFor, heroNews, refreshCalendar } from "../../app/services/trading/calendar.server";
import { blackoutAt } from "../../core/calendar";
import { defaultSettings } from "../../core/settings";
import type { AppServer } from "../setup/app-server";
import { inProcessApp } from "../setup/in-process";
import { createTradingEnv, userWithBroker, type TradingEnv, tradeWithoutEdge } from "../setup/trading-env";

/** The feed as the publisher writes it: New York time with its offset (EST in January). */
let feed: unknown[] = [
  { title: "Teste CPI m/m", country: "USD", date: "2026-01-14T05:02:00-05:00", impact: "High", forecast: "0.2%", previous: "0.3%" },
  { title: "German Teste ZEW", country: "EUR", date: "2026-01-14T06:00:00-05:00", impact: "Medium", forecast: "", previous: "45.8" },
  { title: "Teste BOJ Speech", country: "JPY", date: "2026-01-14T19:30:00-05:00", impact: "Low", forecast: "", previous: "" },
  { title: "Bank Holiday", country: "JPY", date: "2026-01-12T00:00:00-05:00", impact: "Holiday", forecast: "", previous: "" },
];
let failing = false;
let hits = 0;
const server = http.createServer((req, res) => {
  hits++;
  if (failing) {
    res.writeHead(503, { "content-type": "text/plain" }).end("indisponível");
    return;
  }
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(feed));
});

let env: TradingEnv;
let app: AppServer;
let boss: PgBoss;

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`tempo esgotado: ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const rows = () => env.db.sql<{ title: string; time: Date; currency: string; impact: string; forecast: string | null; source: string }[]>`select title, time, currency, impact, forecast, source from calendar_events order by time, title`;
const completedRefreshes = async () =>
  Number((await env.db.sql<{ n: string }[]>`select count(*)::text as n from pgboss.job where name = 'calendar-refresh' and state = 'completed'`)[0]!.n);

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  env = await createTradingEnv({ speed: 0, startAt: "2026-01-14T10:00:00Z" });
  app = await env.startApp({ NEWS_CALENDAR_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/ff_calendar_thisweek.json` });
  boss = new PgBoss({ connectionString: env.db.url, max: 1, supervise: false, schedule: false, migrate: false });
  await boss.start();
}, 120_000);
afterAll(async () => {
  await boss?.stop({ graceful: false });
  await app?.stop();
  await env?.close();
  server.close();
});

describe("calendar-refresh job", () => {
  it("stores the feed at boot in UTC, deduplicates a second refresh and updates figures, keeps the events when the feed fails", async () => {
    await until("primeira atualização", async () => (await completedRefreshes()) >= 1);
    const first = await rows();
    expect(first.map((r) => [r.title, r.time.toISOString(), r.currency, r.impact])).toEqual([
      ["Bank Holiday", "2026-01-12T05:00:00.000Z", "JPY", "non-economic"],
      ["Teste CPI m/m", "2026-01-14T10:02:00.000Z", "USD", "high"],
      ["German Teste ZEW", "2026-01-14T11:00:00.000Z", "EUR", "medium"],
      ["Teste BOJ Speech", "2026-01-15T00:30:00.000Z", "JPY", "low"],
    ]);
    expect(new Set(first.map((r) => r.source))).toEqual(new Set(["feed"]));

    // Second run through pg-boss: same events plus a revised forecast → still one row each.
    feed = feed.map((e) => ((e as { title: string }).title === "Teste CPI m/m" ? { ...(e as object), forecast: "0.4%" } : e));
    const done = await completedRefreshes();
    await boss.send("calendar-refresh", {});
    await until("segunda atualização", async () => (await completedRefreshes()) > done);
    const second = await rows();
    expect(second).toHaveLength(4);
    expect(second.find((r) => r.title === "Teste CPI m/m")!.forecast).toBe("0.4%");

    // The feed fails (every retry): the job logs it and the stored events stay.
    failing = true;
    const before = hits;
    const done2 = await completedRefreshes();
    await boss.send("calendar-refresh", {});
    await until("atualização com falha", async () => (await completedRefreshes()) > done2, 45_000);
    failing = false;
    expect(hits - before).toBe(3);
    expect(await rows()).toEqual(second);
    expect(app.output()).toMatch(/falha ao atualizar; eventos anteriores mantidos/);
  }, 90_000);
});

describe("live bot during a blackout", () => {
  it("opens nothing while the USD release blacks out every USD pair, names the event, and trades are allowed again after it", async () => {
    const email = `news${Date.now()}@teste.com`;
    const u = await userWithBroker(env, app, email);
    await tradeWithoutEdge(u.call); // the blackout is the subject: the AI would trade these pairs otherwise (edge gate override, issue 21)
    const tick = async () => {
      const r = await u.call<{ success: boolean; decisions: { instrument: string; action: string; risk?: string; executed: boolean }[] }>("POST", "/api/trades/ai/loop/run-once");
      expect(r.status).toBe(200);
      return r.body.decisions;
    };
    // 10:00Z: inside [10:02 − 5 min, 10:02 + 10 min] of "Teste CPI m/m (USD)"; EUR_USD, GBP_USD and USD_JPY all carry USD.
    const during = await tick();
    expect(during.map((d) => d.instrument).sort()).toEqual(["EUR_USD", "GBP_USD", "USD_JPY"]);
    for (const d of during) {
      expect(d.risk).toBe("Pausa por notícia: Teste CPI m/m (USD)");
      expect(d.executed).toBe(false);
    }
    const trades = await env.db.sql`select id from trades where user_id = ${u.userId}`;
    expect(trades).toHaveLength(0);
    const stored = await env.db.sql<{ risk_code: string | null; risk_reason: string | null }[]>`select risk_code, risk_reason from decisions where user_id = ${u.userId}`;
    expect(stored).toHaveLength(3);
    for (const r of stored) expect(r).toEqual({ risk_code: "news_blackout", risk_reason: "Pausa por notícia: Teste CPI m/m (USD)" });

    // The hero shows the running blackout and the next events of the user's pairs.
    const login = await fetch(`${app.url}/api/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: "Senha123" }) });
    const cookie = login.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const hero = await fetch(`${app.url}/`, { headers: { cookie, accept: "text/html" } });
    expect(hero.status).toBe(200);
    const html = (await hero.text()).replace(/<!-- -->/g, "");
    // 10:12Z in the user's default time zone (America/Sao_Paulo, UTC−3).
    expect(html).toContain("Bloqueio por notícia: Teste CPI m/m (USD) até 07:12");
    expect(html).toContain("German Teste ZEW");
    // The JPY speech is low impact (sensitivity medium: high + medium only); the holiday is past.
    expect(html).not.toContain("Teste BOJ Speech");

    // 10:13Z: the window has closed: no decision is refused for news any more.
    await env.simCall("POST", "/sim/clock", { advanceSeconds: 13 * 60 });
    // Quotes up to 1 s old are shared (ADR 0025) and a steady tick asks the broker nothing else (ADR 0027), so a
    // simulator clock jump is seen once the hero's cached quotes of 10:00 have expired.
    await new Promise((r) => setTimeout(r, 1_200));
    const after = await tick();
    expect(after.length).toBe(3);
    for (const d of after) expect(d.risk ?? "").not.toMatch(/notícia/);
  }, 90_000);
});

describe("embedded default: the shipped calendar files", () => {
  const testDb = inProcessApp();
  it("loads data/calendar into the table once (a second run adds nothing) and the index finds January 2026 releases", async () => {
    const first = await refreshCalendar();
    expect(first).toMatchObject({ source: "files", ok: true, stored: 1208 + 457 });
    const count = async () => Number((await testDb().sql<{ n: string }[]>`select count(*)::text as n from calendar_events`)[0]!.n);
    expect(await count()).toBe(1665);
    expect(await refreshCalendar()).toMatchObject({ source: "files", ok: true, stored: 0 });
    expect(await count()).toBe(1665);
    const news = defaultSettings().aiSettings.news;
    const b = blackoutAt(await calendarIndex(), "EUR_USD", new Date("2026-01-09T13:35:00Z"), news);
    expect(b).toMatchObject({ active: true });
    expect(b.event).toMatch(/\(USD\)$/);
    expect(blackoutAt(await calendarIndex(), "EUR_USD", new Date("2026-01-09T12:00:00Z"), news).active).toBe(false);
    // A user without a broker connection: the hero list is relative to the wall clock (no events in the future of the data).
    const [user] = await testDb().sql<{ id: string }[]>`insert into users (email, password_hash) values ('news-hero@teste.com', 'x') returning id`;
    const hero = await heroNews(user!.id);
    expect(hero).toMatchObject({ enabled: true, blackout: null });
  });
});

describe("first use right after a boot (issue 22 item 12)", () => {
  const testDb = inProcessApp();
  it("the first calendar read stores the shipped files itself, once, so a backtest run before the refresh job has the calendar and says so", async () => {
    globalThis.__calendarState = undefined; // a fresh process: the refresh job has not run
    const [index, again] = await Promise.all([calendarIndex(), calendarIndex()]);
    expect(index.size).toBe(1665);
    expect(again).toBe(index);
    expect(Number((await testDb().sql<{ n: string }[]>`select count(*)::text as n from calendar_events`)[0]!.n)).toBe(1665);
    const used = await calendarUsedFor(defaultSettings(), Date.parse("2026-01-12T00:00:00Z"), Date.parse("2026-01-17T00:00:00Z"));
    expect(used).toMatchObject({ newsFilter: true, events: 1665 });
    expect(used.inPeriod).toBeGreaterThan(0);
    expect(used.inPeriod).toBeLessThan(used.events);
    expect(used.first! < "2026-01-12" && used.last! > "2026-01-17").toBe(true);
  });
});
