/**
 * / — the trading (hero) screen (PRODUCT.md §2 Hero/control screen, §4 hero gating and AI loop, §8, §9):
 * a big on/off button gated offline → manage-only → no licence → no broker → ready (paused/active), the loop status
 * polled every 5 s, last start/stop, stop reason, the AI's last decisions, connected-account, balance
 * and AI-configuration cards, and on the desktop variant a system-health card. An AI left on when
 * its licence lapsed shows 'Somente Gestão' (issue 9): it opens nothing and manages the open trades. The mobile variant is
 * used under 768 px or on a mobile user agent. Logged out → /auth; admins → /admin.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useNavigate, useRevalidator } from "@remix-run/react";
import clsx from "clsx";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { powerFormSchema } from "~/lib/power-form";
import { formatMsg, isMsg, msg } from "../../core/i18n/message";
import { regimeTimeframe } from "../../core/engine/regime";
import type { AccountView } from "~/components/account-cards";
import { AiConfigCard, DecisionsCard } from "~/components/hero-cards";
import { AccountSection } from "~/components/hero/account-section";
import { ConnectionBanners } from "~/components/hero/connection-banners";
import { HealthCard } from "~/components/hero/health-card";
import { HeroHeader } from "~/components/hero/hero-header";
import { PowerPanel, type PowerAnswer } from "~/components/hero/power-panel";
import { useBotStatus, type BotStatus } from "~/components/hero/use-bot-status";
import { LOOP_INTERVAL_SEC, TOGGLE_ANIMATION_MS, usePowerToggle } from "~/components/hero/use-power-toggle";
import { NewsCard } from "~/components/news-card";
import { PreflightCard, preflightNeedsConfirmation, type PreflightView } from "~/components/preflight-card";
import { rearmView } from "~/components/rearm-confirm";
import { ReportCard } from "~/components/research/report-card";
import { translateMsg } from "~/i18n";
import { metaTitle, useBreakpoint, useNow, useOnline, usePolling } from "~/lib/hooks";
import { heroView } from "~/lib/trading";
import { useOpenTradesLive } from "~/lib/use-event-source";
import { pageAction } from "~/route-support/page-action.server";
import { requireAppUser } from "~/route-support/pages.server";
import { displayRateFor } from "~/services/broker/display-currency.server";
import { publicUser } from "~/services/identity/auth.server";
import { DomainError } from "~/services/platform/errors.server";
import { reportCard } from "~/services/research/edge-table.server";
import { accountStatus, screenAccount } from "~/services/trading/account-view.server";
import { rearmRequired, startBot } from "~/services/trading/bot-control.server";
import { botStatus } from "~/services/trading/bot-status.server";
import { stopBot } from "~/services/trading/bot-stop.server";
import { heroNews } from "~/services/trading/calendar.server";
import { closedAllHolds } from "~/services/trading/kill-switch-state.server";
import { killSwitchForm } from "~/services/trading/kill-switch.server";
import { userPreflight } from "~/services/trading/preflight.server";
import { getSettings } from "~/services/trading/settings.server";

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
 * The power button without JavaScript (issue 12), through `pageAction` (Origin check, form body, intent
 * dispatch; a missing or unknown intent changes nothing): intent=start starts the AI unless the
 * pre-flight check has warnings and `confirm` is not 1 (then the page shows the confirmation); intent=stop
 * stops it. While a max-drawdown stop waits for the re-arm (issue 21), intent=start shows "Reativar a
 * IA?" unless `rearm` is 1, which resets the high-water mark and starts. intent=kill_switch /
 * resume_entries are the kill switch's (issue 22). A domain error (a cross-site post included) is the
 * page's error in the user's language, with its status. With JavaScript the page calls the API
 * instead and never posts here.
 */
export async function action({ request }: ActionFunctionArgs) {
  const answer = (a: Partial<PowerAnswer>, status?: number) => data<PowerAnswer>({ confirm: false, rearm: false, error: null, ...a }, status ? { status } : undefined);
  const home = () => redirect("/");
  return pageAction<ReturnType<typeof answer>, Awaited<ReturnType<typeof requireAppUser>>>(request, {
    page: "/",
    user: () => requireAppUser(request),
    language: (user) => user.preferences?.language,
    intents: {
      start: async ({ user, language, parse }) => {
        const flags = parse(powerFormSchema);
        if (!flags.rearm && (await rearmRequired(user.id))) return answer({ rearm: true });
        if (!flags.rearm && !flags.confirm) {
          const { preflight } = await preflightFor(user.id, language);
          if (preflightNeedsConfirmation(preflight)) return answer({ confirm: true });
        }
        await startBot(user.id, LOOP_INTERVAL_SEC, language, { rearm: flags.rearm });
        return home();
      },
      stop: async ({ user }) => {
        await stopBot(user.id, "manual");
        return home();
      },
      kill_switch: async ({ user, form, language }) => {
        await killSwitchForm(user, form, language);
        return home();
      },
      resume_entries: async ({ user, form, language }) => {
        await killSwitchForm(user, form, language);
        return home();
      },
    },
    fallback: home,
    crossSite: (message) => answer({ error: message }, 403),
    domainError: (err, { language }) => answer({ error: err.messageIn(language) }, err.status),
  });
}

