/**
 * The user's own backtest (issue 12) in a real browser, desktop and mobile (and @nojs without
 * JavaScript): a user with a connected simulator account opens /backtest from the settings page,
 * sees the settings the run will use, starts a run, watches the progress bar, then reads the
 * verdict against random entries, the equity chart with the band's legend, the drawdown, the
 * statistics and the trade list with reasons; a second run is compared side by side. The long history
 * (issue 21, ../shared/data/fx-long read in place by the server) is picked, run past the shipped data's
 * 92 days, and named with its period on the result — with and without JavaScript.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { shot } from "./helpers";
import { hasDb, NO_DB_REASON, tradeWithoutEdge, withDb } from "./support/trading";
import { createVerifiedUser } from "./support/users";

test.describe.configure({ mode: "serial" });

let creds: { email: string; password: string };
let api: APIRequestContext;

test.beforeAll(async ({ playwright }, testInfo) => {
  test.setTimeout(300_000);
  api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  creds = await createVerifiedUser(api, { firstName: "Back", lastName: "Test" });
  const login = await api.post("/api/auth/login", { data: creds });
  expect(login.status(), await login.text()).toBe(200);
  const sim = await api.post("/oanda-sim/sim/users", { data: { environment: "practice" } });
  expect(sim.ok()).toBeTruthy();
  const { token, accounts } = (await sim.json()) as { token: string; accounts: { id: string }[] };
  const connect = await api.post("/api/oanda-auth/connect", { data: { token, accountId: accounts[0]!.id, environment: "practice" } });
  expect(connect.status(), await connect.text()).toBe(200);
  // The run uses the user's settings, edge gate included (issue 21): this user trades every pair anyway.
  await tradeWithoutEdge(api);
});

test.afterAll(async () => {
  await api?.dispose();
});

/** Logs in through the API: the page's context shares the cookie jar (the login form is not the subject here). */
async function login(page: Page) {
  const res = await page.request.post("/api/auth/login", { data: creds });
  expect(res.status()).toBe(200);
}

/** Fills the form: one pair, a two-week period of the shipped data, and submits it. */
async function startRun(page: Page, pair: string) {
  await page.goto("/backtest");
  const form = page.getByTestId("backtest-form");
  for (const box of await form.locator('input[name="instruments"]').all()) await box.setChecked(false);
  await page.getByTestId(`pair-${pair}`).check();
  await page.getByTestId("from").fill("2026-01-12");
  await page.getByTestId("to").fill("2026-01-23");
  await page.getByTestId("run-backtest").click();
  await page.waitForURL(/\/backtest\/[0-9a-f-]{36}$/);
}

