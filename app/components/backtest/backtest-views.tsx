/**
 * Pieces of the backtest pages (issue 12): the settings summary, the statistics table (one or more
 * runs side by side), the verdict against random entries, the equity / drawdown charts (the shared
 * LineChart, with a numbers table as the no-JS fallback) and the trade list with reasons.
 */
import { Link } from "@remix-run/react";
import clsx from "clsx";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatMsg } from "../../../core/i18n/message";
import type { TradingSettings } from "../../../core/settings";
import { LineChart, type ChartPoint, type LineSeries } from "~/components/charts/line-chart";
import { Badge, Card } from "~/components/ui";
import { formatInstrument } from "~/lib/format";
import { useDisplay } from "~/lib/hooks";
import type { RunResult, RunView } from "~/lib/backtest-run";

/** Colours of the compared runs' curves (#rrggbb). */
export const RUN_COLORS = ["#34d399", "#60a5fa", "#f59e0b", "#f472b6", "#a78bfa", "#f87171"];

const STATUS_TONE = { queued: "grey", running: "amber", done: "green", failed: "red" } as const;

/** A run's status as a badge. */
export function StatusBadge({ status }: { status: RunView["status"] }) {
  const { t } = useTranslation("backtest");
  return (
    <Badge tone={STATUS_TONE[status]} data-testid="run-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

/** "EUR/USD, GBP/USD". */
export const pairsLabel = (instruments: readonly string[]) => instruments.map(formatInstrument).join(", ");

/** The settings a run will use (or used), with a link to /settings. */
export function SettingsSummary({ settings, editLink = true }: { settings: TradingSettings; editLink?: boolean }) {
  const { t } = useTranslation("backtest");
  const { t: ts } = useTranslation("settings");
  const rows: [string, ReactNode][] = [
    [ts("ai.tradingStyle"), ts(`ai.style.${settings.aiSettings.tradingStyle}`)],
    [ts("risk.lotMode"), settings.lotMode === "auto" ? ts("risk.lotAuto") : `${ts("risk.lotFixed")} (${settings.fixedLot})`],
    [ts("risk.maxLeveragePerTrade"), settings.maxLeveragePerTrade ?? "—"],
    [ts("risk.slRatio"), settings.slRatio],
    [ts("risk.tpRatio"), settings.tpRatio],
    [ts("risk.maxTrades"), settings.maxTrades],
    [ts("risk.maxDailyTrades"), settings.maxDailyTrades],
    [ts("risk.dailyLossLimitPct"), settings.dailyLossLimitPct],
    [ts("risk.maxDrawdownPct"), settings.maxDrawdownPct],
  ];
  return (
    <Card title={t("settingsTitle")} data-testid="settings-summary" action={editLink ? <Link to="/settings" className="text-sm font-semibold text-emerald-300 underline-offset-2 hover:underline">{t("editSettings")}</Link> : undefined}>
      {editLink && <p className="mb-3 text-sm text-slate-400">{t("settingsHint")}</p>}
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1.5 text-sm sm:grid-cols-2">
        {rows.map(([k, v]) => (
          <div key={k} className="flex justify-between gap-3 border-b border-white/5 py-1">
            <dt className="text-slate-400">{k}</dt>
            <dd className="font-medium text-slate-100">{v}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** The statistics rows of issue 4 for runs side by side (one column per run). */
export function StatsTable({ runs, labels }: { runs: RunView[]; labels: string[] }) {
  const { t } = useTranslation("backtest");
  const d = useDisplay();
  const none = t("stats.none");
  const money = (v: string | null | undefined, cur: string, signed = false) => (v == null ? none : d.money(v, cur, { signed }));
  const rows: [string, (r: RunResult, cur: string) => ReactNode][] = [
    [t("stats.trades"), (r) => r.stats.trades],
    [t("stats.winRate"), (r) => (r.stats.winRatePct == null ? none : `${d.number(Number(r.stats.winRatePct), 1)}%`)],
    [t("stats.profitFactor"), (r) => (r.stats.profitFactor == null ? none : d.number(Number(r.stats.profitFactor), 2))],
    [t("stats.payoff"), (r) => (r.stats.payoffRatio == null ? none : d.number(Number(r.stats.payoffRatio), 2))],
    [t("stats.expectancy"), (r, c) => money(r.stats.expectancy, c, true)],
    [t("stats.expectancyR"), (r) => (r.stats.expectancyR == null ? none : `${d.number(Number(r.stats.expectancyR), 2)} R`)],
    [t("stats.netPnl"), (r, c) => money(r.stats.netPnl, c, true)],
    [t("stats.finalBalance"), (r, c) => money(r.stats.finalBalance, c)],
    [t("stats.grossProfit"), (r, c) => money(r.stats.grossProfit, c)],
    [t("stats.grossLoss"), (r, c) => money(r.stats.grossLoss, c)],
    [t("stats.maxDrawdown"), (r, c) => `${money(r.stats.maxDrawdown, c)}${r.stats.maxDrawdownPct == null ? "" : ` (${d.number(Number(r.stats.maxDrawdownPct), 2)}%)`}`],
    [t("stats.sharpe"), (r) => (r.stats.sharpe == null ? none : d.number(Number(r.stats.sharpe), 2))],
    [t("stats.exposure"), (r) => (r.stats.exposurePct == null ? none : `${d.number(Number(r.stats.exposurePct), 1)}%`)],
    [t("stats.riskMedian"), (r) => (r.riskPct ? `${d.number(Number(r.riskPct.median), 2)}%` : none)],
    [t("stats.riskMax"), (r) => (r.riskPct ? `${d.number(Number(r.riskPct.max), 2)}%` : none)],
    [t("stats.stops"), (r) => r.stops.length],
    [t("stats.percentile"), (r) => (r.stats.trades ? d.number(r.baseline.netPnlPercentile, 1) : none)],
  ];
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[18rem] text-sm" data-testid="stats-table">
        {runs.length > 1 && (
          <thead>
            <tr className="text-left text-xs uppercase tracking-wide text-slate-400">
              <th scope="col" className="py-1.5 pr-3 font-medium">{t("compare.metric")}</th>
              {labels.map((l, i) => (
                <th key={l} scope="col" className="px-2 py-1.5 text-right font-medium" style={{ color: RUN_COLORS[i % RUN_COLORS.length] }}>
                  {l}
                </th>
              ))}
            </tr>
          </thead>
        )}
        <tbody>
          {rows.map(([label, cell]) => (
            <tr key={label} className="border-t border-white/5">
              <th scope="row" className="py-1.5 pr-3 text-left font-normal text-slate-400">{label}</th>
              {runs.map((run) => (
                <td key={run.id} className="px-2 py-1.5 text-right font-medium tabular-nums text-slate-100">
                  {run.result ? cell(run.result, run.params.accountCurrency) : none}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** "É melhor que o acaso?": the strategy's percentile among the random-entry runs, in plain words. */
export function Verdict({ run }: { run: RunView }) {
  const { t } = useTranslation("backtest");
  const d = useDisplay();
  const r = run.result!;
  const pct = r.baseline.netPnlPercentile;
  const kind = r.stats.trades === 0 ? "noTrades" : pct >= 95 ? "better" : pct >= 50 ? "inside" : "worse";
  // Entries the edge gate refused (issue 21): say why a pair did not trade.
  const noEdge = r.blocked?.no_edge ?? 0;
  const tone = kind === "better" ? "border-emerald-400/30" : kind === "worse" ? "border-rose-400/30" : "border-amber-400/30";
  return (
    <Card title={t("verdict.title")} className={tone} data-testid="verdict" data-verdict={kind}>
      <p className="text-base text-slate-100">{t(`verdict.${kind}`, { pct: d.number(pct, 0), seeds: r.baseline.seeds })}</p>
      {kind !== "noTrades" && <p className="mt-1 text-sm text-slate-400">{t("verdict.median", { value: d.money(r.baseline.medianNetPnl, run.params.accountCurrency, { signed: true }) })}</p>}
      {noEdge > 0 && (
        <p className="mt-2 text-sm text-amber-200" data-testid="no-edge-notice">
          {t("verdict.noEdge", { count: noEdge })}{" "}
          <Link to="/ia/evidencias" className="font-semibold text-emerald-300 hover:underline">
            {t("verdict.noEdgeLinks")}
          </Link>
        </p>
      )}
    </Card>
  );
}

/** A small table of a curve's figures: the charts' no-JS fallback (and the screen readers' text). */
function CurveTable({ rows }: { rows: [string, string][] }) {
  return (
    <table className="w-full text-sm">
      <tbody>
        {rows.map(([k, v]) => (
          <tr key={k} className="border-t border-white/5">
            <th scope="row" className="py-1 pr-3 text-left font-normal text-slate-400">{k}</th>
            <td className="py-1 text-right tabular-nums text-slate-100">{v}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const pointsOf = (times: number[], values: number[]): ChartPoint[] => times.map((time, i) => ({ time, value: values[i]! }));

/** Equity curve with the random entries' 5–95 % band and median. */
export function EquityChart({ run }: { run: RunView }) {
  const { t } = useTranslation("backtest");
  const d = useDisplay();
  const r = run.result!;
  const cur = run.params.accountCurrency;
  const series: LineSeries[] = [
    { id: "strategy", label: t("strategy"), color: "#34d399", points: r.equity, kind: "line" },
    { id: "median", label: t("bandMedian"), color: "#94a3b8", points: pointsOf(r.band.time, r.band.p50) },
  ];
  const last = r.equity.length - 1;
  const values = r.equity.map((p) => p.value);
  const fallback = (
    <CurveTable
      rows={[
        [`${t("strategy")} · ${t("fallback.start")}`, d.money(values[0], cur)],
        [`${t("strategy")} · ${t("fallback.end")}`, d.money(values[last], cur)],
        [`${t("strategy")} · ${t("fallback.min")}`, d.money(Math.min(...values), cur)],
        [`${t("strategy")} · ${t("fallback.max")}`, d.money(Math.max(...values), cur)],
        [`${t("bandLabel")} · ${t("fallback.end")}`, `${d.money(r.band.p5.at(-1), cur)} – ${d.money(r.band.p95.at(-1), cur)}`],
        [`${t("bandMedian")} · ${t("fallback.end")}`, d.money(r.band.p50.at(-1), cur)],
      ]}
    />
  );
  return (
    <Card title={t("equityTitle")}>
      <LineChart
        series={series}
        band={{ label: t("bandLabel"), color: "#64748b", upper: pointsOf(r.band.time, r.band.p95), lower: pointsOf(r.band.time, r.band.p5) }}
        ariaLabel={t("equityAria")}
        valueFormat={(v) => d.money(v, cur)}
        fallback={fallback}
        testId="equity-chart"
        height={280}
      />
    </Card>
  );
}

/** Drawdown from the running NAV peak, %. */
export function DrawdownChart({ run }: { run: RunView }) {
  const { t } = useTranslation("backtest");
  const d = useDisplay();
  const r = run.result!;
  const worst = Math.min(0, ...r.drawdown.map((p) => p.value));
  return (
    <Card title={t("drawdownTitle")}>
      <LineChart
        series={[{ id: "drawdown", label: t("drawdownSeries"), color: "#f87171", points: r.drawdown, kind: "area" }]}
        ariaLabel={t("drawdownAria")}
        valueFormat={(v) => `${d.number(v, 2)}%`}
        fallback={<CurveTable rows={[[`${t("drawdownSeries")} · ${t("drawdownLowest")}`, `${d.number(worst, 2)}%`]]} />}
        testId="drawdown-chart"
        height={180}
      />
      <p className="mt-2 text-xs text-slate-400" data-testid="drawdown-hint">
        {t("drawdownHint")}
      </p>
    </Card>
  );
}

/** Overlaid equity curves of compared runs. */
export function CompareChart({ runs, labels }: { runs: RunView[]; labels: string[] }) {
  const { t } = useTranslation("backtest");
  const d = useDisplay();
  const series: LineSeries[] = runs.map((run, i) => ({ id: `run-${i + 1}`, label: labels[i]!, color: RUN_COLORS[i % RUN_COLORS.length]!, points: run.result?.equity ?? [] }));
  return (
    <LineChart
      series={series}
      ariaLabel={t("compare.aria")}
      valueFormat={(v) => d.number(v, 2)}
      fallback={<CurveTable rows={runs.map((run, i) => [labels[i]!, d.money(run.result?.equity.at(-1)?.value, run.params.accountCurrency)])} />}
      testId="compare-chart"
      height={260}
    />
  );
}

/** Most trades listed on the page (the API has them all). */
export const TRADES_SHOWN = 300;

/** The trade list: pair, side, entry, exit and its reason, pips, P&L, R, and why the AI entered. */
export function TradeList({ run }: { run: RunView }) {
  const { t } = useTranslation("backtest");
  const { t: tAll } = useTranslation();
  const d = useDisplay();
  const trades = run.result!.trades;
  const shown = trades.slice(0, TRADES_SHOWN);
  const cur = run.params.accountCurrency;
  return (
    <Card title={t("trades.title", { count: trades.length })}>
      {trades.length === 0 ? (
        <p className="text-sm text-slate-400">{t("trades.empty")}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[52rem] text-sm" data-testid="trade-list">
            <thead>
              <tr className="text-left text-xs uppercase tracking-wide text-slate-400">
                <th scope="col" className="py-1.5 pr-2 font-medium">{t("trades.pair")}</th>
                <th scope="col" className="px-2 py-1.5 font-medium">{t("trades.entry")}</th>
                <th scope="col" className="px-2 py-1.5 font-medium">{t("trades.exit")}</th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">{t("trades.pips")}</th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">{t("trades.pnl")}</th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">{t("trades.risk")}</th>
                <th scope="col" className="px-2 py-1.5 text-right font-medium">{t("trades.r")}</th>
                <th scope="col" className="py-1.5 pl-2 font-medium">{t("trades.reason")}</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((tr) => {
                const pnl = Number(tr.pnl);
                return (
                  <tr key={tr.id} className="border-t border-white/5 align-top" data-testid="trade-row">
                    <td className="py-1.5 pr-2">
                      <span className="font-semibold text-slate-100">{formatInstrument(tr.instrument)}</span>{" "}
                      <span className={clsx("text-xs", tr.side === "buy" ? "text-emerald-300" : "text-rose-300")}>{t(`trades.${tr.side}`)}</span>
                      <span className="block text-xs text-slate-500">{tr.timeframe}</span>
                    </td>
                    <td className="px-2 py-1.5 tabular-nums">
                      {tr.entryPrice}
                      <span className="block text-xs text-slate-500">{d.dateTime(tr.entryTime)}</span>
                    </td>
                    <td className="px-2 py-1.5 tabular-nums">
                      {tr.exitPrice} <span className="text-xs text-slate-400">· {t(`exitReason.${tr.exitReason}`)}</span>
                      <span className="block text-xs text-slate-500">{d.dateTime(tr.exitTime)}</span>
                    </td>
                    <td className="px-2 py-1.5 text-right tabular-nums">{d.number(tr.pips, 1)}</td>
                    <td className={clsx("px-2 py-1.5 text-right font-medium tabular-nums", pnl > 0 ? "text-emerald-300" : pnl < 0 ? "text-rose-300" : "text-slate-300")}>
                      {d.money(tr.pnl, cur, { signed: true })}
                    </td>
                    <td className="px-2 py-1.5 text-right tabular-nums" data-testid="trade-risk">
                      {d.money(tr.risk, cur)}
                      <span className="block text-xs text-slate-500">{tr.riskPct == null ? t("stats.none") : `${d.number(Number(tr.riskPct), 2)}%`}</span>
                    </td>
                    <td className="px-2 py-1.5 text-right tabular-nums">{tr.rMultiple == null ? t("stats.none") : d.number(Number(tr.rMultiple), 2)}</td>
                    <td className="py-1.5 pl-2 text-xs text-slate-300" data-testid="trade-reason">{formatMsg((k, o) => tAll(k, o), tr.reasonMsg)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {trades.length > shown.length && <p className="mt-2 text-xs text-slate-500">{t("trades.more", { shown: shown.length, total: trades.length })}</p>}
        </div>
      )}
    </Card>
  );
}
