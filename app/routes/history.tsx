/**
 * /history 'Histórico de Trades' (PRODUCT.md §2 History, §5 History filters and Display, §8, §9):
 * filters and search live in the URL query (bookmarkable, work without JavaScript; applied live with
 * it), the window is the filter's dates else 30 days, desktop-only search / summary / Atualizar /
 * Exportar CSV (GET /history.csv with the same query), mobile 'Atualizar Histórico'.
 */
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useState, type MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { HistoryFilterForm } from "~/components/history/history-filters";
import { HistoryEmpty, HistoryRowItem, HistorySummary } from "~/components/history/history-list";
import { OriginSplit } from "~/components/history/origin";
import { Badge, Banner, Card, Spinner } from "~/components/ui";
import { i18nFor } from "~/i18n";
import { DEFAULT_TIMEZONE, filtersToSearch, hasActiveFilters, historyStats, HISTORY_WINDOW_DAYS } from "~/lib/history";
import { loadHistory, type HistoryData } from "~/route-support/history.server";
import { metaTitle } from "~/lib/hooks";
import { requireAppUser } from "~/route-support/pages.server";
import { DomainError } from "~/services/platform/errors.server";
import { publicUser } from "~/services/identity/auth.server";
import { getConnection } from "~/services/broker/broker.server";
import { displayRateFor } from "~/services/broker/display-currency.server";
import { DisplayRateNotice } from "~/components/display-amount";
import type { DisplayRate } from "~/lib/display-currency";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "history", "metaTitle");

type LoaderData = HistoryData & { licensed: boolean; loadError: string | null; displayRate?: DisplayRate | null };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAppUser(request);
  const url = new URL(request.url);
  const pub = await publicUser(user);
  let history: HistoryData;
  try {
    history = await loadHistory(user, url);
  } catch (err) {
    console.error("[history] falha ao carregar:", err);
    const language = user.preferences?.language;
    const message = err instanceof DomainError ? err.messageIn(language) : i18nFor(language).t("history:loadFailed");
    return data<LoaderData>(
      { filters: {}, filterError: null, filterErrorField: null, timezone: DEFAULT_TIMEZONE, days: HISTORY_WINDOW_DAYS, currency: "USD", connected: false, total: 0, rows: [], licensed: pub.hasValidLicense, loadError: message },
      { status: 500 },
    );
  }
  if (!pub.hasValidLicense) return data<LoaderData>({ ...history, total: 0, rows: [], licensed: false, loadError: null });
  // Issue 22: the P&L also in the display currency at the broker's rate (never throws).
  const displayRate = history.connected ? await displayRateFor(user, await getConnection(user.id), history.currency) : null;
  return data<LoaderData>({ ...history, licensed: true, loadError: null, displayRate }, { status: history.filterError ? 400 : 200 });
}

const ACTION_LINK =
  "inline-flex min-h-11 items-center justify-center gap-2 rounded-xl px-4 py-2.5 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2";

/** The trade history page. */
export default function HistoryPage() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("history");
  const location = useLocation();
  const navigation = useNavigation();
  const { revalidate, state: revalidation } = useRevalidator();
  const [refreshing, setRefreshing] = useState(false);
  const [refreshed, setRefreshed] = useState(false);
  const loading = revalidation === "loading" || (navigation.state === "loading" && navigation.location.pathname === "/history");

  useEffect(() => {
    if (refreshing && revalidation === "idle") {
      setRefreshing(false);
      setRefreshed(true);
    }
  }, [refreshing, revalidation]);
  useEffect(() => setRefreshed(false), [location.search]);

  /** Atualizar: reloads the data in place (without JavaScript the link reloads the page). */
  function refresh(e: MouseEvent) {
    e.preventDefault();
    setRefreshed(false);
    setRefreshing(true);
    revalidate();
  }

  const filtered = hasActiveFilters(d.filters);
  const stats = historyStats(d.rows);
  const search = filtersToSearch(d.filters);
  const here = `/history${search}`;

  return (
    <main className="mx-auto max-w-6xl space-y-5 px-4 pb-8 pt-4 md:pt-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-white">{t("title")}</h1>
          <p className="text-sm text-slate-400">{t("subtitle")}</p>
        </div>
        <div className="hidden items-center gap-2 lg:flex">
          <a href={here} onClick={refresh} className={`${ACTION_LINK} bg-white/10 text-slate-100 hover:bg-white/15`} data-testid="refresh">
            {refreshing && <Spinner />}
            {t("refresh")}
          </a>
          <a href={`/history.csv${search}`} download className={`${ACTION_LINK} bg-emerald-500 text-slate-950 hover:bg-emerald-400`} data-testid="export-csv">
            {t("exportCsv")}
          </a>
        </div>
      </div>

      {!d.licensed && (
        <Banner tone="warning">
          <p className="font-semibold">{t("licenceTitle")}</p>
          <p className="mt-0.5">{t("licenceText")}</p>
          <Link to="/billing" className="mt-2 inline-flex min-h-10 items-center rounded-xl bg-amber-400 px-3 font-semibold text-slate-950 hover:bg-amber-300">
            {t("subscribe")}
          </Link>
        </Banner>
      )}

      <HistoryFilterForm filters={d.filters} error={d.filterError} errorField={d.filterErrorField} />

      {d.loadError && (
        <Card className="border-rose-400/30" role="alert" data-testid="history-error">
          <p className="font-semibold text-rose-300">{t("errorTitle")}</p>
          <p className="mt-1 text-sm text-rose-200">{d.loadError}</p>
        </Card>
      )}

      {d.licensed && !d.loadError && d.total > 0 && <DisplayRateNotice />}
      {d.licensed && !d.loadError && d.total > 0 && <HistorySummary stats={stats} currency={d.currency} />}
      {d.licensed && !d.loadError && d.total > 0 && <OriginSplit rows={d.rows} currency={d.currency} />}

      <section aria-labelledby="history-list-title" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <h2 id="history-list-title" className="text-lg font-semibold text-white">
              {t("listTitle")}
            </h2>
            <span className="text-sm text-slate-400" data-testid="history-count">
              {t("count", { shown: d.rows.length, total: d.total })}
            </span>
            {filtered && (
              <Badge tone="amber" data-testid="filtered-badge">
                {t("filtered")}
              </Badge>
            )}
            {refreshed && (
              <Badge tone="green" data-testid="updated-badge">
                {t("updated")}
              </Badge>
            )}
          </div>
          <span className="text-xs text-slate-500">{t("window", { days: d.days })}</span>
        </div>

        {loading && (
          <p role="status" className="flex items-center gap-2 text-sm text-slate-400" data-testid="history-loading">
            <Spinner /> {t("loading")}
          </p>
        )}

        {!d.loadError && d.licensed && !d.connected && (
          <Banner tone="info">
            {t("noBroker")}{" "}
            <Link to="/" className="font-semibold underline">
              {t("connect")}
            </Link>
          </Banner>
        )}

        {!d.loadError && (d.rows.length === 0 ? <HistoryEmpty filtered={filtered} days={d.days} /> : null)}
        {d.rows.length > 0 && (
          <ul className="space-y-2" data-testid="history-rows">
            {d.rows.map((trade) => (
              <HistoryRowItem key={trade.id} trade={trade} currency={d.currency} timezone={d.timezone} />
            ))}
          </ul>
        )}
      </section>

      <a href={here} onClick={refresh} className={`${ACTION_LINK} w-full bg-white/10 text-slate-100 hover:bg-white/15 lg:hidden`} data-testid="refresh-mobile">
        {refreshing && <Spinner />}
        {t("refreshMobile")}
      </a>
    </main>
  );
}
