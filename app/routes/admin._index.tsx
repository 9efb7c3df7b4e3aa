/**
 * /admin — the admin dashboard (PRODUCT.md §2 Admin panel "Dashboard", §9; issue 10): stat cards
 * (users + new this week, active / inactive, valid / expired licences, broker-connected %, admins,
 * monthly revenue in USD — an estimate at fixed rates, see app/services/admin/dashboard.server.ts
 * `USD_PER_UNIT`), the 5 newest users, the language bars (pt Português, en English, es Español),
 * system activity (8 latest logins, newest first), a refresh button (a GET link: works without
 * JavaScript), and the operator's figures: AI loops on, bots that ticked / decisions / broker errors
 * in the last hour, queue depth and dead letters. Dates in America/Sao_Paulo.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { StatCard } from "~/components/admin/stat-card";
import { Badge, Card } from "~/components/ui";
import { formatDateTime, formatNumber } from "~/lib/format";
import { metaTitle, useDisplay } from "~/lib/hooks";
import { requireAdminPage } from "~/services/admin/access.server";
import { getDashboard, type DashboardUser } from "~/services/admin/dashboard.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "admin-dashboard", "meta");

/** Admin dates are shown in this zone (PRODUCT.md §9). */
const ADMIN_TZ = "America/Sao_Paulo";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  return getDashboard();
}

