/**
 * Accessibility: axe-core (WCAG 2 A and AA rules) on every subscriber page at desktop 1440×900 and
 * mobile 390×844 — /auth, /auth/contract, /auth/done, /, /dashboard, /history, /settings,
 * /notifications, /billing — with no serious or critical violation. Each page is checked softly so one
 * run lists every failing page; the findings are also written to test-results/a11y-<project>.json.
 */
import AxeBuilder from "@axe-core/playwright";
import { mkdirSync, writeFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { connectSimAccount, insertClosedTrades, hasDb, loginNewSubscriber, registerToContract, settle, SUBSCRIBER_PAGES } from "./support/trading";

interface Finding {
  page: string;
  rule: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** Serious and critical WCAG 2 A/AA violations on the current page. */
async function seriousViolations(page: Page, name: string): Promise<Finding[]> {
  await settle(page);
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ page: name, rule: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")) }));
}

test("axe: no serious or critical WCAG 2 A/AA violations on any subscriber page", async ({ page, request }, testInfo) => {
  test.setTimeout(240_000);
  const all: Finding[] = [];
  const check = async (name: string) => {
    const found = await seriousViolations(page, name);
    all.push(...found);
    expect.soft(found, `${name}: ${found.map((f) => `${f.rule} (${f.impact}) ${f.targets.join(", ")}`).join("; ")}`).toEqual([]);
  };

  // Logged out: login page, terms step (needs the registration cookie), registration done.
  await page.goto("/auth");
  await check("auth");
  const email = await registerToContract(page);
  await check("auth-contract");
  await page.context().clearCookies();
  await page.goto(`/auth/done?email=${encodeURIComponent(email)}`);
  await check("auth-done");

  // Logged in with a connected simulator account (and closed trades when the DB is reachable).
  const creds = await loginNewSubscriber(page, request);
  const { accountId } = await connectSimAccount(page);
  if (hasDb())
    await insertClosedTrades(creds.email, accountId, [
      { pnl: 12.5, closeTime: new Date(Date.now() - 3_600_000) },
      { pnl: -4.2, closeTime: new Date(Date.now() - 7_200_000), instrument: "USD_JPY", side: "sell" },
    ]);
  for (const p of SUBSCRIBER_PAGES) {
    await page.goto(p.path);
    await check(p.name);
  }
  // The hero's broker wizard (a modal on /): intro and token steps.
  await page.goto("/");
  await page.getByRole("link", { name: "Forex IA — início" }).waitFor();
  const disconnect = await page.request.post("/api/oanda-auth/disconnect");
  expect(disconnect.ok()).toBeTruthy();
  await page.reload();
  const dialog = page.getByRole("dialog");
  // The wizard opens on the client: a click that lands before hydration does nothing, so click until it opens.
  await expect(async () => {
    if ((await dialog.count()) === 0) await page.getByTestId("power-button").click({ timeout: 2_000 });
    await expect(dialog).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await check("hero-wizard-intro");
  await page.getByRole("dialog").getByRole("button", { name: "Começar" }).click();
  await check("hero-wizard-token");

  mkdirSync("test-results", { recursive: true });
  writeFileSync(`test-results/a11y-${testInfo.project.name}.json`, JSON.stringify(all, null, 2));
});
