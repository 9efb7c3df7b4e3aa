/**
 * Issue 11, live prices (PRODUCT.md §4 live price chip, §7 Streaming): with an open trade, the
 * dashboard's open-trade card shows the streamed price and P&L moving without a reload (the page's
 * own refresh is every 15 s; the stream moves it several times within a few seconds), the status
 * says 'Ao vivo', and the hero's balance card streams too. The in-app simulator runs at SIM_SPEED=60.
 */
import { expect, test, type Page } from "@playwright/test";
import { connectSimAccount, loginNewSubscriber } from "./support/trading";

/** A market buy straight at the in-app simulator (a trade opened outside the bot): its broker id. */
async function buyAtBroker(page: Page, broker: { token: string; accountId: string }, instrument = "EUR_USD"): Promise<string> {
  const res = await page.request.post(`/oanda-sim/practice/v3/accounts/${broker.accountId}/orders`, {
    headers: { authorization: `Bearer ${broker.token}` },
    data: { order: { type: "MARKET", instrument, units: "10000", timeInForce: "FOK", positionFill: "DEFAULT" } },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { orderFillTransaction: { tradeOpened: { tradeID: string } } }).orderFillTransaction.tradeOpened.tradeID;
}

/**
 * Moves the in-app simulator's replay clock to a weekday's trading hours (10:00 UTC) when it is not
 * in them: other specs advance it, and on a replayed weekend no price moves.
 */
async function ensureMarketOpen(page: Page): Promise<void> {
  const clock = (await (await page.request.get("/oanda-sim/sim/clock")).json()) as { now: string };
  const now = new Date(clock.now);
  const day = now.getUTCDay();
  const hour = now.getUTCHours();
  if (day >= 1 && day <= 5 && hour >= 8 && hour < 18) return;
  const target = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 10));
  if (hour >= 10) target.setUTCDate(target.getUTCDate() + 1);
  while (target.getUTCDay() === 0 || target.getUTCDay() === 6) target.setUTCDate(target.getUTCDate() + 1);
  const res = await page.request.post("/oanda-sim/sim/clock", { data: { advanceSeconds: Math.ceil((target.getTime() - now.getTime()) / 1000) } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** Samples a locator's text every 200 ms for `ms`; returns the distinct values in order. */
async function distinctTexts(page: Page, testId: string, ms: number): Promise<string[]> {
  const seen: string[] = [];
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const text = (await page.getByTestId(testId).first().textContent())?.trim() ?? "";
    if (text && seen.at(-1) !== text) seen.push(text);
    await page.waitForTimeout(200);
  }
  return seen;
}

test("the open trade's price and P&L move on the dashboard without a reload", async ({ page, request }, testInfo) => {
  test.skip(testInfo.project.name === "mobile", "the stream is the same code at every width (ADR 0023); the open-trade card and its price chip on mobile: subscriber.spec dashboard");
  await loginNewSubscriber(page, request);
  const broker = await connectSimAccount(page);
  await ensureMarketOpen(page);
  await buyAtBroker(page, broker);

  await page.goto("/dashboard");
  const card = page.getByTestId("open-trade").first();
  await expect(card).toBeVisible();
  await expect(page.getByTestId("live-status")).toHaveText(/Ao vivo/);
  // A marker that a reload or navigation would wipe.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));

  // Within 6 s (well under the page's 15 s refresh) the streamed price changes at least twice.
  const prices = await distinctTexts(page, "price-chip", 6_000);
  expect(prices.length, `preços vistos: ${prices.join(" | ")}`).toBeGreaterThanOrEqual(3);
  const pnls = await distinctTexts(page, "open-trade-pnl", 6_000);
  expect(pnls.length, `P&L vistos: ${pnls.join(" | ")}`).toBeGreaterThanOrEqual(2);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  // The chip keeps the §4 colours: a buy is green above its entry, red below.
  await expect(card.getByTestId("price-chip")).toHaveAttribute("data-trend", /^(up|down|unknown)$/);
});

test("the hero's balance card follows the open trade's P&L live", async ({ page, request }, testInfo) => {
  test.skip(testInfo.project.name === "mobile", "the stream is the same code at every width (ADR 0023); the hero's cards on mobile: subscriber.spec hero gating");
  await loginNewSubscriber(page, request);
  const broker = await connectSimAccount(page);
  await ensureMarketOpen(page);
  await buyAtBroker(page, broker, "USD_JPY");
  await page.goto("/");
  await expect(page.getByTestId("balance-card")).toBeVisible();
  await expect(page.getByTestId("live-status")).toHaveText(/Ao vivo/, { timeout: 20_000 });
  const card = page.getByTestId("balance-card");
  const seen: string[] = [];
  const until = Date.now() + 6_000;
  while (Date.now() < until) {
    const text = (await card.textContent()) ?? "";
    if (seen.at(-1) !== text) seen.push(text);
    await page.waitForTimeout(200);
  }
  expect(seen.length, "o cartão de saldo não mudou com os preços ao vivo").toBeGreaterThanOrEqual(2);
});
