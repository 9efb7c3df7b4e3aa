/**
 * LineChart: one or more line/area series over time with an optional shaded band (e.g. the random-entry
 * baseline's 5th–95th percentile), drawn with TradingView's lightweight-charts on the client only (ADR 0020).
 *
 * It is drawn in a ChartFrame (chart-frame.tsx): the server render (and a browser without JavaScript) shows
 * `fallback` (a small table or summary with the numbers); on the client the chart fills the container's width
 * and the container gets `data-ready="true"` and `data-series`, the drawn series ids (and "band" when the band
 * is drawn).
 *
 * Times are UTC seconds (ascending, unique — cleaned if not); values are plain numbers for plotting only.
 * The band has no native series type in lightweight-charts: it is drawn by a small series primitive that fills the
 * polygon between `upper` and `lower`, attached to two invisible line series carrying the band's points (so the
 * band's times are on the time scale and its prices count in autoscale).
 */
import clsx from "clsx";
import type { ReactNode } from "react";
import type { IPrimitivePaneRenderer, IPrimitivePaneView, ISeriesApi, ISeriesPrimitive, SeriesAttachedParameter, Time, UTCTimestamp } from "lightweight-charts";
import { ChartFrame, type DrawChart } from "./chart-frame";
import { cleanPoints, darkChartOptions, withAlpha } from "./chart-theme";

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

/** A legend swatch + label. */
function LegendItem({ color, label, band }: { color: string; label: string; band?: boolean }) {
  return (
    <li className="flex items-center gap-1.5">
      <span aria-hidden="true" className={clsx("inline-block rounded-sm", band ? "h-3 w-4" : "h-0.5 w-4")} style={{ background: band ? withAlpha(color, 0.35) : color }} />
      <span>{label}</span>
    </li>
  );
}

type LineData = { series: LineSeries[]; band?: ChartBand };

/** Draws the band and the series (ChartFrame's `draw`); `valueFormat` formats the price axis and crosshair labels. */
function lineDrawer(valueFormat: ((v: number) => string) | undefined): DrawChart<LineData> {
  return (lib, create, data) => {
    const chart = create(darkChartOptions(valueFormat));
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
    return { "data-series": drawnIds.join(",") };
  };
}

/**
 * The line chart (see the module doc). `height` in CSS px (default 260); `valueFormat` formats the price axis and
 * crosshair labels; `testId` goes on the sized container, the legend gets `${testId}-legend`.
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
  const legend = (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-400" data-testid={testId ? `${testId}-legend` : undefined}>
      {series.map((s) => (
        <LegendItem key={s.id} color={s.color} label={s.label} />
      ))}
      {band && <LegendItem color={band.color} label={band.label} band />}
    </ul>
  );
  return <ChartFrame data={{ series, band }} draw={lineDrawer(valueFormat)} height={height} ariaLabel={ariaLabel} fallback={fallback} testId={testId} legend={legend} />;
}
