/**
 * Who opened a trade (issue 22, migration 0022 `trades.origin`): the "Manual" badge of a trade the
 * user opened by a manual order (or outside the app), shown in /history and on the trade page, and
 * the history's statistics split by origin (the summary above it counts every trade shown; this
 * says so and gives the AI's and the manual figures apart).
 */
import { useTranslation } from "react-i18next";
import { historyStats, type HistoryTrade } from "~/lib/history";
import { useDisplay } from "~/lib/hooks";
import { Badge } from "../ui";

/** The "Manual" badge; nothing for the AI's trades (or an unknown origin). */
export function ManualBadge({ origin }: { origin: string | null | undefined }) {
  const { t } = useTranslation("manual-order");
  if (origin !== "manual") return null;
  return (
    <Badge tone="orange" title={t("badgeTitle")} data-testid="manual-badge">
      {t("badge")}
    </Badge>
  );
}

/** The AI's and the manual trades' figures apart (trades, P&L, win rate), under the summary of all shown trades. */
export function OriginSplit({ rows, currency }: { rows: readonly HistoryTrade[]; currency: string }) {
  const { t } = useTranslation("manual-order");
  const fmt = useDisplay();
  const groups = (["ai", "manual"] as const).map((origin) => ({ origin, stats: historyStats(rows.filter((r) => (r.origin ?? "ai") === origin)) }));
  return (
    <div className="hidden rounded-2xl bg-white/[0.03] p-4 text-sm ring-1 ring-white/10 lg:block" data-testid="origin-split">
      <p className="font-semibold text-slate-200">{t("split.title")}</p>
      <p className="text-xs text-slate-400">{t("split.note")}</p>
      <dl className="mt-2 grid grid-cols-2 gap-3">
        {groups.map(({ origin, stats }) => (
          <div key={origin} data-testid={`origin-split-${origin}`}>
            <dt className="text-xs text-slate-400">{t(`origin.${origin}`)}</dt>
            <dd className="tabular-nums text-slate-200">
              {t("split.line", { count: stats.total, pnl: fmt.money(stats.pnlTotal, currency, { signed: true }), winRate: fmt.percent(stats.winRate) })}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
