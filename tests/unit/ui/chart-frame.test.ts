/**
 * app/components/charts/chart-frame.tsx as the server renders it (what a browser without JavaScript and a
 * screen reader get before the chart is drawn): the sized container with `data-ready="false"`, the drawing's
 * box as the only `role="img"` element (named, and empty: the numbers are not hidden inside it), the text
 * fallback beside it, focusable while it is what the reader sees, and the attribution under the chart.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ChartFrame } from "../../../app/components/charts/chart-frame";

const table = createElement("table", { "data-testid": "numbers" }, createElement("tbody", null, createElement("tr", null, createElement("td", null, "Entrada 1.10000"))));

function render(extra: { legend?: string; fallback?: boolean } = {}): string {
  return renderToStaticMarkup(
    createElement(ChartFrame<{ n: number }>, {
      data: { n: 1 },
      draw: () => null,
      height: 300,
      ariaLabel: "Gráfico de EUR/USD",
      testId: "trade-chart",
      fallback: extra.fallback === false ? undefined : table,
      legend: extra.legend ? createElement("ul", null, extra.legend) : undefined,
    }),
  );
}

describe("ChartFrame (server render)", () => {
  it("names the drawing and keeps the fallback's numbers outside the role=img element", () => {
    const html = render();
    expect(html.match(/role="img"/g)).toHaveLength(1);
    // The role=img box is empty: its children would be presentational, the table unreachable.
    expect(html).toMatch(/<div role="img" aria-label="Gráfico de EUR\/USD" class="[^"]*"><\/div>/);
    expect(html).toContain("Entrada 1.10000");
    expect(html).toMatch(/data-testid="trade-chart" data-ready="false"[^>]*style="height:300px"/);
  });

  it("lets the keyboard reach the fallback while it may scroll", () => {
    expect(render()).toMatch(/<div class="[^"]*overflow-auto[^"]*" tabindex="0"><table data-testid="numbers">/);
    expect(render({ fallback: false })).not.toContain("tabindex");
  });

  it("shows the attribution under the chart, after the legend when there is one", () => {
    expect(render()).toMatch(/<figcaption class="flex justify-end"><a href="https:\/\/www.tradingview.com\/"/);
    expect(render({ legend: "Saldo" })).toMatch(/<figcaption class="[^"]*justify-between[^"]*"><ul>Saldo<\/ul><a href="https:\/\/www.tradingview.com\/"/);
  });
});
