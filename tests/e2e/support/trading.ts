/**
 * E2E fixtures for the subscriber screens (hero, dashboard): a logged-in verified subscriber, the
 * in-app OANDA simulator (create a practice account, connect it through the JSON API, make the AI
 * open a trade), and direct database edits on the e2e database (E2E_DATABASE_URL, set by
 * playwright.config.ts when TEST_DATABASE_URL is): expire a licence, change preferences, insert
 * closed trades with known P&L.
 */
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import postgres from "postgres";
import { createVerifiedUser, loginByApi } from "./users";

/** Whether the tests can reach the app's database directly. */
export const hasDb = (): boolean => !!process.env.E2E_DATABASE_URL;
/** Why DB-dependent steps are skipped when there is no database URL. */
export const NO_DB_REASON = "sem E2E_DATABASE_URL (TEST_DATABASE_URL não definido): o banco embutido do app não é acessível aos testes";

/** Runs `fn` with a short-lived connection to the e2e database. */
export async function withDb<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const url = process.env.E2E_DATABASE_URL;
  if (!url) throw new Error(NO_DB_REASON);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    return await fn(sql);
  } finally {
    await sql.end();
  }
}

/**
 * Registers a verified user, logs the page in through the JSON API (`loginByApi`: not the subject of
 * the specs using this; ADR 0023) and opens the trading screen /; returns the credentials.
 */
export async function loginNewSubscriber(page: Page, request: APIRequestContext, opts: { firstName?: string; lastName?: string } = {}) {
  const creds = await createVerifiedUser(request, opts);
  await loginByApi(page, creds.email, creds.password);
  await page.goto("/");
  await expect(page).toHaveURL((url) => url.pathname === "/");
  return creds;
}

/** Merges preferences (language, timezone, currency) into a user's row. */
export async function setPreferences(email: string, prefs: Record<string, string>): Promise<void> {
  await withDb((sql) => sql`update users set preferences = preferences || ${sql.json(prefs)} where email = ${email.toLowerCase()}`);
}

/**
 * Puts a user's broker connection on our clock (offset 0, as on real OANDA), for tests that place
 * trades at wall-clock times; the in-app simulator otherwise replays January 2026.
 */
export async function useOurClock(email: string): Promise<void> {
  await withDb(
    (sql) => sql`update broker_connections set market_clock_offset_ms = 0 where user_id = (select id from users where email = ${email.toLowerCase()})`,
  );
}

/** Ends every licence of a user yesterday (hasValidLicense becomes false). */
export async function expireLicence(email: string): Promise<void> {
  await withDb(
    (sql) => sql`update licenses set end_date = now() - interval '1 day', start_date = least(start_date, now() - interval '8 days')
      where user_id = (select id from users where email = ${email.toLowerCase()})`,
  );
}

/** Creates a simulator practice account and connects it for the page's logged-in user through the JSON API. */
export async function connectSimAccount(page: Page): Promise<{ token: string; accountId: string }> {
  const sim = await page.request.post("/oanda-sim/sim/users", { data: { environment: "practice" } });
  expect(sim.ok(), await sim.text()).toBeTruthy();
  const { token, accounts } = (await sim.json()) as { token: string; accounts: { id: string }[] };
  const accountId = accounts[0]!.id;
  const res = await page.request.post("/api/oanda-auth/connect", { data: { token, accountId, environment: "practice" } });
  expect(res.ok(), await res.text()).toBeTruthy();
  return { token, accountId };
}

/** One open trade as GET /api/trades/account/open returns it. */
export interface OpenTradeJson {
  id: string;
  instrument: string;
  side: string;
  openPrice: string;
  currentPrice: string | null;
  unrealizedPL: string;
}

/** Every pair the product trades (core/instruments.ts SUPPORTED_INSTRUMENTS). */
export const ALL_PAIRS = ["EUR_USD", "GBP_USD", "USD_JPY", "AUD_USD", "USD_CAD", "USD_CHF", "EUR_GBP", "EUR_JPY"];

/**
 * The user chooses to trade `instruments` despite no proven edge (issue 21's edge gate, /settings "Operar
 * mesmo assim"), through PUT /api/settings `aiSettings.edgeOverrides`: the AI enters only pairs whose
 * shipped edge-table verdict is "edge" or that the user overrides, so a test whose subject needs the AI
 * to trade opts in with this, as a user would.
 */
