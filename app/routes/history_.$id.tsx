/**
 * /history/:id — one trade (issue 12): its figures (instrument, side, units/lots, entry/exit price and time,
 * SL/TP, pips, realized P&L, result, close reason), the candle chart around it on its AI timeframe with the
 * entry/exit markers and the entry/SL/TP lines (client-only, text fallback: ADR 0020), and "Por que a IA
 * entrou?": the decision that opened it (regime, timeframe, indicator values, confidence, stop/target
 * distances, risk verdict) in the reader's language (ADR 0007). "Risco na entrada" (issue 21): what the trade
 * risked on its stop, in money and % of the balance at entry ("—" for trades stored before that balance was). `:id` is the broker trade id the history and
 * the dashboard list; the trade is read through its owner, so another user's id is the 404 page.
 */
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import clsx from "clsx";
import { useTranslation } from "react-i18next";
import { formatMsg, type Msg } from "../../core/i18n/message";
import { EXPLAINED_INDICATORS } from "../../core/trading/explain";
import type { DecisionExplanation } from "../../core/trading/explain";
import { CandleChart, type PriceLevel, type TradeMarker } from "~/components/charts/candle-chart";
import { PlannedFilledPips } from "~/components/planned-filled-pips";
import { Badge, Banner, Card, signTone, Stat } from "~/components/ui";
import { ManualBadge } from "~/components/history/origin";
import { formatInstrument, formatPrice, normaliseTimeframe, pricePrecision, toNumber } from "~/lib/format";
import { metaTitle, useDisplay } from "~/lib/hooks";
import { requireAppUser } from "~/route-support/pages.server";
import { publicUser } from "~/services/identity/auth.server";
import { getConnection } from "~/services/broker/broker.server";
import { NotFoundError } from "~/services/platform/errors.server";
import { tradeCandles, tradeDetail, type TradeCandles, type TradeDetailView } from "~/services/trading/trade-detail.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "trade", "metaTitle");

type LoaderData =
  | { found: false }
  | { found: true; licensed: false }
  | { found: true; licensed: true; trade: TradeDetailView; decision: DecisionExplanation | null; candles: TradeCandles | null; currency: string };

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAppUser(request);
  const pub = await publicUser(user);
  if (!pub.hasValidLicense) return data<LoaderData>({ found: true, licensed: false });
  try {
    const { trade, decision } = await tradeDetail(user.id, params.id ?? "");
    const [candles, conn] = await Promise.all([tradeCandles(user.id, trade), getConnection(user.id)]);
    return data<LoaderData>({ found: true, licensed: true, trade, decision, candles, currency: conn?.account_currency ?? "USD" });
  } catch (err) {
    if (err instanceof NotFoundError) return data<LoaderData>({ found: false }, { status: 404 });
    throw err;
  }
}

const RESULT_TONE = { WIN: "green", LOSS: "red", BE: "grey" } as const;
const KNOWN_CLOSE = new Set(["STOP_LOSS_ORDER", "TAKE_PROFIT_ORDER", "TRAILING_STOP_LOSS_ORDER", "MARKET_ORDER_TRADE_CLOSE", "MARKET_ORDER_POSITION_CLOSEOUT", "MARKET_ORDER_MARGIN_CLOSEOUT"]);

/** The trade detail page. */
export default function TradeDetailPage() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("trade");
  const back = (
    <Link to="/history" className="inline-flex min-h-11 items-center text-sm font-semibold text-emerald-300 hover:underline" data-testid="trade-back">
      ← {t("back")}
    </Link>
  );
  if (!d.found) {
    return (
      <main className="mx-auto max-w-6xl space-y-4 px-4 pb-8 pt-4 md:pt-8">
        {back}
        <Card role="alert" data-testid="trade-not-found">
          <h1 className="text-xl font-bold text-white">{t("errors.notFound")}</h1>
          <p className="mt-1 text-sm text-slate-400">{t("errors.notFoundHint")}</p>
        </Card>
      </main>
    );
  }
  if (!d.licensed) {
    return (
      <main className="mx-auto max-w-6xl space-y-4 px-4 pb-8 pt-4 md:pt-8">
        {back}
        <Banner tone="warning">
          <span data-testid="trade-licence">{t("licence")}</span>{" "}
          <Link to="/billing" className="font-semibold underline">
            {t("history:subscribe")}
          </Link>
        </Banner>
      </main>
    );
  }
  return <TradeDetailBody trade={d.trade} decision={d.decision} candles={d.candles} currency={d.currency} back={back} />;
}

