/**
 * The AI's report card and the evidence page (issue 21) at desktop 1440×900 and mobile 390×844, in pt, en
 * and es: the card on the hero, in /settings (following the style being chosen) and on /backtest shows the
 * chosen style's verdict sentence and — when the shipped table has them — its out-of-sample figures in the
 * reader's locale, and the user's pairs with their own verdicts; it links to /ia/evidencias, which lists
 * every pair × style row, the study's date and command, the decision rule and where the docs live; GET
 * /api/research/edge-table answers the same table. Expected values are read from the shipped table
 * (core/research/edge-table.json) and the catalogues, never written here, so the spec holds before and after
 * the study replaces the table. @nojs: the card and the page are server-rendered.
 * Screenshots: test-results/screenshots/report-card-*.png.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Locator, type Page } from "@playwright/test";
import type { EdgeRow, EdgeTable } from "../../core/research/edge-table";
import type { TradingStyle } from "../../core/settings";
import { formatEdgeFigures, formatRatioString, verdictSentenceKey, yearSpan } from "../../app/lib/report-card";
import { shot } from "./helpers";
import { hasDb, loginNewSubscriber, NO_DB_REASON, setPreferences, settle } from "./support/trading";

const ROOT = path.resolve(import.meta.dirname, "../..");
const table = JSON.parse(readFileSync(path.join(ROOT, "core/research/edge-table.json"), "utf8")) as EdgeTable;
const LANGS = [
  { lng: "pt", locale: "pt-BR" },
  { lng: "en", locale: "en-US" },
  { lng: "es", locale: "es-ES" },
] as const;
type Lng = (typeof LANGS)[number]["lng"];
type Catalogue = Record<string, unknown>;
const catalogue = (lng: Lng, ns: string) => JSON.parse(readFileSync(path.join(ROOT, `app/i18n/locales/${lng}/${ns}.json`), "utf8")) as Catalogue;
/** A catalogue text by dotted key with {{params}} filled in (as i18next does). */
function text(cat: Catalogue, key: string, params: Record<string, string | number> = {}): string {
  const raw = key.split(".").reduce<unknown>((o, k) => (o as Catalogue | undefined)?.[k], cat);
  if (typeof raw !== "string") throw new Error(`missing catalogue key ${key}`);
  return raw.replace(/\{\{(\w+)\}\}/g, (_, p: string) => String(params[p]));
}
const studyRan = Date.parse(table.generatedAt) > 0;

/** Checks a report card against the shipped table for `style` and the default pairs ('*' = all eight). */
async function expectCard(card: Locator, lng: Lng, locale: string, style: TradingStyle) {
  const cat = catalogue(lng, "research");
  const summary = table.styles.find((s) => s.style === style);
  const verdict = summary?.verdict ?? "untested";
  await expect(card).toHaveAttribute("data-style", style);
  await expect(card).toHaveAttribute("data-verdict", verdict);
  await expect(card.getByRole("heading", { name: text(cat, "card.title", { style: text(cat, `style.${style}`) }) })).toBeVisible();
  await expect(card.getByTestId("report-badge")).toHaveText(text(cat, `badge.${verdict}`));
  const span = summary?.figures ? yearSpan(summary.figures.firstYear, summary.figures.lastYear) : "—";
  await expect(card.getByTestId("report-verdict")).toHaveText(text(cat, verdictSentenceKey(verdict, style), { span }));
  if (summary?.figures) {
    const f = formatEdgeFigures(summary.figures, locale);
    await expect(card.getByTestId("report-annual-return")).toHaveText(f.annualReturn);
    await expect(card.getByTestId("report-worst-year")).toHaveText(f.worstYear ? text(cat, "card.worstYearValue", { year: f.worstYear.year, value: f.worstYear.value }) : "—");
    await expect(card.getByTestId("report-max-drawdown")).toHaveText(f.maxDrawdown);
    await expect(card.getByTestId("report-profit-factor")).toHaveText(f.profitFactor);
    await expect(card.getByTestId("report-years-positive")).toHaveText(text(cat, "card.yearsPositiveValue", { n: f.yearsPositive, of: f.years }));
    await expect(card.getByTestId("report-random")).toHaveText(f.randomPercentile === null ? text(cat, "card.randomNone") : text(cat, "card.randomValue", { pct: f.randomPercentile }));
    await expect(card.getByTestId("report-test-years")).toHaveText(f.testYears);
  } else {
    await expect(card.getByTestId("report-figures")).toHaveCount(0);
  }
  // When the study has run, its date; before, "not run" once (not again under the sentence that already says it).
  if (studyRan) await expect(card.getByTestId("report-study")).toContainText(String(new Date(table.generatedAt).getUTCFullYear()));
  else if (verdictSentenceKey(verdict, style) === "verdict.untestedNotRun") await expect(card.getByTestId("report-study")).toHaveCount(0);
  else await expect(card.getByTestId("report-study")).toHaveText(text(cat, "card.studyNotRun"));
  // The user's pairs (default '*': the eight supported pairs), each with its own verdict from the table.
  const pairs = card.getByTestId("report-pair");
  await expect(pairs).toHaveCount(8);
  for (const p of await pairs.all()) {
    const instrument = (await p.getAttribute("data-instrument"))!;
    const row = table.rows.find((r) => r.instrument === instrument && r.style === style);
    await expect(p).toHaveAttribute("data-verdict", row?.verdict ?? "untested");
    await expect(p).toContainText(text(cat, `badge.${row?.verdict ?? "untested"}`));
    if (row?.figures) await expect(p.getByTestId("report-pair-figures")).toContainText(formatRatioString(row.figures.profitFactor, locale));
  }
  await expect(card.getByTestId("report-full-table")).toHaveText(`${text(cat, "card.fullTable")} →`);
  await expect(card.getByTestId("report-full-table")).toHaveAttribute("href", "/ia/evidencias");
}

