/**
 * The hero screen (issue 22, items 4 and 5), rendered on the server in pt/en/es from the loader's data:
 * a decision the risk gate refused reads "Recusada" (amber) with its side as secondary text and its
 * refusal before the engine's reason, an executed entry keeps its Compra/Venda badge; the AI card's
 * timeframe reads "Manual (M15)" with automatic selection off and the automatic text with it on.
 * The decisions go through the loop status's mapping of stored rows (decisionStatusRow).
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it, vi } from "vitest";
import { msg, type Msg } from "../../../core/i18n/message";
import { i18nFor, translateMsg, type Language } from "../../../app/i18n";
import { heroDecisionView, timeframeLabel } from "../../../app/lib/hero-decisions";
import type { DecisionRow } from "../../../app/services/trading/bot-status.server";

// The page outside a Remix app: its loader data comes from `loaderData`, Link/Form as plain elements.
let loaderData: Record<string, unknown> = {};
vi.mock("@remix-run/react", () => ({
  Link: ({ to, children, ...rest }: { to: string; children: unknown }) => createElement("a", { href: to, ...rest }, children as never),
  Form: ({ children, ...rest }: { children: unknown }) => createElement("form", rest, children as never),
  useLoaderData: () => loaderData,
  useActionData: () => undefined,
  useNavigate: () => () => {},
  useRevalidator: () => ({ revalidate: () => {}, state: "idle" }),
  useRouteLoaderData: () => ({ language: "pt", timezone: "America/Sao_Paulo" }),
}));
const { decisionStatusRow } = await import("../../../app/services/trading/bot-status.server");
const { default: HeroPage } = await import("../../../app/routes/_index");
const { reportCard } = await import("../../../app/services/research/edge-table.server");

const LANGUAGES: Language[] = ["pt", "en", "es"];
const at = new Date(Date.now() - 60_000);

/** A stored opening: the engine's reason, and the risk gate's refusal when `risk` is given. */
function storedOpening(side: "buy" | "sell", risk: Msg | null, executed: boolean): DecisionRow {
  const reasonMsg = msg(`engine:decision.${side}`, { confidence: "0.72", signal: "EMA" });
  return {
    instrument: "EUR_USD",
    action: "open",
    side,
    confidence: "0.72",
    timeframe: "M15",
    reason: translateMsg(reasonMsg, "pt"),
    reason_msg: reasonMsg,
    risk_reason: risk ? translateMsg(risk, "pt") : null,
    risk_reason_msg: risk,
    created_at: at,
    executed,
  };
}

/** The hero's loader data around the given decisions and timeframe setting. */
function heroData(rows: DecisionRow[], language: Language, aiTimeframe: { auto: boolean; timeframe: string | null }) {
  return {
    user: { email: "ana@example.com", firstName: "Ana", hasValidLicense: true, licenseStatus: "valid", license: null, role: "user" },
    broker: { isConnected: false, account: null },
    bot: {
      success: true,
      isActive: false,
      rearmRequired: false,
      drawdownStop: null,
      manageOnly: false,
      manageOnlyReason: null,
      manageOnlyReasonMsg: null,
      intervalSec: 60,
      loopState: { lastStopReason: "manual", lastStartedAt: null, lastStoppedAt: null, lastTickAt: null, lastTickError: null, lastTickErrorMsg: null },
      lastDecisions: rows.map((r) => decisionStatusRow(r, language)),
    },
    news: { enabled: false },
    preflight: null,
    preflightError: null,
    rearm: null,
    aiTimeframe,
    reportCard: reportCard({ instruments: ["EUR_USD"] }, "swing"),
  };
}

function render(language: Language, data: ReturnType<typeof heroData>): string {
  loaderData = data;
  return renderToString(createElement(I18nextProvider, { i18n: i18nFor(language) }, createElement(HeroPage)));
}

/** The visible text of an HTML fragment (tags dropped, entities of the fixtures decoded, spaces collapsed). */
function textOf(html: string): string {
  return html
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ")
    .trim();
}

/** The decision rows of the rendered page, as HTML. */
function decisionRows(html: string): string[] {
  const list = html.match(/<ul[^>]*data-testid="decisions"[^>]*>([\s\S]*?)<\/ul>/);
  expect(list, "the decisions list").not.toBeNull();
  return [...list![1]!.matchAll(/<li[\s\S]*?<\/li>/g)].map((m) => m[0]);
}

/** The badge of a decision row (the pill span) and its tone. */
function badgeOf(row: string): { text: string; tone: string } {
  const pill = row.match(/<span[^>]*class="([^"]*rounded-full[^"]*)"[^>]*>([\s\S]*?)<\/span>/);
  expect(pill, "a badge in the row").not.toBeNull();
  const tone = /bg-rose/.test(pill![1]!) ? "red" : /bg-emerald/.test(pill![1]!) ? "green" : /bg-amber/.test(pill![1]!) ? "amber" : "grey";
  return { text: textOf(pill![2]!), tone };
}

