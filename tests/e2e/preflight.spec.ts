/**
 * Pre-flight check before ATIVAR IA (issue 12) at desktop 1440×900 and mobile 390×844, and @nojs:
 * the hero card 'Verificação antes de ativar' shows the worst loss per trade and per day and the
 * margin for a simulator practice account (100,000 USD, default settings: 1 % per trade, no warning,
 * ATIVAR IA starts at once); fixed lots of 3 make a 50-pip stop lose 1,500 USD, so the card warns and
 * ATIVAR IA asks first ('Cancelar' keeps the AI paused, 'Ativar mesmo assim' starts it).
 */
import { expect, test, type Page } from "@playwright/test";
import { expectOnTop, shot } from "./helpers";
import { connectSimAccount, loginNewSubscriber, settle } from "./support/trading";

test.describe.configure({ mode: "serial" });

async function connectedHero(page: Page) {
  await loginNewSubscriber(page, page.request, { firstName: "Pré", lastName: "Voo" });
  await connectSimAccount(page);
  await page.goto("/");
  await expect(page.getByTestId("hero-title")).toHaveText("IA Pausada");
}

async function fixedLots(page: Page, lots: number) {
  const res = await page.request.put("/api/settings", { data: { settings: { lotMode: "fixed", fixedLot: lots } } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

test("the card shows the figures; default settings start without a question; fixed lots warn and ask first", async ({ page }, testInfo) => {
  test.setTimeout(300_000); // a dozen page loads and two full-page screenshots; slow on a loaded 2-core machine
  await connectedHero(page);
  const card = page.getByTestId("preflight-card");
  await expect(card).toBeVisible();
  await expect(card.getByRole("heading", { name: "Verificação antes de ativar" })).toBeVisible();
  await expect(page.getByTestId("preflight-per-trade")).toHaveText("US$ 1.000,00");
  await expect(page.getByTestId("preflight-per-day")).toHaveText("US$ 6.000,00");
  await expect(page.getByTestId("preflight-margin")).toHaveText(/US\$ 49\.9\d\d,\d{2}/);
  await expect(page.getByTestId("preflight-ok")).toHaveText("Nenhum alerta: as configurações respeitam o risco escolhido.");
  await settle(page);

  // Defaults: no warning → ATIVAR IA starts at once.
  await page.getByTestId("power-button").click();
  await expect(page.getByTestId("hero-title")).toHaveText("IA Ativa");
  await expect(page.getByTestId("preflight-confirm")).toHaveCount(0);
  await expect(page.getByTestId("preflight-card")).toHaveCount(0);
  await page.getByTestId("power-button").click();
  await expect(page.getByTestId("hero-title")).toHaveText("IA Pausada");

  // Fixed 3 lots on 100,000: the card warns.
  await fixedLots(page, 3);
  await page.goto("/");
  await expect(page.getByTestId("preflight-per-trade")).toHaveText("US$ 1.500,00");
  const warnings = page.getByTestId("preflight-warnings");
  await expect(warnings.locator('[data-code="lossAboveRisk"]').first()).toHaveText(
    "EUR_USD: o lote fixo perde 1.500,00 USD (1,50 % do saldo) num stop de 50 pips, acima do risco de 1 % por trade",
  );
  await expect(warnings.locator('[data-code="openRiskAboveDailyLimit"]')).toBeVisible();
  await expect(page.getByTestId("preflight-sizing")).toHaveText("Lote fixo: 3,00 lote(s) por trade");
  await settle(page);

  // ATIVAR IA asks first; Cancelar keeps it paused.
  await page.getByTestId("power-button").click();
  const confirm = page.getByTestId("preflight-confirm");
  await expect(confirm).toBeVisible();
  await expect(confirm.getByText("Atenção antes de ativar")).toBeVisible();
  await shot(page, testInfo, "preflight-confirm");
  // Nothing covers the confirmation's buttons where they appear (issue 22 item 6: the floating dock hid 'Cancelar' at 1440×900).
  await expectOnTop(confirm.getByRole("link", { name: "Cancelar" }));
  await expectOnTop(confirm.getByRole("button", { name: "Ativar mesmo assim" }));
  await confirm.getByRole("link", { name: "Cancelar" }).click();
  await expect(page.getByTestId("preflight-confirm")).toHaveCount(0);
  await expect(page.getByTestId("hero-title")).toHaveText("IA Pausada");

  // Ativar mesmo assim starts it.
  await page.getByTestId("power-button").click();
  await page.getByTestId("preflight-confirm").getByRole("button", { name: "Ativar mesmo assim" }).click();
  await expect(page.getByTestId("hero-title")).toHaveText("IA Ativa");
  await expect(page.getByTestId("preflight-card")).toHaveCount(0);
});

test("@nojs the card, the confirmation and the power button work without JavaScript", async ({ page }) => {
  test.setTimeout(300_000);
  await connectedHero(page);
  await expect(page.getByTestId("preflight-per-trade")).toHaveText("US$ 1.000,00");
  await fixedLots(page, 3);
  await page.goto("/");
  await expect(page.getByTestId("preflight-per-trade")).toHaveText("US$ 1.500,00");
  await page.getByTestId("power-button").click();
  await expect(page.getByTestId("preflight-confirm")).toBeVisible();
  await expect(page.getByTestId("hero-title")).toHaveText("IA Pausada");
  await page.getByRole("button", { name: "Ativar mesmo assim" }).click();
  await expect(page.getByTestId("hero-title")).toHaveText("IA Ativa");
  await page.getByTestId("power-button").click();
  await expect(page.getByTestId("hero-title")).toHaveText("IA Pausada");
});
