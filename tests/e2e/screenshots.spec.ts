/**
 * Screenshots of every subscriber page at desktop 1440×900 and mobile 390×844, saved as
 * test-results/screenshots/<page>-<viewport>.png so a reviewer can look without running anything:
 * auth, auth-contract, auth-done, hero, dashboard, history, settings, notifications, billing (plus the
 * hero without broker and the wizard). The logged-in user has a simulator account, an open trade
 * opened by the AI and, when the DB is reachable, a few closed trades.
 */
import { existsSync, statSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { connectSimAccount, hasDb, insertClosedTrades, loginNewSubscriber, openTradeWithAi, registerToContract, settle, SUBSCRIBER_PAGES } from "./support/trading";

/** Saves a full-page screenshot and checks the file exists and is not empty. */
async function capture(page: Page, name: string, viewport: string) {
  await settle(page);
  const path = `test-results/screenshots/${name}-${viewport}.png`;
  await page.screenshot({ path, fullPage: true, animations: "disabled" });
  expect(existsSync(path) && statSync(path).size > 5_000, path).toBe(true);
}

test("screenshots of every subscriber page", async ({ page, request }, testInfo) => {
  test.setTimeout(360_000);
  const viewport = testInfo.project.name;

  await page.goto("/auth");
  await capture(page, "auth", viewport);
  const email = await registerToContract(page);
  await capture(page, "auth-contract", viewport);
  await page.context().clearCookies();
  await page.goto(`/auth/done?email=${encodeURIComponent(email)}`);
  await capture(page, "auth-done", viewport);

  const creds = await loginNewSubscriber(page, request);
  await expect(page.getByTestId("hero-title")).toHaveText("Conectar Oanda");
  await capture(page, "hero-no-broker", viewport);
  await page.getByTestId("power-button").click();
  await page.getByRole("dialog").getByRole("button", { name: "Começar" }).click();
  await capture(page, "wizard", viewport);
  await page.keyboard.press("Escape");

  const { accountId } = await connectSimAccount(page);
  await openTradeWithAi(page); // before seeding: seeded closed trades count against the risk limits of today
  if (hasDb()) {
    const h = 3_600_000;
    await insertClosedTrades(creds.email, accountId, [
      { pnl: 18.4, closeTime: new Date(Date.now() - 1 * h) },
      { pnl: -7.1, closeTime: new Date(Date.now() - 5 * h), instrument: "GBP_USD", side: "sell" },
      { pnl: 25.9, closeTime: new Date(Date.now() - 26 * h), instrument: "USD_JPY" },
      { pnl: 0, closeTime: new Date(Date.now() - 50 * h) },
      { pnl: -12.3, closeTime: new Date(Date.now() - 80 * h), instrument: "AUD_USD", side: "sell" },
      { pnl: 9.75, closeTime: new Date(Date.now() - 120 * h) },
    ]);
  }
  for (const p of SUBSCRIBER_PAGES) {
    await page.goto(p.path);
    if (p.name === "hero") await expect(page.getByTestId("hero-title")).toHaveText("IA Ativa");
    await capture(page, p.name, viewport);
  }
});
