/**
 * /dashboard (PRODUCT.md §2 Dashboard, §9): licence banner, AI status, 'Visão Geral' (stats, account,
 * subscription), 'Posições Abertas (n)' with live P&L and the price chip, and 'Últimos Trades Fechados (n)'
 * (8 on desktop ≥ 1024 px, 5 otherwise) with the list header. Data refreshes every 15 s.
 * Issue 12: the account's balance curve (closed trades' cumulative P&L anchored on the balance the page already
 * read: no extra broker call) drawn by LineChart, with a link to the backtest ("Testar minhas configurações").
 * Issue 22: the subscription card's status is the real state (subscription-state.ts), not 'Teste grátis' for
 * every licensed user without an active subscription.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import clsx from "clsx";
import { useTranslation } from "react-i18next";
import { AccountSummaryCard, DEFAULT_CURRENCY, type AccountView } from "~/components/account-cards";
import { LineChart } from "~/components/charts/line-chart";
import { CpuIcon } from "~/components/icons";
import { ClosedTradeRow, OpenTradeCard, TradeListHeader, type ClosedTradeView, type OpenTradeView } from "~/components/trade-cards";
import { Badge, Banner, Card, signTone, Stat } from "~/components/ui";
import { LiveStatus } from "~/components/live-status";
import { equityCurve } from "~/lib/equity-curve";
import { metaTitle, useBreakpoint, useDisplay, useNow, usePolling } from "~/lib/hooks";
import { liveAccount, withLivePrice } from "~/lib/live-prices";
import { useLivePrices } from "~/lib/use-event-source";
import { requireAppUser } from "~/route-support/pages.server";
import { SubscriptionStateText } from "~/components/subscription-state";
import { subscriptionState } from "~/lib/subscription-state";
import { licenceLabel, stopReasonKey, tradeStats, winLossCard } from "~/lib/trading";
import { DomainError } from "~/services/platform/errors.server";
import { publicUser } from "~/services/identity/auth.server";
import { scheduledCancellation } from "~/services/billing/billing.server";
import { botStatus } from "~/services/trading/bot-status.server";
import { accountStatus, screenAccount, screenOpenTrades } from "~/services/trading/account-view.server";
import { equityTrades } from "~/services/trading/equity.server";
import { tradeHistory } from "~/services/trading/trades.server";
import { brokerNow } from "~/services/broker/broker.server";
import { displayRateFor } from "~/services/broker/display-currency.server";
import { Converted, DisplayRateNotice } from "~/components/display-amount";
import { getSettings } from "~/services/trading/settings.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "dashboard", "meta");

/** Closed-trade rows shown: 8 on desktop, 5 otherwise (PRODUCT.md §9). */
export const CLOSED_DESKTOP = 8;
export const CLOSED_OTHER = 5;
/** Dashboard refresh (PRODUCT.md §7). */
const REFRESH_MS = 15_000;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAppUser(request, context);
  const language = user.preferences?.language;
  // Issue 13 (ADR 0028): the account from the stored state at the shared quotes (account-view.server.ts), no broker
  // call while a bot tick or an earlier view looked at the account's transactions in the last minute.
  const [pub, account, bot, cancellation, settings] = await Promise.all([publicUser(user), screenAccount(user.id), botStatus(user.id, language), scheduledCancellation(user.id).catch(() => null), getSettings(user.id)]);
  const { conn } = account;
  // Issue 22: the display-currency rate (amounts also shown converted at the broker's rate; never throws).
  const displayRateRead = displayRateFor(user, conn, account.read?.summary.currency);
  const [broker, history, closed, openRead] = await Promise.all([
    accountStatus(user.id, language, account),
    conn ? tradeHistory(user.id, 30, { conn }) : [],
    conn ? equityTrades(user.id) : [],
    conn ? screenOpenTrades(user.id, account).then((trades) => ({ trades }), (err: unknown) => ({ err })) : undefined,
  ]);
  // The balance curve ends at the balance just read (none when the broker failed: cumulative P&L from 0).
  const balance = broker.isConnected && !("error" in broker && broker.error) ? (broker.account?.balance ?? null) : null;
  const equity = { anchored: balance !== null, trades: closed.length, points: equityCurve(closed, balance) };
  let open: OpenTradeView[] = [];
  let openError: string | null = null;
  if (broker.isConnected && openRead) {
    // Each trade carries the AI's reason as a message, rendered in the reader's language (ADR 0007).
    if ("trades" in openRead) open = openRead.trades.map(openView);
    else openError = openRead.err instanceof DomainError ? openRead.err.messageIn(language) : "accountData";
  }
  // Issue 13: only what the page draws crosses the wire (encoding the full API rows was a tenth of the route's CPU):
  // the newest CLOSED_DESKTOP rows, and P&L + close time of the 30 days for the statistics.
  const closedRows = history.slice(0, CLOSED_DESKTOP).map(closedView);
  const closedStats = history.map((t) => ({ pnl: t.pnl, closeTime: t.closeTime }));
  // Issue 22: the card's status line (Ativa / Pagamento Pendente / Cancelada (acesso até …) / Licença manual / Teste grátis / Inativa);
  // null when the subscription could not be read: the card says 'Erro ao carregar dados' (PRODUCT.md §8), the page still loads.
  const subscription = cancellation ? subscriptionState({ ...pub, ...cancellation }) : null;
  return { displayRate: await displayRateRead, user: pub, subscription, broker, bot, open, openError, closedRows, closedStats, equity, loadedAt: new Date().toISOString(),
    // "Today" is the broker's day: the simulator replays history on its own clock (≈0 on real OANDA).
    marketOffsetMs: brokerNow(conn) - Date.now(),
    // Issue 22: 'P&L hoje' is the trading day of the daily limits (local midnight or 17:00 New York).
    tradingDayBoundary: settings.tradingDayBoundary };
}

