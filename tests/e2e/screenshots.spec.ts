/**
 * Screenshots of every subscriber page at desktop 1440×900 and mobile 390×844, saved as
 * test-results/screenshots/<page>-<viewport>.png so a reviewer can look without running anything:
 * auth, auth-contract, auth-done, hero, dashboard, history, settings, notifications, billing (plus the
 * hero without broker and the wizard). The logged-in user has a simulator account, an open trade
 * opened by the AI and, when the DB is reachable, a few closed trades.
 * One run (the desktop project; playwright.config.ts keeps it out of the mobile one) takes both
 * viewports: the mobile pages are a second browser context with the mobile project's settings and the
 * same cookies, so the user, the broker account and the AI's trade are made once, not once per viewport.
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

/** The pages of both viewports, captured together under the same name. */
type Views = { desktop: Page; mobile: Page };

/** Copies the desktop context's cookies (registration, session) into the mobile one. */
async function shareCookies(v: Views) {
  await v.mobile.context().clearCookies();
  await v.mobile.context().addCookies(await v.desktop.context().cookies());
}

/** Opens `path` (when given) and captures it at both viewports. */
async function captureBoth(v: Views, name: string, path?: string) {
  for (const [viewport, page] of Object.entries(v)) {
    if (path) await page.goto(path);
    await capture(page, name, viewport);
  }
}

test("screenshots of every subscriber page", async ({ page, request, browser }, testInfo) => {
  test.setTimeout(360_000);
  const use = testInfo.project.use;
  const m = testInfo.config.projects.find((p) => p.name === "mobile")!.use;
  const mobileContext = await browser.newContext({
    baseURL: use.baseURL,
    locale: use.locale,
    timezoneId: use.timezoneId,
    viewport: m.viewport,
    isMobile: m.isMobile,
    hasTouch: m.hasTouch,
    deviceScaleFactor: m.deviceScaleFactor,
  });
  const v: Views = { desktop: page, mobile: await mobileContext.newPage() };

  await captureBoth(v, "auth", "/auth");
  const email = await registerToContract(page);
  await shareCookies(v);
  await v.mobile.goto("/auth/contract");
  await captureBoth(v, "auth-contract");
  await page.context().clearCookies();
  await captureBoth(v, "auth-done", `/auth/done?email=${encodeURIComponent(email)}`);

  const creds = await loginNewSubscriber(page, request);
  await shareCookies(v);
  await v.mobile.goto("/");
  for (const p of Object.values(v)) await expect(p.getByTestId("hero-title")).toHaveText("Conectar Oanda");
  await captureBoth(v, "hero-no-broker");
  for (const p of Object.values(v)) {
    await p.getByTestId("power-button").click();
    await p.getByRole("dialog").getByRole("button", { name: "Começar" }).click();
  }
  await captureBoth(v, "wizard");
  for (const p of Object.values(v)) await p.keyboard.press("Escape");

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
    for (const [viewport, view] of Object.entries(v)) {
      await view.goto(p.path);
      if (p.name === "hero") await expect(view.getByTestId("hero-title")).toHaveText("IA Ativa");
      await capture(view, p.name, viewport);
    }
  }
  await mobileContext.close();
});
