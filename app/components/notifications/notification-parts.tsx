/**
 * Pieces of the 'Central de Notificações' (PRODUCT.md §2 Notifications): type chips, stat tiles,
 * one notification row (a POST form that marks it read, with or without JavaScript), the empty
 * state and the server-rendered clear-all confirmation used when JavaScript is off.
 */
import { Form, Link, useFetcher } from "@remix-run/react";
import clsx from "clsx";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AlertIcon, BellIcon, BoltIcon, CheckIcon, ShieldIcon, XIcon } from "~/components/icons";
import { Button } from "~/components/ui";
import { notificationTime, pageQuery, TYPE_CHIPS, type NotificationTypeName, type NotificationView, type TypeChip } from "~/lib/notifications";

const TYPE_STYLE: Record<NotificationTypeName, { ring: string; icon: ReactNode }> = {
  success: { ring: "bg-emerald-500/15 text-emerald-300", icon: <CheckIcon size={18} /> },
  warning: { ring: "bg-amber-500/15 text-amber-300", icon: <AlertIcon size={18} /> },
  error: { ring: "bg-rose-500/15 text-rose-300", icon: <XIcon size={18} /> },
  limit: { ring: "bg-orange-500/15 text-orange-300", icon: <ShieldIcon size={18} /> },
  trading: { ring: "bg-sky-500/15 text-sky-300", icon: <BoltIcon size={18} /> },
  info: { ring: "bg-slate-500/15 text-slate-300", icon: <BellIcon size={18} /> },
};

