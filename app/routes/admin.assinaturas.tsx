/**
 * /admin/assinaturas — Stripe's subscriptions in the admin panel (PRODUCT.md §2 "Subscriptions", §3
 * Provider subscription and metrics, §8 'Erro ao carregar assinaturas do Stripe' / 'Erro ao cancelar
 * assinatura: …', §9 page size 50, admin dates in America/Sao_Paulo; issue 10): active count and
 * monthly value per currency; a table (cards on mobile) of customer, plan/price, amount, status, next
 * charge; per row the provider dashboard link and cancel now / at period end with the confirm
 * 'Cancelar esta assinatura no Stripe?'; a status filter and a cursor (next page link); empty
 * 'Nenhuma assinatura encontrada.'. Without JavaScript the cancel links open a confirm step
 * (`?cancelar=<id>&fim=0|1`) whose form posts to the page action; with JavaScript a `confirm()`.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams, useSubmit } from "@remix-run/react";
import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { msg } from "../../core/i18n/message";
import { ExternalIcon } from "~/components/icons";
import { StatCard } from "~/components/admin/stat-card";
import { Badge, Banner, Button, Card, type Tone } from "~/components/ui";
import { INTL_LOCALE, toLanguage, translateMsg, type Language } from "~/i18n";
import { SUBSCRIPTION_STATUSES } from "~/lib/admin-plans";
import { pageAction } from "~/route-support/page-action.server";
import { formatDate } from "~/lib/format";
import { metaTitle } from "~/lib/hooks";
import { formatPlanPrice, formatPlanPricePerInterval } from "~/lib/plans";
import { requireAdminPage } from "~/services/admin/access.server";
import {
  cancelSubscription,
  listSubscriptions,
  subscriptionMetrics,
  type ProviderSubscription,
  type SubscriptionMetrics,
  type SubscriptionPage,
} from "~/services/admin/subscriptions.server";
import { DomainError, httpStatusOf } from "~/services/platform/errors.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "admin-billing", "subs.meta");

const PAGE = "/admin/assinaturas";
/** Admin dates are Brasília time (PRODUCT.md §9). */
const ADMIN_TZ = "America/Sao_Paulo";

