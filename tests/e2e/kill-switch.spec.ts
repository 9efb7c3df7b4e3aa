/**
 * The graduated kill switch on the hero (issue 22 "Guard rails"), at desktop 1440×900 and mobile 390×844,
 * and @nojs: with the AI on, 'Parada de emergência' offers the three levels; each asks first ('Cancelar'
 * changes nothing), 'Parar novas entradas' leaves the AI on in manage-only until 'Retomar entradas', and
 * 'Fechar tudo e pausar' pauses the AI and closes the open trade. Every level leaves a notification.
 */
import { expect, test, type Page } from "@playwright/test";
import { expectOnTop } from "./helpers";
import { connectSimAccount, loginNewSubscriber, settle } from "./support/trading";

test.describe.configure({ mode: "serial" });

/** A subscriber with a simulator account and the AI on (started through the API: the power button has its own specs). */
async function heroWithAiOn(page: Page) {
  await loginNewSubscriber(page, page.request, { firstName: "Parada", lastName: "Teste" });
  const { token, accountId } = await connectSimAccount(page);
  const start = await page.request.post("/api/trades/ai/loop/start", { data: { intervalSec: 60 } });
  expect(start.ok(), await start.text()).toBeTruthy();
  await page.goto("/");
  return { token, accountId };
}

/** Opens one trade on the account straight at the simulator (as a trader would on the broker's platform). */
async function openTradeAtBroker(page: Page, token: string, accountId: string) {
  const res = await page.request.post(`/oanda-sim/practice/v3/accounts/${accountId}/orders`, {
    headers: { authorization: `Bearer ${token}` },
    data: { order: { type: "MARKET", instrument: "EUR_USD", units: "1000", timeInForce: "FOK", positionFill: "DEFAULT" } },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

async function notificationTitles(page: Page): Promise<string[]> {
  const res = await page.request.get("/api/notifications?page=1&limit=50");
  return ((await res.json()) as { notifications: { title: string }[] }).notifications.map((n) => n.title);
}

test("the three levels ask first, stop entries until resumed, and close everything and pause", async ({ page }) => {
  test.setTimeout(180_000);
  const { token, accountId } = await heroWithAiOn(page);
  const current = page.getByTestId("kill-switch-current");
  await expect(current).toHaveText(/IA operando: novas entradas permitidas/);
  for (const level of ["stop_entries", "pause", "close_all"]) await expect(page.getByTestId(`kill-switch-${level}`)).toBeVisible();
  await settle(page);

  // Asked first; 'Cancelar' changes nothing.
  await page.getByTestId("kill-switch-stop_entries").click();
  const confirm = page.getByTestId("kill-switch-confirm");
  await expect(confirm).toContainText("Parar novas entradas?");
  await expectOnTop(page.getByTestId("kill-switch-confirm-yes"));
  await expectOnTop(page.getByTestId("kill-switch-confirm-cancel"));
  await page.getByTestId("kill-switch-confirm-cancel").click();
  await expect(confirm).toHaveCount(0);
  await expect(current).toHaveText(/IA operando/);

  // 'Parar novas entradas': the AI stays on, managing only, until 'Retomar entradas'.
  await page.getByTestId("kill-switch-stop_entries").click();
  await page.getByTestId("kill-switch-confirm-yes").click();
  await expect(current).toHaveText(/Somente gestão: novas entradas paradas/);
  const status = (await (await page.request.get("/api/trades/ai/loop/status")).json()) as { isActive?: boolean; active?: boolean };
  expect(status.isActive ?? status.active).toBe(true);
  await page.getByTestId("kill-switch-resume").click();
  await expect(current).toHaveText(/IA operando: novas entradas permitidas/);

  // 'Fechar tudo e pausar': the AI off and the open trade closed.
  await openTradeAtBroker(page, token, accountId);
  await page.getByTestId("kill-switch-close_all").click();
  await expect(confirm).toContainText("Fechar tudo e pausar?");
  await page.getByTestId("kill-switch-confirm-yes").click();
  await expect(current).toHaveText(/Tudo fechado e IA pausada/);
  await expect(page.getByTestId("hero-title")).toHaveText("IA Pausada");
  const open = (await (await page.request.get("/api/trades/account/open")).json()) as { trades: unknown[] };
  expect(open.trades).toEqual([]);

  expect(await notificationTitles(page)).toEqual(
    expect.arrayContaining(["Parada de emergência: novas entradas paradas", "Parada de emergência: fechar tudo e pausar"]),
  );
});

test("@nojs stop entries through the server-rendered confirmation, then resume", async ({ page }) => {
  test.setTimeout(180_000);
  await heroWithAiOn(page);
  const current = page.getByTestId("kill-switch-current");
  await expect(current).toHaveText(/IA operando/);
  await page.getByTestId("kill-switch-stop_entries").click();
  await expect(page).toHaveURL(/parada=stop_entries#parada-confirmacao$/);
  await expect(page.getByTestId("kill-switch-confirm")).toContainText("Parar novas entradas?");
  await expectOnTop(page.getByTestId("kill-switch-confirm-yes")); // the fragment brings it into view, clear of the dock
  await page.getByTestId("kill-switch-confirm-yes").click();
  await expect(page.getByTestId("kill-switch-current")).toHaveText(/Somente gestão: novas entradas paradas/);
  await page.getByTestId("kill-switch-resume").click();
  await expect(page.getByTestId("kill-switch-current")).toHaveText(/IA operando/);
  expect(await notificationTitles(page)).toContain("Parada de emergência: novas entradas paradas");
});
