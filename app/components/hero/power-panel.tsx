/**
 * The hero's control panel (PRODUCT.md §2 Hero, §4 hero gating; issues 9, 12, 21, 22): the power button
 * (a POST form without JavaScript: intent start/stop to the hero's action), the state's title and
 * message, 'Assinar' when manage-only without a licence, the re-arm and pre-flight confirmations (opened
 * by the press with JavaScript, by the action's answer without), the toggle error, last start/stop, the
 * stop reason, the drawdown stop, the last tick error and the kill switch.
 */
import { Form, Link } from "@remix-run/react";
import clsx from "clsx";
import { useTranslation } from "react-i18next";
import { formatMsg } from "../../../core/i18n/message";
import { KillSwitch } from "~/components/kill-switch";
import { PowerButton } from "~/components/power-button";
import { PreflightConfirm, preflightNeedsConfirmation, type PreflightView } from "~/components/preflight-card";
import { RearmConfirm, type RearmView } from "~/components/rearm-confirm";
import { Banner, StatTerm } from "~/components/ui";
import { useDisplay } from "~/lib/hooks";
import { killSwitchState } from "~/lib/kill-switch";
import { stopReasonKey, type HeroView } from "~/lib/trading";
import type { BotStatus } from "./use-bot-status";
import type { PowerToggle } from "./use-power-toggle";

/** The title's colour per hero tone. */
const TITLE_COLOUR: Record<HeroView["tone"], string> = {
  grey: "text-slate-300",
  amber: "text-amber-300",
  orange: "text-orange-300",
  red: "text-rose-300",
  green: "text-emerald-300",
};

/** The no-JavaScript action's answer to intent=start: which confirmation to show, or its error. */
export interface PowerAnswer {
  confirm: boolean;
  rearm: boolean;
  error: string | null;
}

/** The control panel (see the module comment). */
export function PowerPanel({
  view,
  bot,
  variant,
  hasValidLicense,
  rearm,
  preflight,
  answer,
  power,
  closedAll,
  onKillSwitchDone,
}: {
  view: HeroView;
  bot: BotStatus;
  variant: "mobile" | "desktop";
  hasValidLicense: boolean;
  /** The re-arm confirmation's figures (null: no drawdown stop). */
  rearm: RearmView | null;
  preflight: PreflightView | null;
  /** The action's answer without JavaScript. */
  answer: PowerAnswer | undefined;
  power: PowerToggle;
  /** The kill switch's 'Fechar tudo e pausar' still holds. */
  closedAll: boolean;
  onKillSwitchDone: () => void;
}) {
  const { t } = useTranslation("hero");
  const manageOnly = view.state === "manage-only";
  const botActive = bot.isActive;
  const loop = bot.loopState;
  const rearming = power.rearming || !!answer?.rearm;
  const error = power.error || answer?.error;
  return (
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
          void power.toggle();
        }}
      >
        <PowerButton
          view={view}
          busy={power.busy}
          disabled={view.state === "offline"}
          onClick={() => void power.toggle()}
          {...(view.state === "paused" ? { submit: { name: "intent", value: "start" } } : view.state === "active" || manageOnly ? { submit: { name: "intent", value: "stop" } } : {})}
        />
      </Form>
      <h2 id="hero-title" className={clsx("mt-8 text-3xl font-extrabold md:text-4xl", TITLE_COLOUR[view.tone])} data-testid="hero-title" data-tone={view.tone}>
        {t(view.titleKey)}
      </h2>
      <p className="mt-2 max-w-sm text-slate-300" data-testid="hero-message">
        {manageOnly && loop.manageOnlyCode === "user" ? t("kill-switch:current.stop_entries") : t(view.messageKey)}
      </p>
      {manageOnly && !hasValidLicense && (
        <Link to="/billing" className="mt-3 text-sm font-semibold text-amber-300 hover:underline" data-testid="manage-only-subscribe">
          {t("manageOnly.subscribe")}
        </Link>
      )}
      {view.state === "paused" && rearm && bot.rearmRequired && rearming && (
        <RearmConfirm view={rearm} preflightWarns={preflightNeedsConfirmation(preflight)} onConfirm={() => void power.toggle(true, true)} onCancel={power.cancelRearm} />
      )}
      {view.state === "paused" && preflight && !rearming && (power.confirming || answer?.confirm) && (
        <PreflightConfirm preflight={preflight} onConfirm={() => void power.toggle(true)} onCancel={power.cancelConfirm} />
      )}
      {error && (
        <Banner tone="error" className="mt-4 w-full max-w-sm text-left">
          <span data-testid="toggle-error">{error}</span>
        </Banner>
      )}
      <LoopTimes startedAt={loop.lastStartedAt} stoppedAt={loop.lastStoppedAt} />
      {!botActive && loop.lastStoppedAt && (
        <p className="mt-3 text-sm text-slate-400" data-testid="stop-reason">
          {t(`common:${stopReasonKey(loop.lastStopReason)}`)}
        </p>
      )}
      {!botActive && bot.rearmRequired && rearm && <DrawdownStopped drawdownPct={rearm.drawdownPct} />}
      {botActive && loop.lastTickError && (
        <Banner tone="warning" className="mt-3 w-full max-w-sm text-left">
          <span data-testid="tick-error">{loop.lastTickErrorMsg ? formatMsg(t, loop.lastTickErrorMsg) : loop.lastTickError}</span>
        </Banner>
      )}
      {(view.state === "active" || view.state === "paused" || manageOnly) && (
        <KillSwitch state={killSwitchState({ isActive: botActive, manageOnlyCode: loop.manageOnlyCode, closedAll: closedAll && !botActive })} onDone={onKillSwitchDone} />
      )}
    </section>
  );
}

/** 'Último início' / 'Última parada' (the user's time zone and locale). */
function LoopTimes({ startedAt, stoppedAt }: { startedAt: string | null; stoppedAt: string | null }) {
  const { t } = useTranslation("hero");
  const fmt = useDisplay();
  return (
    <dl className="mt-6 grid w-full max-w-sm grid-cols-2 gap-2 text-left text-sm">
      <StatTerm label={t("lastStart")} data-testid="last-start">
        {fmt.dateTime(startedAt)}
      </StatTerm>
      <StatTerm label={t("lastStop")} data-testid="last-stop">
        {fmt.dateTime(stoppedAt)}
      </StatTerm>
    </dl>
  );
}

/** The line under a max-drawdown stop (issue 21): the drawdown now, until the re-arm. */
function DrawdownStopped({ drawdownPct }: { drawdownPct: string | null }) {
  const { t } = useTranslation("hero");
  const fmt = useDisplay();
  return (
    <p className="mt-1 max-w-sm text-sm text-amber-300" data-testid="drawdown-stopped">
      {t("rearm.stopped", { drawdown: fmt.percent(drawdownPct === null ? null : Number(drawdownPct), 2) })}
    </p>
  );
}