/** The message of a failed Stripe read: the domain error's (e.g. payments not configured), else §8's. */
function readFailure(err: unknown, language: Language): string {
  if (err instanceof DomainError) return err.messageIn(language);
  console.error("[admin] falha ao carregar assinaturas:", err);
  return translateMsg(msg("admin-billing:errors.loadSubscriptions"), language);
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireAdminPage(request);
  const language = toLanguage(user.preferences?.language);
  const q = new URL(request.url).searchParams;
  const status = SUBSCRIPTION_STATUSES.includes(q.get("status") as never) ? (q.get("status") as string) : "active";
  const after = q.get("after");
  const [m, l] = await Promise.allSettled([subscriptionMetrics(), listSubscriptions({ status, startingAfter: after })]);
  return {
    language,
    status,
    after,
    metrics: m.status === "fulfilled" ? (m.value as SubscriptionMetrics) : null,
    page: l.status === "fulfilled" ? (l.value as SubscriptionPage) : null,
    error: l.status === "rejected" ? readFailure(l.reason, language) : m.status === "rejected" ? readFailure(m.reason, language) : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  /** 'Erro ao cancelar assinatura: <reason>' (PRODUCT.md §8), once even when the reason already says it. */
  const failure = (reason: DomainError | null, language: Language) =>
    reason && reason.msg && typeof reason.msg === "object" && reason.msg.key === "admin-billing:errors.cancelFailed"
      ? reason.messageIn(language)
      : translateMsg(msg("admin-billing:errors.cancelFailed", { reason: reason ? reason.msg : msg("api:internal") }), language);
  return pageAction(request, {
    page: PAGE,
    user: () => requireAdminPage(request),
    language: (actor) => actor.user.preferences?.language,
    crossSite: (error) => data({ error }, { status: 403 }),
    intents: {
      cancel: async ({ user: actor, field, form }) => {
        const atPeriodEnd = form.get("atPeriodEnd") === "1";
        const status = field("status") || "active";
        const r = await cancelSubscription(actor, field("id"), atPeriodEnd);
        const when = r.subscription.cancelAt ?? r.subscription.currentPeriodEnd;
        const back = new URLSearchParams({ status: SUBSCRIPTION_STATUSES.includes(status as never) ? status : "active", aviso: atPeriodEnd ? "scheduled" : "canceled", ...(atPeriodEnd ? { ate: String(when) } : {}) });
        return redirect(`${PAGE}?${back}`, 303);
      },
    },
    fallback: ({ language }) => data({ error: failure(null, language) }, { status: 400 }),
    domainError: (err, { language }) => data({ error: failure(err, language) }, { status: httpStatusOf(err) }),
    internal: (_err, { language }) => data({ error: failure(null, language) }, { status: 500 }),
  });
}

const STATUS_TONE: Record<string, Tone> = { active: "green", trialing: "blue", past_due: "amber", unpaid: "amber", incomplete: "amber", paused: "grey", canceled: "grey", incomplete_expired: "red" };

/** The subscriptions page. */
export default function AdminSubscriptions() {
  const { language, status, after, metrics, page, error } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const { t } = useTranslation("admin-billing");
  const locale = INTL_LOCALE[toLanguage(language)];
  const day = (epoch: number | null | undefined) => (epoch ? formatDate(new Date(epoch * 1000), { locale, timeZone: ADMIN_TZ }) : "—");
  const cancelling = params.get("cancelar");
  const cancelAtEnd = params.get("fim") === "1";
  const target = cancelling ? page?.data.find((s) => s.id === cancelling) : undefined;
  const notice = params.get("aviso");
  const until = Number(params.get("ate"));

  return (
    <div className="mx-auto max-w-6xl space-y-5">
      <header>
        <h1 className="text-2xl font-bold text-white">{t("subs.title")}</h1>
        <p className="mt-1 text-sm text-slate-400">{t("subs.subtitle")}</p>
      </header>

      {notice === "canceled" && <Banner tone="success">{t("subs.canceledNow")}</Banner>}
      {notice === "scheduled" && <Banner tone="success">{t("subs.canceledAtPeriodEnd", { date: day(Number.isFinite(until) ? until : null) })}</Banner>}
      {result?.error && <Banner tone="error">{result.error}</Banner>}
      {error && <Banner tone="error">{error}</Banner>}

      {metrics && (
        <div className="grid gap-3 sm:grid-cols-2">
          <StatCard label={t("subs.activeCount")} value={String(metrics.active_count)} />
          <StatCard
            label={t("subs.monthly")}
            hint={t("subs.monthlyHint")}
            value={
              Object.keys(metrics.mrr_monthly_by_currency).length === 0
                ? formatPlanPrice(0, "BRL")
                : Object.entries(metrics.mrr_monthly_by_currency)
                    .map(([cur, cents]) => formatPlanPrice(cents, cur))
                    .join(" · ")
            }
          />
        </div>
      )}

      {cancelling && (
        <Card className="border-rose-400/30">
          <p className="font-semibold text-white" role="alert">
            {t("subs.confirm")}
          </p>
          <p className="mt-1 text-sm text-slate-300">
            {cancelAtEnd
              ? t("subs.confirmEnd", { customer: target?.customerName ?? target?.customerEmail ?? cancelling, date: day(target?.currentPeriodEnd) })
              : t("subs.confirmNow", { customer: target?.customerName ?? target?.customerEmail ?? cancelling })}
          </p>
          <Form method="post" action={PAGE} className="mt-3 flex flex-wrap gap-2">
            <input type="hidden" name="intent" value="cancel" />
            <input type="hidden" name="id" value={cancelling} />
            <input type="hidden" name="atPeriodEnd" value={cancelAtEnd ? "1" : "0"} />
            <input type="hidden" name="status" value={status} />
            <Button type="submit" variant="danger">
              {t("subs.confirmYes")}
            </Button>
            <Link to={`${PAGE}?status=${status}`} className="inline-flex min-h-11 items-center rounded-xl px-4 text-sm font-semibold text-slate-300 hover:bg-white/10">
              {t("subs.back")}
            </Link>
          </Form>
        </Card>
      )}

      <Form method="get" action={PAGE} className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor="subs-status" className="mb-1.5 block text-sm font-medium text-slate-300">
            {t("subs.statusFilter")}
          </label>
          <select
            id="subs-status"
            name="status"
            defaultValue={status}
            className="block min-h-11 rounded-xl border border-white/10 bg-slate-950/60 px-3.5 py-2.5 text-slate-100 focus:border-emerald-400/60 focus:outline-none focus:ring-2 focus:ring-emerald-400/30"
          >
            {SUBSCRIPTION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`subs.status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" variant="secondary">
          {t("subs.filter")}
        </Button>
      </Form>

      {page && page.data.length === 0 && (
        <Card>
          <p className="py-6 text-center text-slate-400">{t("subs.empty")}</p>
        </Card>
      )}

      {page && page.data.length > 0 && (
        <>
          <div className="hidden overflow-x-auto rounded-2xl border border-white/10 md:block">
            <table className="w-full text-left text-sm">
              <thead className="bg-white/5 text-xs uppercase tracking-wide text-slate-400">
                <tr>
                  <th scope="col" className="px-4 py-3">{t("subs.customer")}</th>
                  <th scope="col" className="px-4 py-3">{t("subs.plan")}</th>
                  <th scope="col" className="px-4 py-3">{t("subs.amount")}</th>
                  <th scope="col" className="px-4 py-3">{t("subs.statusCol")}</th>
                  <th scope="col" className="px-4 py-3">{t("subs.nextCharge")}</th>
                  <th scope="col" className="px-4 py-3">{t("subs.actions")}</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-white/5">
                {page.data.map((s) => (
                  <tr key={s.id} className="align-top">
                    <td className="px-4 py-3"><Customer s={s} /></td>
                    <td className="px-4 py-3"><PlanPrice s={s} /></td>
                    <td className="px-4 py-3 whitespace-nowrap text-slate-100"><Amount s={s} language={language} /></td>
                    <td className="px-4 py-3"><StatusBadge s={s} day={day} /></td>
                    <td className="px-4 py-3 whitespace-nowrap text-slate-300">{s.status === "canceled" || s.cancelAtPeriodEnd ? "—" : day(s.currentPeriodEnd)}</td>
                    <td className="px-4 py-3"><Actions s={s} status={status} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="space-y-3 md:hidden">
            {page.data.map((s) => (
              <li key={s.id}>
                <Card>
                  <div className="flex items-start justify-between gap-2">
                    <Customer s={s} />
                    <StatusBadge s={s} day={day} />
                  </div>
                  <div className="mt-2 text-sm"><PlanPrice s={s} /></div>
                  <p className="mt-1 text-slate-100"><Amount s={s} language={language} /></p>
                  <p className="mt-1 text-xs text-slate-400">
                    {t("subs.nextCharge")}: {s.status === "canceled" || s.cancelAtPeriodEnd ? "—" : day(s.currentPeriodEnd)}
                  </p>
                  <div className="mt-3"><Actions s={s} status={status} /></div>
                </Card>
              </li>
            ))}
          </ul>
        </>
      )}

      {page && (after || page.next_cursor) && (
        <nav className="flex flex-wrap gap-2" aria-label={t("subs.title")}>
          {after && (
            <Link to={`${PAGE}?status=${status}`} className="inline-flex min-h-11 items-center rounded-xl bg-white/10 px-4 text-sm font-semibold text-slate-100 hover:bg-white/15">
              {t("subs.first")}
            </Link>
          )}
          {page.next_cursor && (
            <Link to={`${PAGE}?status=${status}&after=${encodeURIComponent(page.next_cursor)}`} rel="next" className="inline-flex min-h-11 items-center rounded-xl bg-white/10 px-4 text-sm font-semibold text-slate-100 hover:bg-white/15">
              {t("subs.next")} →
            </Link>
          )}
        </nav>
      )}
    </div>
  );
}

function Customer({ s }: { s: ProviderSubscription }) {
  const { t } = useTranslation("admin-billing");
  return (
    <div className="min-w-0">
      <p className="truncate font-semibold text-white">{s.customerName || t("subs.noCustomer")}</p>
      {s.customerEmail && <p className="truncate text-xs text-slate-400">{s.customerEmail}</p>}
    </div>
  );
}

function PlanPrice({ s }: { s: ProviderSubscription }) {
  return (
    <div className="min-w-0">
      <p className="text-slate-100">{s.localPlanName ?? s.productName ?? s.nickname ?? "—"}</p>
      <p className="truncate font-mono text-xs text-slate-500">{s.priceId ?? ""}</p>
    </div>
  );
}

function Amount({ s, language }: { s: ProviderSubscription; language: string }) {
  if (s.unitAmount === null) return <>—</>;
  return (
    <>
      {formatPlanPricePerInterval(s.unitAmount, s.currency, s.interval, s.intervalCount, language)}
      {s.quantity > 1 && <span className="text-xs text-slate-400"> × {s.quantity}</span>}
    </>
  );
}

function StatusBadge({ s, day }: { s: ProviderSubscription; day: (e: number | null) => string }) {
  const { t } = useTranslation("admin-billing");
  return (
    <div className="flex flex-col items-start gap-1">
      <Badge tone={STATUS_TONE[s.status] ?? "grey"}>{t(`subs.status.${s.status}`, { defaultValue: s.status })}</Badge>
      {s.cancelAtPeriodEnd && s.status !== "canceled" && <span className="text-xs text-amber-300">{t("subs.cancelsOn", { date: day(s.cancelAt ?? s.currentPeriodEnd) })}</span>}
      {!s.livemode && <span className="text-[11px] text-slate-500">{t("subs.testMode")}</span>}
    </div>
  );
}

/** Dashboard link and the two cancel actions (links to the confirm step; with JavaScript a confirm()). */
function Actions({ s, status }: { s: ProviderSubscription; status: string }) {
  const { t } = useTranslation("admin-billing");
  const submit = useSubmit();
  const canCancel = s.status !== "canceled" && s.status !== "incomplete_expired";
  const onCancel = (atEnd: boolean) => (e: MouseEvent<HTMLAnchorElement>) => {
    e.preventDefault();
    if (window.confirm(t("subs.confirm"))) submit({ intent: "cancel", id: s.id, atPeriodEnd: atEnd ? "1" : "0", status }, { method: "post", action: PAGE });
  };
  const link = "inline-flex min-h-11 items-center gap-1 rounded-xl px-3 text-xs font-semibold";
  return (
    <div className="flex flex-wrap gap-1.5">
      <a href={s.dashboardUrl} target="_blank" rel="noopener noreferrer" className={`${link} bg-white/10 text-slate-100 hover:bg-white/15`}>
        {t("subs.openDashboard")}
        <ExternalIcon size={14} aria-hidden="true" />
      </a>
      {canCancel && !s.cancelAtPeriodEnd && (
        <Link to={`${PAGE}?status=${status}&cancelar=${s.id}&fim=1`} onClick={onCancel(true)} className={`${link} bg-amber-500/15 text-amber-200 hover:bg-amber-500/25`}>
          {t("subs.cancelAtPeriodEnd")}
        </Link>
      )}
      {canCancel && (
        <Link to={`${PAGE}?status=${status}&cancelar=${s.id}&fim=0`} onClick={onCancel(false)} className={`${link} bg-rose-500/15 text-rose-300 hover:bg-rose-500/25`}>
          {t("subs.cancelNow")}
        </Link>
      )}
    </div>
  );
}
