/**
 * Trade lists of the dashboard: open positions (with close button) and the last closed trades with their summary header;
 * each trade links to its detail page (/history/:id, issue 12).
 */
import { Link } from "@remix-run/react";
import clsx from "clsx";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { formatMsg, type Msg } from "../../core/i18n/message";
import { tradeResult } from "../../core/stats";
import { apiFetch, errorMessage } from "~/lib/api";
import { formatInstrument, formatLots, formatPrice, normaliseTimeframe, toNumber } from "~/lib/format";
import { useDisplay } from "~/lib/hooks";
import { priceTrend, tradeStats } from "~/lib/trading";
import { Converted } from "./display-amount";
import { Badge, Banner, Button, signTone } from "./ui";

/** An open trade as GET /api/trades/account/open returns it. */
export interface OpenTradeView {
  id: string;
  instrument: string;
  side: string;
  units: string;
  openPrice: string;
  currentPrice: string | null;
  stopLoss: string | null;
  takeProfit: string | null;
  unrealizedPL: string;
  openTime: string;
  aiTimeframe: string | null;
  aiConfidence: number | null;
  aiReason: string | null;
  /** The AI's reason as a message, when stored (rendered in the reader's language, ADR 0007). */
  aiReasonMsg?: Msg | null;
}

/** A closed trade as GET /api/trades/account/history returns it. */
export interface ClosedTradeView {
  id: string;
  instrument: string;
  side: string;
  units: string;
  openPrice: string;
  closePrice: string | null;
  pnl: string;
  result: string | null;
  openTime: string;
  closeTime: string | null;
  aiTimeframe: string | null;
  aiReason: string | null;
}

/** COMPRA / VENDA pill. */
function SideBadge({ side }: { side: string }) {
  const { t } = useTranslation("dashboard");
  return <Badge tone={side === "sell" ? "red" : "green"}>{side === "sell" ? t("trade.sell") : t("trade.buy")}</Badge>;
}

