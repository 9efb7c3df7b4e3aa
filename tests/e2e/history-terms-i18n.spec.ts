/**
 * /history and the terms step in the reader's language (PRODUCT.md §2 History and Terms screen, §3
 * User preferences, §9 pt-BR by default): an English user sees en-US money and dates, a Spanish user
 * es-ES, both with translated titles and filter messages, while the CSV export stays in the Excel
 * pt-BR format; the ten sections of the terms follow the page's language. Preferences are changed in
 * the e2e database (needs TEST_DATABASE_URL), and trades are inserted with known P&L on our clock.
 */
import { expect, test, type Page } from "@playwright/test";
import { shot } from "./helpers";
import { connectSimAccount, hasDb, insertClosedTrades, NO_DB_REASON, registerToContract, setPreferences, useOurClock } from "./support/trading";
import { createVerifiedUser, loginByApi } from "./support/users";

test.skip(!hasDb(), NO_DB_REASON);

/** `dd/mm/yyyy`-style date of an instant as Intl writes it in a locale and time zone (the test's own reference). */
function dateIn(locale: string, timeZone: string, at: Date): string {
  return new Intl.DateTimeFormat(locale, { timeZone, day: "2-digit", month: "2-digit", year: "numeric" }).format(at);
}

/** The texts of every element with a test id, whitespace normalised. */
async function texts(page: Page, testId: string): Promise<string[]> {
  return (await page.getByTestId(testId).allTextContents()).map((s) => s.replace(/\s+/g, " ").trim());
}