/** Account figures refresh (PRODUCT.md §9; the loop status is polled every 5 s by `useBotStatus`). */
const ACCOUNT_REFRESH_MS = 15_000;

/** The hero/control screen (mobile and desktop variants): the control panel beside the cards. */
export default function HeroPage() {
  const d = useLoaderData<typeof loader>();
  const { user, broker, news, preflightError, reportCard: card, aiTimeframe, closedAll, rearm } = d;
  const preflight = d.preflight as PreflightView | null;
  // Issues 12 and 21: the no-JavaScript answer to ATIVAR IA (which confirmation to show, or the error).
  const actionData = useActionData<typeof action>() as PowerAnswer | undefined;
  const { t } = useTranslation("hero");
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
  usePolling(ACCOUNT_REFRESH_MS);
  const status = useBotStatus(d.bot as BotStatus);
  const { bot, pollError, readStatus } = status;

  const view = heroView({ online, hasLicense: user.hasValidLicense, brokerConnected: broker.isConnected, botActive: bot.isActive, manageOnly: bot.manageOnly });
  const power = usePowerToggle({ view, status, preflight, revalidate, onNoLicence: () => navigate("/billing"), onNoBroker: () => setWizardOpen(true) });
  const account = broker.account as AccountView | null;
  // Live balance/P&L (issue 11): the open trades at streamed prices; the 15 s refresh stays the fallback.
  const live = useOpenTradesLive(broker.isConnected && user.hasValidLicense, broker, revalidate);
  const name = [user.firstName, user.lastName].filter(Boolean).join(" ") || user.email;
  // The broker's error in the current language: its message when it has one (ADR 0007), else the text.
  const brokerError = "error" in broker ? ("errorMsg" in broker && isMsg(broker.errorMsg) ? formatMsg(t, broker.errorMsg) : (broker.error as string | null)) : null;
  const reloadSoon = useCallback(() => window.setTimeout(() => revalidate(), TOGGLE_ANIMATION_MS), [revalidate]);

  return (
    <main className="mx-auto max-w-6xl px-4 pb-8 pt-4 md:pt-8" data-variant={variant} data-testid="hero">
      <HeroHeader name={name} view={view} />
      <ConnectionBanners online={online} pollError={pollError} retrying={status.retrying} onRetry={() => void status.retry()} />

      <div className={clsx("grid gap-6", variant === "desktop" && "lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]")}>
        <PowerPanel
          view={view}
          bot={bot}
          variant={variant}
          hasValidLicense={user.hasValidLicense}
          rearm={rearm}
          preflight={preflight}
          answer={actionData}
          power={power}
          closedAll={closedAll}
          onKillSwitchDone={() => {
            void readStatus();
            revalidate();
          }}
        />

        <div className="space-y-4">
          <ReportCard card={card} />
          {view.state === "paused" && (preflight || preflightError) && <PreflightCard preflight={preflight} error={preflightError} />}
          <AccountSection
            account={broker.isConnected ? account : null}
            live={live}
            hasValidLicense={user.hasValidLicense}
            brokerError={brokerError}
            variant={variant}
            onChanged={reloadSoon}
            onConnect={() => (user.hasValidLicense ? setWizardOpen(true) : navigate("/billing"))}
          />
          <DecisionsCard decisions={bot.lastDecisions} intervalSec={bot.intervalSec} now={now} />
          <NewsCard news={news} />
          <div className={clsx("grid gap-4", variant === "desktop" && "md:grid-cols-2")}>
            <AiConfigCard intervalSec={bot.intervalSec} autoTimeframe={aiTimeframe.auto} timeframe={aiTimeframe.timeframe} />
            {variant === "desktop" && (
              <HealthCard
                health={{
                  licenseStatus: user.licenseStatus,
                  hasValidLicense: user.hasValidLicense,
                  licenseEnd: user.license?.endDate,
                  brokerConnected: broker.isConnected,
                  brokerError,
                  manageOnly: view.state === "manage-only",
                  botActive: bot.isActive,
                  pollError,
                  online,
                }}
              />
            )}
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
