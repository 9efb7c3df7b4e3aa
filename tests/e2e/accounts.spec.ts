/**
 * Accounts in a real browser, e-mail read back from the local SMTP mailbox: the whole sign-up path
 * (register → terms with the scroll gate → 'Cadastro Realizado!' → login refused before verification →
 * verification link → banner → login), forgot and reset password, and an @nojs login without
 * JavaScript. Screenshots of /auth, /auth/contract, /auth/done and the reset page at both viewports.
 */
import { expect, test } from "@playwright/test";
import { newUser, shot, waitForHydration } from "./helpers";
import { createVerifiedUser, linkFrom, localPath, loginInUi, waitForEmail } from "./support/users";

test("sign-up: register → terms scroll gate → done → verification e-mail → login", async ({ page }, testInfo) => {
  const user = newUser("acc");
  await page.goto("/auth");
  await waitForHydration(page);
  await shot(page, testInfo, "auth-login");
  await page.getByRole("tab", { name: "Criar Conta" }).click();
  await page.getByLabel("Nome", { exact: true }).fill(user.firstName);
  await page.getByLabel("Sobrenome").fill(user.lastName);
  await page.getByLabel("E-mail").fill(user.email);
  await page.getByLabel("Senha", { exact: true }).fill(user.password);
  await shot(page, testInfo, "auth-register");
  await page.getByRole("button", { name: "Criar Conta" }).click();
  await expect(page.getByText("Cadastro iniciado! Redirecionando para aceitar os termos...")).toBeVisible();
  await page.waitForURL((url) => url.pathname === "/auth/contract");
  expect(new URL(page.url()).searchParams.get("email")).toBe(user.email);

  // Terms: ten numbered sections; the gate opens only near the bottom of the document.
  const doc = page.getByTestId("terms-document");
  await expect(doc.getByRole("heading", { level: 3 })).toHaveCount(10);
  await expect(doc.getByRole("heading", { name: "10. Contato" })).toBeAttached();
  const checkbox = page.getByLabel("Li e aceito integralmente os Termos de Uso e Política de Privacidade");
  const submit = page.getByRole("button", { name: "Completar Cadastro" });
  await expect(page.getByText("Role até o final do documento para continuar")).toBeVisible();
  await expect(checkbox).toBeDisabled();
  await expect(submit).toBeDisabled();
  await shot(page, testInfo, "auth-contract");
  await doc.evaluate((el) => el.scrollTo(0, el.scrollHeight / 2));
  await expect(checkbox).toBeDisabled(); // halfway is not enough
  await doc.evaluate((el) => el.scrollTo(0, el.scrollHeight - el.clientHeight - 40)); // within 50 px
  await expect(checkbox).toBeEnabled();
  await expect(page.getByText("Role até o final do documento para continuar")).toHaveCount(0);
  await expect(submit).toBeDisabled(); // scroll alone is not enough
  await checkbox.check();
  await expect(submit).toBeEnabled();
  await submit.click();

  await page.waitForURL((url) => url.pathname === "/auth/done");
  await expect(page.getByRole("heading", { name: "Cadastro Realizado!" })).toBeVisible();
  await expect(page.getByTestId("masked-email")).toHaveText(`${user.email.slice(0, 3)}***@exemplo.com`);
  await expect(page.getByTestId("countdown")).toHaveText(/(10:00|09:[0-5]\d)/);
  await expect(page.getByRole("link", { name: "Abrir Email" })).toHaveAttribute("href", `mailto:${user.email}`);
  await expect(page.getByText("Verifique a caixa de spam ou lixo eletrônico.")).toBeVisible();
  await shot(page, testInfo, "auth-done");

  // The terms acceptance is recorded by the server only now, and the e-mail is sent after it.
  const mail = await waitForEmail(user.email, { subject: /Confirme seu e-mail/ });

  // Resend: success restarts the countdown and starts the 60 s cooldown.
  await page.getByRole("button", { name: "Reenviar e-mail" }).click();
  await expect(page.getByText("Enviamos um novo link de confirmação.")).toBeVisible();
  await expect(page.getByRole("button", { name: /Reenviar em \d+s/ })).toBeDisabled();

  // Login before verification: refused with the §8 message, no session.
  await page.getByRole("link", { name: "Voltar para Login" }).click();
  await page.waitForURL((url) => url.pathname === "/auth");
  await page.getByRole("tabpanel").getByLabel("E-mail").fill(user.email);
  await page.getByRole("tabpanel").getByLabel("Senha", { exact: true }).fill(user.password);
  await page.getByRole("tabpanel").getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByRole("alert")).toContainText("Email não verificado. Verifique sua caixa de entrada para confirmar sua conta.");
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth$/);

  // The link (the first one stays valid after a resend) → banner, query cleared, banner closable.
  await page.goto(localPath(linkFrom(mail, "/auth/verify")));
  await expect(page.getByText("Email verificado com sucesso! Faça login para continuar.")).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByRole("button", { name: "Fechar" }).click();
  await expect(page.getByText("Email verificado com sucesso!")).toHaveCount(0);

  await page.getByRole("tabpanel").getByLabel("E-mail").fill(user.email);
  await page.getByRole("tabpanel").getByLabel("Senha", { exact: true }).fill(user.password);
  await page.getByRole("tabpanel").getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByText("Login realizado com sucesso! Redirecionando...")).toBeVisible();
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByTestId("greeting")).toHaveText(`Olá, ${user.firstName} ${user.lastName}`);

  // Reusing the link: expired/invalid banner.
  await page.context().clearCookies();
  await page.goto(localPath(linkFrom(mail, "/auth/verify")));
  await expect(page.getByText("Link de verificação expirado ou inválido.")).toBeVisible();
});

