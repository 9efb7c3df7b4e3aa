/**
 * /admin/usuarios/{id} — the read-only support view of one user (issue 10 "support sees a user's
 * state read-only (status, bot, last decisions, broker errors), never the broker token";
 * impersonation is not offered): account, subscription and licence status, licence history and its
 * changes, the bot's state, the last 20 decisions with their reasons, the last broker errors and a
 * trade count. Dates in America/Sao_Paulo (PRODUCT.md §9). Nothing here writes.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AccountBadge, AdminBadge, BrokerBadge, displayName, LicenceBadge, StripeBadge, useAdminDates } from "~/components/admin-users";
import { Badge, Banner, Card } from "~/components/ui";
import { formatInstrument, formatNumber } from "~/lib/format";
import { metaTitle } from "~/lib/hooks";
import { requireAdminPage } from "~/services/admin/access.server";
import { adminUserDetail } from "~/services/admin/user-detail.server";
import { NotFoundError } from "~/services/platform/errors.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "admin-accounts", "metaDetail");

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user } = await requireAdminPage(request);
  const language = user.preferences?.language;
  try {
    return await adminUserDetail(String(params.id), language);
  } catch (err) {
    if (err instanceof NotFoundError) throw new Response(err.messageIn(language), { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    throw err;
  }
}

/** A label / value row. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-2 py-2">
      <dt className="text-sm text-slate-400">{label}</dt>
      <dd className="text-right text-sm text-slate-100">{children}</dd>
    </div>
  );
}

/** The support view. */
export default function AdminUserDetailPage() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("admin-accounts");
  const { dateTime, date } = useAdminDates();
  const u = d.user;
  const yesNo = (v: boolean) => t(v ? "detail.yes" : "detail.no");
  return (
    <div className="mx-auto max-w-6xl space-y-5">
      <Link to="/admin/usuarios" className="text-sm font-semibold text-emerald-300 hover:underline">
        ← {t("detail.back")}
      </Link>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-2 text-2xl font-bold text-white">
            {displayName(u)}
            {u.role === "admin" && <AdminBadge />}
          </h1>
          <p className="truncate text-sm text-slate-400">{u.email}</p>
        </div>
        {!u.deletedAt && (
          <Link
            to={`/admin/usuarios?editar=${u.id}`}
            className="inline-flex min-h-11 items-center justify-center rounded-xl bg-white/10 px-4 text-sm font-semibold text-slate-100 hover:bg-white/15"
          >
            {t("detail.edit")}
          </Link>
        )}
      </div>
      <Banner tone="info">{t("detail.readOnly")}</Banner>
      {u.deletedAt && <Banner tone="warning">{t("detail.deleted", { date: dateTime(u.deletedAt), email: u.deletedEmail ?? "—" })}</Banner>}

      <div className="grid gap-4 lg:grid-cols-3">
        <Card title={t("detail.status")} data-testid="support-status">
          <dl className="divide-y divide-white/5">
            <Row label={t("columns.account")}>
              <AccountBadge user={u} />
            </Row>
            <Row label={t("detail.role")}>{u.role === "admin" ? t("admin") : t("detail.roleUser")}</Row>
            <Row label={t("detail.subscription")}>
              <StripeBadge user={u} />
            </Row>
            <Row label={t("detail.customer")}>{u.stripeCustomerId ?? "—"}</Row>
            <Row label={t("columns.licence")}>
              <LicenceBadge user={u} />
            </Row>
            <Row label={t("detail.verified")}>{yesNo(!!u.emailVerifiedAt)}</Row>
            <Row label={t("detail.created")}>{dateTime(u.createdAt)}</Row>
            <Row label={t("detail.lastLogin")}>{u.lastLogin ? dateTime(u.lastLogin) : t("never")}</Row>
          </dl>
        </Card>

        <Card title={t("detail.bot")} data-testid="support-bot">
          <dl className="divide-y divide-white/5">
            <Row label={t("detail.state")}>
              <Badge tone={d.bot.isActive ? "green" : "red"}>{t(d.bot.isActive ? "detail.botActive" : "detail.botInactive")}</Badge>
            </Row>
            {d.bot.manageOnly && <Row label={t("detail.state")}>{t("detail.manageOnly", { reason: d.bot.manageOnlyReason ?? "" })}</Row>}
            <Row label={t("detail.interval")}>{t("detail.seconds", { count: d.bot.intervalSec })}</Row>
            <Row label={t("detail.lastStart")}>{dateTime(d.bot.lastStartedAt)}</Row>
            <Row label={t("detail.lastStop")}>{dateTime(d.bot.lastStoppedAt)}</Row>
            {!d.bot.isActive && <Row label={t("detail.stopReason")}>{d.bot.lastStopReasonText ?? "—"}</Row>}
            <Row label={t("detail.lastTick")}>{dateTime(d.bot.lastTickAt)}</Row>
          </dl>
        </Card>

        <Card title={t("columns.broker")} data-testid="support-broker">
          <dl className="divide-y divide-white/5">
            <Row label={t("detail.connection")}>
              <BrokerBadge user={u} />
            </Row>
            <Row label={t("detail.trades")}>
              {t("detail.openTrades")}: {d.trades.open} · {t("detail.closedTrades")}: {d.trades.closed}
            </Row>
            <Row label={t("detail.realized")}>{d.trades.realizedPL === null ? "—" : formatNumber(Number(d.trades.realizedPL), 2)}</Row>
          </dl>
        </Card>
      </div>

      <Card title={t("detail.brokerErrors")} data-testid="support-errors">
        {!d.brokerErrors.connectionError && !d.brokerErrors.lastTickError && d.brokerErrors.notifications.length === 0 ? (
          <p className="text-sm text-slate-400">{t("detail.brokerErrorsEmpty")}</p>
        ) : (
          <div className="space-y-3">
            <dl className="divide-y divide-white/5">
              {d.brokerErrors.connectionError && <Row label={t("detail.connectionError")}>{d.brokerErrors.connectionError}</Row>}
              {d.brokerErrors.lastTickError && <Row label={t("detail.tickError")}>{d.brokerErrors.lastTickError}</Row>}
            </dl>
            <ul className="space-y-2">
              {d.brokerErrors.notifications.map((n) => (
                <li key={n.id} className="rounded-xl bg-rose-500/5 p-3 ring-1 ring-rose-400/20">
                  <p className="text-sm font-semibold text-rose-200">{n.title}</p>
                  <p className="text-sm text-slate-300">{n.message}</p>
                  <p className="mt-1 text-xs text-slate-400">{dateTime(n.createdAt)}</p>
                </li>
              ))}
            </ul>
          </div>
        )}
      </Card>

      <Card title={t("detail.decisions")} data-testid="support-decisions">
        {d.decisions.length === 0 ? (
          <p className="text-sm text-slate-400">{t("detail.decisionsEmpty")}</p>
        ) : (
          <ul className="divide-y divide-white/5">
            {d.decisions.map((x, i) => (
              <li key={`${x.at}-${i}`} className="grid gap-1 py-2.5 text-sm md:grid-cols-[10rem_7rem_9rem_1fr] md:gap-3">
                <span className="text-slate-400">{dateTime(x.at)}</span>
                <span className="font-semibold text-slate-100">{formatInstrument(x.instrument)}</span>
                <span className="text-slate-200">
                  {x.action}
                  {x.side ? ` ${x.side}` : ""}
                  {x.timeframe ? ` · ${x.timeframe}` : ""}
                  {x.confidence !== null ? ` · ${formatNumber(x.confidence * (x.confidence <= 1 ? 100 : 1), 0)}%` : ""}
                </span>
                <span className="text-slate-300">
                  {x.reason}
                  {x.executed && (
                    <Badge tone="green" className="ml-2">
                      {t("detail.executed")}
                    </Badge>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </Card>

      <div className="grid gap-4 lg:grid-cols-2">
        <Card title={t("detail.licences")} data-testid="support-licences">
          {d.licences.length === 0 ? (
            <p className="text-sm text-slate-400">{t("detail.licencesEmpty")}</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead className="text-xs text-slate-400">
                  <tr>
                    <th scope="col" className="py-2 pr-3">
                      {t("detail.kind")}
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      {t("detail.key")}
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      {t("detail.start")}
                    </th>
                    <th scope="col" className="py-2 pr-3">
                      {t("detail.end")}
                    </th>
                    <th scope="col" className="py-2">
                      {t("detail.state")}
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-white/5">
                  {d.licences.map((l) => (
                    <tr key={l.id}>
                      <td className="py-2 pr-3 text-slate-100">
                        {t(`detail.kinds.${l.kind}`, { defaultValue: l.kind })}
                        {l.planName ? <span className="block text-xs text-slate-400">{l.planName}</span> : null}
                      </td>
                      <td className="py-2 pr-3 font-mono text-xs text-slate-300">{l.keyPrefix}…</td>
                      <td className="py-2 pr-3 text-slate-300">{date(l.startDate)}</td>
                      <td className="py-2 pr-3 text-slate-300">{date(l.endDate)}</td>
                      <td className="py-2">
                        <Badge tone={l.isValid ? "green" : "grey"}>{t(l.isValid ? "licence.valid" : "licence.expired")}</Badge>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>

        <Card title={t("detail.changes")} data-testid="support-licence-changes">
          {d.licenceChanges.length === 0 ? (
            <p className="text-sm text-slate-400">—</p>
          ) : (
            <ul className="divide-y divide-white/5">
              {d.licenceChanges.map((c, i) => (
                <li key={`${c.at}-${i}`} className="flex flex-wrap justify-between gap-2 py-2 text-sm">
                  <span className="text-slate-100">
                    {t(`detail.changeKinds.${c.change}`, { defaultValue: c.change })} · {t("detail.end")}: {date(c.endAfter)}
                  </span>
                  <span className="text-slate-400">
                    {t("detail.source")}: {c.source} · {dateTime(c.at)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </div>
  );
}
