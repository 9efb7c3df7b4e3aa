/**
 * Catalogues loaded per page (ADR 0029, issue 13 "the hero's JavaScript ≤ 150 kB gzip"): the hero's first
 * load fetches only its language's boot catalogue chunk (not the rest of the language), hydrates without a
 * mismatch, and the first client-side navigation to another screen shows that screen translated — in
 * Portuguese and, for an English user, in English (the rest of the language loads on navigation).
 */
import { expect, test, type Page } from "@playwright/test";
import { hasDb, loginNewSubscriber, NO_DB_REASON, setPreferences, settle } from "./support/trading";

/** Catalogue chunks (`/assets/i18n-*.js`) and page errors/console errors seen from now on. */
function watch(page: Page) {
  const chunks: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => {
    const m = /\/assets\/(i18n-[a-z-]+?)-[\w-]{8}\.js$/.exec(new URL(r.url()).pathname);
    if (m) chunks.push(m[1]!);
  });
  page.on("pageerror", (e) => errors.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error" && /Minified React error|hydrat/i.test(m.text())) errors.push(m.text());
  });
  return { chunks, errors };
}

/** Waits until the hero has hydrated (Remix's router exists once the browser entry ran) and the page settled. */
async function waitForHeroHydration(page: Page) {
  await expect(page.getByTestId("hero-title")).toBeVisible();
  await page.waitForFunction(() => !!(window as unknown as { __remixRouter?: unknown }).__remixRouter);
  await settle(page);
}

test("hero first load: boot catalogue only, hydrates cleanly; navigating to the dashboard loads the rest (pt, then en)", async ({ page, request }) => {
  test.skip(!hasDb(), NO_DB_REASON);
  const { email } = await loginNewSubscriber(page, request);

  const pt = watch(page);
  await page.goto("/");
  await waitForHeroHydration(page);
  expect(pt.chunks.sort()).toEqual(["i18n-core-pt", "i18n-pt"]);
  expect(pt.errors).toEqual([]);

  // Client-side navigation (the dock): the dashboard's own texts, translated, no raw keys.
  await page.getByRole("navigation").getByRole("link", { name: /^Dashboard/ }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Visão Geral" })).toBeVisible();
  await expect(page).toHaveTitle(/Forex IA/);
  expect(pt.chunks).toContain("i18n-pt-more");
  expect(pt.errors).toEqual([]);

  // English user: en and pt (the fallback) boot chunks, then English on the next screen.
  await setPreferences(email, { language: "en" });
  const en = watch(page);
  await page.goto("/");
  await waitForHeroHydration(page);
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  expect([...new Set(en.chunks)].sort()).toEqual(["i18n-core-en", "i18n-core-pt", "i18n-en", "i18n-pt"]);
  await page.getByRole("navigation").getByRole("link", { name: /^Dashboard/ }).click();
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByText("No trades yet")).toBeVisible();
  expect(en.chunks).toContain("i18n-en-more");
  expect(en.errors).toEqual([]);
});

test("switching the language in /settings turns the page and the next screens into that language without a reload", async ({ page, request }, testInfo) => {
  test.skip(!hasDb(), NO_DB_REASON);
  await loginNewSubscriber(page, request);
  const seen = watch(page);
  await page.goto("/settings");
  await page.waitForFunction(() => !!(window as unknown as { __remixRouter?: unknown }).__remixRouter);
  await settle(page);
  await page.getByLabel("Idioma", { exact: true }).selectOption("en");
  // The settings page has one save button per layout: the header's on desktop, a full-width one at the end on mobile.
  await page.getByTestId(testInfo.project.name === "mobile" ? "save-all-mobile" : "save-all").click();
  await expect(page.getByRole("heading", { name: "Advanced Settings" })).toBeVisible({ timeout: 15_000 });
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await page.getByRole("navigation").getByRole("link", { name: /^Trade/ }).click();
  await expect(page).toHaveURL((url) => url.pathname === "/");
  await expect(page.getByText("Welcome back")).toBeVisible();
  expect(seen.chunks).toContain("i18n-en-more");
  expect(seen.errors).toEqual([]);
});
