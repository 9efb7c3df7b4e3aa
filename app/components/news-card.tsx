/**
 * The hero's economic-calendar card (issue 11, ADR 0018): a running news blackout as a timeline bar
 * ("Bloqueio por notícia: <evento> até HH:MM") and the next relevant events (user's instruments and
 * news settings, next 24 h, at most 5) with impact badge and currency, times in the user's time zone.
 * Data: the hero loader's `news` (app/services/trading/calendar.server.ts heroNews; no broker call). With the
 * news filter off it only says so.
 */
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Badge, Card, type Tone } from "~/components/ui";
import { formatInstrument } from "~/lib/format";
import { useDisplay } from "~/lib/hooks";
import type { HeroNews } from "~/lib/news";

const IMPACT_TONE: Record<string, Tone> = { high: "red", medium: "amber", low: "blue", "non-economic": "grey" };

/** Share of the blackout already elapsed at `now`, 0–100. */
function elapsedPct(from: string, until: string, now: string): number {
  const a = Date.parse(from);
  const b = Date.parse(until);
  const n = Date.parse(now);
  if (!(b > a)) return 100;
  return Math.min(100, Math.max(0, ((n - a) / (b - a)) * 100));
}

export function NewsCard({ news }: { news: HeroNews }) {
  const { t } = useTranslation("news");
  const fmt = useDisplay();
  return (
    <Card title={t("title")} data-testid="news-card">
      {!news.enabled ? (
        <p className="text-sm text-slate-400" data-testid="news-disabled">
          {t("disabled")}.{" "}
          <Link to="/settings" className="font-semibold text-emerald-300 hover:underline">
            {t("enable")}
          </Link>
        </p>
      ) : (
        <>
          {news.blackout && (
            <div className="mb-3 rounded-xl bg-rose-500/10 p-3 ring-1 ring-rose-400/30" data-testid="news-blackout">
              <p className="text-sm font-semibold text-rose-200">{t("blackout", { event: news.blackout.event, time: fmt.time(news.blackout.until) })}</p>
              <div
                className="mt-2 h-2 w-full overflow-hidden rounded-full bg-white/10"
                role="progressbar"
                aria-label={t("window", { from: fmt.time(news.blackout.from), to: fmt.time(news.blackout.until) })}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={Math.round(elapsedPct(news.blackout.from, news.blackout.until, news.now))}
              >
                <div className="h-full rounded-full bg-rose-400" style={{ width: `${elapsedPct(news.blackout.from, news.blackout.until, news.now)}%` }} />
              </div>
              <div className="mt-1 flex justify-between text-xs text-rose-200/80">
                <span>{fmt.time(news.blackout.from)}</span>
                <span>{fmt.time(news.blackout.until)}</span>
              </div>
              <p className="mt-1 text-xs text-slate-300">{t("blackoutHint", { instruments: news.blackout.instruments.map(formatInstrument).join(", ") })}</p>
            </div>
          )}
          {news.events.length === 0 ? (
            <p className="text-sm text-slate-400" data-testid="news-empty">
              {t("empty")}
            </p>
          ) : (
            <>
              <p className="mb-2 text-xs text-slate-400">{t("next")}</p>
              <ul className="space-y-2" data-testid="news-events">
                {news.events.map((e) => (
                  <li key={`${e.time}-${e.currency}-${e.title}`} className="flex items-start justify-between gap-3 rounded-xl bg-white/[0.03] p-2.5 ring-1 ring-white/5">
                    <div className="min-w-0">
                      <p className="truncate text-sm font-medium text-slate-100" title={e.title}>
                        {e.title}
                      </p>
                      <p className="text-xs text-slate-400">
                        <span suppressHydrationWarning>{fmt.dateTime(e.time)}</span> · {e.currency}
                        {e.active && <span className="ml-1 font-semibold text-rose-300">· {t("inBlackout")}</span>}
                      </p>
                    </div>
                    <Badge tone={IMPACT_TONE[e.impact] ?? "grey"} aria-label={t("impactLabel", { impact: t(`impact.${e.impact}`) })}>
                      {t(`impact.${e.impact}`)}
                    </Badge>
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
    </Card>
  );
}