/** One open position: instrument, side, lots, entry, live price chip, unrealized P&L, SL/TP, AI timeframe and reason, close button. */
export function OpenTradeCard({ trade, currency, now, onClosed }: { trade: OpenTradeView; currency: string; now: Date; onClosed: () => void }) {
  const { t } = useTranslation("dashboard");
  const fmt = useDisplay();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const trend = priceTrend(trade.side, trade.openPrice, trade.currentPrice);
  const upl = toNumber(trade.unrealizedPL);
  async function close() {
    setBusy(true);
    setError(null);
    try {
      await apiFetch(`/api/trades/${encodeURIComponent(trade.id)}/close`, { method: "POST", body: { units: "ALL" } });
      onClosed();
    } catch (err) {
      setError(errorMessage(err, t("trade.closeError"), t));
      window.setTimeout(() => setError(null), 5000);
    } finally {
      setBusy(false);
    }
  }
  return (
    <li className="rounded-2xl bg-white/[0.03] p-4 ring-1 ring-white/10" data-testid="open-trade">
      <div className="flex items-start justify-between gap-3">
        <div>
          <p className="flex items-center gap-2 text-lg font-bold text-white">
            {formatInstrument(trade.instrument)} <SideBadge side={trade.side} />
          </p>
          <p className="mt-0.5 text-xs text-slate-400">
            {t("trade.lots", { lots: formatLots(trade.units) })} · <span suppressHydrationWarning>{fmt.relative(trade.openTime, now)}</span>
          </p>
        </div>
        <div className="text-right">
          <p
            data-testid="open-trade-pnl"
            className={clsx("text-right text-lg font-bold tabular-nums", upl && upl > 0 ? "text-emerald-300" : upl && upl < 0 ? "text-rose-300" : "text-slate-200")}
          >
            {fmt.money(trade.unrealizedPL, currency, { signed: true })}
          </p>
          <Converted amount={trade.unrealizedPL} currency={currency} signed />
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        <div>
          <dt className="text-xs text-slate-400">{t("trade.entry")}</dt>
          <dd className="font-mono tabular-nums text-slate-200">{formatPrice(trade.instrument, trade.openPrice)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-400">{t("trade.current")}</dt>
          <dd>
            <span
              data-trend={trend}
              data-testid="price-chip"
              className={clsx(
                "inline-block rounded-md px-1.5 font-mono tabular-nums",
                trend === "up" ? "bg-emerald-500/15 text-emerald-300" : trend === "down" ? "bg-rose-500/15 text-rose-300" : "bg-slate-500/15 text-slate-300",
              )}
            >
              {formatPrice(trade.instrument, trade.currentPrice)}
            </span>
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-400">{t("trade.stopLoss")}</dt>
          <dd className="font-mono tabular-nums text-rose-200/90">{formatPrice(trade.instrument, trade.stopLoss)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-400">{t("trade.takeProfit")}</dt>
          <dd className="font-mono tabular-nums text-emerald-200/90">{formatPrice(trade.instrument, trade.takeProfit)}</dd>
        </div>
      </dl>
      {(trade.aiTimeframe || trade.aiReason) && (
        <p className="mt-3 text-sm text-slate-300">
          <span className="mr-1.5 rounded-md bg-sky-500/15 px-1.5 py-0.5 text-xs font-semibold text-sky-300">{t("trade.ai", { timeframe: normaliseTimeframe(trade.aiTimeframe) })}</span>
          {trade.aiConfidence !== null && <span className="mr-1.5 text-xs text-slate-400">{t("trade.confidence", { value: fmt.percent(trade.aiConfidence * 100, 0) })}</span>}
          <span data-testid="open-trade-reason">{trade.aiReasonMsg ? formatMsg(t, trade.aiReasonMsg) : trade.aiReason}</span>
        </p>
      )}
      {error && (
        <Banner tone="error" className="mt-3">
          {error}
        </Banner>
      )}
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <DetailLink trade={trade} />
      </div>
      <Button variant="danger" className="mt-3 w-full sm:w-auto" loading={busy} onClick={() => void close()} aria-label={t("trade.closeLabel", { instrument: formatInstrument(trade.instrument) })}>
        {t("trade.close")}
      </Button>
    </li>
  );
}

/** 'Detalhes →': the trade's detail page (chart and "Por que a IA entrou?"). */
function DetailLink({ trade, className }: { trade: { id: string; instrument: string }; className?: string }) {
  const { t } = useTranslation("trade");
  return (
    <Link
      to={`/history/${encodeURIComponent(trade.id)}`}
      className={clsx("inline-flex items-center text-xs font-semibold text-emerald-300 hover:underline", className)}
      aria-label={t("detailLinkLabel", { instrument: formatInstrument(trade.instrument) })}
      data-testid="trade-detail-link"
    >
      {t("detailLink")} →
    </Link>
  );
}

/** Summary header of a trade list: P&L total, win rate, winners and total (PRODUCT.md §2 Dashboard). */
export function TradeListHeader({ trades, currency }: { trades: ClosedTradeView[]; currency: string }) {
  const { t } = useTranslation("dashboard");
  const fmt = useDisplay();
  const s = tradeStats(trades, new Date(), fmt.timeZone);
  return (
    <div className="mb-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4" data-testid="closed-summary">
      <div className="rounded-xl bg-white/[0.03] px-3 py-2">
        <p className="text-xs text-slate-400">{t("list.pnlTotal")}</p>
        <p className={clsx("font-semibold tabular-nums", signTone(s.pnlTotal) === "up" ? "text-emerald-300" : signTone(s.pnlTotal) === "down" ? "text-rose-300" : "text-slate-100")}>
          {fmt.money(s.pnlTotal, currency, { signed: true })}
        </p>
        <Converted amount={s.pnlTotal} currency={currency} signed />
      </div>
      <div className="rounded-xl bg-white/[0.03] px-3 py-2">
        <p className="text-xs text-slate-400">{t("list.winRate")}</p>
        <p className="font-semibold tabular-nums text-slate-100" data-testid="list-win-rate">
          {fmt.percent(s.winRate)}
        </p>
      </div>
      <div className="rounded-xl bg-white/[0.03] px-3 py-2">
        <p className="text-xs text-slate-400">{t("list.winners")}</p>
        <p className="font-semibold tabular-nums text-slate-100">{s.winners}</p>
      </div>
      <div className="rounded-xl bg-white/[0.03] px-3 py-2">
        <p className="text-xs text-slate-400">{t("list.total")}</p>
        <p className="font-semibold tabular-nums text-slate-100">{s.total}</p>
      </div>
    </div>
  );
}

/** One closed trade row: instrument, side, lots, prices, result and P&L. `className` lets callers hide rows per breakpoint. */
export function ClosedTradeRow({ trade, currency, now, className }: { trade: ClosedTradeView; currency: string; now: Date; className?: string }) {
  const { t } = useTranslation("dashboard");
  const fmt = useDisplay();
  const pnl = toNumber(trade.pnl) ?? 0;
  const result = trade.result ?? tradeResult(pnl);
  return (
    <li className={clsx("items-center justify-between gap-3 rounded-xl bg-white/[0.03] px-3 py-2.5 ring-1 ring-white/5", className ?? "flex")} data-testid="closed-trade">
      <div className="min-w-0">
        <p className="flex items-center gap-2 font-semibold text-slate-100">
          {formatInstrument(trade.instrument)} <SideBadge side={trade.side} />
          <span className="text-xs font-medium text-slate-400">{t("trade.lots", { lots: formatLots(trade.units) })}</span>
        </p>
        <p className="truncate text-xs text-slate-400">
          <span className="font-mono">
            {formatPrice(trade.instrument, trade.openPrice)} → {formatPrice(trade.instrument, trade.closePrice)}
          </span>
          {trade.aiTimeframe && <span className="ml-2 text-sky-300">{normaliseTimeframe(trade.aiTimeframe)}</span>}
          <span className="ml-2" suppressHydrationWarning>
            {fmt.relative(trade.closeTime, now)}
          </span>
        </p>
      </div>
      <div className="text-right">
        <p className={clsx("font-semibold tabular-nums", pnl > 0 ? "text-emerald-300" : pnl < 0 ? "text-rose-300" : "text-slate-300")}>
          {fmt.money(pnl, currency, { signed: true })}
        </p>
        <Converted amount={trade.pnl ?? 0} currency={currency} signed />
        <Badge tone={result === "WIN" ? "green" : result === "LOSS" ? "red" : "grey"} className="mt-0.5">
          {t(`trade.${result === "WIN" || result === "LOSS" ? result : "BE"}`)}
        </Badge>
        <DetailLink trade={trade} className="mt-1 flex justify-end" />
      </div>
    </li>
  );
}