describe("hero decisions: a refused entry looks refused (issue 22, item 4)", () => {
  for (const language of LANGUAGES) {
    const t = i18nFor(language).getFixedT(language, "hero");
    it(`${language}: a sell the news blackout refused reads '${t("decisions.refused")}', its side secondary, its refusal first`, () => {
      const risk = msg("risk:newsBlackout");
      const [row] = decisionRows(render(language, heroData([storedOpening("sell", risk, false)], language, { auto: true, timeframe: null })));
      const badge = badgeOf(row!);
      expect(badge.text).toBe(t("decisions.refused"));
      expect(badge.tone).toBe("amber");
      expect(badge.text).not.toBe(t("decisions.sell"));
      const text = textOf(row!);
      // The side stays visible, outside the badge.
      expect(text).toContain(t("decisions.refusedSide", { side: t("decisions.sell") }));
      // The refusal comes before the engine's reason.
      const refusal = translateMsg(risk, language);
      const reason = translateMsg(msg("engine:decision.sell", { confidence: "0.72", signal: "EMA" }), language);
      expect(text).toContain(refusal);
      expect(text).toContain(reason);
      expect(text.indexOf(refusal)).toBeLessThan(text.indexOf(reason));
    });

    it(`${language}: an executed buy keeps its '${t("decisions.buy")}' badge`, () => {
      const [row] = decisionRows(render(language, heroData([storedOpening("buy", null, true)], language, { auto: true, timeframe: null })));
      expect(badgeOf(row!)).toEqual({ text: t("decisions.buy"), tone: "green" });
      expect(textOf(row!)).not.toContain(t("decisions.refused"));
    });
  }

  it("a max-trades refusal of a buy and an executed sell, side by side", () => {
    const t = i18nFor("pt").getFixedT("pt", "hero");
    const rows = decisionRows(
      render("pt", heroData([storedOpening("buy", msg("risk:maxTrades", { limit: 3, open: 3 }), false), storedOpening("sell", null, true)], "pt", { auto: true, timeframe: null })),
    );
    expect(rows.map((r) => badgeOf(r))).toEqual([
      { text: t("decisions.refused"), tone: "amber" },
      { text: t("decisions.sell"), tone: "red" },
    ]);
  });
});

describe("hero AI card: the timeframe setting (issue 22, item 5)", () => {
  /** The text of the AI card's timeframe line. */
  function timeframeLine(html: string): string {
    const card = html.match(/data-testid="ai-config-card"[\s\S]*?<\/ul>/);
    expect(card, "the AI card").not.toBeNull();
    const items = [...card![0].matchAll(/<li[\s\S]*?<\/li>/g)].map((m) => textOf(m[0]));
    return items[1]!;
  }
  for (const language of LANGUAGES) {
    const t = i18nFor(language).getFixedT(language, "hero");
    it(`${language}: manual M15 with automatic selection off`, () => {
      const line = timeframeLine(render(language, heroData([], language, { auto: false, timeframe: "M15" })));
      expect(line).toBe(`${t("config.timeframe")} Manual (M15)`);
      expect(line).not.toContain(t("config.timeframeAuto"));
    });
    it(`${language}: the automatic text with automatic selection on`, () => {
      const line = timeframeLine(render(language, heroData([], language, { auto: true, timeframe: null })));
      expect(line).toBe(`${t("config.timeframe")} ${t("config.timeframeAuto")}`);
    });
  }
});

describe("heroDecisionView / timeframeLabel", () => {
  it("an opening is refused when the risk gate refused it or its order did not go out", () => {
    expect(heroDecisionView({ action: "open", side: "sell", executed: false, refusal: "x" })).toMatchObject({ refused: true, badge: "decisions.refused", sideLabel: "decisions.sell" });
    expect(heroDecisionView({ action: "open", side: "buy", executed: false, refusal: null })).toMatchObject({ refused: true, sideLabel: "decisions.buy" });
    expect(heroDecisionView({ action: "open", side: "sell", executed: true, refusal: null })).toEqual({ refused: false, badge: "decisions.sell", tone: "red", sideLabel: null });
    expect(heroDecisionView({ action: "none", side: null, executed: false, refusal: null })).toEqual({ refused: false, badge: "decisions.wait", tone: "grey", sideLabel: null });
    expect(heroDecisionView({ action: "close", side: "buy", executed: false })).toMatchObject({ refused: false, badge: "decisions.close" });
  });
  it("the timeframe line is manual only with automatic selection off and a timeframe", () => {
    expect(timeframeLabel(false, "H1")).toEqual({ key: "config.timeframeManual", values: { timeframe: "H1" } });
    expect(timeframeLabel(true, "H1").key).toBe("config.timeframeAuto");
  });
});
