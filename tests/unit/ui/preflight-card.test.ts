/**
 * The pre-flight card and its confirmation (issue 22, item 6), rendered on the server in pt/en/es from
 * core/risk/preflight.ts's result:
 * - a fixed lot the bot refuses (2 lots on 10,000 USD: 1,000.00 = 10 % of the balance at a 50-pip stop,
 *   above the 0.45-lot maximum of the 5:1 cap) reads "Recusado" with the lot's own risk in money and % of
 *   the balance and the limit, never a 0,00 loss; percentages in the reader's locale ("10,00 %");
 * - the confirmation after ATIVAR IA is a modal above the navigation dock (a higher z-index than the
 *   dock's, fixed to the viewport, its panel scrolling within the viewport's height) so "Cancelar" is
 *   never under the dock.
 */
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it, vi } from "vitest";
import { preflight } from "../../../core/risk/preflight";
import { defaultSettings, type TradingSettings } from "../../../core/settings";
import { i18nFor, type Language } from "../../../app/i18n";

let rootData: { language: Language; timezone: string } = { language: "pt", timezone: "America/Sao_Paulo" };
vi.mock("@remix-run/react", () => ({
  Link: ({ to, children, ...rest }: { to: string; children: unknown }) => createElement("a", { href: to, ...rest }, children as never),
  NavLink: ({ to, children, className, end: _end, prefetch: _prefetch, ...rest }: { to: string; children: unknown; className?: unknown; end?: boolean; prefetch?: string }) =>
    createElement("a", { href: to, className: typeof className === "function" ? className({ isActive: false }) : className, ...rest }, (typeof children === "function" ? children({ isActive: false }) : children) as never),
  Form: ({ children, ...rest }: { children: unknown }) => createElement("form", rest, children as never),
  useRouteLoaderData: () => rootData,
  useLocation: () => ({ pathname: "/" }),
}));
const { PreflightCard, PreflightConfirm } = await import("../../../app/components/preflight-card");
const { NavDock } = await import("../../../app/components/layout");

const prices = [{ instrument: "EUR_USD", bid: "1.09990", ask: "1.10010" }];
const settings = (patch: Partial<TradingSettings> = {}): TradingSettings => ({ ...defaultSettings(), ...patch });

async function render(node: ReactNode, language: Language): Promise<string> {
  rootData = { language, timezone: "America/Sao_Paulo" };
  const i18n = await i18nFor(language);
  return renderToString(createElement(I18nextProvider, { i18n }, node));
}

/** The text of the element with this data-testid (tags stripped, entities of the renderer decoded). */
function textOf(html: string, testId: string): string {
  const start = html.indexOf(`data-testid="${testId}"`);
  if (start < 0) return "";
  const open = html.lastIndexOf("<", start);
  const tag = /^<(\w+)/.exec(html.slice(open))![1]!;
  const end = html.indexOf(`</${tag}>`, start);
  return html
    .slice(html.indexOf(">", start) + 1, end)
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\u00a0/g, " ");
}

/** The class attribute of the element with this data-testid. */
function classOf(html: string, testId: string): string {
  const at = html.indexOf(`data-testid="${testId}"`);
  const open = html.lastIndexOf("<", at);
  const tag = html.slice(open, html.indexOf(">", at));
  return /class="([^"]*)"/.exec(tag)?.[1] ?? "";
}

const zOf = (cls: string) => Number(/(?:^|\s)z-(\d+)(?:\s|$)/.exec(cls)?.[1] ?? "0");

