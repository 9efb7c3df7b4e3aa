/**
 * The API reference (issue 24 "The API contract"): /api/docs renders the OpenAPI document of
 * /api/openapi.json in Chromium — Swagger UI, served from the app's own origin, so the page works
 * offline and under the app's Content-Security-Policy (no request leaves the origin, no CSP violation,
 * no script error). A known operation (POST /api/auth/login) is listed and opens with its request
 * body and answers. Without JavaScript (@nojs) the page points to the JSON document. The same at every
 * viewport: desktop only.
 */
import { expect, test } from "@playwright/test";

test("/api/docs renders the OpenAPI document, all from this origin", async ({ page, request, baseURL }, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "the same for every viewport");
  const doc = await request.get("/api/openapi.json");
  expect(doc.status()).toBe(200);
  const body = (await doc.json()) as { openapi: string; info: { title: string }; paths: Record<string, unknown> };
  expect(body.openapi).toBe("3.1.0");
  expect(Object.keys(body.paths)).toContain("/api/auth/login");

  const problems: string[] = [];
  const origin = new URL(baseURL!).origin;
  page.on("pageerror", (err) => problems.push(`erro de script: ${err.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith("http") && url.origin !== origin) problems.push(`pedido externo: ${r.url()}`);
  });

  await page.goto("/api/docs");
  await expect(page).toHaveTitle("Forex IA — API");
  await expect(page.locator(".swagger-ui .info .title")).toContainText(body.info.title);
  // Tags listed, operations collapsed: the login operation, by its path.
  const login = page.locator("#operations-Auth-postApiAuthLogin");
  await expect(login.locator('.opblock-summary-path[data-path="/api/auth/login"]')).toBeVisible();
  await login.locator(".opblock-summary-control").click();
  await expect(login.locator(".opblock-body")).toBeVisible();
  await expect(login.getByRole("heading", { name: "Request body" })).toBeVisible();
  await expect(login.locator(".responses-table")).toContainText("200");
  expect(problems).toEqual([]);
});

test("/api/docs without JavaScript points to the JSON document @nojs", async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== "nojs", "JavaScript off only");
  await page.goto("/api/docs");
  const link = page.getByRole("link", { name: "/api/openapi.json" });
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute("href", "/api/openapi.json");
});
