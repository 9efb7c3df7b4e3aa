/** Shared e2e helpers: unique users, UI registration, screenshots under test-results/screenshots/. */
import { randomBytes } from "node:crypto";
import { expect, type Locator, type Page, type TestInfo } from "@playwright/test";
import { linkFrom, localPath, waitForEmail } from "./support/users";

/** A fresh user identity for one test. */
export function newUser(prefix = "e2e") {
  const id = randomBytes(4).toString("hex");
  return { firstName: "Ana", lastName: `Teste ${id}`, email: `${prefix}-${id}@exemplo.com`, password: "Senha123forte" };
}

/**
 * Registers through the /auth 'Criar Conta' tab, accepts the terms (scrolling the document to the end),
 * lands on 'Cadastro Realizado!', follows the verification link from the local mailbox, logs in and
 * waits for the hero screen.
 */
export async function registerInUi(page: Page, user: ReturnType<typeof newUser>) {
  await page.goto("/auth");
  await waitForHydration(page);
  await page.getByRole("tab", { name: "Criar Conta" }).click();
  await page.getByLabel("Nome", { exact: true }).fill(user.firstName);
  await page.getByLabel("Sobrenome").fill(user.lastName);
  await page.getByLabel("E-mail").fill(user.email);
  const submit = page.getByRole("button", { name: "Criar Conta" });
  await page.getByLabel("Senha", { exact: true }).fill("curta");
  await expect(submit).toBeDisabled();
  await page.getByLabel("Senha", { exact: true }).fill(user.password);
  for (const rule of ["Pelo menos 8 caracteres", "Letra maiúscula", "Letra minúscula", "Número"])
    await expect(page.getByRole("listitem").filter({ hasText: rule })).toHaveAttribute("data-ok", "true");
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByText("Cadastro iniciado! Redirecionando para aceitar os termos...")).toBeVisible();
  await page.waitForURL((url) => url.pathname === "/auth/contract");
  await acceptTermsInUi(page);
  await page.waitForURL((url) => url.pathname === "/auth/done");
  await expect(page.getByRole("heading", { name: "Cadastro Realizado!" })).toBeVisible();
  const mail = await waitForEmail(user.email, { subject: /Confirme seu e-mail/ });
  await page.goto(localPath(linkFrom(mail, "/auth/verify")));
  await expect(page.getByText("Email verificado com sucesso! Faça login para continuar.")).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByRole("tabpanel").getByLabel("E-mail").fill(user.email);
  await page.getByRole("tabpanel").getByLabel("Senha", { exact: true }).fill(user.password);
  await page.getByRole("tabpanel").getByRole("button", { name: "Entrar" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByTestId("greeting")).toHaveText(`Olá, ${user.firstName} ${user.lastName}`);
}

/** Saves a full-page screenshot as test-results/screenshots/<name>-<project>.png. */
export async function shot(page: Page, testInfo: TestInfo, name: string, project = testInfo.project.name) {
  await page.screenshot({ path: `test-results/screenshots/${name}-${project}.png`, fullPage: true });
}

/** On /auth/contract: scrolls the terms to the end, ticks the checkbox and submits 'Completar Cadastro'. */
export async function acceptTermsInUi(page: Page) {
  const checkbox = page.getByLabel("Li e aceito integralmente os Termos de Uso e Política de Privacidade");
  await expect(checkbox).toBeDisabled();
  await page.getByTestId("terms-document").evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect(checkbox).toBeEnabled();
  await checkbox.check();
  await page.getByRole("button", { name: "Completar Cadastro" }).click();
}

/** Waits until /auth has hydrated (its forms then carry the hidden `js` field). */
export async function waitForHydration(page: Page) {
  await expect(page.locator('input[name="js"]').first()).toBeAttached();
}

/**
 * The element is what the viewport shows at its centre: nothing (the floating dock, a banner) covers it
 * where it appears. On a phone (< 768 px) it is scrolled into view first; on a desktop it must already be visible.
 */
export async function expectOnTop(target: Locator) {
  if ((target.page().viewportSize()?.width ?? 0) < 768) await target.scrollIntoViewIfNeeded();
  const hit = await target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return top && (top === el || el.contains(top)) ? "ok" : (top?.outerHTML.slice(0, 160) ?? "fora da tela");
  });
  expect(hit).toBe("ok");
}
