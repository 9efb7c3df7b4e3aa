/**
 * / — the trading (hero) screen (PRODUCT.md §2 Hero/control screen, §4 hero gating and AI loop):
 * a big on/off button gated offline → no licence → no broker → ready, the loop status polled every 5 s,
 * last start/stop, stop reason, the AI's last decisions, account and balance cards, and on desktop a
 * system-health card. Logged out → /auth; admins → /admin.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigate, useRevalidator } from "@remix-run/react";
import clsx from "clsx";
import { useCallback, useEffect, useState } from "react";
import { BalanceCard, ConnectedAccountCard, type AccountView } from "~/components/account-cards";
import { BrokerWizard } from "~/components/broker-wizard";
import { CpuIcon, PlugIcon, ShieldIcon } from "~/components/icons";
import { PowerButton } from "~/components/power-button";
import { Badge, Banner, Card, type Tone } from "~/components/ui";
import { apiFetch, errorMessage } from "~/lib/api";
import { formatDate, formatDateTime, formatInstrument, normaliseTimeframe, relativeTime } from "~/lib/format";
import { useNow, useOnline, usePolling, useTransientMessage } from "~/lib/hooks";
import { requireAppUser } from "~/lib/pages.server";
import { heroView, licenceLabel, type HeroView } from "~/lib/trading";
import { publicUser } from "~/services/auth.server";
import { botStatus } from "~/services/bot.server";
import { brokerStatus } from "~/services/broker.server";

export const meta: MetaFunction = () => [{ title: "Operar — Forex IA" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAppUser(request);
  const [pub, broker, bot] = await Promise.all([publicUser(user), brokerStatus(user.id), botStatus(user.id)]);
  return { user: pub, broker, bot };
}

/** AI loop interval used when the UI starts the loop (PRODUCT.md §9). */
const LOOP_INTERVAL_SEC = 60;
const BADGE_TONE: Record<HeroView["badge"], Tone> = { Online: "green", Offline: "grey", "Conectar Oanda": "orange", "Sem Licença": "amber" };
const TITLE_COLOUR: Record<HeroView["tone"], string> = {
  grey: "text-slate-300",
  amber: "text-amber-300",
  orange: "text-orange-300",
  red: "text-rose-300",
  green: "text-emerald-300",
};

