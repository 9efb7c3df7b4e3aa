/**
 * CandleChart: candlesticks of one instrument with trade markers (entry arrow, exit dot) and horizontal
 * price lines (entry, stop loss, take profit), drawn with lightweight-charts on the client only (ADR 0020)
 * in a ChartFrame (chart-frame.tsx: the server render and no-JS show `fallback`); once drawn the container
 * gets `data-ready="true"`, `data-markers` (markers drawn) and `data-lines` (ids of the price lines drawn).
 *
 * Times are UTC seconds; a marker is placed on the candle that contains its time (the newest candle starting
 * at or before it). Prices are plain numbers for plotting only; `precision` is the instrument's decimals.
 */
import type { ReactNode } from "react";
import type { SeriesMarker, Time, UTCTimestamp } from "lightweight-charts";
import { ChartFrame, type DrawChart } from "./chart-frame";
import { cleanPoints, darkChartOptions } from "./chart-theme";

/** One candle (UTC seconds, mid prices). */
export interface ChartCandle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
}

/** A trade event on the chart: the entry (arrow in the trade's direction) or the exit (dot). */
export interface TradeMarker {
  time: number;
  kind: "entry" | "exit";
  side: "buy" | "sell";
  label: string;
}

/** A horizontal price line (entry, stop loss, take profit, exit). */
export interface PriceLevel {
  id: string;
  price: number;
  label: string;
  color: string;
  dashed?: boolean;
}

const UP = "#34d399"; // emerald-400
const DOWN = "#fb7185"; // rose-400

/** The candle time a marker belongs to: the newest candle starting at or before `t` (else the first). */
function snap(times: number[], t: number): number | null {
  if (times.length === 0) return null;
  let lo = 0;
  let hi = times.length - 1;
  if (t < times[0]!) return times[0]!;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return times[lo]!;
}

type CandleData = { candles: ChartCandle[]; markers: TradeMarker[]; lines: PriceLevel[]; precision: number };

/** Draws the candles, the markers and the price lines (ChartFrame's `draw`); nothing when no candle is usable. */
const drawCandles: DrawChart<CandleData> = (lib, create, data) => {
  const bars = cleanPoints(data.candles, (c) => [c.open, c.high, c.low, c.close].every(Number.isFinite));
  if (bars.length === 0) return null; // nothing to draw: the fallback stays
  const chart = create(darkChartOptions());
  const series = chart.addSeries(lib.CandlestickSeries, {
    upColor: UP,
    downColor: DOWN,
    wickUpColor: UP,
    wickDownColor: DOWN,
    borderVisible: false,
    priceLineVisible: false,
    priceFormat: { type: "price", precision: data.precision, minMove: 10 ** -data.precision },
  });
  series.setData(bars.map((c) => ({ time: c.time as UTCTimestamp, open: c.open, high: c.high, low: c.low, close: c.close })));
  const times = bars.map((c) => c.time);
  const marks: SeriesMarker<Time>[] = [];
  for (const m of data.markers) {
    const at = snap(times, m.time);
    if (at === null) continue;
    const buy = m.side === "buy";
    marks.push(
      m.kind === "entry"
        ? { time: at as UTCTimestamp, position: buy ? "belowBar" : "aboveBar", shape: buy ? "arrowUp" : "arrowDown", color: buy ? UP : DOWN, text: m.label }
        : { time: at as UTCTimestamp, position: buy ? "aboveBar" : "belowBar", shape: "circle", color: "#e2e8f0", text: m.label },
    );
  }
  marks.sort((a, b) => (a.time as number) - (b.time as number));
  lib.createSeriesMarkers(series, marks);
  const lineIds: string[] = [];
  for (const l of data.lines) {
    if (!Number.isFinite(l.price)) continue;
    series.createPriceLine({ price: l.price, color: l.color, lineWidth: 1, lineStyle: l.dashed ? lib.LineStyle.Dashed : lib.LineStyle.Solid, axisLabelVisible: true, title: l.label });
    lineIds.push(l.id);
  }
  chart.timeScale().fitContent();
  return { "data-markers": String(marks.length), "data-lines": lineIds.join(",") };
};

/** The candle chart (see the module doc); `height` in CSS px (default 360). */
export function CandleChart(props: {
  candles: ChartCandle[];
  markers?: TradeMarker[];
  lines?: PriceLevel[];
  precision?: number;
  height?: number;
  ariaLabel: string;
  fallback?: ReactNode;
  testId?: string;
}): JSX.Element {
  const { candles, markers = [], lines = [], precision = 5, height = 360, ariaLabel, fallback, testId } = props;
  return <ChartFrame data={{ candles, markers, lines, precision }} draw={drawCandles} height={height} ariaLabel={ariaLabel} fallback={fallback} testId={testId} />;
}
