/**
 * ChartFrame: what every client-only chart (ADR 0020) shares around its drawing — the sized container, the
 * text fallback, the library's attribution and the chart's life cycle.
 *
 * The server render (and a browser without JavaScript) shows a container of the final height holding
 * `fallback` (a small table or summary with the numbers). On the client lightweight-charts is imported inside
 * useEffect and `draw` builds the chart in a box that fills the container (the chart follows its width); the
 * container then gets `data-ready="true"` plus the `data-*` attributes `draw` returns (what was drawn, for tests
 * and operators), and the fallback stays for screen readers only. The chart is removed when the data changes
 * (then drawn again) or the frame unmounts; if the library fails to load or `draw` draws nothing, the fallback
 * stays visible.
 *
 * Accessibility: only the drawing's box is `role="img"` (named by `ariaLabel`); the fallback is its sibling, so
 * screen readers reach the numbers too (inside a role=img element they would get the label alone). While the
 * fallback is what the reader sees it may scroll, so it takes keyboard focus (axe scrollable-region-focusable).
 */
import clsx from "clsx";
import { useEffect, useRef, useState, type ReactNode } from "react";
import type * as LightweightCharts from "lightweight-charts";
import { CHART_ATTRIBUTION } from "./chart-theme";

/** `data-*` attributes describing what was drawn, e.g. `{ "data-series": "band,strategy" }`. */
export type DrawnAttributes = Record<`data-${string}`, string>;

/**
 * Draws one chart: `lib` is lightweight-charts, `create(options)` makes the chart in the frame's box (the frame
 * removes it on teardown), `data` is the frame's `data` as JSON gives it back. Returns the attributes to set
 * once drawn, or null when there is nothing to draw (the fallback stays visible).
 */
export type DrawChart<D> = (lib: typeof LightweightCharts, create: (options: Parameters<typeof LightweightCharts.createChart>[1]) => LightweightCharts.IChartApi, data: D) => DrawnAttributes | null;

/** The library's attribution as a small text link (shown under every chart; see chart-theme.ts). */
function ChartAttribution() {
  return (
    <a href={CHART_ATTRIBUTION.href} target="_blank" rel="noopener noreferrer" className="text-[11px] text-slate-400 hover:underline">
      {CHART_ATTRIBUTION.text}
    </a>
  );
}

/**
 * The frame (see the module doc). `data` must be JSON-safe: the chart is drawn again only when its JSON changes
 * (callers rebuild their arrays on every render). `draw` may change on every render (the
 * latest one draws). `height` in CSS px; `testId` goes on the sized container; `legend` is shown
 * under the chart, left of the attribution.
 */
export function ChartFrame<D>(props: { data: D; draw: DrawChart<D>; height: number; ariaLabel: string; fallback?: ReactNode; testId?: string; legend?: ReactNode }): JSX.Element {
  const { data, draw, height, ariaLabel, fallback, testId, legend } = props;
  const boxRef = useRef<HTMLDivElement>(null);
  const drawRef = useRef(draw);
  drawRef.current = draw;
  const [drawn, setDrawn] = useState<DrawnAttributes | null>(null);
  const dataKey = JSON.stringify(data);

  useEffect(() => {
    const el = boxRef.current;
    if (!el) return;
    let cancelled = false;
    let chart: LightweightCharts.IChartApi | null = null;
    void import("lightweight-charts")
      .then((lib) => {
        if (cancelled) return;
        const attributes = drawRef.current(lib, (options) => (chart = lib.createChart(el, options)), JSON.parse(dataKey) as D);
        if (attributes) setDrawn(attributes);
      })
      .catch(() => {
        // The library failed to load (offline, blocked) or could not draw: the fallback stays visible.
        if (!cancelled) setDrawn(null);
      });
    return () => {
      cancelled = true;
      chart?.remove();
      chart = null;
      setDrawn(null);
    };
  }, [dataKey]);

  const ready = drawn !== null;
  return (
    <figure className="space-y-2">
      <div data-testid={testId} data-ready={ready ? "true" : "false"} {...drawn} className="relative w-full overflow-hidden rounded-xl bg-slate-950/40 ring-1 ring-white/5" style={{ height }}>
        <div ref={boxRef} role="img" aria-label={ariaLabel} className="absolute inset-0" />
        {fallback !== undefined && (
          <div className={clsx("absolute inset-0 p-3 text-sm text-slate-300", ready ? "sr-only" : "overflow-auto")} tabIndex={ready ? undefined : 0}>
            {fallback}
          </div>
        )}
      </div>
      <figcaption className={clsx("flex", legend ? "flex-wrap items-start justify-between gap-x-4 gap-y-1" : "justify-end")}>
        {legend}
        <ChartAttribution />
      </figcaption>
    </figure>
  );
}