/** The card fits the viewport's width (no sideways scrolling at 390 px). */
async function expectWithinViewport(page: Page, el: Locator) {
  const box = await el.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, "card rendered").not.toBeNull();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(width + 0.5);
}

/** Serious or critical WCAG 2 A/AA violations on the page (as tests/e2e/a11y.spec.ts counts them), as short lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
}

/** Checks /ia/evidencias against the shipped table. */
async function expectEvidencePage(page: Page, lng: Lng, locale: string) {
  const ev = catalogue(lng, "evidence");
  const cat = catalogue(lng, "research");
  await expect(page.getByRole("heading", { level: 1, name: text(ev, "title") })).toBeVisible();
  await expect(page.getByTestId("evidence-command")).toHaveText(table.command);
  if (!studyRan) await expect(page.getByTestId("evidence-study")).toHaveText(text(ev, "studyNotRun"));
  else await expect(page.getByTestId("evidence-study")).toContainText(String(new Date(table.generatedAt).getUTCFullYear()));
  await expect(page.getByTestId("evidence-rule-passed")).toHaveText(text(ev, "rulePassed", { answer: text(ev, table.rulePassed ? "yes" : "no") }));
  await expect(page.getByTestId("evidence-rule")).toContainText(text(ev, "rule1"));
  await expect(page.getByTestId("evidence-docs")).toContainText("docs/STRATEGY.md");
  await expect(page.getByTestId("evidence-style")).toHaveCount(4);
  for (const s of table.styles) {
    const section = page.locator(`[data-testid="evidence-style"][data-style="${s.style}"]`);
    await expect(section).toHaveAttribute("data-verdict", s.verdict);
    const span = s.figures ? yearSpan(s.figures.firstYear, s.figures.lastYear) : "—";
    await expect(section.getByTestId("evidence-style-verdict")).toContainText(text(cat, verdictSentenceKey(s.verdict, s.style), { span }));
  }
  // Every pair × style row, each with its verdict and its figures (or dashes when untested).
  await expect(page.getByTestId("evidence-row")).toHaveCount(table.rows.length);
  const sample: EdgeRow[] = [...table.rows.filter((r) => r.figures).slice(0, 4), ...table.rows.filter((r) => !r.figures).slice(0, 2)];
  for (const r of sample) {
    const row = page.locator(`[data-testid="evidence-row"][data-style="${r.style}"][data-instrument="${r.instrument}"]`);
    await expect(row).toHaveAttribute("data-verdict", r.verdict);
    const f = r.figures ? formatEdgeFigures(r.figures, locale) : null;
    await expect(row.locator('[data-col="profitFactor"]')).toHaveText(f ? f.profitFactor : "—");
    await expect(row.locator('[data-col="annualReturn"]')).toHaveText(f ? f.annualReturn : "—");
    await expect(row.locator('[data-col="maxDrawdown"]')).toHaveText(f ? f.maxDrawdown : "—");
    await expect(row.locator('[data-col="yearsPositive"]')).toHaveText(f ? `${f.yearsPositive}/${f.years}` : "—");
  }
}

