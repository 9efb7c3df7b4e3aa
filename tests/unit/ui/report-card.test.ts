/**
 * The AI's report card (issue 21): the edge table's decimal strings in the reader's locale, the verdict
 * sentence of each state (edge / no edge / untested: short data or study not run), the card's data for a
 * style and the user's pairs (`reportCard`, with a fixture table holding figures — the shipped table is
 * all "untested" until the study runs), and the card itself rendered on the server in pt/en/es with the
 * fixture's figures and with the shipped table's state.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it, vi } from "vitest";
import type { EdgeFigures, EdgeTable } from "../../../core/research/edge-table";
import { i18nFor, INTL_LOCALE, type Language } from "../../../app/i18n";
import { formatEdgeFigures, formatPctString, formatRatioString, verdictSentenceKey, yearSpan } from "../../../app/lib/report-card";
import { edgeTableView, reportCard, reportCards, shippedEdgeTable, studyDate } from "../../../app/services/research/edge-table.server";

// The card's Remix bits outside a Remix app: Link as a plain anchor, the root loader's language for useDisplay.
let rootData: { language: Language; timezone: string } = { language: "pt", timezone: "America/Sao_Paulo" };
vi.mock("@remix-run/react", () => ({
  Link: ({ to, children, ...rest }: { to: string; children: unknown }) => createElement("a", { href: to, ...rest }, children as never),
  useRouteLoaderData: () => rootData,
  useRevalidator: () => ({ revalidate: () => {}, state: "idle" }),
}));
const { ReportCard } = await import("../../../app/components/research/report-card");

const swing: EdgeFigures = {
  firstYear: 2016,
  lastYear: 2022,
  trades: 1234,
  profitFactor: "0.87",
  expectancyR: "-0.06",
  annualReturnPct: "-1.23",
  worstYear: { year: 2018, returnPct: "-4.56" },
  maxDrawdownPct: "12.30",
  yearsPositive: 3,
  years: 7,
  randomPercentile: 40,
  sharpe: "-0.35",
  deflatedSharpe: "0.04",
};
const eurSwing: EdgeFigures = { ...swing, trades: 310, profitFactor: "1.12", annualReturnPct: "0.80", yearsPositive: 4, randomPercentile: 62.5, deflatedSharpe: null };

/** A table as the study would write it: swing and position tested (no edge; EUR_USD with an edge in position), scalper and day untested. */
const fixture: EdgeTable = {
  version: 1,
  generatedAt: "2026-11-20T14:30:00.000Z",
  command: "npm run research -- --data fx-long",
  defaultFamily: "engine",
  rulePassed: false,
  styles: [
    { style: "scalper", verdict: "untested", family: "engine", figures: null, source: "none" },
    { style: "day", verdict: "untested", family: "engine", figures: null, source: "none" },
    { style: "swing", verdict: "no_edge", family: "engine", figures: swing, source: "long-history" },
    { style: "position", verdict: "edge", family: "engine", figures: { ...swing, profitFactor: "1.31", annualReturnPct: "3.10" }, source: "long-history" },
  ],
  rows: [
    { instrument: "EUR_USD", style: "swing", verdict: "no_edge", family: "engine", figures: eurSwing },
    { instrument: "GBP_USD", style: "swing", verdict: "no_edge", family: "engine", figures: { ...swing, profitFactor: null } },
    { instrument: "EUR_USD", style: "position", verdict: "edge", family: "engine", figures: eurSwing },
    { instrument: "EUR_USD", style: "scalper", verdict: "untested", family: "engine", figures: null },
  ],
};

