/**
 * Issue 22 item 7 — the backtest's broker source and its drawdown labels:
 * - the broker source offers the supported pairs the account itself trades (its GET A/instruments
 *   names), not the whole instrument table: an account with EUR_USD, GBP_USD, USD_JPY (and a pair the
 *   app does not support) is offered those three;
 * - a run on a supported pair the account does not offer is refused with a clear 400 in the reader's
 *   language (validateRequest, before any broker call), naming the account's pairs;
 * - the result says what its two drawdown figures are: "Drawdown máximo (queda desde o pico)" in the
 *   statistics, the drawdown chart's lowest point labelled as such with a hint that drawdown is measured
 *   from the peak, not from the starting balance (pt/en/es).
 */
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it, vi } from "vitest";
import { i18nFor, type Language } from "../../../app/i18n";
import type { RunView } from "../../../app/lib/backtest-run";

let rootData: { language: Language; timezone: string } = { language: "pt", timezone: "America/Sao_Paulo" };
vi.mock("@remix-run/react", () => ({
  Link: ({ to, children, ...rest }: { to: string; children: unknown }) => createElement("a", { href: to, ...rest }, children as never),
  useRouteLoaderData: () => rootData,
  useRevalidator: () => ({ revalidate: () => {}, state: "idle" }),
}));
const { StatsTable, DrawdownChart } = await import("../../../app/components/backtest/backtest-views");
const { brokerRange } = await import("../../../app/services/backtest/data.server");
const { validateRequest } = await import("../../../app/services/backtest/runs.server");
const { ValidationError } = await import("../../../app/services/platform/errors.server");

const now = Date.parse("2026-04-10T12:00:00Z");
const accountPairs = ["EUR_USD", "GBP_USD", "USD_JPY", "XAU_USD"];

describe("broker source offer", () => {
  it("offers only the supported pairs the account trades", () => {
    expect(brokerRange(now, accountPairs).instruments).toEqual(["EUR_USD", "GBP_USD", "USD_JPY"]);
  });

  it("refuses an unoffered pair with a clear 400 naming the account's pairs, pt/en/es", () => {
    const offer = { shipped: null, long: null, broker: brokerRange(now, accountPairs) };
    let err: unknown;
    try {
      validateRequest({ source: "broker", instruments: ["AUD_USD"], from: "2026-03-01", to: "2026-03-20" }, offer);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    const e = err as InstanceType<typeof ValidationError>;
    expect(e.messageIn("pt")).toBe("A sua conta OANDA não oferece AUD_USD: escolha um dos pares da conta (EUR_USD, GBP_USD, USD_JPY).");
    expect(e.messageIn("en")).toBe("Your OANDA account does not offer AUD_USD: pick one of the account's pairs (EUR_USD, GBP_USD, USD_JPY).");
    expect(e.messageIn("es")).toContain("Su cuenta OANDA no ofrece AUD_USD");
    // An offered pair passes.
    expect(validateRequest({ source: "broker", instruments: ["GBP_USD"], from: "2026-03-01", to: "2026-03-20" }, offer).instruments).toEqual(["GBP_USD"]);
  });
});

function run(): RunView {
  return {
    id: "r1", status: "done", progress: 100, error: null, createdAt: "2026-11-28T00:00:00Z", startedAt: null, finishedAt: null, durationMs: 1000,
    params: { instruments: ["EUR_USD"], from: "2026-01-12", to: "2026-01-23", accountCurrency: "USD", initialBalance: "10000" } as RunView["params"],
    result: {
      stats: { trades: 3, maxDrawdown: "500.00", maxDrawdownPct: "4.87", netPnl: "-100", finalBalance: "9900" },
      baseline: { netPnlPercentile: 50, seeds: 8, medianNetPnl: "0" },
      stops: [],
      riskPct: null,
      drawdown: [{ time: 1, value: 0 }, { time: 2, value: -4.78 }, { time: 3, value: -1 }],
    } as unknown as RunView["result"],
  };
}

function render(lng: Language, el: ReturnType<typeof createElement>): string {
  rootData = { language: lng, timezone: "America/Sao_Paulo" };
  return renderToString(createElement(I18nextProvider, { i18n: i18nFor(lng) }, el)).replace(/<!-- -->/g, "");
}

describe("drawdown labels", () => {
  const expected: Record<Language, { stat: string; lowest: string; hint: string }> = {
    pt: { stat: "Drawdown máximo (queda desde o pico)", lowest: "Maior queda no gráfico", hint: "não desde o saldo inicial" },
    en: { stat: "Max drawdown (fall from the peak)", lowest: "Deepest fall on the chart", hint: "not from the starting balance" },
    es: { stat: "Drawdown máximo (caída desde el pico)", lowest: "Mayor caída en el gráfico", hint: "no desde el saldo inicial" },
  };
  for (const lng of ["pt", "en", "es"] as Language[]) {
    it(`${lng}: the statistics and the chart say which drawdown is which`, () => {
      const stats = render(lng, createElement(StatsTable, { runs: [run()], labels: ["A"] }));
      expect(stats).toContain(expected[lng].stat);
      const chart = render(lng, createElement(DrawdownChart, { run: run() }));
      expect(chart).toContain(expected[lng].lowest);
      expect(chart).not.toMatch(/· (Mínimo|Minimum|Mínimo)</);
      expect(chart).toContain(expected[lng].hint);
    });
  }
});
