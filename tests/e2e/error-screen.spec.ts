/**
 * Unknown paths and the generic error screen in a real browser (PRODUCT.md §2 Routes): any other path
 * redirects to / (which sends a logged-out visitor on to /auth), and a request the app cannot handle
 * shows the router error screen 'Unexpected Application Error!' with a translated way back, free of
 * serious or critical axe (WCAG 2 A/AA) violations.
 *
 * The failure is a real, user-reachable one, not a test route: a form that POSTs to /history — say a
 * page cached from another version of the app, or a hand-made form — reaches a page that only reads
 * (it has no `action`), and Remix answers 405 with the root ErrorBoundary. The form page is served on
 * the app's own origin by Playwright (`page.route`), so the browser submits it natively, with the
 * same Origin header a page of the app would send (the server's Origin guard lets it through).
 */
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { shot } from "./helpers";
import { createVerifiedUser, loginByApi } from "./support/users";

/** Where the stale form page is served (intercepted by the browser; the app never sees this path). */
const FORM_PATH = "/e2e/formulario-antigo";

/** Serves a plain HTML page with a form that POSTs to /history, opens it and submits it; returns the document response's status. */
async function postStrayForm(page: Page): Promise<number> {
  await page.route(
    (url) => url.pathname === FORM_PATH,
    (route) =>
      route.fulfill({
        contentType: "text/html; charset=utf-8",
        body: `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Formulário antigo</title></head>
          <body><main><form method="post" action="/history"><input type="hidden" name="instrument" value="EUR_USD">
          <button type="submit">Enviar formulário antigo</button></form></main></body></html>`,
      }),
  );
  await page.goto(FORM_PATH);
  const [response] = await Promise.all([
    page.waitForResponse((r) => new URL(r.url()).pathname === "/history" && r.request().method() === "POST"),
    page.getByRole("button", { name: "Enviar formulário antigo" }).click(),
  ]);
  await page.waitForURL((url) => url.pathname === "/history");
  return response.status();
}

/** Serious and critical WCAG 2 A/AA violations on the current page, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

/** The error screen as PRODUCT.md §2 names it, in Portuguese (the language the app falls back to here). */
async function expectErrorScreen(page: Page) {
  await expect(page.getByRole("heading", { level: 1, name: "Unexpected Application Error!" })).toBeVisible();
  await expect(page.getByTestId("app-error")).toHaveText("Unexpected Application Error!");
  // The status, never the router's developer text.
  await expect(page.getByTestId("app-error-detail")).toHaveText("405 Method Not Allowed");
  await expect(page.locator("body")).not.toContainText("You made a POST request");
  await expect(page.getByRole("link", { name: "Voltar ao início" })).toHaveAttribute("href", "/");
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
}

test.describe("unknown paths", () => {
  test("logged out: any unknown path ends on /auth through /", async ({ page }, testInfo) => {
    test.skip(testInfo.project.name === "mobile", "server redirects, the same at every width (ADR 0023)");
    // The server answers with a redirect to / for reads and form posts alike …
    for (const path of ["/pagina-que-nao-existe", "/historico/antigo?x=1", "/dashboard/extra/nivel"]) {
      const res = await page.request.get(path, { maxRedirects: 0 });
      expect(res.status(), path).toBe(302);
      expect(res.headers()["location"], path).toBe("/");
    }
    const post = await page.request.post("/pagina-que-nao-existe", { form: { a: "1" }, maxRedirects: 0 });
    expect(post.status()).toBe(302);
    expect(post.headers()["location"]).toBe("/");
    // … and / sends a logged-out visitor on to /auth.
    await page.goto("/pagina-que-nao-existe");
    await expect(page).toHaveURL((url) => url.pathname === "/auth");
    await expect(page.getByRole("tab", { name: "Entrar" })).toBeVisible();
  });

  test("logged in: an unknown path lands on the trading screen /", async ({ page, request }, testInfo) => {
    test.skip(testInfo.project.name === "mobile", "a server redirect, the same at every width (ADR 0023)");
    const creds = await createVerifiedUser(request);
    await loginByApi(page, creds.email, creds.password);
    await page.goto("/configuracoes-antigas/abc");
    await expect(page).toHaveURL((url) => url.pathname === "/" && url.search === "");
    await expect(page.getByTestId("greeting")).toBeVisible();
  });

  test("@nojs unknown paths redirect without JavaScript", async ({ page }) => {
    await page.goto("/nada/aqui");
    await expect(page).toHaveURL((url) => url.pathname === "/auth");
  });
});

test.describe("generic error screen", () => {
  test("a form posted to a read-only page shows 'Unexpected Application Error!', accessible, with a way back", async ({ page, request }, testInfo) => {
    const creds = await createVerifiedUser(request);
    await loginByApi(page, creds.email, creds.password);
    await page.goto("/");
    const problems: string[] = [];
    page.on("pageerror", (err) => problems.push(err.message));
    page.on("console", (m) => {
      if (m.type() === "error" && /hydrat/i.test(m.text())) problems.push(m.text());
    });

    expect(await postStrayForm(page)).toBe(405);
    await expectErrorScreen(page);
    // Still the error screen once the page has hydrated (server and browser render the same thing).
    await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
    await expectErrorScreen(page);
    expect(problems).toEqual([]);

    const violations = await seriousViolations(page);
    expect(violations, violations.join("\n")).toEqual([]);
    await shot(page, testInfo, "error-screen");

    // The way back: the start page, still logged in.
    await page.getByRole("link", { name: "Voltar ao início" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/");
    await expect(page.getByTestId("greeting")).toBeVisible();
  });

  test("logged out, the same failure shows the error screen and the way back leads to /auth", async ({ page }) => {
    expect(await postStrayForm(page)).toBe(405);
    await expectErrorScreen(page);
    await page.getByRole("link", { name: "Voltar ao início" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/auth");
  });

  // (axe needs JavaScript in the page: the accessibility check runs in the desktop and mobile projects.)
  test("@nojs the error screen works without JavaScript", async ({ page }) => {
    expect(await postStrayForm(page)).toBe(405);
    await expectErrorScreen(page);
    await page.getByRole("link", { name: "Voltar ao início" }).click();
    await expect(page).toHaveURL((url) => url.pathname === "/auth");
  });
});
