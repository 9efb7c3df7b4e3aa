/**
 * Two cards of the hero screen (app/routes/_index.tsx): the AI's last decisions and the AI
 * configuration. A refused entry reads "Recusada" with its refusal first (issue 22, item 4); the
 * timeframe line reads "Manual (M15)" when automatic timeframe selection is off (item 5).
 */
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { formatMsg, type Msg } from "../../core/i18n/message";
import { CpuIcon } from "~/components/icons";
import { Badge, Card } from "~/components/ui";
import { formatInstrument, normaliseTimeframe } from "~/lib/format";
import { heroDecisionView, timeframeLabel } from "~/lib/hero-decisions";
import { useDisplay } from "~/lib/hooks";

/** One of the loop status's last decisions (app/services/trading/bot-status.server.ts botStatus), as the hero shows it. */
export interface HeroDecision {
  instrument: string;
  action: string;
  side: string | null;
  timeframe: string | null;
  /** The engine's reason, followed by the risk gate's refusal when there was one. */
  reason: string;
  reasonMsg: Msg | null;
  /** Absent in statuses from before issue 22: the row then reads as before. */
  executed?: boolean;
  refusal?: string | null;
  refusalMsg?: Msg | null;
  signal?: string;
  signalMsg?: Msg | null;
  at: string;
}

/**
 * "Últimas decisões da IA": per decision the pair, timeframe, badge and age, then its reason. A
 * refused entry shows the amber "Recusada" badge, the side as secondary text, and its refusal
 * before the engine's reason.
 */
export function DecisionsCard({ decisions, intervalSec, now }: { decisions: HeroDecision[]; intervalSec: number; now: Date }) {
  const { t } = useTranslation("hero");
  const fmt = useDisplay();
  /** A server-made text in the current language: its message when it has one (ADR 0007), else the text. */
  const text = (value: string | null | undefined, m: Msg | null | undefined) => (m ? formatMsg(t, m) : (value ?? ""));
  return (
    <Card title={t("decisions.title")} action={<span className="text-xs text-slate-400">{t("decisions.every", { seconds: intervalSec })}</span>}>
      {decisions.length === 0 ? (
        <p className="text-sm text-slate-400">{t("decisions.empty")}</p>
      ) : (
        <ul className="space-y-2" data-testid="decisions">
          {decisions.map((d, i) => {
            const view = heroDecisionView(d);
            const refusal = view.refused ? text(d.refusal, d.refusalMsg) : "";
            let reason: ReactNode = text(d.reason, d.reasonMsg);
            if (view.refused && refusal) {
              reason = (
                <>
                  <span className="font-medium text-amber-200" data-testid="decision-refusal">
                    {refusal}
                  </span>
                  <span className="block text-xs text-slate-400">{text(d.signal ?? d.reason, d.signal !== undefined ? d.signalMsg : d.reasonMsg)}</span>
                </>
              );
            }
            return (
              <li key={`${d.at}-${i}`} className="rounded-xl bg-white/[0.03] p-3 ring-1 ring-white/5" data-refused={view.refused ? "true" : undefined}>
                <div className="flex items-center justify-between gap-2">
                  <span className="font-semibold text-slate-100">
                    {formatInstrument(d.instrument)} <span className="ml-1 text-xs font-medium text-sky-300">{normaliseTimeframe(d.timeframe)}</span>
                  </span>
                  <span className="flex items-center gap-2 text-xs text-slate-400">
                    {view.sideLabel && <span data-testid="decision-side">{t("decisions.refusedSide", { side: t(view.sideLabel) })}</span>}
                    <Badge tone={view.tone} data-testid="decision-badge">
                      {t(view.badge)}
                    </Badge>
                    <span suppressHydrationWarning>{fmt.relative(d.at, now)}</span>
                  </span>
                </div>
                <p className="mt-1 text-sm text-slate-300" data-testid="decision-reason">
                  {reason}
                </p>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}

/**
 * "Configuração da IA": analysis interval, timeframe ("Automático (M5, M15, M30, H1)" or
 * "Manual (<timeframe>)" — `timeframe` is the one the engine uses with automatic selection off),
 * monitoring, and the link to /settings.
 */
export function AiConfigCard({ intervalSec, autoTimeframe, timeframe }: { intervalSec: number; autoTimeframe: boolean; timeframe: string | null }) {
  const { t } = useTranslation("hero");
  const tf = timeframeLabel(autoTimeframe, timeframe);
  return (
    <Card
      title={
        <span className="flex items-center gap-2">
          <CpuIcon size={16} /> {t("config.title")}
        </span>
      }
      action={
        <Link to="/settings" className="text-xs font-semibold text-emerald-300 hover:underline">
          {t("config.adjust")}
        </Link>
      }
      data-testid="ai-config-card"
    >
      <ul className="space-y-1.5 text-sm text-slate-300">
        <li className="flex justify-between gap-2">
          <span className="text-slate-400">{t("config.interval")}</span> <span>{t("config.seconds", { seconds: intervalSec })}</span>
        </li>
        <li className="flex justify-between gap-2">
          <span className="text-slate-400">{t("config.timeframe")}</span>{" "}
          <span className="text-right" data-testid="ai-config-timeframe">
            {t(tf.key, tf.values)}
          </span>
        </li>
        <li className="flex justify-between gap-2">
          <span className="text-slate-400">{t("config.monitoring")}</span> <span>{t("config.always")}</span>
        </li>
      </ul>
    </Card>
  );
}
