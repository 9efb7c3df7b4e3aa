/**
 * /notifications — 'Central de Notificações' (PRODUCT.md §2 Notifications, §4, §5, §9): type chips,
 * desktop search (title, message or instrument) and stat tiles, Atualizar, 'Só Não Lidas' /
 * 'Mostrar Todas', 'Marcar Todas como Lidas', 'Limpar Tudo' with its confirmation, click-to-read,
 * relative times in the user's timezone, page size 50, list polled every 30 s.
 * Filters live in the URL (GET) and actions are POST forms with an `intent`, so everything works
 * without JavaScript; with JavaScript the actions go through fetchers and the clear-all confirm is
 * the browser's dialog.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useFetcher, useLoaderData, useLocation, useNavigation, useRevalidator, useSearchParams } from "@remix-run/react";
import clsx from "clsx";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { translateMsg } from "~/i18n";
import { ConfirmClear, EmptyState, NotificationItem, StatTiles, TypeChips } from "~/components/notifications/notification-parts";
import { Banner, Button, Spinner } from "~/components/ui";
import { metaTitle, useNow, usePolling } from "~/lib/hooks";
import { NOTIFICATIONS_PAGE_SIZE, NOTIFICATIONS_POLL_MS, pageQuery, parseListQuery, type ListQuery, type TypeChip } from "~/lib/notifications";
import { requireAppUser } from "~/route-support/pages.server";
import { pageAction } from "~/route-support/page-action.server";
import {
  clearNotifications,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  notificationStats,
} from "~/services/notify/notifications.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "notifications", "meta");

const DEFAULT_QUERY: ListQuery = { page: 1, limit: NOTIFICATIONS_PAGE_SIZE, unread: false };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAppUser(request);
  const url = new URL(request.url);
  const parsed = parseListQuery(url.searchParams);
  // The page always shows 50 a page (PRODUCT.md §9); a bad filter falls back to the defaults with a notice.
  const query: ListQuery = { ...(parsed.ok ? parsed.query : DEFAULT_QUERY), limit: NOTIFICATIONS_PAGE_SIZE };
  // Titles and messages in the reader's language (ADR 0007).
  const language = user.preferences?.language;
  const [list, stats] = await Promise.all([listNotifications(user.id, query, language), notificationStats(user.id)]);
  return {
    ...list,
    stats,
    filters: { type: (query.type ?? "all") as TypeChip, unread: query.unread, q: query.q ?? "" },
    invalidQuery: parsed.ok ? null : translateMsg(parsed.msg, language),
    confirmClear: url.searchParams.get("confirm") === "clear",
    timeZone: user.preferences?.timezone || "America/Sao_Paulo",
    serverNow: new Date().toISOString(),
  };
}

/** Where a no-JavaScript POST lands afterwards: the same page and filters, without the confirm step. */
function backTo(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("confirm");
  url.searchParams.delete("index");
  const s = url.searchParams.toString();
  return `${url.pathname}${s ? `?${s}` : ""}`;
}

export async function action({ request }: ActionFunctionArgs) {
  // Messages are i18n keys of the 'notifications' namespace.
  type Answer = { ok: false; intent: string; message: string } | { ok: true; intent: string; message: string | null };
  const done = (intent: string, js: boolean, message: string | null) => (js ? data<Answer>({ ok: true, intent, message }) : redirect(backTo(request), 303));
  return pageAction(request, {
    page: "/notifications",
    user: () => requireAppUser(request),
    language: (user) => user.preferences?.language,
    intents: {
      read: async ({ user, intent, form, field }) => {
        const n = await markNotificationRead(user.id, field("id"));
        if (!n) return data<Answer>({ ok: false, intent, message: "notFound" }, 404);
        return done(intent, form.get("_js") === "1", null);
      },
      "read-all": async ({ user, intent, form }) => {
        await markAllNotificationsRead(user.id);
        return done(intent, form.get("_js") === "1", "done.readAll");
      },
      clear: async ({ user, intent, form }) => {
        await clearNotifications(user.id);
        return done(intent, form.get("_js") === "1", "done.cleared");
      },
    },
    fallback: ({ intent }) => data<Answer>({ ok: false, intent, message: "invalidIntent" }, 400),
  });
}