describe("figures in the reader's locale (decimal strings, never floats)", () => {
  it("percentages: signed annual return, drawdown, random percentile; '—' when undefined", () => {
    expect(formatPctString("-1.23", "pt-BR", { signed: true })).toBe("-1,23%");
    expect(formatPctString("4.2", "pt-BR", { signed: true })).toBe("+4,20%");
    expect(formatPctString("4.20", "en-US", { signed: true })).toBe("+4.20%");
    expect(formatPctString("4.20", "es-ES", { signed: true })).toBe("+4,20\u00a0%");
    expect(formatPctString("0", "pt-BR", { signed: true })).toBe("0,00%");
    expect(formatPctString(40, "pt-BR", { decimals: 0, maxDecimals: 1 })).toBe("40%");
    expect(formatPctString(62.5, "en-US", { decimals: 0, maxDecimals: 1 })).toBe("62.5%");
    expect(formatPctString(null, "pt-BR")).toBe("—");
    expect(formatPctString("abc", "pt-BR")).toBe("—");
    // 0.1 + 0.2 style errors cannot creep in: the string is formatted as the exact decimal.
    expect(formatPctString("1234.005", "pt-BR", { decimals: 3 })).toBe("1.234,005%");
  });

  it("ratios with 2 decimals; year spans", () => {
    expect(formatRatioString("0.87", "pt-BR")).toBe("0,87");
    expect(formatRatioString("1.5", "en-US")).toBe("1.50");
    expect(formatRatioString(null, "es-ES")).toBe("—");
    expect(yearSpan(2016, 2022)).toBe("2016–2022");
    expect(yearSpan(2022, 2022)).toBe("2022");
  });

  it("a whole record, in pt-BR and en-US", () => {
    expect(formatEdgeFigures(swing, "pt-BR")).toEqual({
      annualReturn: "-1,23%",
      worstYear: { year: 2018, value: "-4,56%" },
      maxDrawdown: "12,30%",
      profitFactor: "0,87",
      yearsPositive: 3,
      years: 7,
      randomPercentile: "40%",
      testYears: "2016–2022",
      trades: "1.234",
      expectancyR: "-0,06",
      sharpe: "-0,35",
      deflatedSharpe: "0,04",
    });
    const en = formatEdgeFigures({ ...swing, worstYear: null, randomPercentile: null }, "en-US");
    expect(en.trades).toBe("1,234");
    expect(en.worstYear).toBeNull();
    expect(en.randomPercentile).toBeNull();
  });
});

describe("the verdict sentence", () => {
  const sentence = (lng: Language, verdict: "edge" | "no_edge" | "untested", style: "scalper" | "day" | "swing" | "position", span = "2016–2022") =>
    i18nFor(lng).t(verdictSentenceKey(verdict, style), { ns: "research", span });

  it("no edge, untested for want of M5/M15, untested because the study has not run, edge", () => {
    expect(sentence("pt", "no_edge", "swing")).toBe(
      "A IA não mostrou vantagem estatística neste estilo em 2016–2022; com o filtro de vantagem ligado ela fica parada.",
    );
    expect(sentence("pt", "untested", "scalper")).toBe("Sem teste em histórico longo para este estilo (dados M5/M15 indisponíveis).");
    expect(sentence("pt", "untested", "day")).toBe("Sem teste em histórico longo para este estilo (dados M5/M15 indisponíveis).");
    expect(sentence("pt", "untested", "swing")).toBe("Sem teste em histórico longo para este estilo (o estudo ainda não foi executado).");
    expect(sentence("pt", "edge", "position")).toMatch(/^A IA mostrou vantagem estatística neste estilo em 2016–2022/);
    expect(sentence("en", "no_edge", "swing")).toBe("The AI showed no statistical edge in this style in 2016–2022; with the edge filter on it stays flat.");
    expect(sentence("es", "untested", "day")).toBe("Sin prueba en historial largo para este estilo (datos M5/M15 no disponibles).");
  });
});

describe("reportCard: the style's record and the user's pairs, read from the table", () => {
  it("the chosen style's summary, and each of the user's pairs with its own verdict (a pair the table lacks is untested)", () => {
    const card = reportCard({ instruments: ["EUR_USD", "GBP_USD", "USD_JPY"] }, "swing", fixture);
    expect(card.verdict).toBe("no_edge");
    expect(card.figures).toEqual(swing);
    expect(card.generatedAt).toBe("2026-11-20T14:30:00.000Z");
    expect(card.pairs).toEqual([
      { instrument: "EUR_USD", verdict: "no_edge", figures: eurSwing },
      { instrument: "GBP_USD", verdict: "no_edge", figures: { ...swing, profitFactor: null } },
      { instrument: "USD_JPY", verdict: "untested", figures: null },
    ]);
  });

  it("'*' lists every supported pair; every style has a card", () => {
    const cards = reportCards({ instruments: "*" }, fixture);
    expect(Object.keys(cards)).toEqual(["scalper", "day", "swing", "position"]);
    expect(cards.position.verdict).toBe("edge");
    expect(cards.scalper.figures).toBeNull();
    expect(cards.swing.pairs.map((p) => p.instrument)).toContain("EUR_JPY");
    expect(cards.swing.pairs).toHaveLength(8);
  });

  it("the shipped table is read as it is on disk; the placeholder (epoch) date means the study has not run", () => {
    const onDisk = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../../core/research/edge-table.json"), "utf8")) as EdgeTable;
    expect(shippedEdgeTable()).toEqual(onDisk);
    expect(edgeTableView().studyDate).toBe(studyDate(onDisk));
    expect(studyDate({ ...onDisk, generatedAt: "1970-01-01T00:00:00.000Z" })).toBeNull();
    expect(studyDate(fixture)).toBe(fixture.generatedAt);
    for (const s of onDisk.styles) expect(reportCard({ instruments: "*" }, s.style).verdict).toBe(s.verdict);
  });
});

