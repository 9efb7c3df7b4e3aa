/**
 * /dashboard (PRODUCT.md §2 Dashboard, §9): licence banner, AI status, 'Visão Geral' (stats, account,
 * subscription), 'Posições Abertas (n)' and 'Últimos Trades Fechados (n)' (8 on desktop, 5 otherwise).
 * Data refreshes every 15 s so new trades appear without a reload.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import clsx from "clsx";
import { BalanceCard, type AccountView } from "~/components/account-cards";
import { CpuIcon } from "~/components/icons";
import { ClosedTradeRow, OpenTradeCard, TradeListHeader, type ClosedTradeView, type OpenTradeView } from "~/components/trade-cards";
import { Badge, Banner, Card, signTone, Stat } from "~/components/ui";
import { formatDate, formatDateTime, formatMoney, formatPercent } from "~/lib/format";
import { useNow, usePolling } from "~/lib/hooks";
import { requireAppUser } from "~/lib/pages.server";
import { licenceLabel, subscriptionLabel, tradeStats } from "~/lib/trading";
import { ApiError } from "~/services/api.server";
import { publicUser } from "~/services/auth.server";
import { botStatus } from "~/services/bot.server";
import { brokerStatus } from "~/services/broker.server";
import { openTrades, tradeHistory } from "~/services/trades.server";

export const meta: MetaFunction = () => [{ title: "Dashboard — Forex IA" }];

/** Closed-trade rows shown: 8 on desktop, 5 otherwise (PRODUCT.md §9). */
const CLOSED_DESKTOP = 8;
const CLOSED_MOBILE = 5;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAppUser(request);
  const [pub, broker, bot, history] = await Promise.all([publicUser(user), brokerStatus(user.id), botStatus(user.id), tradeHistory(user.id, 30)]);
  let open: OpenTradeView[] = [];
  let openError: string | null = null;
  if (broker.isConnected) {
    try {
      open = (await openTrades(user.id)) as OpenTradeView[];
    } catch (err) {
      openError = err instanceof ApiError ? err.message : "Erro ao carregar dados da conta";
    }
  }
  return { user: pub, broker, bot, open, openError, history: history as ClosedTradeView[], loadedAt: new Date().toISOString() };
}

