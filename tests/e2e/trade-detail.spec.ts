/**
 * Issue 12, trade detail and charts: a subscriber with a connected simulator account whose AI opened a trade
 * (closed here through the API) opens it from the history, sees the candle chart drawn (data-ready) with the
 * entry and exit markers and the entry / stop loss / take profit lines, and "Por que a IA entrou?" with the
 * decision's values; the dashboard draws the balance curve and links to the backtest. Without JavaScript
 * (@nojs) the same page shows the chart's text fallback and the decision values.
 */
import { expect, test, type Page } from "@playwright/test";
import { connectSimAccount, hasDb, insertClosedTrades, loginNewSubscriber, NO_DB_REASON, openTradeWithAi, withDb } from "./support/trading";

/**
 * Lets the AI open a trade, moves the replay a candle on and closes the trade at market; returns its broker id.
 * When its stop loss or take profit already closed it at the broker (404 from the close), a tick syncs our books.
 */
async function closedAiTrade(page: Page): Promise<string> {
  const [trade] = await openTradeWithAi(page);
  await page.request.post("/oanda-sim/sim/clock", { data: { advanceSeconds: 900 } });
  const close = await page.request.post(`/api/trades/${trade!.id}/close`, { data: { units: "ALL" } });
  if (close.status() === 404) await page.request.post("/api/trades/ai/loop/run-once");
  else expect(close.ok(), await close.text()).toBeTruthy();
  await page.request.post("/api/trades/ai/loop/stop");
  return trade!.id;
}

test("a closed AI trade: from the history to its chart and 'Por que a IA entrou?'; the dashboard's balance curve", async ({ page, request }) => {
  test.setTimeout(360_000); // the AI needs several simulator rounds to open a trade; slow on a loaded machine
  await loginNewSubscriber(page, request);
  await connectSimAccount(page);
  const id = await closedAiTrade(page);

  await page.goto("/history");
  const row = page.locator(`[data-testid="history-row"][data-trade-id="${id}"]`);
  await expect(row).toBeVisible();
  await row.getByTestId("trade-detail-link").click();
  await expect(page).toHaveURL((url) => url.pathname === `/history/${id}`);

  await expect(page.getByTestId("trade-status")).toHaveText("Fechado");
  await expect(page.getByTestId("trade-entry")).toHaveText(/^\d+\.\d{3,5}$/);
  await expect(page.getByTestId("trade-exit")).toHaveText(/^\d+\.\d{3,5}$/);
  await expect(page.getByTestId("trade-close-reason")).toHaveText(/^(Fechado a mercado|Stop loss atingido|Take profit atingido|Trailing stop atingido)$/);

  const chart = page.getByTestId("trade-chart");
  await expect(chart).toHaveAttribute("data-ready", "true", { timeout: 15_000 });
  await expect(chart).toHaveAttribute("data-markers", "2"); // entry arrow and exit dot
  await expect(chart).toHaveAttribute("data-lines", "entry,stopLoss,takeProfit");
  await expect(chart.locator("canvas").first()).toBeVisible();

  const why = page.getByTestId("why-ai");
  await expect(why.getByRole("heading", { name: "Por que a IA entrou?" })).toBeVisible();
  await expect(why.getByTestId("why-reason")).toHaveText(/^(Compra|Venda) com confiança/);
  await expect(why.getByTestId("why-timeframe")).toHaveText(/^(M5|M15|M30|H1)$/);
  await expect(why.getByTestId("why-regime")).toHaveText(/^Volatilidade (baixa|normal|alta) · (em tendência|lateral)$/);
  await expect(why.getByTestId("why-confidence")).toHaveText(/^\d+\s?%$/);
  await expect(why.getByTestId("why-stop-pips")).toHaveText(/^\d+(,\d)? pips$/);
  await expect(why.getByTestId("why-target-pips")).toHaveText(/^\d+(,\d)? pips$/);
  await expect(why.getByTestId("why-risk")).toContainText("Todas as proteções de risco aprovadas");
  await expect(why.getByTestId("why-ind-rsi")).toHaveText(/^\d+,\d$/);
  await expect(why.getByTestId("why-ind-adx")).toBeVisible();

  await page.getByTestId("trade-back").click();
  await expect(page).toHaveURL((url) => url.pathname === "/history");

  await page.goto("/dashboard");
  const curve = page.getByTestId("equity-chart");
  await expect(curve).toHaveAttribute("data-ready", "true", { timeout: 15_000 });
  await expect(curve).toHaveAttribute("data-series", "balance");
  await expect(page.getByTestId("equity-chart-legend")).toContainText("Saldo");
  await expect(page.getByTestId("backtest-link")).toHaveAttribute("href", "/backtest");
  // The dashboard's closed-trade row links to the same detail page.
  await expect(page.getByTestId("closed-trades").getByTestId("trade-detail-link").first()).toHaveAttribute("href", `/history/${id}`);
});

test("an id that is not one of the user's trades is the not-found page", async ({ page, request }, testInfo) => {
  test.skip(testInfo.project.name === "mobile", "the server's 404, the same at every width (ADR 0023)");
  await loginNewSubscriber(page, request);
  const res = await page.goto("/history/123456789");
  expect(res?.status()).toBe(404);
  await expect(page.getByTestId("trade-not-found")).toContainText("Trade não encontrado.");
});

test("@nojs without JavaScript the trade page shows the figures, the chart's text and why there is no AI decision", async ({ page, request }) => {
  test.skip(!hasDb(), NO_DB_REASON);
  const { email } = await loginNewSubscriber(page, request);
  const { accountId } = await connectSimAccount(page);
  await insertClosedTrades(email, accountId, [{ pnl: 12.5, closeTime: new Date(Date.now() - 3_600_000) }]);
  const id = await withDb(async (sql) => (await sql<{ id: string }[]>`
    select broker_trade_id as id from trades where account_id = ${accountId} order by id desc limit 1`)[0]!.id);
  await page.goto(`/history/${id}`);
  await expect(page.getByTestId("trade-entry")).toHaveText("1.10000");
  await expect(page.getByTestId("trade-exit")).toHaveText("1.10100");
  await expect(page.getByTestId("trade-pips")).toHaveText("+10,0");
  await expect(page.getByTestId("trade-close-reason")).toHaveText("Take profit atingido");
  await expect(page.getByTestId("trade-chart")).toHaveAttribute("data-ready", "false");
  await expect(page.getByTestId("trade-chart-fallback")).toContainText("Entrada 1.10000");
  await expect(page.getByTestId("why-none")).toContainText("não foi aberto pela IA");
});
