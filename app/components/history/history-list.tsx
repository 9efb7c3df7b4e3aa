/**
 * History display pieces (PRODUCT.md §2 History, §5 Display): the desktop summary stats, one closed
 * trade row (side/result badges, lots = units/100000 with 2 decimals, prices with 3 decimals for JPY
 * pairs else 5, times in the user's timezone) and the empty states. Money, percentages and dates
 * follow the reader's language (pt-BR, en-US, es-ES through `useDisplay`); prices and lots keep the
 * dot, as the forex convention (and the dashboard) shows them. Each row links to the trade's detail
 * (/history/:id, issue 12).
 */
import { Link } from "@remix-run/react";
import clsx from "clsx";
import { formatMsg } from "../../../core/i18n/message";
import { useTranslation } from "react-i18next";
import { formatDateTime, formatInstrument, formatLots, formatPrice, normaliseTimeframe, toNumber } from "~/lib/format";
import type { HistoryStats, HistoryTrade } from "~/lib/history";
import { useDisplay } from "~/lib/hooks";
import { Converted } from "../display-amount";
import { Badge, signTone, Stat, type Tone } from "../ui";
import { ManualBadge } from "./origin";

const RESULT_TONE: Record<string, Tone> = { WIN: "green", LOSS: "red", BE: "grey" };

/** Summary statistics of the shown rows (desktop only). */
export function HistorySummary({ stats, currency }: { stats: HistoryStats; currency: string }) {
  const { t } = useTranslation("history");
  const fmt = useDisplay();
  return (
    <div className="hidden grid-cols-4 gap-3 lg:grid" data-testid="history-stats">
      <Stat
        label={t("stats.pnlTotal")}
        value={<>{fmt.money(stats.pnlTotal, currency, { signed: true })}<Converted amount={stats.pnlTotal} currency={currency} signed /></>}
        tone={signTone(stats.pnlTotal)}
      />
      <Stat label={t("stats.winRate")} value={fmt.percent(stats.winRate)} hint={t("stats.winRateHint", { wins: stats.wins, total: stats.total })} />
      <Stat
        label={t("stats.profitFactor")}
        value={<span data-testid="history-profit-factor">{fmt.number(stats.profitFactor, 2)}</span>}
        hint={
          <>
            <span className="block">{t("stats.profitFactorHint")}</span>
            <span className="block">
              {t("stats.payoffRatio")}: <span data-testid="history-payoff">{fmt.number(stats.payoffRatio, 2)}</span>
            </span>
          </>
        }
      />
      <Stat label={t("stats.trades")} value={stats.total} hint={t("stats.counts", { wins: stats.wins, losses: stats.losses, breakeven: stats.breakeven })} />
    </div>
  );
}

/** One closed trade; `timezone` is the one the filters used (the user's, validated by the loader). */
export function HistoryRowItem({ trade, currency, timezone }: { trade: HistoryTrade; currency: string; timezone: string }) {
  const { t } = useTranslation("history");
  const fmt = useDisplay();
  const when = (at: string | null) => formatDateTime(at, { locale: fmt.locale, timeZone: timezone });
  const pnl = toNumber(trade.pnl) ?? 0;
  const result = trade.result ?? "BE";
  return (
    <li className="rounded-2xl bg-white/[0.03] p-4 ring-1 ring-white/10" data-testid="history-row" data-trade-id={trade.id}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-base font-bold text-white" data-testid="row-instrument">
            {formatInstrument(trade.instrument)}
          </span>
          <Badge tone={trade.side === "sell" ? "red" : "green"} data-testid="row-side">
            {trade.side === "sell" ? t("side.sell") : t("side.buy")}
          </Badge>
          <Badge tone={RESULT_TONE[result] ?? "grey"} data-testid="row-result">
            {result}
          </Badge>
          <ManualBadge origin={trade.origin} />
          {trade.aiTimeframe && (
            <span className="rounded-md bg-sky-500/15 px-1.5 py-0.5 text-xs font-semibold text-sky-300">
              {t("cols.ai")} {normaliseTimeframe(trade.aiTimeframe)}
            </span>
          )}
        </div>
        <div className="text-right">
          <p className={clsx("text-lg font-bold tabular-nums", pnl > 0 ? "text-emerald-300" : pnl < 0 ? "text-rose-300" : "text-slate-200")} data-testid="row-pnl">
            {fmt.money(trade.pnl, currency, { signed: true })}
          </p>
          <Converted amount={trade.pnl} currency={currency} signed />
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-3 lg:grid-cols-5">
        <div>
          <dt className="text-xs text-slate-400">{t("cols.lots")}</dt>
          <dd className="tabular-nums text-slate-200" data-testid="row-lots">
            {formatLots(trade.units)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-400">{t("cols.entry")}</dt>
          <dd className="font-mono tabular-nums text-slate-200" data-testid="row-entry">
            {formatPrice(trade.instrument, trade.openPrice)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-400">{t("cols.exit")}</dt>
          <dd className="font-mono tabular-nums text-slate-200" data-testid="row-exit">
            {formatPrice(trade.instrument, trade.closePrice)}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-400">{t("cols.opened")}</dt>
          <dd className="tabular-nums text-slate-300">{when(trade.openTime)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-400">{t("cols.closed")}</dt>
          <dd className="tabular-nums text-slate-300">{when(trade.closeTime)}</dd>
        </div>
      </dl>
      {(trade.aiReasonMsg || trade.aiReason) && (
        <p className="mt-2 text-sm text-slate-400" data-testid="history-ai-reason">
          {trade.aiReasonMsg ? formatMsg(t, trade.aiReasonMsg) : trade.aiReason}
        </p>
      )}
      <Link
        to={`/history/${encodeURIComponent(trade.id)}`}
        className="mt-2 inline-flex min-h-11 items-center text-sm font-semibold text-emerald-300 hover:underline"
        aria-label={t("trade:detailLinkLabel", { instrument: formatInstrument(trade.instrument) })}
        data-testid="trade-detail-link"
      >
        {t("trade:detailLink")} →
      </Link>
    </li>
  );
}

/** Empty state: no trades at all, or none matching the filters (with 'Limpar Filtros'). */
export function HistoryEmpty({ filtered, days }: { filtered: boolean; days: number }) {
  const { t } = useTranslation("history");
  return (
    <div className="rounded-2xl border border-dashed border-white/10 p-8 text-center" data-testid="history-empty">
      <p className="text-base font-semibold text-slate-200">{filtered ? t("emptyFiltered") : t("emptyNone")}</p>
      {filtered ? (
        <Link
          to="/history"
          data-testid="clear-filters"
          className="mt-4 inline-flex min-h-11 items-center justify-center rounded-xl bg-white/10 px-4 text-sm font-semibold text-slate-100 hover:bg-white/15"
        >
          {t("clearFilters")}
        </Link>
      ) : (
        <p className="mt-1 text-sm text-slate-400">{t("emptyHint", { days })}</p>
      )}
    </div>
  );
}
