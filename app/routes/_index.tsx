/**
 * / — the trading (hero) screen (PRODUCT.md §2 Hero/control screen, §4 hero gating and AI loop, §8, §9):
 * a big on/off button gated offline → manage-only → no licence → no broker → ready (paused/active), the loop status
 * polled every 5 s, last start/stop, stop reason, the AI's last decisions, connected-account, balance
 * and AI-configuration cards, and on the desktop variant a system-health card. An AI left on when
 * its licence lapsed shows 'Somente Gestão' (issue 9): it opens nothing and manages the open trades. The mobile variant is
 * used under 768 px or on a mobile user agent. Logged out → /auth; admins → /admin.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useRevalidator } from "@remix-run/react";
import clsx from "clsx";
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatMsg, isMsg, msg, type Msg } from "../../core/i18n/message";
import { BalanceCard, ConnectedAccountCard, type AccountView } from "~/components/account-cards";
import { LiveStatus } from "~/components/live-status";
import { liveAccount } from "~/lib/live-prices";
import { useOpenTradesLive } from "~/lib/use-event-source";
import { NewsCard } from "~/components/news-card";
import { PlugIcon, ShieldIcon } from "~/components/icons";
import { PowerButton } from "~/components/power-button";
import { PreflightCard, PreflightConfirm, preflightNeedsConfirmation, type PreflightView } from "~/components/preflight-card";
import { Badge, Banner, Card, type Tone } from "~/components/ui";
import { ApiCallError, apiFetch, errorMessage } from "~/lib/api";
import { metaTitle, useBreakpoint, useCappedFlag, useDisplay, useNow, useOnline, usePolling, useTransientMessage } from "~/lib/hooks";
import { requireAppUser } from "~/route-support/pages.server";
import { heroView, licenceLabel, stopReasonKey, type HeroView } from "~/lib/trading";
import { publicUser } from "~/services/identity/auth.server";
import { botStatus } from "~/services/trading/bot-status.server";
import { heroNews } from "~/services/trading/calendar.server";
import { accountStatus, screenAccount } from "~/services/trading/account-view.server";
import { displayRateFor } from "~/services/broker/display-currency.server";
import { DisplayRateNotice } from "~/components/display-amount";
import { translateMsg } from "~/i18n";
import { assertSameOrigin, DomainError } from "~/services/platform/api.server";
import { readForm } from "~/route-support/form.server";
import { rearmRequired, startBot } from "~/services/trading/bot-control.server";
import { stopBot } from "~/services/trading/bot-stop.server";
import { RearmConfirm, rearmView } from "~/components/rearm-confirm";
import { userPreflight } from "~/services/trading/preflight.server";
import { ReportCard } from "~/components/research/report-card";
import { reportCard } from "~/services/research/edge-table.server";
import { getSettings } from "~/services/trading/settings.server";
import { regimeTimeframe } from "../../core/engine/regime";
import { AiConfigCard, DecisionsCard } from "~/components/hero-cards";
import { KillSwitch } from "~/components/kill-switch";
import { killSwitchState } from "~/lib/kill-switch";
import { closedAllHolds } from "~/services/trading/kill-switch-state.server";
import { killSwitchForm } from "~/services/trading/kill-switch.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "hero", "meta");

/**
 * The broker wizard (and the form schemas it validates with) is fetched when first opened, not in the
 * hero's first load (issue 13: zod and its message catalogues were a fifth of the hero's JavaScript).
 */
const BrokerWizard = lazy(() => import("~/components/broker-wizard").then((m) => ({ default: m.BrokerWizard })));

