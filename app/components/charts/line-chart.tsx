/**
 * LineChart: one or more line/area series over time with an optional shaded band (e.g. the random-entry
 * baseline's 5th–95th percentile), drawn with TradingView's lightweight-charts on the client only (ADR 0020).
 *
 * The server render (and a browser without JavaScript) shows a container of the final height holding `fallback`
 * (a small table or summary with the numbers). On the client the library is imported inside useEffect, the chart
 * fills the container's width (autoSize) and `data-ready="true"` is set once drawn; the fallback then stays for
 * screen readers only. `data-series` lists the drawn series ids (and "band" when the band is drawn).
 *
 * Times are UTC seconds (ascending, unique — cleaned if not); values are plain numbers for plotting only.
 * The band has no native series type in lightweight-charts: it is drawn by a small series primitive that fills the
 * polygon between `upper` and `lower`, attached to two invisible line series carrying the band's points (so the
 * band's times are on the time scale and its prices count in autoscale).
 */
import clsx from "clsx";
import { useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { IChartApi, IPrimitivePaneRenderer, IPrimitivePaneView, ISeriesApi, ISeriesPrimitive, SeriesAttachedParameter, Time, UTCTimestamp } from "lightweight-charts";
import { CHART_ATTRIBUTION, cleanPoints, darkChartOptions, withAlpha } from "./chart-theme";

/** One point: `time` in UTC seconds (ascending, unique), `value` a plain number (plotting only). */
export interface ChartPoint {
  time: number;
  value: number;
}

/** A series: `kind` "line" (default) or "area" (line with a fading fill below). `color` is best given as #rrggbb. */
export interface LineSeries {
  id: string;
  label: string;
  color: string;
  points: ChartPoint[];
  kind?: "line" | "area";
}

/** A shaded band between two curves (same or different times); `color` as #rrggbb, filled at 18 % opacity. */
export interface ChartBand {
  label: string;
  color: string;
  upper: ChartPoint[];
  lower: ChartPoint[];
}

type RenderTarget = Parameters<IPrimitivePaneRenderer["draw"]>[0];

/** Series primitive filling the polygon upper(left→right) + lower(right→left) in the band colour. */
class BandPrimitive implements ISeriesPrimitive<Time> {
  private host: SeriesAttachedParameter<Time> | null = null;
  private readonly views: readonly IPrimitivePaneView[];

  constructor(
    private readonly upper: ChartPoint[],
    private readonly lower: ChartPoint[],
    private readonly lowerSeries: ISeriesApi<"Line">,
    private readonly fill: string,
  ) {
    const renderer: IPrimitivePaneRenderer = { draw: (target) => this.draw(target) };
    this.views = [{ zOrder: () => "bottom", renderer: () => renderer }];
  }

  attached(param: SeriesAttachedParameter<Time>) {
    this.host = param;
  }

  detached() {
    this.host = null;
  }

  paneViews() {
    return this.views;
  }

  private draw(target: RenderTarget) {
    const at = this.host;
    if (!at) return;
    const ts = at.chart.timeScale();
    const xy = (p: ChartPoint, s: ISeriesApi<"Line">) => {
      const x = ts.timeToCoordinate(p.time as UTCTimestamp);
      const y = s.priceToCoordinate(p.value);
      return x === null || y === null ? null : { x: x as number, y: y as number };
    };
    const top = this.upper.map((p) => xy(p, at.series as ISeriesApi<"Line">)).filter((p): p is { x: number; y: number } => p !== null);
    const bottom = this.lower.map((p) => xy(p, this.lowerSeries)).filter((p): p is { x: number; y: number } => p !== null);
    if (top.length < 2 || bottom.length < 2) return;
    target.useMediaCoordinateSpace(({ context: ctx }) => {
      ctx.beginPath();
      top.forEach((p, i) => (i === 0 ? ctx.moveTo(p.x, p.y) : ctx.lineTo(p.x, p.y)));
      for (const p of [...bottom].reverse()) ctx.lineTo(p.x, p.y);
      ctx.closePath();
      ctx.fillStyle = this.fill;
      ctx.fill();
    });
  }
}

/** The library's attribution as a small text link (shown next to every chart; see chart-theme.ts). */
export function ChartAttribution() {
  return (
    <a href={CHART_ATTRIBUTION.href} target="_blank" rel="noopener noreferrer" className="text-[11px] text-slate-400 hover:underline">
      {CHART_ATTRIBUTION.text}
    </a>
  );
}

/** A legend swatch + label. */
function LegendItem({ color, label, band }: { color: string; label: string; band?: boolean }) {
  return (
    <li className="flex items-center gap-1.5">
      <span aria-hidden="true" className={clsx("inline-block rounded-sm", band ? "h-3 w-4" : "h-0.5 w-4")} style={{ background: band ? withAlpha(color, 0.35) : color }} />
      <span>{label}</span>
    </li>
  );
}

/**
 * The line chart (see the module doc). `height` in CSS px (default 260); `valueFormat` formats the price axis and
 * crosshair labels; `testId` goes on the sized container (role="img", aria-label=`ariaLabel`).
 */
export function LineChart(props: {
  series: LineSeries[];
  band?: ChartBand;
  height?: number;
  ariaLabel: string;
  valueFormat?: (v: number) => string;
  fallback?: ReactNode;
  testId?: string;
}): JSX.Element {
  const { series, band, height = 260, ariaLabel, valueFormat, fallback, testId } = props;
  const boxRef = useRef<HTMLDivElement>(null);
  const formatRef = useRef(valueFormat);
  formatRef.current = valueFormat;
  const [drawn, setDrawn] = useState<string | null>(null);
  // Redraw only when the data changes, not on every parent render (callers rebuild the arrays each render).
  const dataKey = useMemo(() => JSON.stringify({ series, band }), [series, band]);

  useEffect(() => {
    const el = boxRef.current;
    if (!el) return;
    let cancelled = false;
    let chart: IChartApi | null = null;
    const data = JSON.parse(dataKey) as { series: LineSeries[]; band?: ChartBand };
    void import("lightweight-charts")
      .then((lib) => {
        if (cancelled) return;
        const fmt = formatRef.current;
        chart = lib.createChart(el, darkChartOptions(fmt ? (v: number) => fmt(v) : undefined));
        const drawnIds: string[] = [];
        if (data.band) {
          const upper = cleanPoints(data.band.upper, (p) => Number.isFinite(p.value));
          const lower = cleanPoints(data.band.lower, (p) => Number.isFinite(p.value));
          if (upper.length >= 2 && lower.length >= 2) {
            const hidden = { color: "rgba(0,0,0,0)", lineVisible: false, priceLineVisible: false, lastValueVisible: false, crosshairMarkerVisible: false, pointMarkersVisible: false };
            const up = chart.addSeries(lib.LineSeries, hidden);
            const lo = chart.addSeries(lib.LineSeries, hidden);
            up.setData(upper.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
            lo.setData(lower.map((p) => ({ time: p.time as UTCTimestamp, value: p.value })));
            up.attachPrimitive(new BandPrimitive(upper, lower, lo, withAlpha(data.band.color, 0.18)));
            drawnIds.push("band");
          }
        }
        for (const s of data.series) {
          const pts = cleanPoints(s.points, (p) => Number.isFinite(p.value)).map((p) => ({ time: p.time as UTCTimestamp, value: p.value }));
          const common = { priceLineVisible: false, lastValueVisible: true, title: "" };
          const api =
            s.kind === "area"
              ? chart.addSeries(lib.AreaSeries, { ...common, lineColor: s.color, topColor: withAlpha(s.color, 0.28), bottomColor: withAlpha(s.color, 0.02), lineWidth: 2 })
              : chart.addSeries(lib.LineSeries, { ...common, color: s.color, lineWidth: 2 });
          api.setData(pts);
          drawnIds.push(s.id);
        }
        chart.timeScale().fitContent();
        setDrawn(drawnIds.join(","));
      })
      .catch(() => {
        // The library failed to load (offline, blocked): the fallback stays visible.
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
      <div
        data-testid={testId}
        role="img"
        aria-label={ariaLabel}
        data-ready={ready ? "true" : "false"}
        data-series={drawn ?? undefined}
        className="relative w-full overflow-hidden rounded-xl bg-slate-950/40 ring-1 ring-white/5"
        style={{ height }}
      >
        <div ref={boxRef} className="absolute inset-0" />
        {fallback !== undefined && (
          // Scrollable while it is what the reader sees, so it takes keyboard focus (axe scrollable-region-focusable).
          <div className={clsx("absolute inset-0 p-3 text-sm text-slate-300", ready ? "sr-only" : "overflow-auto")} tabIndex={ready ? undefined : 0}>
            {fallback}
          </div>
        )}
      </div>
      <figcaption className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-400" data-testid={testId ? `${testId}-legend` : undefined}>
          {series.map((s) => (
            <LegendItem key={s.id} color={s.color} label={s.label} />
          ))}
          {band && <LegendItem color={band.color} label={band.label} band />}
        </ul>
        <ChartAttribution />
      </figcaption>
    </figure>
  );
}
