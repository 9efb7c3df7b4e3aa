/** App chrome: header (logo, bell, logout) and navigation (desktop floating dock / mobile bottom bar with the bot dot). */
import { Form, Link, NavLink } from "@remix-run/react";
import clsx from "clsx";
import { useTranslation } from "react-i18next";
import { NotificationBell } from "./notification-bell";
import { BoltIcon, CardIcon, ChartIcon, HistoryIcon, LogoutIcon, SettingsIcon } from "./icons";

/** The five destinations of the dock (PRODUCT.md §2 Navigation and header), labels in `common:nav`. */
const NAV = [
  { to: "/", key: "nav.trade", Icon: BoltIcon, end: true },
  { to: "/dashboard", key: "nav.dashboard", Icon: ChartIcon, end: false },
  { to: "/history", key: "nav.history", Icon: HistoryIcon, end: false },
  { to: "/billing", key: "nav.billing", Icon: CardIcon, end: false },
  { to: "/settings", key: "nav.settings", Icon: SettingsIcon, end: false },
] as const;

/** The product logo linking to /. */
export function Logo({ className }: { className?: string }) {
  const { t } = useTranslation("common");
  return (
    <Link to="/" className={clsx("flex items-center gap-2 font-bold tracking-tight text-slate-100", className)} aria-label={t("header.home")}>
      <span className="grid h-8 w-8 place-items-center rounded-lg bg-gradient-to-br from-emerald-400 to-sky-500 text-slate-950">
        <BoltIcon size={18} />
      </span>
      <span>
        Forex <span className="text-emerald-400">IA</span>
      </span>
    </Link>
  );
}

/** Top header for logged-in non-admin users: logo, notifications bell (unread badge, 99+ cap, polled every 30 s) and logout. */
export function AppHeader({ unread = 0 }: { unread?: number }) {
  const { t } = useTranslation("common");
  return (
    <header className="sticky top-0 z-30 border-b border-white/5 bg-slate-950/80 backdrop-blur">
      <div className="mx-auto flex h-14 max-w-6xl items-center justify-between px-4">
        <Logo />
        <div className="flex items-center gap-1">
          <NotificationBell initialUnread={unread} />
          <Form method="post" action="/logout">
            <button
              type="submit"
              className="grid h-10 w-10 place-items-center rounded-xl text-slate-300 hover:bg-white/10 hover:text-white"
              aria-label={t("header.logout")}
              title={t("header.logout")}
            >
              <LogoutIcon />
            </button>
          </Form>
        </div>
      </div>
    </header>
  );
}

/** Navigation: floating dock from 768 px (tablet and desktop), fixed bottom bar on mobile; the dot shows whether the AI is active. */
export function NavDock({ botActive }: { botActive: boolean }) {
  const { t } = useTranslation("common");
  const dotLabel = botActive ? t("nav.botActive") : t("nav.botInactive");
  return (
    <nav
      aria-label={t("nav.label")}
      data-testid="nav-dock"
      className="fixed inset-x-0 bottom-0 z-30 border-t border-white/10 bg-slate-950/95 pb-[env(safe-area-inset-bottom)] backdrop-blur md:inset-x-auto md:bottom-5 md:left-1/2 md:-translate-x-1/2 md:rounded-2xl md:border md:bg-slate-900/90 md:px-2 md:shadow-2xl md:shadow-black/40"
    >
      <ul className="mx-auto flex max-w-lg items-stretch justify-around md:max-w-none md:gap-1">
        {NAV.map(({ to, key, Icon, end }) => (
          <li key={to} className="flex-1 md:flex-none">
            <NavLink
              to={to}
              end={end}
              prefetch="intent"
              className={({ isActive }) =>
                clsx(
                  "relative flex flex-col items-center gap-0.5 px-2 py-2 text-[11px] font-medium transition md:my-1.5 md:flex-row md:gap-2 md:rounded-xl md:px-3.5 md:text-sm",
                  isActive ? "text-emerald-300 md:bg-emerald-500/10" : "text-slate-300 hover:text-slate-100 md:hover:bg-white/5",
                )
              }
            >
              <span className="relative">
                <Icon size={20} />
                {to === "/" && (
                  <span
                    data-testid="bot-dot"
                    data-active={botActive ? "true" : "false"}
                    aria-hidden="true"
                    title={dotLabel}
                    className={clsx(
                      "absolute -right-1 -top-1 h-2.5 w-2.5 rounded-full ring-2 ring-slate-950",
                      botActive ? "bg-emerald-400 shadow-[0_0_8px] shadow-emerald-400" : "bg-rose-500",
                    )}
                  />
                )}
              </span>
              <span>{t(key)}</span>
              {to === "/" && <span className="sr-only"> ({dotLabel})</span>}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