/** The trading dashboard, refreshed every 15 s. */
export default function DashboardPage() {
  const { user, broker, bot, open, openError, history, loadedAt } = useLoaderData<typeof loader>();
  const { revalidate } = useRevalidator();
  const now = useNow(15_000);
  usePolling(15_000);

  const account = broker.account as AccountView | null;
  const currency = account?.currency ?? "USD";
  const stats = tradeStats(history, now);
  const lic = licenceLabel(user.licenseStatus);
  const licensed = user.hasValidLicense;
  const recent = history.slice(0, CLOSED_DESKTOP);

  return (
    <main className="mx-auto max-w-6xl space-y-6 px-4 pb-8 pt-4 md:pt-8">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 className="text-2xl font-bold text-white">Dashboard</h1>
          <p className="text-sm text-slate-400">Olá, {[user.firstName, user.lastName].filter(Boolean).join(" ") || user.email}</p>
        </div>
        <p className="text-xs text-slate-500" suppressHydrationWarning>
          Atualizado às {formatDateTime(loadedAt).slice(11)}
        </p>
      </div>

      {licensed ? (
        <Banner tone={user.licenseStatus === "valid" ? "success" : "info"}>
          Licença {lic.label.toLowerCase()}
          {user.license?.planName ? ` · ${user.license.planName}` : ""}
          {user.license?.endDate ? ` · até ${formatDate(user.license.endDate)}` : ""}
          {user.license?.key ? ` · chave ${user.license.key.slice(0, 8)}` : ""}
        </Banner>
      ) : (
        <Banner tone="warning">
          <p className="font-semibold">Licença necessária</p>
          <p className="mt-0.5">Assine um plano para a IA operar e para ver os dados da sua conta.</p>
          <Link to="/billing" className="mt-2 inline-flex min-h-10 items-center rounded-xl bg-amber-400 px-3 font-semibold text-slate-950 hover:bg-amber-300">
            Assinar
          </Link>
        </Banner>
      )}

      <Card
        title={
          <span className="flex items-center gap-2">
            <CpuIcon size={16} /> Status da IA
          </span>
        }
        action={
          <Link to="/" className="text-xs font-semibold text-emerald-300 hover:underline">
            Abrir controle
          </Link>
        }
      >
        <div className="flex flex-wrap items-center gap-3">
          <span className={clsx("h-3 w-3 rounded-full", bot.isActive ? "bg-emerald-400 shadow-[0_0_10px] shadow-emerald-400" : "bg-rose-500")} aria-hidden="true" />
          <p className={clsx("text-lg font-bold", bot.isActive ? "text-emerald-300" : "text-rose-300")}>{bot.isActive ? "IA Ativa" : "IA Pausada"}</p>
          {!bot.isActive && bot.loopState.lastStoppedAt && <span className="text-sm text-slate-400">{bot.loopState.lastStopReasonText}</span>}
          {bot.isActive && <span className="text-sm text-slate-400">Analisando o mercado a cada {bot.intervalSec} s</span>}
        </div>
      </Card>

      <section aria-labelledby="overview-title" className="space-y-4">
        <h2 id="overview-title" className="text-lg font-semibold text-white">
          Visão Geral
        </h2>
        <div className="grid grid-cols-2 gap-2 md:grid-cols-5" data-testid="stats">
          <Stat label="P&L total" value={formatMoney(stats.pnlTotal, currency, { signed: true })} tone={signTone(stats.pnlTotal)} hint="últimos 30 dias" />
          <Stat label="Win rate" value={formatPercent(stats.winRate)} hint={`${stats.winners} de ${stats.total}`} />
          <Stat label="Profit factor" value={stats.profitFactor === null ? "—" : stats.profitFactor.toFixed(2)} hint="ganho médio / perda média" />
          <Stat label="Trades" value={stats.total} hint="fechados" />
          <Stat className="col-span-2 md:col-span-1" label="P&L hoje" value={<span suppressHydrationWarning>{formatMoney(stats.pnlToday, currency, { signed: true })}</span>} tone={signTone(stats.pnlToday)} />
        </div>
        <div className="grid gap-4 md:grid-cols-2">
          {licensed && broker.isConnected && account ? (
            <BalanceCard account={account} />
          ) : (
            <Card title="Conta Oanda">
              <p className="text-slate-300">{broker.isConnected ? "Licença necessária para ver os dados da conta." : "Nenhuma conta Oanda conectada."}</p>
              {!broker.isConnected && (
                <Link to="/" className="mt-3 inline-flex min-h-11 items-center rounded-xl bg-orange-500 px-4 text-sm font-semibold text-slate-950 hover:bg-orange-400">
                  Conectar Oanda
                </Link>
              )}
            </Card>
          )}
          <Card title="Assinatura">
            <div className="flex items-center justify-between gap-2">
              <p className="text-lg font-semibold text-white">{user.license?.planName ?? user.plan?.name ?? "Sem plano"}</p>
              <Badge tone={lic.tone}>{lic.label}</Badge>
            </div>
            <ul className="mt-3 space-y-1.5 text-sm">
              <li className="flex justify-between">
                <span className="text-slate-400">Status</span>
                <span className="text-slate-200">{user.licenseStatus === "valid" && user.subscriptionStatus !== "active" ? "Teste grátis" : subscriptionLabel(user.subscriptionStatus)}</span>
              </li>
              <li className="flex justify-between">
                <span className="text-slate-400">Válida até</span>
                <span className="text-slate-200">{formatDate(user.license?.endDate)}</span>
              </li>
            </ul>
            <Link to="/billing" className="mt-3 inline-block text-sm font-semibold text-emerald-300 hover:underline">
              Gerenciar assinatura
            </Link>
          </Card>
        </div>
      </section>

      {licensed && (
        <>
          <section aria-labelledby="open-title">
            <h2 id="open-title" className="mb-3 text-lg font-semibold text-white">
              Posições Abertas ({open.length})
            </h2>
            {openError && (
              <Banner tone="error" className="mb-3">
                {openError}
              </Banner>
            )}
            {open.length === 0 ? (
              <p className="rounded-2xl border border-dashed border-white/10 p-6 text-center text-sm text-slate-400">Nenhuma posição aberta no momento.</p>
            ) : (
              <ul className="grid gap-3 lg:grid-cols-2" data-testid="open-trades">
                {open.map((t) => (
                  <OpenTradeCard key={t.id} trade={t} currency={currency} now={now} onClosed={() => revalidate()} />
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby="closed-title">
            <h2 id="closed-title" className="mb-3 text-lg font-semibold text-white">
              Últimos Trades Fechados ({history.length})
            </h2>
            <Card>
              <TradeListHeader trades={history} currency={currency} />
              {recent.length === 0 ? (
                <p className="py-6 text-center text-sm text-slate-400">Nenhum trade ainda</p>
              ) : (
                <ul className="space-y-2" data-testid="closed-trades">
                  {recent.map((t, i) => (
                    <ClosedTradeRow key={t.id} trade={t} currency={currency} now={now} className={i >= CLOSED_MOBILE ? "hidden lg:flex" : "flex"} />
                  ))}
                </ul>
              )}
              {history.length > 0 && (
                <Link to="/history" className="mt-3 inline-block text-sm font-semibold text-emerald-300 hover:underline">
                  Ver histórico completo
                </Link>
              )}
            </Card>
          </section>
        </>
      )}
    </main>
  );
}
