/**
 * The installable app (issue 11): /manifest.webmanifest and /sw.js are served with their content
 * types (the worker from the root, `Service-Worker-Allowed: /`, revalidated), the manifest and the
 * Apple touch icon are linked from every page, the manifest's icons exist, and after login the
 * service worker registers (PRODUCT.md §2 "ativadas automaticamente ao fazer login"). The push card
 * in /settings shows the topic switches. Desktop only (the same for every viewport).
 */
import { expect, test } from "@playwright/test";
import { createVerifiedUser, loginInUi } from "./support/users";

test("manifest, service worker and icons are served; the worker registers after login", async ({ page, request }, testInfo) => {
  test.skip(testInfo.project.name !== "desktop", "the same for every viewport");
  const manifest = await request.get("/manifest.webmanifest");
  expect(manifest.status()).toBe(200);
  expect(manifest.headers()["content-type"]).toMatch(/^application\/manifest\+json/);
  const body = (await manifest.json()) as { name: string; lang: string; display: string; start_url: string; icons: { src: string; sizes: string; purpose: string }[] };
  expect(body).toMatchObject({ name: "Forex IA", lang: "pt-BR", display: "standalone", start_url: "/" });
  expect(body.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(["192x192 any", "512x512 any", "512x512 maskable"]);
  for (const icon of body.icons) {
    const res = await request.get(icon.src);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()["content-type"]).toBe("image/png");
  }

  const sw = await request.get("/sw.js");
  expect(sw.status()).toBe(200);
  expect(sw.headers()["content-type"]).toMatch(/^text\/javascript/);
  expect(sw.headers()["service-worker-allowed"]).toBe("/");
  expect(sw.headers()["cache-control"]).toBe("no-cache");
  expect(await sw.text()).toContain('addEventListener("push"');

  const user = await createVerifiedUser(request);
  await loginInUi(page, user.email, user.password);
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute("href", "/manifest.webmanifest");
  await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute("href", "/icons/apple-touch-icon.png");
  const scope = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    return { scope: reg.scope, script: reg.active?.scriptURL ?? "" };
  });
  expect(new URL(scope.scope).pathname).toBe("/");
  expect(new URL(scope.script).pathname).toBe("/sw.js");

  await page.goto("/settings");
  const card = page.getByTestId("push-info");
  await expect(card.getByRole("switch")).toHaveCount(4);
  await expect(card.getByRole("switch", { name: "Abertura e fechamento de trades" })).toBeChecked();
});