test.describe.configure({ mode: "serial" });

test("the report card on the hero, /settings and /backtest, and the full table, in pt, en and es", async ({ page, request }, testInfo) => {
  test.skip(!hasDb(), NO_DB_REASON);
  test.setTimeout(420_000); // three languages × four pages on a loaded 2-core machine
  const creds = await loginNewSubscriber(page, request, { firstName: "Boletim", lastName: "IA" });
  const style: TradingStyle = "swing"; // the default style (PRODUCT.md §9)

  // The JSON API: the shipped table as it is on disk.
  const api = await page.request.get("/api/research/edge-table");
  expect(api.status()).toBe(200);
  const body = (await api.json()) as { success: boolean; table: EdgeTable & { studyDate: string | null } };
  expect(body.success).toBe(true);
  const { studyDate, ...served } = body.table;
  expect(served).toEqual(table);
  expect(studyDate).toBe(studyRan ? table.generatedAt : null);
  expect((await page.request.post("/api/research/edge-table", { data: {} })).status()).toBe(405);

  for (const { lng, locale } of LANGS) {
    await setPreferences(creds.email, { language: lng });

    await page.goto("/");
    const heroCard = page.getByTestId("report-card");
    await expectCard(heroCard, lng, locale, style);
    await expectWithinViewport(page, heroCard);
    await settle(page);
    if (lng === "pt") {
      await shot(page, testInfo, "report-card-hero");
      expect(await seriousViolations(page)).toEqual([]);
    }
    else await heroCard.screenshot({ path: `test-results/screenshots/report-card-hero-card-${lng}-${testInfo.project.name}.png` });

    await page.goto("/settings");
    const settingsCard = page.getByTestId("ai-section").getByTestId("report-card");
    await expectCard(settingsCard, lng, locale, style);
    await expectWithinViewport(page, settingsCard);
    // The card follows the style being chosen, before saving.
    await page.locator('select[name="aiSettings.tradingStyle"]').selectOption("day");
    await expectCard(settingsCard, lng, locale, "day");
    await page.locator('select[name="aiSettings.tradingStyle"]').selectOption(style);
    await expectCard(settingsCard, lng, locale, style);
    if (lng === "pt") {
      await settle(page);
      await settingsCard.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `test-results/screenshots/report-card-settings-${testInfo.project.name}.png` });
    }

    await page.goto("/backtest");
    const backtestCard = page.getByTestId("report-card");
    await expectCard(backtestCard, lng, locale, style);
    await expectWithinViewport(page, backtestCard);
    if (lng === "pt") {
      await settle(page);
      await shot(page, testInfo, "report-card-backtest");
    }

    // The card's link leads to the full table.
    await backtestCard.getByTestId("report-full-table").click();
    await page.waitForURL((url) => url.pathname === "/ia/evidencias");
    await expectEvidencePage(page, lng, locale);
    await expect(page).toHaveTitle(text(catalogue(lng, "evidence"), "meta"));
    // Nothing wider than the screen (the rows become cards under 768 px).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()!.width);
    // …and every column of every table in view (no column hidden behind a sideways scroll).
    const clipped = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="evidence-style"] table')].filter((t) => t.parentElement!.scrollWidth > t.parentElement!.clientWidth + 1).length,
    );
    expect(clipped).toBe(0);
    await settle(page);
    await shot(page, testInfo, `report-card-evidence-${lng}`);
    if (lng === "pt") expect(await seriousViolations(page)).toEqual([]);
  }
  await setPreferences(creds.email, { language: "pt" });
});

test("@nojs the card and the full table are server-rendered; the API and the page need a session", async ({ page, request }) => {
  test.setTimeout(180_000);
  expect((await request.get("/api/research/edge-table")).status()).toBe(401);
  await loginNewSubscriber(page, request, { firstName: "Sem", lastName: "Script" });
  await expectCard(page.getByTestId("report-card"), "pt", "pt-BR", "swing");
  await page.getByTestId("report-full-table").click();
  await page.waitForURL((url) => url.pathname === "/ia/evidencias");
  await expectEvidencePage(page, "pt", "pt-BR");
  await page.context().clearCookies();
  await page.goto("/ia/evidencias");
  await expect(page).toHaveURL((url) => url.pathname === "/auth");
});
