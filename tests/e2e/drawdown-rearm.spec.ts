/**
 * Issue 21 "Drawdown stop that means it" on the hero, at desktop 1440×900 and mobile 390×844, and
 * @nojs. A connected simulator practice account (100,000 USD) whose persisted high-water mark is set
 * to 200,000 USD (the state after a 50 % fall; the live stop itself is proven by the integration
 * test): the next tick stops the AI with the max drawdown. Then the hero says why; ATIVAR IA asks
 * "Reativar a IA?" with the drawdown, the high-water mark and the current NAV, and that re-arming
 * resets the mark; Cancelar keeps it stopped (the API still refuses a plain start: 409); confirming
 * starts the AI and the mark is reset. Also in English (en) in the JS run.
 */
import { expect, test, type Page } from "@playwright/test";
import { shot } from "./helpers";
import { connectSimAccount, hasDb, loginNewSubscriber, NO_DB_REASON, setPreferences, settle, withDb } from "./support/trading";

test.describe.configure({ mode: "serial" });

const MARK = "200000";

/** A subscriber whose AI the max-drawdown rule has just stopped; returns the e-mail. */
async function drawdownStopped(page: Page): Promise<string> {
  const { email } = await loginNewSubscriber(page, page.request, { firstName: "Draw", lastName: "Down" });
  await connectSimAccount(page);
  const settings = await page.request.put("/api/settings", { data: { settings: { instruments: ["EUR_USD"], aiSettings: { news: { enabled: false } } } } });
  expect(settings.ok(), await settings.text()).toBeTruthy();
  const start = await page.request.post("/api/trades/ai/loop/start", { data: { intervalSec: 60 } });
  expect(start.ok(), await start.text()).toBeTruthy();
  await withDb((sql) => sql`update bots set peak_balance = ${MARK} where user_id = (select id from users where email = ${email.toLowerCase()})`);
  await expect
    .poll(async () => {
      await page.request.post("/api/trades/ai/loop/run-once");
      return ((await (await page.request.get("/api/trades/ai/loop/status")).json()) as { rearmRequired?: boolean }).rearmRequired;
    })
    .toBe(true);
  return email;
}

async function peakOf(email: string): Promise<string | null> {
  const [row] = await withDb((sql) => sql<{ peak: string | null }[]>`select peak_balance::text as peak from bots where user_id = (select id from users where email = ${email.toLowerCase()})`);
  return row?.peak ?? null;
}

test("ATIVAR IA after a drawdown stop asks 'Reativar a IA?' with the figures; Cancelar keeps it stopped; confirming re-arms", async ({ page }, testInfo) => {
  test.skip(!hasDb(), NO_DB_REASON);
  test.setTimeout(300_000);
  const email = await drawdownStopped(page);
  await page.goto("/");
  await expect(page.getByTestId("hero-title")).toHaveText("IA Pausada");
  await expect(page.getByTestId("stop-reason")).toHaveText("Parado pelo drawdown máximo");
  await expect(page.getByTestId("drawdown-stopped")).toContainText("Parada pelo drawdown máximo");
  await settle(page);

  await page.getByTestId("power-button").click();
  const confirm = page.getByTestId("rearm-confirm");
  await expect(confirm).toBeVisible();
  await expect(confirm.getByText("Reativar a IA?")).toBeVisible();
  await expect(page.getByTestId("rearm-hwm")).toHaveText("US$ 200.000,00");
  await expect(page.getByTestId("rearm-nav")).toHaveText(/^US\$ (99|100)\.\d{3},\d{2}$/);
  await expect(page.getByTestId("rearm-drawdown")).toHaveText(/^(49|50),\d{2}% \(US\$ (99|100)\.\d{3},\d{2}\)$/);
  await expect(page.getByTestId("rearm-reset")).toContainText("Reativar zera a máxima de patrimônio para o NAV atual");
  await expect(page.getByTestId("preflight-confirm")).toHaveCount(0);
  await expect(confirm.getByRole("button", { name: "Reativar e zerar a máxima" })).toBeInViewport();
  await shot(page, testInfo, "drawdown-rearm-confirm");

  await confirm.getByRole("link", { name: "Cancelar" }).click();
  await expect(page.getByTestId("rearm-confirm")).toHaveCount(0);
  await expect(page.getByTestId("hero-title")).toHaveText("IA Pausada");
  const plain = await page.request.post("/api/trades/ai/loop/start", { data: { intervalSec: 60 } });
  expect(plain.status()).toBe(409);

  // The same question in English.
  await setPreferences(email, { language: "en" });
  await page.goto("/");
  await expect(page.getByTestId("stop-reason")).toHaveText("Stopped by the maximum drawdown");
  await settle(page);
  await page.getByTestId("power-button").click();
  await expect(page.getByTestId("rearm-confirm").getByText("Re-arm the AI?")).toBeVisible();
  await expect(page.getByTestId("rearm-hwm")).toHaveText("$200,000.00");
  await expect(page.getByTestId("rearm-reset")).toContainText("Re-arming resets the equity high-water mark to the current NAV");
  await page.getByRole("button", { name: "Re-arm and reset the mark" }).click();
  await expect(page.getByTestId("hero-title")).toHaveText("AI Active");
  await expect(page.getByTestId("rearm-confirm")).toHaveCount(0);
  await expect.poll(async () => Number((await peakOf(email)) ?? 0)).toBeLessThan(Number(MARK));
});

test("@nojs the drawdown stop, the re-arm confirmation and the re-arm work without JavaScript", async ({ page }) => {
  test.skip(!hasDb(), NO_DB_REASON);
  test.setTimeout(300_000);
  const email = await drawdownStopped(page);
  await setPreferences(email, { language: "es" });
  await page.goto("/");
  await expect(page.getByTestId("stop-reason")).toHaveText("Detenido por el drawdown máximo");
  await page.getByTestId("power-button").click();
  const confirm = page.getByTestId("rearm-confirm");
  await expect(confirm.getByText("¿Reactivar la IA?")).toBeVisible();
  await expect(page.getByTestId("rearm-hwm")).toHaveText(/200\.000,00/);
  await expect(page.getByTestId("hero-title")).toHaveText("IA en Pausa");
  await confirm.getByRole("link", { name: "Cancelar" }).click();
  await expect(page.getByTestId("rearm-confirm")).toHaveCount(0);

  await setPreferences(email, { language: "pt" });
  await page.goto("/");
  await page.getByTestId("power-button").click();
  await expect(page.getByTestId("rearm-confirm").getByText("Reativar a IA?")).toBeVisible();
  await expect(page.getByTestId("rearm-hwm")).toHaveText("US$ 200.000,00");
  await page.getByRole("button", { name: "Reativar e zerar a máxima" }).click();
  await expect(page.getByTestId("hero-title")).toHaveText("IA Ativa");
  await expect.poll(async () => Number((await peakOf(email)) ?? 0)).toBeLessThan(Number(MARK));
});
