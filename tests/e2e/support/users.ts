/**
 * Shared e2e user fixtures (other specs import these): `createVerifiedUser` registers through the JSON
 * API, reads the verification e-mail from the local mailbox (tests/e2e/support/mailbox.ts) and follows
 * the link; `loginInUi` signs in through the /auth 'Entrar' form. Also mailbox helpers.
 */
import { randomBytes } from "node:crypto";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { mailboxPorts, type MailboxMessage } from "./mailbox";

/** Base URL of the local mailbox's HTTP inbox for this run. */
export function mailboxUrl(): string {
  return `http://127.0.0.1:${mailboxPorts().http}`;
}

/** Waits until a message for `to` matching `subject` (and newer than `after`, ISO) arrives; returns the newest. */
export async function waitForEmail(to: string, opts: { subject?: RegExp; after?: string; timeoutMs?: number } = {}): Promise<MailboxMessage> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  for (;;) {
    const res = await fetch(`${mailboxUrl()}/messages?to=${encodeURIComponent(to.toLowerCase())}`);
    const all = (await res.json()) as MailboxMessage[];
    const hits = all.filter((m) => (!opts.subject || opts.subject.test(m.subject)) && (!opts.after || m.date > opts.after));
    if (hits.length) return hits[hits.length - 1]!;
    if (Date.now() > deadline) throw new Error(`nenhum e-mail para ${to} (${opts.subject ?? "qualquer assunto"}) em ${opts.timeoutMs ?? 20_000} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The first absolute link in a message's text whose path starts with `pathPrefix` (e.g. '/auth/verify'). */
export function linkFrom(message: MailboxMessage, pathPrefix: string): string {
  const links = `${message.text}\n${message.html}`.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
  const link = links.map((l) => l.replace(/&amp;/g, "&")).find((l) => new URL(l).pathname.startsWith(pathPrefix));
  if (!link) throw new Error(`link ${pathPrefix} não encontrado no e-mail '${message.subject}'`);
  return link;
}

/** The same URL on the test server's origin (the e-mail links use APP_URL, which points there too). */
export function localPath(link: string): string {
  const u = new URL(link);
  return `${u.pathname}${u.search}`;
}

/** Registers a user through the API, verifies the e-mail through the link in the message, returns the credentials. */
export async function createVerifiedUser(
  request: APIRequestContext,
  opts: { firstName?: string; lastName?: string } = {},
): Promise<{ email: string; password: string }> {
  const id = randomBytes(4).toString("hex");
  const user = {
    firstName: opts.firstName ?? "Ana",
    lastName: opts.lastName ?? `Teste ${id}`,
    email: `user-${id}@exemplo.com`,
    password: "Senha123forte",
  };
  const res = await request.post("/api/auth/register", { data: user });
  expect(res.status(), await res.text()).toBe(201);
  const message = await waitForEmail(user.email, { subject: /Confirme seu e-mail/ });
  const verify = await request.get(localPath(linkFrom(message, "/auth/verify")), { maxRedirects: 0 });
  expect(verify.status()).toBe(302);
  expect(verify.headers()["location"]).toContain("verified=true");
  return { email: user.email, password: user.password };
}

/**
 * Logs the page's browser context in through `POST /api/auth/login` (the session cookie lands in the
 * context's cookie jar, 'Lembrar de mim' as the form's default), without opening a page. For tests
 * whose subject is not the login itself (ADR 0023: one page load instead of /auth, its hydration and
 * the form); the form is tested by accounts.spec, main-flow.spec and the specs calling `loginInUi`.
 */
export async function loginByApi(page: Page, email: string, password: string): Promise<void> {
  const res = await page.request.post("/api/auth/login", { data: { email, password, remember: true } });
  expect(res.status(), await res.text()).toBe(200);
  expect(((await res.json()) as { success: boolean }).success).toBe(true);
}

/** Logs in through the /auth 'Entrar' form and waits to leave /auth (to / or /admin). */
export async function loginInUi(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/auth");
  // Wait for hydration (the form then carries a hidden `js` field): fields filled before it can be reset
  // by it. Without JavaScript it never comes and the form posts natively. Bounds hold on a loaded
  // machine (two spec files at a time on 2 cores, ADR 0023).
  if (test.info().project.use.javaScriptEnabled !== false) await expect(page.locator('input[name="js"]').first()).toBeAttached({ timeout: 30_000 });
  const panel = page.getByRole("tabpanel");
  await panel.getByLabel("E-mail").fill(email);
  await panel.getByLabel("Senha", { exact: true }).fill(password);
  await panel.getByRole("button", { name: "Entrar" }).click();
  await page.waitForURL((url) => url.pathname !== "/auth", { timeout: 30_000 });
}
