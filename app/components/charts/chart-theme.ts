/**
 * Shared look and helpers of the client-only charts (ADR 0020): dark theme options for lightweight-charts that
 * match the app (slate-950 surface, slate-400 text, faint white grid), colour alpha and point clean-up.
 * Floats here are for plotting only; money stays decimal everywhere else.
 */

/** Chart options (DeepPartial<ChartOptions>) for the app's dark theme; `autoSize` follows the container's width. */
export function darkChartOptions(valueFormat?: (v: number) => string) {
  return {
    autoSize: true,
    layout: {
      background: { color: "transparent" },
      textColor: "#94a3b8",
      fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif",
      // The attribution the library's licence asks for is a text link next to each chart (ChartAttribution):
      // the logo is a link drawn inside the role="img" container, where an interactive child is not allowed.
      attributionLogo: false,
    },
    grid: {
      vertLines: { color: "rgba(255,255,255,0.05)" },
      horzLines: { color: "rgba(255,255,255,0.05)" },
    },
    rightPriceScale: { borderColor: "rgba(255,255,255,0.1)" },
    timeScale: { borderColor: "rgba(255,255,255,0.1)", timeVisible: true, secondsVisible: false },
    crosshair: { mode: 0 as const },
    ...(valueFormat ? { localization: { priceFormatter: valueFormat } } : {}),
  };
}

/** `#rrggbb` (or `#rgb`) plus an alpha 0..1 as `rgba(...)`; any other colour string is returned unchanged. */
export function withAlpha(color: string, alpha: number): string {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return color;
  let hex = m[1] ?? "";
  if (hex.length === 3) hex = hex.split("").map((c) => c + c).join("");
  const n = Number.parseInt(hex, 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${alpha})`;
}

/**
 * Points as lightweight-charts wants them: finite values, ascending unique times (UTC seconds, integers).
 * Out-of-order input is sorted; for a repeated time the last point wins.
 */
export function cleanPoints<T extends { time: number }>(points: readonly T[], valueOk: (p: T) => boolean): T[] {
  const byTime = new Map<number, T>();
  for (const p of points) {
    if (!Number.isFinite(p.time) || !valueOk(p)) continue;
    byTime.set(Math.floor(p.time), { ...p, time: Math.floor(p.time) });
  }
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}

/** TradingView's attribution (lightweight-charts licence: a link to tradingview.com on the page showing the chart). */
export const CHART_ATTRIBUTION = { href: "https://www.tradingview.com/", text: "Lightweight Charts™ by TradingView" } as const;
