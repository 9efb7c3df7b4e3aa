/** Shared e2e helpers: unique users, UI registration, screenshots under test-results/screenshots/. */
import { randomBytes } from "node:crypto";
import { expect, type Page, type TestInfo } from "@playwright/test";

/** A fresh user identity for one test. */
export function newUser(prefix = "e2e") {
  const id = randomBytes(4).toString("hex");
  return { firstName: "Ana", lastName: `Teste ${id}`, email: `${prefix}-${id}@exemplo.com`, password: "Senha123forte" };
}

/** Registers through the /auth 'Criar Conta' tab and waits for the hero screen. */
export async function registerInUi(page: Page, user: ReturnType<typeof newUser>) {
  await page.goto("/auth");
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
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByTestId("greeting")).toHaveText(`Olá, ${user.firstName} ${user.lastName}`);
}

/** Saves a full-page screenshot as test-results/screenshots/<name>-<project>.png. */
export async function shot(page: Page, testInfo: TestInfo, name: string, project = testInfo.project.name) {
  await page.screenshot({ path: `test-results/screenshots/${name}-${project}.png`, fullPage: true });
}