describe("PreflightCard with a refused fixed lot (2 lots on 10,000 USD)", () => {
  const refused = preflight({ settings: settings({ lotMode: "fixed", fixedLot: 2 }), balance: "10000", accountCurrency: "USD", instruments: ["EUR_USD"], prices });

  it("the core result: refused, 1,000.00 at the stop (10 % of the balance), at most 0.45 lot", () => {
    expect(refused.allRefused).toBe(true);
    expect(refused.instruments[0]).toMatchObject({ refused: true, lossPerTrade: "1000.00", lossPct: "10.00", maxLots: "0.45", maxLeverage: 5 });
  });

  const expected: Record<Language, { value: string; parts: string[] }> = {
    pt: { value: "Recusado", parts: ["Lote fixo de 2,00 recusado", "US$ 1.000,00", "(10,00 % do saldo)", "50 pips", "0,45 lote(s)", "5:1"] },
    en: { value: "Refused", parts: ["Fixed lot of 2.00 refused", "$1,000.00", "(10.00 % of the balance)", "50-pip", "0.45 lot(s)", "5:1"] },
    es: { value: "Rechazado", parts: ["Lote fijo de 2,00 rechazado", "1000,00", "(10,00 % del saldo)", "50 pips", "0,45 lote(s)", "5:1"] },
  };

  for (const language of ["pt", "en", "es"] as Language[]) {
    it(`${language}: shows the lot refused with its real risk and the limit, never a 0,00 loss`, async () => {
      const html = await render(createElement(PreflightCard, { preflight: refused }), language);
      const card = textOf(html, "preflight-card");
      expect(textOf(html, "preflight-per-trade")).toBe(expected[language].value);
      for (const part of expected[language].parts) expect(card.replace(/\s+/g, " ")).toContain(part.replace(/\s+/g, " "));
      expect(card).not.toMatch(/(?<![\d.,])0[,.]00(?!\d)/);
    });
  }

  it("pt: the warnings' figures read in the locale (2,00 and 0,45, not 2.00 and 0.45)", async () => {
    const html = await render(createElement(PreflightCard, { preflight: refused }), "pt");
    const warnings = textOf(html, "preflight-warnings");
    expect(warnings).toContain("lote fixo de 2,00 acima do máximo de 0,45 lote(s)");
    expect(warnings).not.toContain("2.00");
  });

  it("pt: an accepted fixed lot's per-day and margin percentages read 6,00 % and the like, not 6.00", async () => {
    const ok = preflight({ settings: settings(), balance: "10000", accountCurrency: "USD", instruments: ["EUR_USD"], prices });
    const html = await render(createElement(PreflightCard, { preflight: ok }), "pt");
    expect(textOf(html, "preflight-per-day")).toMatch(/^US\$ \d/);
    const card = textOf(html, "preflight-card");
    expect(card).toContain(`${ok.worstDayPct.replace(".", ",")} % do saldo`);
    expect(card).toContain(`(${ok.marginPct.replace(".", ",")} % do saldo)`);
    expect(card).not.toContain(`${ok.worstDayPct} % do saldo`);
  });
});

describe("PreflightConfirm above the navigation dock", () => {
  const warned = preflight({ settings: settings({ lotMode: "fixed", fixedLot: 2 }), balance: "10000", accountCurrency: "USD", instruments: ["EUR_USD"], prices });

  it("is a fixed modal with a higher z-index than the dock, its panel scrolling within the viewport, Cancelar inside it", async () => {
    const html = await render(createElement(PreflightConfirm, { preflight: warned }), "pt");
    const dock = await render(createElement(NavDock, { botActive: false }), "pt");
    const overlay = classOf(html, "preflight-confirm-overlay");
    expect(overlay.split(/\s+/)).toEqual(expect.arrayContaining(["fixed", "inset-0"]));
    expect(zOf(overlay)).toBeGreaterThan(zOf(classOf(dock, "nav-dock")));
    expect(zOf(classOf(dock, "nav-dock"))).toBeGreaterThan(0);
    const panel = classOf(html, "preflight-confirm");
    expect(panel).toMatch(/max-h-\[calc\(100dvh/);
    expect(panel).toContain("overflow-y-auto");
    expect(html.indexOf('data-testid="preflight-confirm-cancel"')).toBeGreaterThan(html.indexOf('data-testid="preflight-confirm"'));
    expect(textOf(html, "preflight-confirm-cancel")).toBe("Cancelar");
  });
});