/** The type chips (Todas, Sucesso, Avisos, Erros, Limites, Trading) as GET links that keep the other filters. */
export function TypeChips({ params, active }: { params: URLSearchParams; active: TypeChip }) {
  const { t } = useTranslation("notifications");
  return (
    <nav aria-label={t("chips.label")} className="-mx-4 overflow-x-auto px-4 md:mx-0 md:px-0">
      <ul className="flex gap-2 pb-1">
        {TYPE_CHIPS.map((chip) => (
          <li key={chip}>
            <Link
              to={pageQuery(params, { type: chip })}
              preventScrollReset
              aria-current={chip === active ? "page" : undefined}
              data-testid={`chip-${chip}`}
              className={clsx(
                "inline-flex min-h-10 items-center whitespace-nowrap rounded-full px-4 text-sm font-semibold ring-1 transition",
                chip === active ? "bg-emerald-500 text-slate-950 ring-emerald-400" : "bg-white/5 text-slate-300 ring-white/10 hover:bg-white/10",
              )}
            >
              {t(`chips.${chip}`)}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Desktop stat tiles: Total, Não Lidas, Sucessos, Avisos (warning + limit), Erros, Trading. */
export function StatTiles({ stats }: { stats: { total: number; unread: number; success: number; warning: number; error: number; trading: number } }) {
  const { t } = useTranslation("notifications");
  const tiles = [
    { key: "total", value: stats.total, cls: "text-slate-100" },
    { key: "unread", value: stats.unread, cls: "text-sky-300" },
    { key: "success", value: stats.success, cls: "text-emerald-300" },
    { key: "warning", value: stats.warning, cls: "text-amber-300" },
    { key: "error", value: stats.error, cls: "text-rose-300" },
    { key: "trading", value: stats.trading, cls: "text-sky-300" },
  ] as const;
  return (
    <section aria-label={t("stats.label")} className="hidden grid-cols-6 gap-3 lg:grid" data-testid="notification-stats">
      {tiles.map((tile) => (
        <div key={tile.key} className="rounded-xl bg-white/[0.03] p-3 ring-1 ring-white/5" data-testid={`stat-${tile.key}`}>
          <p className="text-xs text-slate-400">{t(`stats.${tile.key}`)}</p>
          <p className={clsx("mt-1 text-xl font-semibold tabular-nums", tile.cls)}>{tile.value}</p>
        </div>
      ))}
    </section>
  );
}

/**
 * One notification. An unread one is a POST form (intent=read): a click marks it read through the
 * route action; with JavaScript it goes through a fetcher and turns read at once.
 */
export function NotificationItem({
  n,
  now,
  timeZone,
  js,
  forceRead,
}: {
  n: NotificationView;
  now: Date;
  timeZone: string;
  js: boolean;
  forceRead: boolean;
}) {
  const { t } = useTranslation("notifications");
  const fetcher = useFetcher();
  const read = n.read || forceRead || fetcher.formData?.get("intent") === "read";
  const style = TYPE_STYLE[n.type] ?? TYPE_STYLE.info;
  const body = (
    <>
      <span className={clsx("mt-0.5 grid h-9 w-9 shrink-0 place-items-center rounded-xl", style.ring)} aria-hidden="true">
        {style.icon}
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex items-start justify-between gap-3">
          <span className={clsx("text-sm font-semibold", read ? "text-slate-300" : "text-white")} data-testid="notification-title">
            {n.title}
          </span>
          <span className="flex shrink-0 items-center gap-2">
            <time dateTime={n.createdAt} className="text-xs text-slate-500" suppressHydrationWarning>
              {notificationTime(n.createdAt, now, timeZone, t("now"))}
            </time>
            {!read && (
              <span className="h-2.5 w-2.5 rounded-full bg-sky-400" data-testid="unread-dot" title={t("unreadDot")}>
                <span className="sr-only">{t("unreadDot")}</span>
              </span>
            )}
          </span>
        </span>
        <span className={clsx("mt-0.5 block break-words text-sm", read ? "text-slate-400" : "text-slate-200")}>{n.message}</span>
        <span className="mt-1 block text-[11px] uppercase tracking-wide text-slate-500">{t(`types.${n.type}`)}</span>
      </span>
    </>
  );
  const base = "flex w-full items-start gap-3 rounded-2xl border px-4 py-3 text-left transition";
  if (read)
    return (
      <li data-testid="notification-item" data-read="true" data-type={n.type} className={clsx(base, "border-white/5 bg-slate-900/40")}>
        {body}
      </li>
    );
  return (
    <li data-testid="notification-item" data-read="false" data-type={n.type}>
      <fetcher.Form method="post" preventScrollReset>
        <input type="hidden" name="intent" value="read" />
        <input type="hidden" name="id" value={n.id} />
        <input type="hidden" name="_js" value={js ? "1" : "0"} />
        <button
          type="submit"
          title={t("actions.markRead")}
          className={clsx(base, "border-sky-400/20 bg-slate-900/80 hover:border-sky-400/40 hover:bg-slate-900 focus-visible:outline-2 focus-visible:outline-sky-300")}
        >
          {body}
        </button>
      </fetcher.Form>
    </li>
  );
}

/** Empty state: none at all, or none for the filters (with 'Limpar Filtros'). */
export function EmptyState({ filtered }: { filtered: boolean }) {
  const { t } = useTranslation("notifications");
  return (
    <div className="rounded-2xl border border-dashed border-white/10 px-6 py-12 text-center" data-testid="notifications-empty">
      <span className="mx-auto grid h-12 w-12 place-items-center rounded-2xl bg-white/5 text-slate-400" aria-hidden="true">
        <BellIcon size={22} />
      </span>
      <p className="mt-3 font-semibold text-slate-200">{filtered ? t("empty.filteredTitle") : t("empty.title")}</p>
      <p className="mt-1 text-sm text-slate-400">{filtered ? t("empty.filteredBody") : t("empty.body")}</p>
      {filtered && (
        <Link to="/notifications" className="mt-4 inline-flex min-h-11 items-center rounded-xl bg-white/10 px-4 text-sm font-semibold hover:bg-white/15">
          {t("empty.clearFilters")}
        </Link>
      )}
    </div>
  );
}

/** Server-rendered confirmation step for 'Limpar Tudo' (how it works without JavaScript). */
export function ConfirmClear({ cancelTo }: { cancelTo: string }) {
  const { t } = useTranslation("notifications");
  return (
    <section role="alertdialog" aria-labelledby="confirm-clear-title" className="rounded-2xl border border-rose-400/30 bg-rose-500/10 p-4" data-testid="confirm-clear">
      <p id="confirm-clear-title" className="font-semibold text-rose-100">
        {t("confirmClear")}
      </p>
      <p className="mt-1 text-sm text-rose-200/80">{t("confirmClearHint")}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Form method="post">
          <input type="hidden" name="intent" value="clear" />
          <Button type="submit" variant="danger">
            {t("actions.confirmClear")}
          </Button>
        </Form>
        <Link to={cancelTo} className="inline-flex min-h-11 items-center rounded-xl bg-white/10 px-4 text-sm font-semibold text-slate-100 hover:bg-white/15">
          {t("actions.cancel")}
        </Link>
      </div>
    </section>
  );
}