test("forgot password → e-mail → reset page → new password works", async ({ page }, testInfo) => {
  const { email, password } = await createVerifiedUser(page.request);
  await page.goto("/auth");
  await waitForHydration(page);
  await page.getByRole("tab", { name: "Recuperar" }).click();
  await page.getByLabel("E-mail").fill(email);
  const since = new Date().toISOString();
  await page.getByRole("button", { name: "Enviar link" }).click();
  await expect(page.getByText("Se o e-mail estiver cadastrado, você receberá o link de recuperação.")).toBeVisible();
  const mail = await waitForEmail(email, { subject: /Redefinição de senha/, after: since });
  const link = localPath(linkFrom(mail, "/auth/reset-password"));

  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Redefinir senha" })).toBeVisible();
  const save = page.getByRole("button", { name: "Salvar nova senha" });
  await page.getByLabel("Nova senha", { exact: true }).fill("fraca");
  await expect(save).toBeDisabled();
  await page.getByLabel("Nova senha", { exact: true }).fill("NovaSenha987");
  await page.getByLabel("Confirmar nova senha").fill("NovaSenha98");
  await expect(page.getByText("As senhas não coincidem.")).toBeVisible();
  await expect(save).toBeDisabled();
  await page.getByLabel("Confirmar nova senha").fill("NovaSenha987");
  await shot(page, testInfo, "auth-reset");
  await save.click();
  await page.waitForURL((url) => url.pathname === "/auth");
  await expect(page.getByText("Senha redefinida com sucesso! Faça login com a nova senha.")).toBeVisible();

  // Old password refused, new one works; the link cannot be used twice.
  await page.getByRole("tabpanel").getByLabel("E-mail").fill(email);
  await page.getByRole("tabpanel").getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("tabpanel").getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByRole("alert")).toHaveText("Email ou senha inválidos.");
  await loginInUi(page, email, "NovaSenha987");
  await expect(page).toHaveURL((url) => url.pathname === "/");
  await page.context().clearCookies();
  await page.goto(link);
  await expect(page.getByText("Link de redefinição expirado ou inválido. Solicite um novo.")).toBeVisible();
});

test("login without JavaScript @nojs", async ({ page }) => {
  const { email, password } = await createVerifiedUser(page.request, { firstName: "Sem", lastName: "Script" });
  await page.goto("/auth");
  await expect(page.getByLabel("Lembrar de mim")).toBeChecked();
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill("SenhaErrada1");
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByText("Email ou senha inválidos.")).toBeVisible();
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Senha", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByTestId("greeting")).toHaveText("Olá, Sem Script");
});