/** The fields of an open trade the dashboard draws (trade-cards.tsx OpenTradeView). */
function openView(t: OpenTradeView): OpenTradeView {
  const { id, instrument, side, units, openPrice, currentPrice, stopLoss, takeProfit, unrealizedPL, openTime, aiTimeframe, aiConfidence, aiReason, aiReasonMsg } = t;
  return { id, instrument, side, units, openPrice, currentPrice, stopLoss, takeProfit, unrealizedPL, openTime, aiTimeframe, aiConfidence, aiReason, aiReasonMsg: aiReasonMsg ?? null };
}

/** The fields of a closed trade the dashboard draws (trade-cards.tsx ClosedTradeView). */
function closedView(t: ClosedTradeView): ClosedTradeView {
  const { id, instrument, side, units, openPrice, closePrice, pnl, result, openTime, closeTime, aiTimeframe, aiReason } = t;
  return { id, instrument, side, units, openPrice, closePrice, pnl, result, openTime, closeTime, aiTimeframe, aiReason };
}

/** The trading dashboard, refreshed every 15 s. */
export default function DashboardPage() {
  const { user, subscription, broker, bot, open, openError, closedRows, closedStats, equity, loadedAt, marketOffsetMs, tradingDayBoundary } = useLoaderData<typeof loader>();
  const { t } = useTranslation("dashboard");
  const fmt = useDisplay();
  const { revalidate } = useRevalidator();
  const { breakpoint } = useBreakpoint();
  const now = useNow(REFRESH_MS);
  usePolling(REFRESH_MS);

  const account = broker.account as AccountView | null;
  const currency = account?.currency || DEFAULT_CURRENCY;
  const stats = tradeStats(closedStats, new Date(now.getTime() + marketOffsetMs), fmt.timeZone, tradingDayBoundary);
  const winLoss = winLossCard(stats);
  const lic = licenceLabel(user.licenseStatus);
  const licensed = user.hasValidLicense;
  // Live prices of the open trades (issue 11): price chips, P&L and the account estimate move between refreshes.
  const liveInstruments = [...new Set(open.map((tr) => tr.instrument))].sort().join(",");
  const live = useLivePrices(licensed && broker.isConnected && liveInstruments ? `/api/stream/open-trades?instruments=${liveInstruments}` : null, revalidate);
  const recent = closedRows.slice(0, breakpoint === "desktop" ? CLOSED_DESKTOP : CLOSED_OTHER);
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ") || user.email;

  return (
    <main className="mx-auto max-w-6xl space-y-6 px-4 pb-8 pt-4 md:pt-8" data-breakpoint={breakpoint}>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 className="text-2xl font-bold text-white">{t("title")}</h1>
          <p className="text-sm text-slate-400">{t("common:greeting", { name })}</p>
        </div>
        <p className="text-xs text-slate-400">{t("updatedAt", { time: fmt.time(loadedAt) })}</p>
      </div>

      {licensed ? (
        <Banner tone={user.licenseStatus === "valid" ? "success" : "info"}>
          <span data-testid="licence-banner">
            {t("licence.banner", { status: t(`common:${lic.key}`).toLowerCase() })}
            {user.license?.planName ? ` · ${user.license.planName}` : ""}
            {user.license?.endDate ? ` · ${t("licence.until", { date: fmt.date(user.license.endDate) })}` : ""}
            {user.license?.key ? ` · ${t("licence.key", { key: user.license.key.slice(0, 8) })}` : ""}
          </span>
        </Banner>
      ) : (
        <Banner tone="warning">
          <p className="font-semibold" data-testid="licence-banner">
            {t("licence.requiredTitle")}
          </p>
          <p className="mt-0.5">{t("licence.requiredText")}</p>
          <Link to="/billing" className="mt-2 inline-flex min-h-10 items-center rounded-xl bg-amber-400 px-3 font-semibold text-slate-950 hover:bg-amber-300">
            {t("licence.subscribe")}
          </Link>
        </Banner>
      )}

      <Card
        title={
          <span className="flex items-center gap-2">
            <CpuIcon size={16} /> {t("ai.title")}
          </span>
        }
        action={
          <Link to="/" className="text-xs font-semibold text-emerald-300 hover:underline">
            {t("ai.open")}
          </Link>
        }
        data-testid="ai-status"
      >
        <div className="flex flex-wrap items-center gap-3">
          <span className={clsx("h-3 w-3 rounded-full", bot.isActive ? "bg-emerald-400 shadow-[0_0_10px] shadow-emerald-400" : "bg-rose-500")} aria-hidden="true" />
          <p className={clsx("text-lg font-bold", bot.isActive ? "text-emerald-300" : "text-rose-300")}>{bot.isActive ? t("ai.active") : t("ai.paused")}</p>
          {!bot.isActive && bot.loopState.lastStoppedAt && <span className="text-sm text-slate-400">{t(`common:${stopReasonKey(bot.loopState.lastStopReason)}`)}</span>}
          {bot.isActive && <span className="text-sm text-slate-400">{t("ai.every", { seconds: bot.intervalSec })}</span>}
        </div>
      </Card>

      <section aria-labelledby="overview-title" className="space-y-4">
        <h2 id="overview-title" className="text-lg font-semibold text-white">
          {t("overview.title")}
        </h2>
        {licensed && <DisplayRateNotice />}
        <div className="grid grid-cols-2 gap-2 md:grid-cols-3 lg:grid-cols-6" data-testid="stats">
          <Stat
            label={t("overview.pnlTotal")}
            value={<>{fmt.money(stats.pnlTotal, currency, { signed: true })}<Converted amount={stats.pnlTotal} currency={currency} signed /></>}
            tone={signTone(stats.pnlTotal)}
            hint={t("overview.last30")}
          />
          <Stat
            label={t("overview.winRate")}
            value={<span data-testid="stat-win-rate">{fmt.percent(stats.winRate)}</span>}
            hint={t("overview.winnersOf", { winners: stats.winners, total: stats.total })}
          />
          <Stat
            label={t("overview.profitFactor")}
            value={<span data-testid="stat-profit-factor">{stats.profitFactor === null ? "—" : fmt.number(stats.profitFactor, 2)}</span>}
            hint={
              <>
                <span className="block">{t("overview.pfHint")}</span>
                <span className="block">
                  {t("overview.payoffRatio")}: <span data-testid="stat-payoff">{stats.payoffRatio === null ? "—" : fmt.number(stats.payoffRatio, 2)}</span>
                </span>
              </>
            }
          />
          <Stat
            label={winLoss.kind === "wins" ? t("overview.wins") : t("overview.losses")}
            value={<span data-testid="stat-win-loss">{winLoss.count}</span>}
            tone={winLoss.count === 0 ? "neutral" : winLoss.kind === "wins" ? "up" : "down"}
            hint={winLoss.kind === "wins" ? t("overview.winsHint", { losses: stats.losers }) : t("overview.lossesHint", { wins: stats.winners })}
          />
          <Stat label={t("overview.trades")} value={stats.total} hint={t("overview.closed")} />
          <Stat
            label={t("overview.pnlToday")}
            value={<><span data-testid="stat-pnl-today">{fmt.money(stats.pnlToday, currency, { signed: true })}</span><Converted amount={stats.pnlToday} currency={currency} signed /></>}
            tone={signTone(stats.pnlToday)}
          />
        </div>
        <div className="grid gap-4 md:grid-cols-2">
          {licensed && broker.isConnected && account ? (
            <AccountSummaryCard account={liveAccount(account, open, live.prices)} />
          ) : (
            <Card title={t("common:account.title")}>
              <p className="text-slate-300">{broker.isConnected ? t("accountCard.licenceNeeded") : t("common:account.none")}</p>
              {!broker.isConnected && (
                <Link to="/" className="mt-3 inline-flex min-h-11 items-center rounded-xl bg-orange-500 px-4 text-sm font-semibold text-slate-950 hover:bg-orange-400">
                  {t("common:account.connect")}
                </Link>
              )}
            </Card>
          )}
          <Card title={t("subscriptionCard.title")} data-testid="subscription-card">
            <div className="flex items-center justify-between gap-2">
              <p className="text-lg font-semibold text-white">{user.license?.planName ?? user.plan?.name ?? t("subscriptionCard.noPlan")}</p>
              <Badge tone={lic.tone}>{t(`common:${lic.key}`)}</Badge>
            </div>
            <ul className="mt-3 space-y-1.5 text-sm">
              <li className="flex justify-between gap-2">
                <span className="text-slate-400">{t("subscriptionCard.status")}</span>
                <span className="text-slate-200">
                  {subscription ? <SubscriptionStateText state={subscription} /> : <span data-testid="subscription-load-error">{t("subscriptionCard.loadError")}</span>}
                </span>
              </li>
              <li className="flex justify-between gap-2">
                <span className="text-slate-400">{t("subscriptionCard.validUntil")}</span>
                <span className="text-slate-200">{fmt.date(user.license?.endDate)}</span>
              </li>
            </ul>
            <Link to="/billing" className="mt-3 inline-block text-sm font-semibold text-emerald-300 hover:underline">
              {t("subscriptionCard.manage")}
            </Link>
          </Card>
        </div>
      </section>

      {licensed && (
        <>
          <EquityCard equity={equity} currency={currency} />

          <section aria-labelledby="open-title">
            <h2 id="open-title" className="mb-3 text-lg font-semibold text-white">
              {t("open.title", { count: open.length })}
            </h2>
            <LiveStatus status={live.status} className="-mt-2 mb-2" />
            {openError && (
              <Banner tone="error" className="mb-3">
                {openError === "accountData" ? t("common:errors.accountData") : openError}
              </Banner>
            )}
            {open.length === 0 ? (
              <p className="rounded-2xl border border-dashed border-white/10 p-6 text-center text-sm text-slate-400">{t("open.empty")}</p>
            ) : (
              <ul className="grid gap-3 lg:grid-cols-2" data-testid="open-trades">
                {open.map((tr) => (
                  <OpenTradeCard key={tr.id} trade={withLivePrice(tr, live.prices, currency)} currency={currency} now={now} onClosed={() => revalidate()} />
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="closed-title">
            <h2 id="closed-title" className="mb-3 text-lg font-semibold text-white">
              {t("closed.title", { count: recent.length })}
            </h2>
            <Card>
              <TradeListHeader trades={recent} currency={currency} />
              {recent.length === 0 ? (
                <p className="py-6 text-center text-sm text-slate-400">{t("closed.empty")}</p>
              ) : (
                <ul className="space-y-2" data-testid="closed-trades">
                  {recent.map((tr) => (
                    <ClosedTradeRow key={tr.id} trade={tr} currency={currency} now={now} />
                  ))}
                </ul>
              )}
              {closedStats.length > 0 && (
                <Link to="/history" className="mt-3 inline-block text-sm font-semibold text-emerald-300 hover:underline">
                  {t("closed.all")}
                </Link>
              )}
            </Card>
          </section>
        </>
      )}
    </main>
  );
}

/** 'Curva de saldo': the balance after each closed trade (LineChart), a text summary as fallback, and the backtest link. */
function EquityCard({ equity, currency }: { equity: { anchored: boolean; trades: number; points: { time: number; value: number; balance: string }[] }; currency: string }) {
  const { t } = useTranslation("trade");
  const fmt = useDisplay();
  const { points } = equity;
  const first = points[0];
  const last = points[points.length - 1];
  const label = equity.anchored ? t("equity.balance") : t("equity.pnl");
  return (
    <Card
      title={t("equity.title")}
      data-testid="equity-card"
      action={
        <Link to="/backtest" className="text-xs font-semibold text-emerald-300 hover:underline" data-testid="backtest-link">
          {t("equity.backtest")}
        </Link>
      }
    >
      {!first || !last ? (
        <p className="py-4 text-center text-sm text-slate-400" data-testid="equity-empty">
          {t("equity.empty")}
        </p>
      ) : (
        <LineChart
          testId="equity-chart"
          ariaLabel={t("equity.aria")}
          height={220}
          series={[{ id: "balance", label, color: "#34d399", kind: "area", points: points.map((p) => ({ time: p.time, value: p.value })) }]}
          valueFormat={(v) => fmt.money(v, currency)}
          fallback={
            <p data-testid="equity-summary">
              {t("equity.summary", { start: fmt.money(first.balance, currency), end: fmt.money(last.balance, currency), count: equity.trades })}
            </p>
          }
        />
      )}
    </Card>
  );
}