function TradeDetailBody({ trade, decision, candles, currency, back }: { trade: TradeDetailView; decision: DecisionExplanation | null; candles: TradeCandles | null; currency: string; back: JSX.Element }) {
  const { t } = useTranslation("trade");
  const fmt = useDisplay();
  const price = (p: string | null) => formatPrice(trade.instrument, p);
  const side = t(`side.${trade.side}`);
  const pnl = toNumber(trade.realizedPL);
  const closeReason = !trade.closeReason ? t("closeReason.none") : KNOWN_CLOSE.has(trade.closeReason) ? t(`closeReason.${trade.closeReason}`) : t("closeReason.other", { reason: trade.closeReason });
  const pips = toNumber(trade.pips);

  const markers: TradeMarker[] = [{ time: Math.floor(Date.parse(trade.openTime) / 1000), kind: "entry", side: trade.side, label: `${t("chart.entry")} ${price(trade.entryPrice)}` }];
  if (trade.closeTime) markers.push({ time: Math.floor(Date.parse(trade.closeTime) / 1000), kind: "exit", side: trade.side, label: `${t("chart.exit")} ${price(trade.exitPrice)}` });
  const lines: PriceLevel[] = [{ id: "entry", price: Number(trade.entryPrice), label: t("chart.entry"), color: "#38bdf8", dashed: true }];
  if (trade.stopLoss) lines.push({ id: "stopLoss", price: Number(trade.stopLoss), label: t("chart.stopLoss"), color: "#fb7185" });
  if (trade.takeProfit) lines.push({ id: "takeProfit", price: Number(trade.takeProfit), label: t("chart.takeProfit"), color: "#34d399" });

  const fallback = (
    <p data-testid="trade-chart-fallback">
      {candles === null ? `${t("chart.unavailable")} ` : ""}
      {t("chart.fallback", {
        entry: price(trade.entryPrice),
        openTime: fmt.dateTime(trade.openTime),
        exit: price(trade.exitPrice),
        closeTime: trade.closeTime ? fmt.dateTime(trade.closeTime) : "—",
        stopLoss: price(trade.stopLoss),
        takeProfit: price(trade.takeProfit),
      })}
    </p>
  );

  return (
    <main className="mx-auto max-w-6xl space-y-5 px-4 pb-8 pt-4 md:pt-8" data-testid="trade-detail" data-trade-id={trade.id}>
      {back}
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-2xl font-bold text-white" data-testid="trade-title">
          {t("title", { instrument: formatInstrument(trade.instrument), side })}
        </h1>
        <Badge tone={trade.status === "open" ? "blue" : "grey"} data-testid="trade-status">
          {t(`status.${trade.status}`)}
        </Badge>
        {trade.result && (
          <Badge tone={RESULT_TONE[trade.result]} data-testid="trade-result">
            {t(`result.${trade.result}`)}
          </Badge>
        )}
        <ManualBadge origin={trade.origin} />
      </div>

      <section className="grid grid-cols-2 gap-2 md:grid-cols-4" data-testid="trade-figures">
        <Stat label={t("fields.side")} value={<span data-testid="trade-side">{side}</span>} />
        <Stat label={t("fields.units")} value={<span data-testid="trade-units">{trade.units}</span>} hint={`${t("fields.lots")}: ${trade.lots}`} />
        <Stat label={t("fields.entry")} value={<span className="font-mono" data-testid="trade-entry">{price(trade.entryPrice)}</span>} hint={fmt.dateTime(trade.openTime)} />
        <Stat label={t("fields.exit")} value={<span className="font-mono" data-testid="trade-exit">{price(trade.exitPrice)}</span>} hint={trade.closeTime ? fmt.dateTime(trade.closeTime) : t("status.open")} />
        <Stat label={t("fields.stopLoss")} value={<span className="font-mono" data-testid="trade-sl">{price(trade.stopLoss)}</span>} />
        <Stat label={t("fields.takeProfit")} value={<span className="font-mono" data-testid="trade-tp">{price(trade.takeProfit)}</span>} />
        <Stat label={t("fields.pips")} value={<span data-testid="trade-pips">{pips === null ? "—" : `${pips > 0 ? "+" : ""}${fmt.number(pips, 1)}`}</span>} tone={signTone(pips)} />
        <Stat
          label={t("fields.pnl")}
          value={<span data-testid="trade-pnl">{trade.realizedPL === null ? "—" : fmt.money(trade.realizedPL, currency, { signed: true })}</span>}
          tone={signTone(pnl)}
          hint={trade.financing && Number(trade.financing) !== 0 ? `${t("fields.financing")}: ${fmt.money(trade.financing, currency, { signed: true })}` : undefined}
        />
        <Stat
          label={t("fields.riskAtEntry")}
          value={
            <span data-testid="trade-risk">
              {trade.riskAtEntry.amount === null ? "—" : `${fmt.money(trade.riskAtEntry.amount, trade.riskAtEntry.currency ?? currency)} · ${t("risk.pctOfBalance", { pct: fmt.number(Number(trade.riskAtEntry.pct), 2) })}`}
            </span>
          }
          hint={
            <span data-testid="trade-risk-hint">
              {trade.riskAtEntry.balance === null
                ? t("risk.unknown")
                : `${t("risk.balanceAtEntry", { balance: fmt.money(trade.riskAtEntry.balance, trade.riskAtEntry.currency ?? currency) })}${trade.riskAtEntry.capped && trade.riskAtEntry.maxLeverage !== null ? ` · ${t("risk.capped", { leverage: fmt.number(trade.riskAtEntry.maxLeverage, trade.riskAtEntry.maxLeverage % 1 ? 1 : 0) })}` : ""}`}
            </span>
          }
          className="col-span-2"
        />
        <Stat label={t("fields.closeReason")} value={<span className="text-sm" data-testid="trade-close-reason">{closeReason}</span>} className="col-span-2" />
        <Stat label={t("fields.timeframe")} value={<span data-testid="trade-timeframe">{normaliseTimeframe(trade.aiTimeframe)}</span>} className="col-span-2" />
      </section>

      <Card title={t("chart.title")} action={candles ? <span className="text-xs text-slate-400">{t("chart.granularity", { granularity: candles.granularity, count: candles.candles.length })}</span> : undefined}>
        <CandleChart
          testId="trade-chart"
          candles={candles?.candles ?? []}
          markers={markers}
          lines={lines}
          precision={pricePrecision(trade.instrument)}
          ariaLabel={t("chart.aria", { instrument: formatInstrument(trade.instrument), granularity: candles?.granularity ?? normaliseTimeframe(trade.aiTimeframe) })}
          fallback={fallback}
        />
      </Card>

      <WhyCard decision={decision} trade={trade} />
    </main>
  );
}