/** True once React has hydrated (JavaScript running). */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/** The notification center. */
export default function NotificationsPage() {
  const { notifications, total, page, limit, stats, filters, invalidQuery, confirmClear, timeZone, serverNow } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("notifications");
  const [params] = useSearchParams();
  const location = useLocation();
  const navigation = useNavigation();
  const { revalidate, state: revalidating } = useRevalidator();
  const js = useHydrated();
  const clientNow = useNow(NOTIFICATIONS_POLL_MS);
  const now = js ? clientNow : new Date(serverNow);
  usePolling(NOTIFICATIONS_POLL_MS);

  const bulk = useFetcher<typeof action>();
  const pendingIntent = bulk.state !== "idle" ? String(bulk.formData?.get("intent") ?? "") : null;
  const lastResult = bulk.data ?? actionData;
  const visible = pendingIntent === "clear" ? [] : notifications;
  const filtered = filters.type !== "all" || filters.unread || !!filters.q;
  const pages = Math.max(1, Math.ceil(total / limit));
  const here = `${location.pathname}${pageQuery(params, { page: page > 1 ? String(page) : undefined })}`;
  const loading = navigation.state === "loading" && navigation.location?.pathname === "/notifications";

  const onClear = (e: React.MouseEvent) => {
    e.preventDefault();
    if (window.confirm(t("confirmClear"))) bulk.submit({ intent: "clear", _js: "1" }, { method: "post" });
  };

  return (
    <main className="mx-auto max-w-4xl space-y-5 px-4 pb-8 pt-4 md:pt-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-white">{t("title")}</h1>
          <p className="text-sm text-slate-400">{t("subtitle")}</p>
        </div>
        <div className="grid w-full grid-cols-2 gap-2 md:flex md:w-auto md:flex-wrap">
          <Link
            to={here}
            preventScrollReset
            onClick={(e) => {
              e.preventDefault();
              revalidate();
            }}
            className="inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-white/10 px-4 text-sm font-semibold text-slate-100 hover:bg-white/15"
          >
            {(revalidating === "loading" || loading) && <Spinner />}
            {t("actions.refresh")}
          </Link>
          <Link
            to={pageQuery(params, { unread: filters.unread ? undefined : "1" })}
            preventScrollReset
            data-testid="toggle-unread"
            className={clsx(
              "inline-flex min-h-11 items-center justify-center rounded-xl px-4 text-center text-sm font-semibold",
              filters.unread ? "bg-sky-500/20 text-sky-200 ring-1 ring-sky-400/40" : "bg-white/10 text-slate-100 hover:bg-white/15",
            )}
          >
            {filters.unread ? t("actions.showAll") : t("actions.unreadOnly")}
          </Link>
          <bulk.Form method="post" preventScrollReset className="flex">
            <input type="hidden" name="intent" value="read-all" />
            <input type="hidden" name="_js" value={js ? "1" : "0"} />
            <Button type="submit" variant="secondary" className="w-full" loading={pendingIntent === "read-all"} disabled={stats.unread === 0}>
              {t("actions.markAllRead")}
            </Button>
          </bulk.Form>
          <Link
            to={`${location.pathname}${pageQuery(params, { confirm: "clear" })}`}
            preventScrollReset
            onClick={js ? onClear : undefined}
            aria-disabled={stats.total === 0 || undefined}
            className={clsx(
              "inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-rose-500/15 px-4 text-sm font-semibold text-rose-300 hover:bg-rose-500/25",
              stats.total === 0 && "pointer-events-none opacity-50",
            )}
          >
            {pendingIntent === "clear" && <Spinner />}
            {t("actions.clearAll")}
          </Link>
        </div>
      </div>

      {confirmClear && <ConfirmClear cancelTo={`${location.pathname}${pageQuery(params, {})}`} />}
      {invalidQuery && <Banner tone="warning">{invalidQuery}</Banner>}
      {lastResult && !lastResult.ok && <Banner tone="error">{t(lastResult.message)}</Banner>}
      {lastResult && lastResult.ok && lastResult.message && bulk.state === "idle" && <Banner tone="success">{t(lastResult.message)}</Banner>}

      <StatTiles stats={pendingIntent === "clear" ? { total: 0, unread: 0, success: 0, warning: 0, error: 0, trading: 0 } : stats} />

      <div className="space-y-3">
        <TypeChips params={params} active={filters.type} />
        <Form method="get" role="search" className="hidden items-center gap-2 lg:flex" preventScrollReset>
          {filters.type !== "all" && <input type="hidden" name="type" value={filters.type} />}
          {filters.unread && <input type="hidden" name="unread" value="1" />}
          <label htmlFor="notification-search" className="sr-only">
            {t("search.label")}
          </label>
          <input
            id="notification-search"
            type="search"
            name="q"
            defaultValue={filters.q}
            key={filters.q}
            maxLength={100}
            placeholder={t("search.placeholder")}
            className="block min-h-11 w-full rounded-xl border border-white/10 bg-slate-950/60 px-3.5 py-2.5 text-slate-100 placeholder:text-slate-500 focus:border-emerald-400/60 focus:outline-none focus:ring-2 focus:ring-emerald-400/30"
          />
          <Button type="submit" variant="secondary">
            {t("search.submit")}
          </Button>
          {filters.q && (
            <Link to={pageQuery(params, { q: undefined })} className="whitespace-nowrap text-sm font-semibold text-slate-300 hover:underline">
              {t("search.clear")}
            </Link>
          )}
        </Form>
      </div>

      <section aria-labelledby="notification-list-title" className="space-y-2">
        <div className="flex items-center justify-between">
          <h2 id="notification-list-title" className="text-sm font-semibold text-slate-300">
            {t("listLabel")}
          </h2>
          <p className="text-xs text-slate-500" data-testid="notification-count">
            {t("count", { shown: visible.length, total: pendingIntent === "clear" ? 0 : total })}
          </p>
        </div>
        {visible.length === 0 ? (
          <EmptyState filtered={filtered && pendingIntent !== "clear"} />
        ) : (
          <ul className="space-y-2" data-testid="notification-list">
            {visible.map((n) => (
              <NotificationItem key={n.id} n={n} now={now} timeZone={timeZone} js={js} forceRead={pendingIntent === "read-all"} />
            ))}
          </ul>
        )}
        {pages > 1 && (
          <nav aria-label={t("pagination.label")} className="flex items-center justify-between pt-2 text-sm">
            {page > 1 ? (
              <Link to={pageQuery(params, { page: String(page - 1) })} className="rounded-xl bg-white/10 px-4 py-2 font-semibold hover:bg-white/15">
                {t("pagination.previous")}
              </Link>
            ) : (
              <span />
            )}
            <span className="text-slate-400">{t("pagination.page", { page, pages })}</span>
            {page < pages ? (
              <Link to={pageQuery(params, { page: String(page + 1) })} className="rounded-xl bg-white/10 px-4 py-2 font-semibold hover:bg-white/15">
                {t("pagination.next")}
              </Link>
            ) : (
              <span />
            )}
          </nav>
        )}
      </section>
    </main>
  );
}
