/**
 * Issue 22 item 11: the display currency. The conversion module (app/lib/display-currency.ts): the rate is
 * the broker's mid price of the pair it offers (direct pair, or 1 / mid of the inverse: USD → EUR uses
 * 1 / EUR_USD), in decimals; without an offered, priced pair there is no rate (unavailable), never an
 * invented one. The screens' pieces: "≈ R$ 5.312,40" beside an account amount, the "indisponível" notice
 * once, and the planned/filled stop distances of "Por que a IA entrou?". Rendered with react-dom/server.
 */
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it, vi } from "vitest";
import { convertAmount, resolveDisplayRate, toDisplayCurrency, type DisplayRate, type RateSource } from "../../../app/lib/display-currency";
import { i18nFor } from "../../../app/i18n";

let routeData: unknown = {};
vi.mock("@remix-run/react", () => ({
  useMatches: () => [{ id: "root", data: { language: "pt" } }, { id: "routes/dashboard", data: routeData }],
  useRouteLoaderData: () => ({ language: "pt", timezone: "America/Sao_Paulo" }),
}));
const { Converted, DisplayRateNotice } = await import("../../../app/components/display-amount");
const { PlannedFilledPips } = await import("../../../app/components/planned-filled-pips");

/** A rate source over fixed quotes; records which instruments were asked for. */
function source(offered: string[], quotes: Record<string, [string, string]>): RateSource & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    asked,
    offered: () => offered,
    quotes: async (instruments) => {
      asked.push(instruments);
      return instruments.filter((i) => quotes[i]).map((i) => ({ instrument: i, bid: quotes[i]![0], ask: quotes[i]![1] }));
    },
  };
}

const text = (html: string) => html.replace(/<!-- -->/g, "").replace(/<[^>]+>/g, " ").replace(/[\s\u00a0\u202f]+/g, " ").trim();
const render = (node: ReactNode) => renderToString(createElement(I18nextProvider, { i18n: i18nFor("pt") }, node));

describe("resolveDisplayRate", () => {
  it("USD account, EUR display: 1 / mid(EUR_USD), read from the broker's quote", async () => {
    const src = source(["EUR_USD", "USD_JPY"], { EUR_USD: ["1.08490", "1.08510"] });
    const r = await resolveDisplayRate("USD", "EUR", src);
    expect(src.asked).toEqual([["EUR_USD"]]);
    expect(r.unavailable).toBe(false);
    expect(r.instruments).toEqual(["EUR_USD"]);
    // mid 1.085 → 1 / 1.085 = 0.921658986175… (12 significant digits, no float error)
    expect(r.rate).toBe("0.921658986175");
  });

  it("a direct pair is used as is (USD → BRL with USD_BRL offered)", async () => {
    const r = await resolveDisplayRate("USD", "BRL", source(["USD_BRL"], { USD_BRL: ["5.3100", "5.3148"] }));
    expect(r).toMatchObject({ account: "USD", display: "BRL", rate: "5.3124", unavailable: false, instruments: ["USD_BRL"] });
  });

  it("no offered pair (the simulator has no USD_BRL): unavailable, no rate, no price asked for", async () => {
    const src = source(["EUR_USD", "GBP_USD"], { EUR_USD: ["1.1", "1.1"] });
    const r = await resolveDisplayRate("USD", "BRL", src);
    expect(r).toEqual({ account: "USD", display: "BRL", rate: null, instruments: [], unavailable: true });
    expect(src.asked).toEqual([]);
  });

  it("an offered pair without a usable price is unavailable too (never an invented rate)", async () => {
    expect((await resolveDisplayRate("USD", "EUR", source(["EUR_USD"], {}))).unavailable).toBe(true);
    expect((await resolveDisplayRate("USD", "EUR", source(["EUR_USD"], { EUR_USD: ["0", "0"] }))).rate).toBeNull();
  });

  it("same currency: nothing to convert, and not 'unavailable'", async () => {
    const src = source([], {});
    expect(await resolveDisplayRate("USD", "usd", src)).toEqual({ account: "USD", display: "USD", rate: null, instruments: [], unavailable: false });
  });
});