/** "Por que a IA entrou?": the opening decision, or why there is none. */
function WhyCard({ decision, trade }: { decision: DecisionExplanation | null; trade: TradeDetailView }) {
  const { t } = useTranslation("trade");
  const fmt = useDisplay();
  const text = (m: Msg | string | null) => (m === null ? "—" : formatMsg(t, m));
  if (!decision) {
    return (
      <Card title={t("why.title")} data-testid="why-ai">
        <p className="text-sm text-slate-300" data-testid="why-none">
          {trade.decisionId ? t("why.decisionGone") : t("why.noDecision")}
        </p>
      </Card>
    );
  }
  const regime = decision.regime.volatility && decision.regime.trend ? `${t(`regime.${decision.regime.volatility}`)} · ${t(`regime.${decision.regime.trend}`)}` : "—";
  const indicators = EXPLAINED_INDICATORS.filter((k) => decision.indicators[k] !== undefined);
  const row = (label: string, value: React.ReactNode, testId: string) => (
    <div className="flex flex-col gap-0.5 border-b border-white/5 py-2 sm:flex-row sm:justify-between sm:gap-4">
      <dt className="text-xs text-slate-400 sm:text-sm">{label}</dt>
      <dd className="text-sm text-slate-100 sm:text-right" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
  return (
    <Card title={t("why.title")} data-testid="why-ai" data-decision-id={decision.decisionId}>
      <p className="mb-2 text-sm text-slate-200" data-testid="why-reason">
        {text(decision.reason)}
      </p>
      <dl>
        {row(t("why.timeframe"), normaliseTimeframe(decision.timeframe), "why-timeframe")}
        {row(t("why.regime"), regime, "why-regime")}
        {decision.regime.reason && row(t("why.regimeReason"), text(decision.regime.reason), "why-regime-reason")}
        {row(t("why.confidence"), decision.confidence === null ? "—" : fmt.percent(decision.confidence * 100, 0), "why-confidence")}
        {row(t("why.stopDistance"), <PlannedFilledPips planned={decision.stopPips} filled={trade.filledStopPips} testId="why-stop" />, "why-stop")}
        {row(t("why.targetDistance"), <PlannedFilledPips planned={decision.targetPips} filled={trade.filledTargetPips} testId="why-target" />, "why-target")}
        {row(
          t("why.risk"),
          <span className="inline-flex flex-wrap items-center justify-end gap-2">
            <Badge tone={decision.risk.allowed ? "green" : "red"}>{decision.risk.allowed ? t("why.riskAllowed") : t("why.riskBlocked")}</Badge>
            <span>{text(decision.risk.reason)}</span>
          </span>,
          "why-risk",
        )}
        {decision.tradingStyle && row(t("why.style"), t(`style.${decision.tradingStyle}`, { defaultValue: decision.tradingStyle }), "why-style")}
        {row(t("why.decidedAt"), fmt.dateTime(decision.decidedAt), "why-decided-at")}
      </dl>
      <h3 className="mb-1 mt-4 text-sm font-semibold text-slate-300">{t("why.indicators")}</h3>
      {indicators.length === 0 ? (
        <p className="text-sm text-slate-400" data-testid="why-no-indicators">
          {t("why.noIndicators")}
        </p>
      ) : (
        <dl className={clsx("grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-4")} data-testid="why-indicators" data-count={indicators.length}>
          {indicators.map((k) => (
            <div key={k} className="rounded-lg bg-white/[0.03] px-3 py-2 ring-1 ring-white/5">
              <dt className="text-xs text-slate-400">{t(`indicator.${k}`)}</dt>
              <dd className="font-mono text-sm tabular-nums text-slate-100" data-testid={`why-ind-${k}`}>
                {indicatorText(k, decision.indicators[k]!, trade.instrument, fmt.locale)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </Card>
  );
}

/** Prices (close, EMAs, Bollinger) in the instrument's precision; 0–100 oscillators with 1 decimal; the rest (MACD, ATR, ±DI) with 4 significant digits. */
function indicatorText(name: string, v: number, instrument: string, locale: string): string {
  if (["close", "emaFast", "emaSlow", "bbUpper", "bbMiddle", "bbLower"].includes(name)) return formatPrice(instrument, v);
  if (["rsi", "adx", "stochK", "stochD"].includes(name)) return new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 1 }).format(v);
  return new Intl.NumberFormat(locale, { maximumSignificantDigits: 4 }).format(v);
}
