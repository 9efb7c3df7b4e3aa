/**
 * /backtest/:id (issue 12): one of the user's backtest runs. While queued or running: a progress
 * bar, refreshed by polling GET /api/backtest/:id every second (without JavaScript: a meta refresh
 * every 2 s). When done: the verdict against random entries ("É melhor que o acaso?"), the equity
 * curve with the random baseline band, the drawdown, the statistics and the trade list with the
 * reasons in the user's language. Not nested under /backtest (the `_` in the file name).
 */
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { DrawdownChart, EquityChart, pairsLabel, SettingsSummary, StatsTable, StatusBadge, TradeList, Verdict } from "~/components/backtest/backtest-views";
import { Banner, Card } from "~/components/ui";
import { metaTitle, useDisplay } from "~/lib/hooks";
import { requireAppUser } from "~/route-support/pages.server";
import { getRun } from "~/services/backtest/runs.server";
import type { RunView } from "~/lib/backtest-run";
import { NotFoundError } from "~/services/platform/errors.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "backtest", "metaTitle");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireAppUser(request);
  try {
    return data({ run: await getRun(user.id, params.id ?? "") }, { headers: { "Cache-Control": "no-store" } });
  } catch (err) {
    if (err instanceof NotFoundError) throw new Response(err.messageIn(user.preferences?.language), { status: 404 });
    throw err;
  }
}

/** Polls the run's API every second while it is queued or running; reloads the page data when it ends. */
function useRunProgress(run: RunView): { status: RunView["status"]; progress: number } {
  const [live, setLive] = useState({ status: run.status, progress: run.progress });
  const { revalidate } = useRevalidator();
  useEffect(() => setLive({ status: run.status, progress: run.progress }), [run.status, run.progress]);
  useEffect(() => {
    if (run.status !== "queued" && run.status !== "running") return;
    let stopped = false;
    const timer = window.setInterval(async () => {
      try {
        const res = await fetch(`/api/backtest/${run.id}`, { headers: { accept: "application/json" } });
        if (!res.ok || stopped) return;
        const body = (await res.json()) as { run: RunView };
        setLive({ status: body.run.status, progress: body.run.progress });
        if (body.run.status === "done" || body.run.status === "failed") {
          stopped = true;
          window.clearInterval(timer);
          revalidate();
        }
      } catch {
        // offline for a moment: the next poll tries again
      }
    }, 1000);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [run.id, run.status, revalidate]);
  return live;
}

/** The run page. */
export default function BacktestRunPage() {
  const { run } = useLoaderData<typeof loader>();
  const { t } = useTranslation("backtest");
  const d = useDisplay();
  const live = useRunProgress(run);
  const active = run.status === "queued" || run.status === "running";
  const p = run.params;
  return (
    <main className="mx-auto max-w-6xl space-y-5 px-4 pb-8 pt-4 md:pt-8" data-testid="backtest-run" data-status={run.status}>
      <div className="space-y-1">
        <Link to="/backtest" className="text-sm text-emerald-300 hover:underline">
          ← {t("back")}
        </Link>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold text-white">{t("runTitle", { pairs: pairsLabel(p.instruments) })}</h1>
          <StatusBadge status={active ? live.status : run.status} />
        </div>
        <p className="text-sm text-slate-400" data-testid="run-period">
          {t("runPeriod", { from: p.from, to: p.to, source: t(`source.${p.source}`), balance: d.money(p.initialBalance, p.accountCurrency) })}
          {run.durationMs != null && run.status === "done" && <> · {t("duration", { seconds: d.number(run.durationMs / 1000, 1) })}</>}
        </p>
        {p.source === "long" && (
          <p className="text-xs text-slate-500" data-testid="run-source">
            {t("longNote", { from: p.from, to: p.to })}
          </p>
        )}
        {run.result?.calendar && (
          <p className="text-xs text-slate-500" data-testid="run-calendar">
            {!run.result.calendar.newsFilter
              ? t("calendarUsed.off")
              : run.result.calendar.events === 0
                ? t("calendarUsed.empty")
                : t("calendarUsed.on", {
                    inPeriod: d.number(run.result.calendar.inPeriod, 0),
                    events: d.number(run.result.calendar.events, 0),
                    first: run.result.calendar.first!.slice(0, 10),
                    last: run.result.calendar.last!.slice(0, 10),
                    blocked: d.number(run.result.newsBlocked, 0),
                  })}
          </p>
        )}
      </div>

      {active && (
        <Card title={t("progressTitle")} data-testid="progress-card">
          <noscript>
            <meta httpEquiv="refresh" content="2" />
          </noscript>
          <div
            role="progressbar"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={live.progress}
            aria-label={t("progress", { pct: live.progress })}
            className="h-3 w-full overflow-hidden rounded-full bg-white/10"
            data-testid="progress-bar"
          >
            <div className="h-full rounded-full bg-emerald-500 transition-[width] duration-500" style={{ width: `${Math.max(2, live.progress)}%` }} />
          </div>
          <p className="mt-2 text-sm tabular-nums text-slate-300" data-testid="progress-text">
            {t("progress", { pct: live.progress })}
          </p>
          <p className="mt-1 text-xs text-slate-500">{t("progressHint")}</p>
        </Card>
      )}

      {run.status === "failed" && (
        <Banner tone="error">
          <p className="font-semibold">{t("failedTitle")}</p>
          <p className="mt-0.5" data-testid="run-error">{run.error}</p>
        </Banner>
      )}

      {run.status === "done" && run.result && (
        <>
          <Verdict run={run} />
          <EquityChart run={run} />
          <div className="grid gap-5 lg:grid-cols-2">
            <DrawdownChart run={run} />
            <Card title={t("stats.title")}>
              <StatsTable runs={[run]} labels={[pairsLabel(p.instruments)]} />
            </Card>
          </div>
          <TradeList run={run} />
          <SettingsSummary settings={p.settings} editLink={false} />
        </>
      )}
    </main>
  );
}