/** The pre-flight check (issue 12) for a user who could press ATIVAR IA now, or why it is missing. */
async function preflightFor(userId: string, language: unknown): Promise<{ preflight: PreflightView | null; preflightError: string | null }> {
  return userPreflight(userId).then(
    (p) => ({ preflight: p as PreflightView, preflightError: null }),
    (err: unknown) => ({ preflight: null, preflightError: err instanceof DomainError ? err.messageIn(language) : translateMsg(msg("api:broker.unexpected"), language) }),
  );
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireAppUser(request, context);
  // Issue 13: the account figures through the shared account cache (account-view.server.ts), not a broker call per view.
  const [pub, broker, bot, news, settings, displayRate] = await Promise.all([
    publicUser(user),
    accountStatus(user.id, user.preferences?.language),
    botStatus(user.id, user.preferences?.language),
    heroNews(user.id), // issue 11: calendar card (no broker call)
    getSettings(user.id), // issue 21: the report card of the chosen style
    // Issue 22: the display-currency rate; the same shared screen read as accountStatus (never throws).
    screenAccount(user.id).then((a) => displayRateFor(user, a.conn, a.read?.summary.currency)),
  ]);
  // Issue 22: the kill switch's 'Fechar tudo e pausar' still holds (the AI off since then).
  const closedAll = bot.isActive ? false : await closedAllHolds(user.id);
  // Issue 12: the pre-flight figures, shown before ATIVAR IA (only then: paused, licensed, connected).
  const check = broker.isConnected && pub.hasValidLicense && !bot.isActive ? await preflightFor(user.id, user.preferences?.language) : { preflight: null, preflightError: null };
  // Issue 21: a max-drawdown stop waits for the re-arm; its confirmation shows the drawdown, the mark and the NAV now.
  const rearm = rearmView(bot.drawdownStop, broker.account as { nav?: string | null; currency?: string | null } | null, settings.maxDrawdownPct);
  // Issue 22: the AI card's timeframe — automatic, or the manual one the engine uses (the chosen one, else the style's default).
  const aiTimeframe = {
    auto: settings.aiSettings.autoTimeframeSelection,
    timeframe: settings.aiSettings.autoTimeframeSelection ? null : (settings.timeframe ?? regimeTimeframe(settings.aiSettings.tradingStyle)),
  };
  return { user: pub, broker, bot, news, displayRate, ...check, rearm, aiTimeframe, closedAll, reportCard: reportCard(settings, settings.aiSettings.tradingStyle) };
}

/**
 * The power button without JavaScript (issue 12): intent=start starts the AI unless the pre-flight
 * check has warnings and `confirm` is not 1 (then the page shows the confirmation); intent=stop
 * stops it. While a max-drawdown stop waits for the re-arm (issue 21), intent=start shows "Reativar a
 * IA?" unless `rearm` is 1, which resets the high-water mark and starts. With JavaScript the page
 * calls the API instead and never posts here.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireAppUser(request);
  const language = user.preferences?.language;
  try {
    assertSameOrigin(request);
    const form = await readForm(request, language);
    const intent = form.get("intent");
    // Issue 22: the kill switch's confirmed level (or "Retomar entradas") without JavaScript.
    if (intent === "kill_switch" || intent === "resume_entries") {
      await killSwitchForm(user, form, language);
      return redirect("/");
    }
    if (intent === "stop") {
      await stopBot(user.id, "manual");
      return redirect("/");
    }
    if (intent === "start") {
      const rearm = form.get("rearm") === "1";
      if (!rearm && (await rearmRequired(user.id))) return data({ confirm: false as const, rearm: true as const, error: null });
      if (!rearm && form.get("confirm") !== "1") {
        const { preflight } = await preflightFor(user.id, language);
        if (preflightNeedsConfirmation(preflight)) return data({ confirm: true as const, rearm: false as const, error: null });
      }
      await startBot(user.id, LOOP_INTERVAL_SEC, language, { rearm });
    }
    return redirect("/");
  } catch (err) {
    if (err instanceof DomainError) return data({ confirm: false as const, rearm: false as const, error: err.messageIn(language) }, { status: err.status });
    throw err;
  }
}

/** AI loop interval used when the UI starts the loop (PRODUCT.md §9). */
const LOOP_INTERVAL_SEC = 60;
/** Bot status polling (PRODUCT.md §9) and the slower refresh of account figures. */
const STATUS_POLL_MS = 5000;
const ACCOUNT_REFRESH_MS = 15_000;
/** Toggle animation and the re-read of the status after a failure (PRODUCT.md §4, §9). */
const TOGGLE_ANIMATION_MS = 600;
const REREAD_AFTER_FAILURE_MS = 1000;
const ERROR_VISIBLE_MS = 5000;
const LOADING_CAP_MS = 10_000;