describe("convertAmount", () => {
  const eur: DisplayRate = { account: "USD", display: "EUR", rate: "0.921658986175", instruments: ["EUR_USD"], unavailable: false, notice: null };
  it("multiplies in decimals and rounds half-up to cents", () => {
    expect(convertAmount("100000.0000", eur, "USD")).toBe("92165.90");
    expect(convertAmount("-12.34", eur, "USD")).toBe("-11.37");
    expect(convertAmount("0.1", { ...eur, rate: "3" })).toBe("0.30"); // 0.1 × 3 exactly, no 0.30000000000000004
    expect(convertAmount(5.005, { ...eur, rate: "1" })).toBe("5.01");
  });
  it("gives nothing without a rate, for another currency's amount, or for a non-number", () => {
    expect(convertAmount("10", { ...eur, rate: null, unavailable: true })).toBeNull();
    expect(convertAmount("10", null)).toBeNull();
    expect(convertAmount("10", eur, "JPY")).toBeNull();
    expect(convertAmount("abc", eur)).toBeNull();
    expect(convertAmount(null, eur)).toBeNull();
  });
  it("reads a stored preference: BRL by default", () => {
    expect(toDisplayCurrency("eur")).toBe("EUR");
    expect(toDisplayCurrency("JPY")).toBe("BRL");
    expect(toDisplayCurrency(undefined)).toBe("BRL");
  });
});

describe("screens", () => {
  it("shows '≈ R$ 5.312,40' beside a USD amount and no notice when the rate is there", () => {
    routeData = { displayRate: { account: "USD", display: "BRL", rate: "5.3124", instruments: ["USD_BRL"], unavailable: false, notice: null } };
    const html = render(createElement("div", null, createElement(Converted, { amount: "1000.00", currency: "USD" }), createElement(DisplayRateNotice)));
    expect(text(html)).toBe("≈ R$ 5.312,40");
    expect(html).not.toContain("display-rate-notice");
  });

  it("without a rate: no converted figure, the notice once", () => {
    const notice = "Cotação USD/BRL indisponível na corretora: valores em USD";
    routeData = { displayRate: { account: "USD", display: "BRL", rate: null, instruments: [], unavailable: true, notice } };
    const html = render(createElement("div", null, createElement(Converted, { amount: "1000.00", currency: "USD" }), createElement(DisplayRateNotice)));
    expect(html).not.toContain("converted-amount");
    expect(text(html)).toBe(notice);
  });

  it("the notice text is the catalogue's, in pt, en and es", async () => {
    const { translateMsg } = await import("../../../app/i18n");
    const m = { key: "display-currency:unavailable", params: { pair: "USD/BRL", account: "USD" } };
    expect(translateMsg(m, "pt")).toBe("Cotação USD/BRL indisponível na corretora: valores em USD");
    expect(translateMsg(m, "en")).toBe("USD/BRL rate unavailable at the broker: amounts in USD");
    expect(translateMsg(m, "es")).toBe("Cotización USD/BRL no disponible en el bróker: valores en USD");
  });

  it("'Por que a IA entrou?': planned and filled distances, or 'igual ao planejado'", () => {
    const slipped = text(render(createElement(PlannedFilledPips, { planned: "12.0", filled: "11.4", testId: "why-stop" })));
    expect(slipped).toBe("planejado 12,0 pips · executado 11,4 pips");
    const same = render(createElement(PlannedFilledPips, { planned: "15.0", filled: "15.0", testId: "why-target" }));
    expect(text(same)).toBe("planejado 15,0 pips · executado igual ao planejado");
    expect(same).toContain('data-same="true"');
    // The planned value alone keeps its own test id (e2e: /^\d+(,\d)? pips$/).
    expect(/data-testid="why-stop-pips"[^>]*>([^<]*)</.exec(render(createElement(PlannedFilledPips, { planned: "12.0", filled: "11.4", testId: "why-stop" })))?.[1]).toBe("12,0 pips");
  });
});