/** The hero/control screen (mobile and desktop variants via responsive classes). */
export default function HeroPage() {
  const { user, broker, bot } = useLoaderData<typeof loader>();
  const online = useOnline();
  const now = useNow(15_000);
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const [wizardOpen, setWizardOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [pendingActive, setPendingActive] = useState<boolean | null>(null);
  const [error, showError] = useTransientMessage(5000);

  usePolling(5000);
  // New loader data replaces the optimistic state.
  useEffect(() => setPendingActive(null), [bot]);

  const botActive = pendingActive ?? bot.isActive;
  const view = heroView({ online, hasLicense: user.hasValidLicense, brokerConnected: broker.isConnected, botActive });
  const account = broker.account as AccountView | null;
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ") || user.email;

  const reloadSoon = useCallback(() => window.setTimeout(() => revalidate(), 600), [revalidate]);

  async function toggle() {
    if (view.state === "offline") return;
    if (view.state === "no-licence") return navigate("/billing");
    if (view.state === "no-broker") return setWizardOpen(true);
    const starting = view.state === "paused";
    setBusy(true);
    const started = Date.now();
    try {
      const res = await apiFetch<{ success?: boolean; message?: string }>(starting ? "/api/trades/ai/loop/start" : "/api/trades/ai/loop/stop", {
        method: "POST",
        body: starting ? { intervalSec: LOOP_INTERVAL_SEC } : {},
      });
      if (res.success === false) throw new Error(res.message || (starting ? "Falha ao iniciar o bot" : "Falha ao parar o bot"));
      setPendingActive(starting);
      revalidate();
    } catch (err) {
      showError(errorMessage(err, starting ? "Falha ao iniciar o bot" : "Falha ao parar o bot"));
      window.setTimeout(() => revalidate(), 1000);
    } finally {
      // Keep the toggle animation visible for at least 600 ms (PRODUCT.md §9).
      window.setTimeout(() => setBusy(false), Math.max(0, 600 - (Date.now() - started)));
    }
  }

  const loop = bot.loopState;
  const lic = licenceLabel(user.licenseStatus);

  return (
    <main className="mx-auto max-w-6xl px-4 pb-8 pt-4 md:pt-8">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="text-sm text-slate-400">Bem-vindo de volta</p>
          <h1 className="text-xl font-bold text-white md:text-2xl" data-testid="greeting">
            Olá, {name}
          </h1>
        </div>
        <Badge tone={BADGE_TONE[view.badge]} data-testid="status-badge">
          <span className={clsx("h-2 w-2 rounded-full", view.badge === "Online" ? "bg-emerald-400" : "bg-current")} aria-hidden="true" />
          {view.badge}
        </Badge>
      </div>

      {!online && (
        <Banner tone="warning" className="mb-4">
          Você está offline. Alguns dados podem estar desatualizados.
        </Banner>
      )}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
        <section aria-labelledby="hero-title" className="flex flex-col items-center self-start rounded-3xl border border-white/10 bg-slate-900/60 px-4 py-8 text-center md:py-10">
          <PowerButton view={view} busy={busy} disabled={view.state === "offline"} onClick={() => void toggle()} />
          <h2 id="hero-title" className={clsx("mt-8 text-3xl font-extrabold md:text-4xl", TITLE_COLOUR[view.tone])} data-testid="hero-title">
            {view.title}
          </h2>
          <p className="mt-2 max-w-sm text-slate-300">{view.message}</p>
          {error && (
            <Banner tone="error" className="mt-4 w-full max-w-sm text-left">
              {error}
            </Banner>
          )}
          <dl className="mt-6 grid w-full max-w-sm grid-cols-2 gap-2 text-left text-sm">
            <div className="rounded-xl bg-white/[0.03] p-3 ring-1 ring-white/5">
              <dt className="text-xs text-slate-400">Última ativação</dt>
              <dd className="mt-0.5 font-medium text-slate-200" suppressHydrationWarning>
                {formatDateTime(loop.lastStartedAt)}
              </dd>
            </div>
            <div className="rounded-xl bg-white/[0.03] p-3 ring-1 ring-white/5">
              <dt className="text-xs text-slate-400">Última parada</dt>
              <dd className="mt-0.5 font-medium text-slate-200" suppressHydrationWarning>
                {formatDateTime(loop.lastStoppedAt)}
              </dd>
            </div>
          </dl>
          {!botActive && loop.lastStopReasonText && loop.lastStoppedAt && (
            <p className="mt-3 text-sm text-slate-400" data-testid="stop-reason">
              {loop.lastStopReasonText}
            </p>
          )}
          {botActive && loop.lastTickError && (
            <Banner tone="warning" className="mt-3 w-full max-w-sm text-left">
              {loop.lastTickError}
            </Banner>
          )}
        </section>

        <div className="space-y-4">
          {broker.isConnected && account ? (
            <div className="grid gap-4 md:grid-cols-2 lg:grid-cols-1">
              <BalanceCard account={account} />
              <ConnectedAccountCard account={account} error={"error" in broker ? (broker.error as string) : null} onChanged={reloadSoon} />
            </div>
          ) : (
            <Card title="Conta Oanda">
              <p className="text-slate-300">Nenhuma conta Oanda conectada.</p>
              <p className="mt-1 text-sm text-slate-400">Conecte sua conta (Demo ou Real) para a IA operar por você.</p>
              <button
                type="button"
                onClick={() => setWizardOpen(true)}
                className="mt-4 inline-flex min-h-11 items-center gap-2 rounded-xl bg-orange-500 px-4 py-2 text-sm font-semibold text-slate-950 hover:bg-orange-400"
              >
                <PlugIcon size={16} /> Conectar Oanda
              </button>
            </Card>
          )}

          <Card title="Últimas decisões da IA" action={<span className="text-xs text-slate-500">a cada {bot.intervalSec} s</span>}>
            {bot.lastDecisions.length === 0 ? (
              <p className="text-sm text-slate-400">Nenhuma decisão ainda. Ative a IA para ela começar a analisar o mercado.</p>
            ) : (
              <ul className="space-y-2" data-testid="decisions">
                {bot.lastDecisions.map((d, i) => (
                  <li key={`${d.at}-${i}`} className="rounded-xl bg-white/[0.03] p-3 ring-1 ring-white/5">
                    <div className="flex items-center justify-between gap-2">
                      <span className="font-semibold text-slate-100">
                        {formatInstrument(d.instrument)} <span className="ml-1 text-xs font-medium text-sky-300">{normaliseTimeframe(d.timeframe)}</span>
                      </span>
                      <span className="flex items-center gap-2 text-xs text-slate-400">
                        <Badge tone={d.action === "open" ? (d.side === "sell" ? "red" : "green") : "grey"}>{decisionLabel(d.action, d.side)}</Badge>
                        <span suppressHydrationWarning>{relativeTime(d.at, now)}</span>
                      </span>
                    </div>
                    <p className="mt-1 text-sm text-slate-300">{d.reason}</p>
                  </li>
                ))}
              </ul>
            )}
          </Card>

          <div className="grid gap-4 md:grid-cols-2">
            <Card
              title={
                <span className="flex items-center gap-2">
                  <CpuIcon size={16} /> Configuração da IA
                </span>
              }
              action={
                <Link to="/settings" className="text-xs font-semibold text-emerald-300 hover:underline">
                  Ajustar
                </Link>
              }
            >
              <ul className="space-y-1.5 text-sm text-slate-300">
                <li className="flex justify-between">
                  <span className="text-slate-400">Intervalo de análise</span> <span>{bot.intervalSec} s</span>
                </li>
                <li className="flex justify-between">
                  <span className="text-slate-400">Timeframe</span> <span className="text-right">Automático (M5, M15, M30, H1)</span>
                </li>
                <li className="flex justify-between">
                  <span className="text-slate-400">Monitoramento</span> <span>24/7</span>
                </li>
              </ul>
            </Card>

            <Card
              className="hidden lg:block"
              title={
                <span className="flex items-center gap-2">
                  <ShieldIcon size={16} /> Saúde do sistema
                </span>
              }
              data-testid="health-card"
            >
              <ul className="space-y-2 text-sm">
                <li className="flex items-center justify-between gap-2">
                  <span className="text-slate-400">Licença</span>
                  <Badge tone={lic.tone}>
                    {lic.label}
                    {user.license?.endDate && user.hasValidLicense ? ` até ${formatDate(user.license.endDate)}` : ""}
                  </Badge>
                </li>
                <li className="flex items-center justify-between gap-2">
                  <span className="text-slate-400">Corretora</span>
                  <Badge tone={broker.isConnected ? ("error" in broker ? "amber" : "green") : "grey"}>
                    {broker.isConnected ? ("error" in broker ? "Com erro" : "Conectada") : "Desconectada"}
                  </Badge>
                </li>
                <li className="flex items-center justify-between gap-2">
                  <span className="text-slate-400">IA</span>
                  <Badge tone={botActive ? "green" : "red"}>{botActive ? "Ativa" : "Pausada"}</Badge>
                </li>
                <li className="flex items-center justify-between gap-2">
                  <span className="text-slate-400">Conexão</span>
                  <Badge tone={online ? "green" : "grey"}>{online ? "Online" : "Offline"}</Badge>
                </li>
              </ul>
            </Card>
          </div>
        </div>
      </div>

      <BrokerWizard
        open={wizardOpen}
        onClose={() => setWizardOpen(false)}
        onConnected={() => {
          window.setTimeout(() => {
            setWizardOpen(false);
            revalidate();
          }, 600);
        }}
      />
    </main>
  );
}

/** Portuguese label of a decision: Compra / Venda / Aguardar. */
function decisionLabel(action: string, side: string | null): string {
  if (action === "open") return side === "sell" ? "Venda" : "Compra";
  if (action === "close") return "Fechar";
  return "Aguardar";
}
