/**
 * The edge gate's per-pair override in /settings (issue 21) at desktop 1440×900 and mobile 390×844, and
 * @nojs: "Vantagem estatística por par" lists the user's pairs with the shipped edge table's verdict for
 * the chosen style (Swing by default); "Operar mesmo assim" on a pair without a proven edge first shows a
 * warning with that pair's out-of-sample figures (or "sem dados de longo prazo" when untested) — a dialog
 * with JavaScript, a server-rendered step without — and saves only after the explicit confirmation;
 * Cancelar saves nothing; turning it off needs no confirmation. Expected verdicts are read from the
 * shipped table, so the spec holds before and after the study replaces it.
 * Screenshots: test-results/screenshots/edge-override-*.png.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import type { EdgeTable } from "../../core/research/edge-table";
import { shot } from "./helpers";
import { loginNewSubscriber, settle } from "./support/trading";

const ROOT = path.resolve(import.meta.dirname, "../..");
const table = JSON.parse(readFileSync(path.join(ROOT, "core/research/edge-table.json"), "utf8")) as EdgeTable;
const pt = JSON.parse(readFileSync(path.join(ROOT, "app/i18n/locales/pt/edge-override.json"), "utf8")) as {
  verdict: Record<string, string>;
};
/** The first default pair (every supported one) without an edge in Swing: the one the tests override. */
const row = ["EUR_USD", "GBP_USD", "USD_JPY", "AUD_USD", "USD_CAD", "USD_CHF", "EUR_GBP", "EUR_JPY"]
  .map((instrument) => table.rows.find((r) => r.instrument === instrument && r.style === "swing") ?? { instrument, verdict: "untested" as const, figures: null })
  .find((r) => r.verdict !== "edge");
const PAIR = row?.instrument ?? "EUR_USD";
const NAME = PAIR.replace("_", "/");

async function overrides(page: Page): Promise<string[]> {
  const res = await page.request.get("/api/settings");
  return ((await res.json()) as { settings: { aiSettings: { edgeOverrides: string[] } } }).settings.aiSettings.edgeOverrides;
}

/** The warning shows the pair's figures, or says it was never tested on the long history. */
async function expectWarning(box: ReturnType<Page["getByTestId"]>) {
  await expect(box.getByRole("heading", { name: `Operar ${NAME} sem vantagem comprovada?` })).toBeVisible();
  if (row?.figures) {
    const figures = box.getByTestId("edge-figures");
    for (const label of ["Fator de lucro", "Retorno anual médio", "Pior ano", "Queda máxima (drawdown)", "Anos positivos", "Entre entradas aleatórias"]) await expect(figures).toContainText(label);
    await expect(figures).toContainText(`${row.figures.yearsPositive} de ${row.figures.years}`);
  } else {
    await expect(box).toContainText(`Não testado: sem dados de longo prazo para ${NAME} no estilo Swing`);
    await expect(box.getByTestId("edge-no-data")).toHaveText("sem dados de longo prazo");
  }
  await expect(box.getByRole("button", { name: "Operar mesmo assim" })).toBeVisible();
}

test.skip(!row, "a tabela enviada mostra vantagem em todos os pares no estilo Swing: nada a sobrepor");

test("'Operar mesmo assim' asks in a dialog with the pair's figures; Cancelar saves nothing; off needs no confirmation", async ({ page, request }, testInfo) => {
  await loginNewSubscriber(page, request, { firstName: "Edge", lastName: "Gate" });
  await page.goto("/settings");
  const section = page.getByTestId("edge-section");
  await expect(section).toHaveAttribute("data-hydrated", "true"); // the switch opens the dialog only once React runs
  await expect(section.getByRole("heading", { name: "Vantagem estatística por par" })).toBeVisible();
  await expect(section).toContainText("no estilo Swing");
  const pair = section.getByTestId(`edge-pair-${PAIR}`);
  await expect(pair.getByTestId("edge-verdict")).toHaveText(pt.verdict[row!.verdict]!);
  const toggle = pair.getByRole("switch", { name: `Desligado: a IA não opera ${NAME}` });
  await expect(toggle).toHaveAttribute("aria-checked", "false");

  // Cancelar: nothing saved.
  await toggle.click();
  const dialog = page.getByRole("dialog");
  await expectWarning(dialog);
  await settle(page);
  await shot(page, testInfo, "edge-override-dialog");
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toHaveCount(0);
  expect(await overrides(page)).toEqual([]);

  // Confirmed: the pair is traded anyway.
  await toggle.click();
  await page.getByRole("dialog").getByRole("button", { name: "Operar mesmo assim" }).click();
  await expect(section.getByTestId("edge-message")).toHaveText(`${NAME}: a IA vai operar mesmo sem vantagem comprovada.`);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const on = pair.getByRole("switch", { name: `Ligado: a IA opera ${NAME} sem vantagem comprovada` });
  await expect(on).toHaveAttribute("aria-checked", "true");
  expect(await overrides(page)).toEqual([PAIR]);
  await shot(page, testInfo, "edge-override-on");

  // Off: at once, no dialog.
  await on.click();
  await expect(section.getByTestId("edge-message")).toHaveText(`${NAME}: a IA volta a operar só com vantagem comprovada.`);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(pair.getByRole("switch")).toHaveAttribute("aria-checked", "false");
  expect(await overrides(page)).toEqual([]);
});

test("@nojs the warning is a server-rendered step: Cancelar saves nothing, confirming saves, off saves at once", async ({ page, request }, testInfo) => {
  await loginNewSubscriber(page, request, { firstName: "Edge", lastName: "NoJs" });
  await page.goto("/settings");
  const section = page.getByTestId("edge-section");
  const toggle = () => section.getByTestId(`edge-pair-${PAIR}`).getByRole("switch");

  await toggle().click();
  const step = section.getByTestId("edge-warning");
  await expectWarning(step);
  expect(await overrides(page)).toEqual([]);
  await shot(page, testInfo, "edge-override-step");
  await step.getByRole("button", { name: "Cancelar" }).click();
  await expect(section.getByTestId("edge-warning")).toHaveCount(0);
  expect(await overrides(page)).toEqual([]);

  await toggle().click();
  await section.getByTestId("edge-warning").getByRole("button", { name: "Operar mesmo assim" }).click();
  await expect(section.getByTestId("edge-message")).toHaveText(`${NAME}: a IA vai operar mesmo sem vantagem comprovada.`);
  await expect(toggle()).toHaveAttribute("aria-checked", "true");
  expect(await overrides(page)).toEqual([PAIR]);

  await toggle().click();
  await expect(section.getByTestId("edge-message")).toHaveText(`${NAME}: a IA volta a operar só com vantagem comprovada.`);
  await expect(toggle()).toHaveAttribute("aria-checked", "false");
  expect(await overrides(page)).toEqual([]);
});
