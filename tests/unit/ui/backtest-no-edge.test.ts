/**
 * The backtest verdict says why a pair did not trade when the edge gate refused its entries (issue 21):
 * the count of refusals and a link to the AI's evidence, in the user's language; nothing when none.
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
const { Verdict } = await import("../../../app/components/backtest/backtest-views");

function run(blocked: Record<string, number>): RunView {
  return {
    id: "r1", status: "done", progress: 100, error: null, createdAt: "2026-11-28T00:00:00Z", startedAt: null, finishedAt: null, durationMs: 1000,
    params: { instruments: ["EUR_USD"], from: "2026-01-12", to: "2026-01-23", accountCurrency: "USD", initialBalance: "10000" } as RunView["params"],
    result: { stats: { trades: 0 }, baseline: { netPnlPercentile: 50, seeds: 8, medianNetPnl: "0" }, blocked } as unknown as RunView["result"],
  };
}

function render(lng: Language, view: RunView): string {
  rootData = { language: lng, timezone: "America/Sao_Paulo" };
  return renderToString(createElement(I18nextProvider, { i18n: i18nFor(lng) }, createElement(Verdict, { run: view })));
}

describe("backtest verdict and the edge gate", () => {
  it("counts the refused entries and links to the evidence, in pt and en", () => {
    const pt = render("pt", run({ no_edge: 12 }));
    expect(pt).toContain("O filtro de vantagem recusou 12 entrada(s)");
    expect(pt).toContain('href="/ia/evidencias"');
    expect(render("en", run({ no_edge: 3 }))).toContain("The edge filter refused 3 entry(ies)");
  });

  it("says nothing about the gate when it refused nothing", () => {
    expect(render("pt", run({ cooldown: 4 }))).not.toContain("no-edge-notice");
  });
});