test("runs the user's settings: progress bar, then verdict, charts with the band, statistics and trades", async ({ page }, testInfo) => {
  test.setTimeout(600_000);
  await login(page);
  // From the settings page, next to 'Parâmetros de Trading e IA'.
  await page.goto("/settings");
  await page.getByTestId("backtest-link").click();
  await expect(page).toHaveURL(/\/backtest$/);
  await expect(page.getByRole("heading", { name: "Backtest", level: 1 })).toBeVisible();
  await expect(page.getByTestId("settings-summary")).toContainText("Estilo de trading");
  await expect(page.getByTestId("settings-summary").getByRole("link", { name: "Editar configurações" })).toHaveAttribute("href", "/settings");
  // Defaults: the shipped data's range, the first pair checked.
  await expect(page.getByTestId("from")).toHaveAttribute("min", "2026-01-04");
  await expect(page.getByTestId("to")).toHaveAttribute("max", "2026-04-03");
  await expect(page.getByTestId("pair-EUR_USD")).toBeChecked();
  await expect(page.getByTestId("runs-empty")).toBeVisible();

  await startRun(page, "EUR_USD");
  // The progress bar while the job runs (polled every second).
  await expect(page.getByTestId("progress-bar")).toBeVisible();
  await shot(page, testInfo, "backtest-progress");
  const verdict = page.getByTestId("verdict");
  await expect(verdict).toBeVisible({ timeout: 360_000 });
  await expect(page.getByTestId("progress-bar")).toHaveCount(0);
  await expect(verdict).toContainText("É melhor que o acaso?");
  await expect(verdict).toContainText(/entradas aleatórias|acaso/);
  // Which economic calendar the run used (issue 22 item 12).
  await expect(page.getByTestId("run-calendar")).toContainText(/Calendário econômico usado: \d+ eventos no período \(de 1\.665 no calendário/);
  // Charts drawn by lightweight-charts, with the band in the legend.
  await expect(page.getByTestId("equity-chart")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  await expect(page.getByTestId("equity-chart-legend")).toContainText("Entradas aleatórias (5%–95%)");
  await expect(page.getByTestId("equity-chart-legend")).toContainText("Sua estratégia");
  await expect(page.getByTestId("drawdown-chart")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  // Statistics of issue 4 and the trades with their reasons.
  const stats = page.getByTestId("stats-table");
  await expect(stats).toContainText("Profit factor (lucro bruto / perda bruta)");
  await expect(stats).toContainText("Drawdown máximo");
  const rows = page.getByTestId("trade-row");
  expect(await rows.count()).toBeGreaterThan(0);
  await expect(rows.first().getByTestId("trade-reason")).not.toBeEmpty();
  await expect(rows.first()).toContainText(/Stop loss|Take profit|Trailing stop|Tempo máximo|Fim de semana|Fim do período/);
  await shot(page, testInfo, "backtest-result");
});

test("compares two finished runs side by side", async ({ page }, testInfo) => {
  test.setTimeout(600_000);
  await login(page);
  await startRun(page, "GBP_USD");
  await expect(page.getByTestId("verdict")).toBeVisible({ timeout: 360_000 });
  await page.goto("/backtest");
  const items = page.getByTestId("run-item");
  await expect(items).toHaveCount(2);
  await expect(page.locator('[data-testid="run-item"][data-status="done"]')).toHaveCount(2);
  for (const box of await page.getByTestId("compare-check").all()) await box.check();
  await page.getByTestId("compare-submit").click();
  await expect(page).toHaveURL(/compare=.*compare=/);
  const compare = page.getByTestId("compare");
  await expect(compare.getByTestId("compare-chart")).toHaveAttribute("data-ready", "true", { timeout: 30_000 });
  await expect(compare.getByTestId("compare-chart-legend")).toContainText("EUR/USD");
  await expect(compare.getByTestId("compare-chart-legend")).toContainText("GBP/USD");
  // One column per run in the statistics table.
  await expect(compare.getByTestId("stats-table").locator("thead th")).toHaveCount(3);
  await shot(page, testInfo, "backtest-compare");
});

interface LongOffer {
  instruments: string[];
  minDate: string;
  maxDate: string;
  maxDays: number;
}

/** The long history the server offers (null when its folder is absent on this machine). */
async function longOffer(page: Page): Promise<LongOffer | null> {
  const res = await page.request.get("/api/backtest");
  expect(res.status()).toBe(200);
  return ((await res.json()) as { offer: { long: LongOffer | null } }).offer.long;
}

/** The result page of a finished long-history run: the source and its period named. */
async function expectLongResult(page: Page, from: string, to: string) {
  await expect(page.getByTestId("verdict")).toBeVisible({ timeout: 360_000 });
  await expect(page.getByTestId("run-period")).toContainText(`${from} a ${to} · Histórico longo (H1)`);
  await expect(page.getByTestId("run-source")).toHaveText(
    `Fonte: histórico longo em H1, de ${from} a ${to}. Preços bid convertidos para o meio com meio spread normal de cada par; a IA decidiu em H1 (não há M5–M30 nesse histórico).`,
  );
}

test("picks the long history: its pairs and dates, a run past 92 days, the result names the source and period", async ({ page }, testInfo) => {
  test.setTimeout(600_000);
  await login(page);
  const long = await longOffer(page);
  test.skip(!long, "no long history (../shared/data/fx-long) on this machine");
  await page.goto("/backtest");
  await page.getByTestId("source-long").check();
  // Its own pairs, dates and limit; the hint lists each pair's dates.
  const form = page.getByTestId("backtest-form");
  await expect(form.locator('input[name="instruments"]')).toHaveCount(long!.instruments.length);
  await expect(page.getByTestId("from")).toHaveAttribute("min", long!.minDate);
  await expect(page.getByTestId("to")).toHaveAttribute("max", long!.maxDate);
  await expect(page.getByTestId("long-hint")).toContainText(
    `no máximo ${long!.maxDays} dias com 1 par, ${Math.floor(long!.maxDays / 2)} com 2 e ${Math.floor(long!.maxDays / 3)} com 3`,
  );
  await expect(page.getByTestId("long-hint")).toContainText(/EUR\/USD 2003-\d\d-\d\d → 2022-\d\d-\d\d/);
  for (const box of await form.locator('input[name="instruments"]').all()) await box.setChecked(false);
  await page.getByTestId("pair-EUR_USD").check();
  await page.getByTestId("from").fill("2021-01-04");
  await page.getByTestId("to").fill("2021-06-30");
  await shot(page, testInfo, "backtest-long-form");
  await page.getByTestId("run-backtest").click();
  await page.waitForURL(/\/backtest\/[0-9a-f-]{36}$/);
  await expectLongResult(page, "2021-01-04", "2021-06-30");
  await shot(page, testInfo, "backtest-long-result");
  // The list says which source each run used.
  await page.goto("/backtest");
  await expect(page.getByTestId("run-item").first()).toContainText("2021-01-04 → 2021-06-30 · Histórico longo (H1)");
});

test("a second run while one is going is refused with the Portuguese message", async ({ page }, testInfo) => {
  test.skip(!hasDb(), NO_DB_REASON);
  test.skip(testInfo.project.name === "mobile", "the server's limit, the same at every width (ADR 0023); the mobile form and its messages: the run test above");
  test.setTimeout(120_000);
  await login(page);
  // A run of the user's still going (a row, not a job: the limit is what is tested, not another run's CPU).
  await withDb(
    (sql) => sql`
      insert into backtest_runs (user_id, status, progress, params, started_at)
      select id, 'running', 10, ${sql.json({ instruments: ["USD_JPY"], source: "shipped", from: "2026-01-12", to: "2026-01-16" })}, now()
      from users where email = ${creds.email}`,
  );
  await page.goto("/backtest");
  await expect(page.locator('[data-testid="run-item"][data-status="running"]')).toHaveCount(1);
  await page.getByTestId("run-backtest").click();
  await expect(page.getByTestId("backtest-error")).toHaveText("Você já tem um backtest em andamento. Aguarde ele terminar para rodar outro.");
  await expect(page).toHaveURL(/\/backtest$/);
});

test("without JavaScript: the form runs, the page refreshes itself until the result @nojs", async ({ page }) => {
  test.setTimeout(600_000);
  await login(page);
  await page.goto("/backtest");
  await page.getByTestId("from").fill("2026-01-12");
  await page.getByTestId("to").fill("2026-01-23");
  await page.getByTestId("run-backtest").click();
  await page.waitForURL(/\/backtest\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId("verdict")).toBeVisible({ timeout: 360_000 });
  // The charts' fallback tables carry the numbers without JavaScript.
  await expect(page.getByTestId("equity-chart")).toContainText("Sua estratégia · Fim");
  await expect(page.getByTestId("equity-chart")).not.toHaveAttribute("data-ready", "true");
  expect(await page.getByTestId("trade-row").count()).toBeGreaterThan(0);
});

test("without JavaScript: the long history is picked with its button, then runs and names the source @nojs", async ({ page }) => {
  test.setTimeout(600_000);
  await login(page);
  const long = await longOffer(page);
  test.skip(!long, "no long history (../shared/data/fx-long) on this machine");
  await page.goto("/backtest");
  await page.getByTestId("source-long").check();
  // Without JavaScript the form shows the chosen source's pairs and dates after this GET.
  await page.getByTestId("pick-source").click();
  await expect(page).toHaveURL(/[?&]source=long/);
  await expect(page.getByTestId("source-long")).toBeChecked();
  await expect(page.getByTestId("from")).toHaveAttribute("min", long!.minDate);
  await expect(page.getByTestId("long-hint")).toBeVisible();
  await expect(page.getByTestId("pair-EUR_USD")).toBeChecked();
  await page.getByTestId("from").fill("2019-03-01");
  await page.getByTestId("to").fill("2019-06-28");
  await page.getByTestId("run-backtest").click();
  await page.waitForURL(/\/backtest\/[0-9a-f-]{36}$/);
  await expectLongResult(page, "2019-03-01", "2019-06-28");
});