const BADGE_TONE: Record<HeroView["badgeKey"], Tone> = {
  "badge.online": "green",
  "badge.offline": "grey",
  "badge.connect": "orange",
  "badge.noLicence": "amber",
  "badge.manageOnly": "amber",
};
const TITLE_COLOUR: Record<HeroView["tone"], string> = {
  grey: "text-slate-300",
  amber: "text-amber-300",
  orange: "text-orange-300",
  red: "text-rose-300",
  green: "text-emerald-300",
};

type BotStatus = Awaited<ReturnType<typeof botStatus>>;

/** The hero/control screen (mobile and desktop variants). */
export default function HeroPage() {
  const { user, broker, bot: loaderBot } = useLoaderData<typeof loader>();
  const { news, preflight: preflightRaw, preflightError, reportCard: card, aiTimeframe, closedAll } = useLoaderData<typeof loader>();
  const preflight = preflightRaw as PreflightView | null;
  const actionData = useActionData<typeof action>();
  // Issue 12: ATIVAR IA with pre-flight warnings asks first (JS: this flag; no JS: the action's answer).
  const [confirming, setConfirming] = useState(false);
  // Issue 21: ATIVAR IA after a max-drawdown stop asks "Reativar a IA?" first (JS: this flag; no JS: the action's answer).
  const [rearming, setRearming] = useState(false);
  const rearm = useLoaderData<typeof loader>().rearm;
  const { t } = useTranslation("hero");
  const fmt = useDisplay();
  const online = useOnline();
  const now = useNow(15_000);
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const { breakpoint, mobileUA } = useBreakpoint();
  const variant = breakpoint === "mobile" || mobileUA ? "mobile" : "desktop";
  const [wizardOpen, setWizardOpen] = useState(false);
  // Mounted from its first opening on (lazy chunk), so closing keeps the wizard's own close behaviour.
  const [wizardUsed, setWizardUsed] = useState(false);
  useEffect(() => {
    if (wizardOpen) setWizardUsed(true);
  }, [wizardOpen]);
  const [busyRaw, setBusy] = useState(false);
  const busy = useCappedFlag(busyRaw, LOADING_CAP_MS);
  const [bot, setBot] = useState<BotStatus>(loaderBot as BotStatus);
  const [error, showError] = useTransientMessage(ERROR_VISIBLE_MS);
  const [pollError, setPollError] = useState<string | null>(null);
  const mounted = useRef(true);

  usePolling(ACCOUNT_REFRESH_MS);
  useEffect(() => setBot(loaderBot as BotStatus), [loaderBot]);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );

  /** Reads GET /api/trades/ai/loop/status; polling failures show 'Erro de conexão com o servidor' until it recovers. */
  const readStatus = useCallback(async () => {
    try {
      const status = await apiFetch<BotStatus>("/api/trades/ai/loop/status");
      if (!mounted.current) return;
      setBot((prev) => ({ ...prev, ...status }));
      setPollError(null);
    } catch (err) {
      if (!mounted.current || (err instanceof ApiCallError && err.code === "unauthorized")) return;
      const message = errorMessage(err, "");
      setPollError(/Connection error|fetch/i.test(message) ? t("common:errors.server") : t("errors.status"));
    }
  }, [t]);

  useEffect(() => {
    const id = window.setInterval(() => {
      if (document.visibilityState === "visible" && navigator.onLine) void readStatus();
    }, STATUS_POLL_MS);
    return () => window.clearInterval(id);
  }, [readStatus]);

  const [retrying, setRetrying] = useState(false);
  /** 'Tentar Novamente' on the connection-error banner: re-reads the status now. */
  async function retryStatus() {
    setRetrying(true);
    try {
      await readStatus();
    } finally {
      if (mounted.current) setRetrying(false);
    }
  }

  const botActive = bot.isActive;
  const view = heroView({ online, hasLicense: user.hasValidLicense, brokerConnected: broker.isConnected, botActive, manageOnly: bot.manageOnly });
  const manageOnly = view.state === "manage-only";
  const account = broker.account as AccountView | null;
  // Live balance/P&L (issue 11): the open trades at streamed prices; the 15 s refresh stays the fallback.
  const live = useOpenTradesLive(broker.isConnected && user.hasValidLicense, broker, revalidate);
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ") || user.email;
  const loop = bot.loopState;
  const lic = licenceLabel(user.licenseStatus);
  /** A server-made text in the current language: its message when it has one (ADR 0007), else the text. */
  const text = (value: string | null, m: Msg | null | undefined) => (m ? formatMsg(t, m) : value);
  const brokerError = "error" in broker ? text(broker.error as string, "errorMsg" in broker && isMsg(broker.errorMsg) ? broker.errorMsg : null) : null;

  const reloadSoon = useCallback(() => window.setTimeout(() => revalidate(), TOGGLE_ANIMATION_MS), [revalidate]);

  async function toggle(confirmed = false, rearmConfirmed = false) {
    if (view.state === "offline") return;
    if (view.state === "no-licence") return navigate("/billing");
    if (view.state === "no-broker") return setWizardOpen(true);
    const starting = view.state === "paused";
    if (starting && bot.rearmRequired && !rearmConfirmed) return setRearming(true);
    if (starting && !confirmed && !rearmConfirmed && preflightNeedsConfirmation(preflight)) return setConfirming(true);
    setConfirming(false);
    setRearming(false);
    const fallback = starting ? t("errors.start") : t("errors.stop");
    setBusy(true);
    const started = Date.now();
    try {
      const res = await apiFetch<{ success?: boolean; message?: string }>(starting ? "/api/trades/ai/loop/start" : "/api/trades/ai/loop/stop", {
        method: "POST",
        body: starting ? { intervalSec: LOOP_INTERVAL_SEC, ...(rearmConfirmed ? { rearm: true } : {}) } : {},
      });
      if (res.success === false) throw new Error(res.message || fallback);
      setBot((prev) => ({ ...prev, isActive: starting }));
      await readStatus();
      revalidate();
    } catch (err) {
      showError(errorMessage(err, fallback, t));
      window.setTimeout(() => void readStatus(), REREAD_AFTER_FAILURE_MS);
    } finally {
      // Keep the toggle animation visible for at least 600 ms (PRODUCT.md §9).
      window.setTimeout(() => setBusy(false), Math.max(0, TOGGLE_ANIMATION_MS - (Date.now() - started)));
    }
  }

  const healthCard = (
    <Card
      title={
        <span className="flex items-center gap-2">
          <ShieldIcon size={16} /> {t("health.title")}
        </span>
      }
      data-testid="health-card"
    >
      <ul className="space-y-2 text-sm">
        <li className="flex items-center justify-between gap-2">
          <span className="text-slate-400">{t("health.licence")}</span>
          <Badge tone={lic.tone} data-testid="health-licence">
            {t(`common:${lic.key}`)}
            {user.license?.endDate && user.hasValidLicense ? ` ${t("health.until", { date: fmt.date(user.license.endDate) })}` : ""}
          </Badge>
        </li>
        <li className="flex items-center justify-between gap-2">
          <span className="text-slate-400">{t("health.broker")}</span>
          <Badge tone={broker.isConnected ? (brokerError ? "amber" : "green") : "grey"} data-testid="health-broker">
            {broker.isConnected ? (brokerError ? t("health.brokerError") : t("health.brokerOk")) : t("health.brokerNone")}
          </Badge>
        </li>
        <li className="flex items-center justify-between gap-2">
          <span className="text-slate-400">{t("health.ai")}</span>
          <Badge tone={manageOnly ? "amber" : botActive ? "green" : "red"} data-testid="health-ai">
            {manageOnly ? t("health.aiManageOnly") : botActive ? t("health.aiActive") : t("health.aiPaused")}
          </Badge>
        </li>
        <li className="flex items-center justify-between gap-2">
          <span className="text-slate-400">{t("health.system")}</span>
          <Badge tone={pollError ? "red" : "green"} data-testid="health-system">
            {pollError ? t("connection.systemOffline") : t("health.online")}
          </Badge>
        </li>
        <li className="flex items-center justify-between gap-2">
          <span className="text-slate-400">{t("health.connection")}</span>
          <Badge tone={online ? "green" : "grey"}>{online ? t("health.online") : t("health.offline")}</Badge>
        </li>
      </ul>
    </Card>
  );

  return (
    <main className="mx-auto max-w-6xl px-4 pb-8 pt-4 md:pt-8" data-variant={variant} data-testid="hero">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3">
        <div>
          <p className="text-sm text-slate-400">{t("welcome")}</p>
          <h1 className="text-xl font-bold text-white md:text-2xl" data-testid="greeting">
            {t("common:greeting", { name })}
          </h1>
        </div>
        <Badge tone={BADGE_TONE[view.badgeKey]} data-testid="status-badge">
          <span className={clsx("h-2 w-2 rounded-full", view.badgeKey === "badge.online" ? "bg-emerald-400" : "bg-current")} aria-hidden="true" />
          {t(view.badgeKey)}
        </Badge>
      </div>

      {!online && (
        <Banner tone="warning" className="mb-4">
          <span data-testid="offline-banner">{t("common:errors.offlineBanner")}</span>
        </Banner>
      )}
      {pollError && online && (
        <Banner tone="error" className="mb-4">
          <div className="flex flex-wrap items-center justify-between gap-3" role="group" aria-label={t("connection.title")}>
            <div>
              <p className="font-semibold">{t("connection.title")}</p>
              <p data-testid="poll-error">{pollError}</p>
              <p className="text-xs opacity-80" data-testid="local-data">
                {t("connection.localData")}
              </p>
            </div>
            <button
              type="button"
              className="rounded-lg border border-current px-3 py-1.5 text-sm font-semibold disabled:opacity-60"
              disabled={retrying}
              onClick={() => void retryStatus()}
              data-testid="poll-retry"
            >
              {retrying ? t("connection.retrying") : t("connection.retry")}
            </button>
          </div>
        </Banner>
      )}

      <div className={clsx("grid gap-6", variant === "desktop" && "lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]")}>
        <section
          aria-labelledby="hero-title"
          className={clsx(
            "flex flex-col items-center self-start rounded-3xl border border-white/10 bg-slate-900/60 px-4 text-center",
            variant === "mobile" ? "py-8" : "py-10",
          )}
        >
          <Form
            method="post"
            onSubmit={(e) => {
              e.preventDefault();
              void toggle();
            }}
          >
            <PowerButton
              view={view}
              busy={busy}
              disabled={view.state === "offline"}
              onClick={() => void toggle()}
              {...(view.state === "paused" ? { submit: { name: "intent", value: "start" } } : view.state === "active" || manageOnly ? { submit: { name: "intent", value: "stop" } } : {})}
            />
          </Form>
          <h2 id="hero-title" className={clsx("mt-8 text-3xl font-extrabold md:text-4xl", TITLE_COLOUR[view.tone])} data-testid="hero-title" data-tone={view.tone}>
            {t(view.titleKey)}
          </h2>
          <p className="mt-2 max-w-sm text-slate-300" data-testid="hero-message">
            {manageOnly && bot.loopState.manageOnlyCode === "user" ? t("kill-switch:current.stop_entries") : t(view.messageKey)}
          </p>
          {manageOnly && !user.hasValidLicense && (
            <Link to="/billing" className="mt-3 text-sm font-semibold text-amber-300 hover:underline" data-testid="manage-only-subscribe">
              {t("manageOnly.subscribe")}
            </Link>
          )}
          {view.state === "paused" && rearm && bot.rearmRequired && (rearming || actionData?.rearm) && (
            <RearmConfirm view={rearm} preflightWarns={preflightNeedsConfirmation(preflight)} onConfirm={() => void toggle(true, true)} onCancel={() => setRearming(false)} />
          )}
          {view.state === "paused" && preflight && !(rearming || actionData?.rearm) && (confirming || actionData?.confirm) && (
            <PreflightConfirm preflight={preflight} onConfirm={() => void toggle(true)} onCancel={() => setConfirming(false)} />
          )}
          {(error || actionData?.error) && (
            <Banner tone="error" className="mt-4 w-full max-w-sm text-left">
              <span data-testid="toggle-error">{error || actionData?.error}</span>
            </Banner>
          )}
          <dl className="mt-6 grid w-full max-w-sm grid-cols-2 gap-2 text-left text-sm">
            <div className="rounded-xl bg-white/[0.03] p-3 ring-1 ring-white/5">
              <dt className="text-xs text-slate-400">{t("lastStart")}</dt>
              <dd className="mt-0.5 font-medium text-slate-200" data-testid="last-start">
                {fmt.dateTime(loop.lastStartedAt)}
              </dd>
            </div>
            <div className="rounded-xl bg-white/[0.03] p-3 ring-1 ring-white/5">
              <dt className="text-xs text-slate-400">{t("lastStop")}</dt>
              <dd className="mt-0.5 font-medium text-slate-200" data-testid="last-stop">
                {fmt.dateTime(loop.lastStoppedAt)}
              </dd>
            </div>
          </dl>
          {!botActive && loop.lastStoppedAt && (
            <p className="mt-3 text-sm text-slate-400" data-testid="stop-reason">
              {t(`common:${stopReasonKey(loop.lastStopReason)}`)}
            </p>
          )}
          {!botActive && bot.rearmRequired && rearm && (
            <p className="mt-1 max-w-sm text-sm text-amber-300" data-testid="drawdown-stopped">
              {t("rearm.stopped", { drawdown: fmt.percent(rearm.drawdownPct === null ? null : Number(rearm.drawdownPct), 2) })}
            </p>
          )}
          {botActive && loop.lastTickError && (
            <Banner tone="warning" className="mt-3 w-full max-w-sm text-left">
              <span data-testid="tick-error">{text(loop.lastTickError, loop.lastTickErrorMsg)}</span>
            </Banner>
          )}
          {(view.state === "active" || view.state === "paused" || manageOnly) && (
            <KillSwitch
              state={killSwitchState({ isActive: botActive, manageOnlyCode: loop.manageOnlyCode, closedAll: closedAll && !botActive })}
              onDone={() => {
                void readStatus();
                revalidate();
              }}
            />
          )}
        </section>

        <div className="space-y-4">
          <ReportCard card={card} />
          {view.state === "paused" && (preflight || preflightError) && <PreflightCard preflight={preflight} error={preflightError} />}
          {broker.isConnected && account ? (
            <div className={clsx("grid gap-4", variant === "desktop" && "md:grid-cols-2 lg:grid-cols-1")}>
              <div>
                <BalanceCard account={liveAccount(account, live.trades, live.prices)} />
                <LiveStatus status={live.status} className="mt-1" />
                {user.hasValidLicense && <DisplayRateNotice className="mt-2" />}
              </div>
              <ConnectedAccountCard account={account} error={brokerError} onChanged={reloadSoon} />
            </div>
          ) : (
            <Card title={t("common:account.title")}>
              <p className="text-slate-300">{t("common:account.none")}</p>
              <p className="mt-1 text-sm text-slate-400">{t("account.hint")}</p>
              <button
                type="button"
                onClick={() => (user.hasValidLicense ? setWizardOpen(true) : navigate("/billing"))}
                className="mt-4 inline-flex min-h-11 items-center gap-2 rounded-xl bg-orange-500 px-4 py-2 text-sm font-semibold text-slate-950 hover:bg-orange-400"
              >
                <PlugIcon size={16} /> {t("common:account.connect")}
              </button>
            </Card>
          )}

          <DecisionsCard decisions={bot.lastDecisions} intervalSec={bot.intervalSec} now={now} />

          <NewsCard news={news} />

          <div className={clsx("grid gap-4", variant === "desktop" && "md:grid-cols-2")}>
            <AiConfigCard intervalSec={bot.intervalSec} autoTimeframe={aiTimeframe.auto} timeframe={aiTimeframe.timeframe} />

            {variant === "desktop" && healthCard}
          </div>
        </div>
      </div>

      {wizardUsed && (
        <Suspense fallback={null}>
          <BrokerWizard
            open={wizardOpen}
            onClose={() => setWizardOpen(false)}
            onConnected={() => {
              window.setTimeout(() => {
                setWizardOpen(false);
                revalidate();
              }, TOGGLE_ANIMATION_MS);
            }}
          />
        </Suspense>
      )}
    </main>
  );
}