test("history follows the user's language: en-US then es-ES formatting, translated title and messages, CSV unchanged", async ({ page, request }, testInfo) => {
  const desktop = testInfo.project.name === "desktop";
  const creds = await createVerifiedUser(request, { firstName: "Lang", lastName: "History" });
  await loginByApi(page, creds.email, creds.password);
  await page.goto("/");
  const { accountId } = await connectSimAccount(page);
  await useOurClock(creds.email);
  const win = new Date(Date.now() - 2 * 3_600_000);
  const loss = new Date(Date.now() - 3 * 3_600_000);
  await insertClosedTrades(creds.email, accountId, [
    { pnl: 12.5, closeTime: win },
    { pnl: -4.2, closeTime: loss, instrument: "USD_JPY", side: "sell" },
  ]);

  // English, New York.
  await setPreferences(creds.email, { language: "en", timezone: "America/New_York" });
  await page.goto("/history");
  await expect(page).toHaveTitle("Trade History — Forex IA");
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await expect(page.getByRole("heading", { level: 1, name: "Trade History" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Executed Trades" })).toBeVisible();
  await expect(page.getByTestId("history-row")).toHaveCount(2);
  await expect(page.getByTestId("history-count")).toHaveText("2 of 2 trade(s)");
  expect((await texts(page, "row-pnl")).sort()).toEqual(["+$12.50", "-$4.20"]);
  const winRow = page.getByTestId("history-row").filter({ has: page.getByTestId("row-pnl").filter({ hasText: "+$12.50" }) });
  await expect(winRow.getByTestId("row-side")).toHaveText("BUY");
  await expect(winRow).toContainText(dateIn("en-US", "America/New_York", win));
  await expect(winRow.getByText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\s[AP]M$/).first()).toBeVisible();
  // Prices and lots keep the forex dot in every language.
  await expect(winRow.getByTestId("row-entry")).toHaveText("1.10000");
  await expect(winRow.getByTestId("row-lots")).toHaveText("0.10");
  if (desktop) {
    const stats = page.getByTestId("history-stats");
    await expect(stats).toContainText("+$8.30");
    await expect(stats).toContainText("50.0%");
    await expect(stats).toContainText("Profit factor");
    // +12.50 and −4.20: gross profit / gross loss = 12.50 / 4.20 = 2.976… (one win and one loss: the payoff ratio is the same).
    await expect(stats.getByTestId("history-profit-factor")).toHaveText("2.98");
    await expect(stats).toContainText("Payoff ratio (avg win / avg loss)");
  }
  await shot(page, testInfo, "history-en");

  // A bad filter: the message in English (and a 400), from the page and from the CSV route.
  const bad = await page.goto("/history?minPnL=abc");
  expect(bad?.status()).toBe(400);
  await expect(page.getByTestId("filter-error")).toHaveText("minPnL must be a number");
  const badCsv = await page.request.get("/history.csv?side=long");
  expect(badCsv.status()).toBe(400);
  expect(await badCsv.text()).toBe("side must be buy or sell");
  if (desktop) {
    // In the browser the same rule answers in English before any request.
    await page.goto("/history");
    await page.getByLabel("Min P&L").fill("10");
    await page.getByLabel("Max P&L").fill("5");
    await expect(page.getByTestId("filter-error")).toHaveText("minPnL must be less than or equal to maxPnL");
  }

  // The CSV keeps its Excel pt-BR format whatever the language: BOM, ';', Portuguese header, decimal comma.
  const csv = await page.request.get("/history.csv");
  expect(csv.status()).toBe(200);
  const body = Buffer.from(await csv.body());
  expect([...body.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = body.toString("utf8").slice(1).trim().split("\r\n");
  expect(lines[0]).toBe("ID;Instrumento;Direção;Lotes;Unidades;Preço de entrada;Preço de saída;P&L;Resultado;Abertura;Fechamento;Timeframe IA;Motivo IA;Origem");
  expect(lines.slice(1).map((l) => l.split(";")[7]).sort()).toEqual(["-4,20", "12,50"]);
  expect(lines.slice(1).map((l) => l.split(";")[2]).sort()).toEqual(["COMPRA", "VENDA"]);

  // Spanish, Madrid.
  await setPreferences(creds.email, { language: "es", timezone: "Europe/Madrid" });
  await page.goto("/history");
  await expect(page).toHaveTitle("Historial de Trades — Forex IA");
  await expect(page.locator("html")).toHaveAttribute("lang", "es-ES");
  await expect(page.getByRole("heading", { level: 1, name: "Historial de Trades" })).toBeVisible();
  await expect(page.getByTestId("history-count")).toHaveText("2 de 2 trade(s)");
  expect((await texts(page, "row-pnl")).sort()).toEqual(["+12,50 US$", "-4,20 US$"]);
  const winEs = page.getByTestId("history-row").filter({ has: page.getByTestId("row-pnl").filter({ hasText: "+12,50 US$" }) });
  await expect(winEs.getByTestId("row-side")).toHaveText("COMPRA");
  await expect(winEs).toContainText(dateIn("es-ES", "Europe/Madrid", win));
  await expect(winEs.getByText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/).first()).toBeVisible();
  if (desktop) {
    await expect(page.getByTestId("history-stats")).toContainText("+8,30 US$");
    await expect(page.getByTestId("history-stats")).toContainText("50,0%");
  }
  await page.goto("/history?side=long");
  await expect(page.getByTestId("filter-error")).toHaveText("side debe ser buy o sell");
  await shot(page, testInfo, "history-es");

  // Back to Portuguese: pt-BR money as before.
  await setPreferences(creds.email, { language: "pt", timezone: "America/Sao_Paulo" });
  await page.goto("/history");
  await expect(page).toHaveTitle("Histórico de Trades — Forex IA");
  expect((await texts(page, "row-pnl")).sort()).toEqual(["+US$ 12,50", "-US$ 4,20"]);
  await expect(page.getByTestId("history-row").first()).toContainText(dateIn("pt-BR", "America/Sao_Paulo", win));
});

test("terms: the ten sections follow the page's language (pt for a visitor, then en and es)", async ({ page, request }, testInfo) => {
  // A visitor registering reads Portuguese.
  await registerToContract(page);
  const doc = page.getByTestId("terms-document");
  await expect(doc.getByRole("heading", { level: 3 })).toHaveCount(10);
  await expect(doc.getByRole("heading", { level: 3 }).first()).toHaveText("1. Aceitação dos Termos");
  await expect(doc.getByRole("heading", { level: 3 }).last()).toHaveText("10. Contato");
  await expect(page).toHaveTitle("Termos de Uso — Forex IA");

  // The same browser signed in as a user whose language is English (the page's language is the
  // signed-in user's; the registration in progress is still the one the page completes).
  const other = await createVerifiedUser(request, { firstName: "Terms", lastName: "Reader" });
  await setPreferences(other.email, { language: "en" });
  const login = await page.request.post("/api/auth/login", { data: other });
  expect(login.status(), await login.text()).toBe(200);
  await page.reload();
  await expect(page).toHaveURL((url) => url.pathname === "/auth/contract");
  await expect(page).toHaveTitle("Terms of Use — Forex IA");
  await expect(page.getByRole("heading", { level: 2, name: "Forex IA Terms of Use and Privacy Policy" })).toBeVisible();
  await expect(doc.getByRole("heading", { level: 3 })).toHaveText([
    "1. Acceptance of the Terms",
    "2. Description of the Service",
    "3. Market Risks",
    "4. Integration with the Broker",
    "5. Payment and Subscription",
    "6. Privacy and Data Protection",
    "7. Limitation of Liability",
    "8. Cancellation",
    "9. Changes to the Terms",
    "10. Contact",
  ]);
  await expect(doc).toContainText("Trading forex involves high risk");
  await expect(doc).not.toContainText("Aceitação");
  // The scroll gate works the same in English.
  const checkbox = page.getByLabel("I have read and fully accept the Terms of Use and Privacy Policy");
  await expect(page.getByText("Scroll to the end of the document to continue")).toBeVisible();
  await expect(checkbox).toBeDisabled();
  await doc.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(checkbox).toBeEnabled();
  await checkbox.check();
  await expect(page.getByRole("button", { name: "Complete Registration" })).toBeEnabled();
  await shot(page, testInfo, "terms-en");

  await setPreferences(other.email, { language: "es" });
  await page.reload();
  await expect(page).toHaveTitle("Términos de Uso — Forex IA");
  await expect(doc.getByRole("heading", { level: 3 }).first()).toHaveText("1. Aceptación de los Términos");
  await expect(doc.getByRole("heading", { level: 3 }).last()).toHaveText("10. Contacto");
  await expect(doc).toContainText("Operar en forex implica un alto riesgo");
});