export async function tradeWithoutEdge(request: APIRequestContext, instruments: string[] = ALL_PAIRS): Promise<void> {
  const res = await request.put("/api/settings", { data: { settings: { aiSettings: { edgeOverrides: instruments } } } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/**
 * Opts in to trading every pair without a proven edge (`tradeWithoutEdge`), starts the AI and advances
 * the simulator until it holds at least one open trade (bounded); returns the open trades.
 */
export async function openTradeWithAi(page: Page, maxRounds = 60): Promise<OpenTradeJson[]> {
  await tradeWithoutEdge(page.request);
  const start = await page.request.post("/api/trades/ai/loop/start", { data: { intervalSec: 60 } });
  expect(start.ok(), await start.text()).toBeTruthy();
  for (let i = 0; i < maxRounds; i++) {
    await page.request.post("/oanda-sim/sim/clock", { data: { advanceSeconds: 900 } });
    await page.request.post("/api/trades/ai/loop/run-once");
    const open = (await (await page.request.get("/api/trades/account/open")).json()) as { trades?: OpenTradeJson[] };
    if (open.trades?.length) return open.trades;
  }
  throw new Error(`a IA não abriu nenhum trade em ${maxRounds} rodadas do simulador`);
}

/** A closed trade to insert: P&L in account currency and the close instant. */
export interface ClosedTradeSeed {
  pnl: number;
  closeTime: Date;
  instrument?: string;
  side?: "buy" | "sell";
}

/** Inserts closed trades for the user's connected account (what the reconcile step would have recorded). */
export async function insertClosedTrades(email: string, accountId: string, trades: ClosedTradeSeed[]): Promise<void> {
  await withDb(async (sql) => {
    const [user] = await sql<{ id: string }[]>`select id from users where email = ${email.toLowerCase()}`;
    let n = 0;
    for (const t of trades) {
      n++;
      const result = t.pnl > 0 ? "WIN" : t.pnl < 0 ? "LOSS" : "BE";
      const openTime = new Date(t.closeTime.getTime() - 30 * 60_000);
      await sql`insert into trades (user_id, account_id, environment, broker_trade_id, instrument, side, units, open_price, close_price,
          realized_pl, status, result, close_reason, open_time, close_time, ai_timeframe, ai_reason)
        values (${user!.id}, ${accountId}, 'practice', ${`seed-${n}-${Date.now()}`}, ${t.instrument ?? "EUR_USD"}, ${t.side ?? "buy"}, 10000,
          1.1, ${t.pnl >= 0 ? 1.101 : 1.099}, ${t.pnl}, 'closed', ${result}, 'TAKE_PROFIT_ORDER', ${openTime}, ${t.closeTime}, 'M15', 'Tendência de alta')`;
    }
  });
}

/** The instant of 00:00 today in a time zone (tests compute the 'P&L hoje' window independently of the app). */
export function midnightIn(timeZone: string, now = new Date()): Date {
  const fmt = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric", hourCycle: "h23" });
  const parts = Object.fromEntries(fmt.formatToParts(now).map((p) => [p.type, Number(p.value)])) as Record<string, number>;
  const sinceMidnightMs = ((parts.hour! % 24) * 3600 + parts.minute! * 60 + parts.second!) * 1000 + now.getMilliseconds();
  return new Date(now.getTime() - sinceMidnightMs);
}

/** Registers through the /auth 'Criar Conta' tab (which sets the registration cookie) and waits for /auth/contract. */
export async function registerToContract(page: Page): Promise<string> {
  const email = `contrato-${Date.now().toString(36)}@exemplo.com`;
  await page.goto("/auth");
  // Hydrated first (the form then carries its hidden `js` field): fields filled before it are reset.
  await expect(page.locator('input[name="js"]').first()).toBeAttached();
  await page.getByRole("tab", { name: "Criar Conta" }).click();
  const panel = page.getByRole("tabpanel");
  await panel.getByLabel("Nome", { exact: true }).fill("Carla");
  await panel.getByLabel("Sobrenome").fill("Contrato");
  await panel.getByLabel("E-mail").fill(email);
  await panel.getByLabel("Senha", { exact: true }).fill("Senha123forte");
  await panel.getByRole("button", { name: "Criar Conta" }).click();
  await page.waitForURL((url) => url.pathname === "/auth/contract", { timeout: 15_000 });
  return email;
}

/** The subscriber pages of the product, with a file-friendly name (screenshots, accessibility report). */
export const SUBSCRIBER_PAGES = [
  { name: "hero", path: "/" },
  { name: "dashboard", path: "/dashboard" },
  { name: "history", path: "/history" },
  { name: "settings", path: "/settings" },
  { name: "notifications", path: "/notifications" },
  { name: "billing", path: "/billing" },
] as const;

/** Long-lived requests that never finish (the live-price EventSource): not counted as network activity. */
const LONG_LIVED = /\/api\/stream\/(prices|open-trades)/;

/**
 * Waits until a page has settled: loaded, then no request in flight for 500 ms (bounded at 10 s), and
 * fonts ready. Playwright's own "networkidle" never comes on a page holding an SSE connection (the
 * hero and dashboard with live prices), so in-flight requests are counted here without it.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState("load").catch(() => {});
  const inFlight = new Set<unknown>();
  const started = (r: { url(): string }) => {
    if (!LONG_LIVED.test(r.url())) inFlight.add(r);
  };
  const ended = (r: unknown) => inFlight.delete(r);
  page.on("request", started);
  page.on("requestfinished", ended);
  page.on("requestfailed", ended);
  try {
    const deadline = Date.now() + 10_000;
    let quietSince = Date.now();
    while (Date.now() < deadline) {
      await page.waitForTimeout(100);
      if (inFlight.size > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= 500) break;
    }
  } finally {
    page.off("request", started);
    page.off("requestfinished", ended);
    page.off("requestfailed", ended);
  }
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
}