/** The admin dashboard. */
export default function AdminDashboard() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("admin-dashboard");
  const { locale } = useDisplay();
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  const refreshing = revalidator.state === "loading" || navigation.state === "loading";
  const n = (v: number | null) => (v === null ? "—" : formatNumber(v, 0, locale));
  const usd = new Intl.NumberFormat(locale, { style: "currency", currency: "USD" }).format(d.revenue.monthlyUsd);
  const when = (iso: string | null) => formatDateTime(iso, { locale, timeZone: ADMIN_TZ });
  const ops = d.operations;

  return (
    <div className="mx-auto max-w-6xl space-y-5">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-white">{t("title")}</h1>
          <p className="mt-1 text-sm text-slate-400">{t("updatedAt", { when: when(d.generatedAt) })}</p>
        </div>
        <Link
          to="/admin"
          onClick={(e) => {
            e.preventDefault();
            revalidator.revalidate();
          }}
          aria-busy={refreshing}
          className="inline-flex min-h-11 items-center gap-2 rounded-xl bg-white/10 px-4 text-sm font-semibold text-slate-100 hover:bg-white/15"
        >
          {refreshing ? t("refreshing") : t("refresh")}
        </Link>
      </header>

      <section aria-label={t("cards.label")} className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
        <StatCard label={t("cards.users")} value={n(d.users.total)} hint={t("cards.newThisWeek", { count: d.users.newThisWeek })} />
        <StatCard label={t("cards.active")} value={n(d.users.active)} hint={t("cards.inactive", { count: d.users.inactive })} />
        <StatCard label={t("cards.validLicences")} value={n(d.licences.valid)} hint={t("cards.expired", { count: d.licences.expired })} />
        <StatCard label={t("cards.broker")} value={n(d.users.brokerConnected)} hint={t("cards.brokerPct", { pct: formatNumber(d.users.brokerConnectedPct, 1, locale) })} />
        <StatCard label={t("cards.admins")} value={n(d.users.admins)} />
        <StatCard
          label={t("cards.revenue")}
          value={usd}
          hint={
            <span title={t("cards.revenueRates", { rates: Object.entries(d.revenue.rates).map(([c, r]) => `1 ${c} = ${r} USD`).join(" · ") })}>
              {t("cards.revenueHint", { count: d.revenue.subscribers })}
            </span>
          }
        />
      </section>
      <p className="text-xs text-slate-500">
        {t("cards.revenueNote", { rates: Object.entries(d.revenue.rates).filter(([c]) => c !== "USD").map(([c, r]) => `1 ${c} ≈ ${r} USD`).join(", ") })}
        {d.revenue.unconverted.length > 0 && ` ${t("cards.unconverted", { currencies: d.revenue.unconverted.join(", ") })}`}
      </p>

      <Card title={t("ops.title")}>
        <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6">
          <StatCard label={t("ops.activeLoops")} value={n(ops.activeLoops)} />
          <StatCard label={t("ops.botsTicked")} value={n(ops.botsTickedLastHour)} />
          <StatCard label={t("ops.decisions")} value={n(ops.decisionsLastHour)} />
          <StatCard label={t("ops.brokerErrors")} value={n(ops.brokerErrorsLastHour)} tone={ops.brokerErrorsLastHour > 0 ? "bad" : undefined} />
          <StatCard label={t("ops.queueDepth")} value={n(ops.queueDepth)} hint={ops.queues === null ? t("ops.queueOff") : undefined} />
          <StatCard label={t("ops.deadLetters")} value={n(ops.deadLetters)} tone={(ops.deadLetters ?? 0) > 0 ? "bad" : undefined} hint={ops.failedLastDay !== null ? t("ops.failedLastDay", { count: ops.failedLastDay }) : undefined} />
        </div>
        {ops.queues && ops.queues.length > 0 && (
          <ul className="mt-3 flex flex-wrap gap-2 text-xs text-slate-300" aria-label={t("ops.perQueue")}>
            {ops.queues.map((q) => (
              <li key={q.name} className="rounded-full bg-white/5 px-3 py-1 ring-1 ring-white/10">
                <span className="font-mono">{q.name}</span>: {t("ops.queueLine", { waiting: q.waiting, active: q.active })}
              </li>
            ))}
          </ul>
        )}
      </Card>

      <div className="grid gap-5 lg:grid-cols-2">
        <Card title={t("recent.title")}>
          <UserList users={d.recentUsers} empty={t("recent.empty")} detail={(u) => t("recent.joined", { when: when(u.createdAt) })} />
        </Card>
        <Card title={t("activity.title")}>
          <UserList users={d.activity} empty={t("activity.empty")} detail={(u) => t("activity.lastLogin", { when: when(u.lastLogin) })} />
        </Card>
      </div>

      <Card title={t("languages.title")}>
        <ul className="space-y-3">
          {d.languages.map((l) => (
            <li key={l.language}>
              <div className="mb-1 flex justify-between text-sm">
                <span className="text-slate-200">{t(`languages.${l.language}`)}</span>
                <span className="tabular-nums text-slate-400">
                  {n(l.count)} · {formatNumber(l.pct, 1, locale)}%
                </span>
              </div>
              <div
                className="h-2.5 overflow-hidden rounded-full bg-white/5"
                role="progressbar"
                aria-label={t(`languages.${l.language}`)}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={l.pct}
              >
                <div className="h-full rounded-full bg-emerald-400" style={{ width: `${Math.min(100, l.pct)}%` }} />
              </div>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  );
}

/** A list of users: name (or e-mail), e-mail, a detail line, and the admin / inactive badges. */
function UserList({ users, empty, detail }: { users: DashboardUser[]; empty: string; detail: (u: DashboardUser) => string }) {
  const { t } = useTranslation("admin-dashboard");
  if (users.length === 0) return <p className="py-4 text-center text-sm text-slate-400">{empty}</p>;
  return (
    <ul className="divide-y divide-white/5">
      {users.map((u) => {
        const name = `${u.firstName} ${u.lastName}`.trim();
        return (
          <li key={u.id} className="flex items-center justify-between gap-3 py-2.5">
            <div className="min-w-0">
              <p className="truncate text-sm font-medium text-slate-100">{name || u.email}</p>
              {name && <p className="truncate text-xs text-slate-400">{u.email}</p>}
              <p className="text-xs text-slate-500">{detail(u)}</p>
            </div>
            <div className="flex shrink-0 flex-wrap justify-end gap-1">
              {u.role === "admin" && <Badge tone="amber">{t("badges.admin")}</Badge>}
              {!u.isActive && <Badge tone="grey">{t("badges.inactive")}</Badge>}
            </div>
          </li>
        );
      })}
    </ul>
  );
}