describe("<ReportCard> rendered on the server", () => {
  const render = (lng: Language, table: EdgeTable, style: "scalper" | "day" | "swing" | "position", instruments: string[] | "*" = ["EUR_USD", "USD_JPY"]) => {
    rootData = { language: lng, timezone: "America/Sao_Paulo" };
    const html = renderToString(createElement(I18nextProvider, { i18n: i18nFor(lng) }, createElement(ReportCard, { card: reportCard({ instruments }, style, table) })));
    return html.replace(/<!-- -->/g, "");
  };
  const text = (html: string, testId: string) => new RegExp(`data-testid="${testId}"[^>]*>([^<]*)<`).exec(html)?.[1];

  it("with figures (pt): every figure in plain Portuguese, the verdict, the pairs and the link to the full table", () => {
    const html = render("pt", fixture, "swing");
    expect(html).toContain("Boletim da IA no estilo Swing");
    expect(text(html, "report-verdict")).toBe("A IA não mostrou vantagem estatística neste estilo em 2016–2022; com o filtro de vantagem ligado ela fica parada.");
    expect(text(html, "report-annual-return")).toBe("-1,23%");
    expect(text(html, "report-worst-year")).toBe("2018: -4,56%");
    expect(text(html, "report-max-drawdown")).toBe("12,30%");
    expect(text(html, "report-profit-factor")).toBe("0,87");
    expect(html).toContain("lucro bruto ÷ prejuízo bruto");
    expect(text(html, "report-years-positive")).toBe("3 de 7 anos positivos");
    expect(text(html, "report-random")).toBe("melhor que 40% das entradas aleatórias");
    expect(text(html, "report-test-years")).toBe("2016–2022");
    expect(text(html, "report-study")).toBe("Estudo de 20/11/2026.");
    expect(html).toMatch(/data-instrument="EUR_USD" data-verdict="no_edge"/);
    expect(text(html, "report-pair-figures")).toBe("fator 1,12 · 4/7 anos positivos");
    expect(html).toMatch(/data-instrument="USD_JPY" data-verdict="untested"/);
    expect(html).toMatch(/href="\/ia\/evidencias"[^>]*>Ver a tabela completa/);
  });

  it("with figures in en and es: the user's locale formats the numbers", () => {
    const en = render("en", fixture, "swing");
    expect(text(en, "report-years-positive")).toBe("3 of 7 years positive");
    expect(text(en, "report-random")).toBe("better than 40% of random entries");
    expect(text(en, "report-study")).toBe("Study of 11/20/2026.");
    const es = render("es", fixture, "swing");
    expect(text(es, "report-annual-return")).toBe("-1,23\u00a0%");
    expect(text(es, "report-years-positive")).toBe("3 de 7 años positivos");
  });

  it("untested: the sentence and no figures; before the study runs, 'not run' is said once", () => {
    const html = render("pt", fixture, "day");
    expect(text(html, "report-verdict")).toBe("Sem teste em histórico longo para este estilo (dados M5/M15 indisponíveis).");
    expect(html).not.toContain('data-testid="report-figures"');
    expect(html).toContain('data-verdict="untested"');
    expect(text(html, "report-study")).toBe("Estudo de 20/11/2026.");
    const notRun: EdgeTable = { ...fixture, generatedAt: "1970-01-01T00:00:00.000Z", styles: fixture.styles.map((s) => ({ ...s, verdict: "untested", figures: null })), rows: [] };
    const swingNotRun = render("pt", notRun, "swing");
    expect(text(swingNotRun, "report-verdict")).toBe("Sem teste em histórico longo para este estilo (o estudo ainda não foi executado).");
    expect(swingNotRun).not.toContain('data-testid="report-study"');
    expect(text(render("pt", notRun, "scalper"), "report-study")).toBe("O estudo em histórico longo ainda não foi executado.");
  });

  it(`the shipped table (${INTL_LOCALE.pt}): what the hero shows today`, () => {
    const shipped = shippedEdgeTable();
    const summary = shipped.styles.find((s) => s.style === "swing")!;
    const html = render("pt", shipped, "swing", "*");
    expect(html).toContain(`data-verdict="${summary.verdict}"`);
    expect((html.match(/data-testid="report-pair"/g) ?? []).length).toBe(8);
    if (!summary.figures) expect(html).not.toContain('data-testid="report-figures"');
    else expect(text(html, "report-profit-factor")).toBe(formatEdgeFigures(summary.figures, "pt-BR").profitFactor);
  });
});
