/**
 * /admin — the admin area's layout (PRODUCT.md §2 "Admin panel", issue 10): a sidebar (Dashboard,
 * Usuários, Planos, Assinaturas, Configurações, Auditoria, Sair) on desktop, a scrolling tab bar on
 * mobile, and the page in the outlet. Admins only: anonymous visitors go to /admin/login, regular
 * users to / (checked on the server by every child loader and action as well).
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Logo } from "~/components/layout";
import { ChartIcon, CardIcon, HistoryIcon, LogoutIcon, SettingsIcon, ShieldIcon, WalletIcon } from "~/components/icons";
import { metaTitle } from "~/lib/hooks";
import { requireAdminPage } from "~/services/admin/access.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "admin", "meta");

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireAdminPage(request);
  return { email: user.email, firstName: user.first_name };
}

/** The sections of the sidebar, in order (PRODUCT.md §2), plus the audit log (issue 10). */
export const ADMIN_SECTIONS = [
  { to: "/admin", key: "nav.dashboard", Icon: ChartIcon, end: true },
  { to: "/admin/usuarios", key: "nav.users", Icon: ShieldIcon, end: false },
  { to: "/admin/planos", key: "nav.plans", Icon: WalletIcon, end: false },
  { to: "/admin/assinaturas", key: "nav.subscriptions", Icon: CardIcon, end: false },
  { to: "/admin/configuracoes", key: "nav.settings", Icon: SettingsIcon, end: false },
  { to: "/admin/auditoria", key: "nav.audit", Icon: HistoryIcon, end: false },
] as const;

/** The admin layout: sidebar (desktop) or tab bar (mobile), logout, and the section's page. */
export default function AdminLayout() {
  const { email } = useLoaderData<typeof loader>();
  const { t } = useTranslation("admin");
  const link = ({ isActive }: { isActive: boolean }) =>
    `flex min-h-11 shrink-0 items-center gap-2 rounded-xl px-3 text-sm font-semibold ${isActive ? "bg-emerald-400/15 text-emerald-300" : "text-slate-300 hover:bg-white/5 hover:text-white"}`;
  return (
    <div className="min-h-screen lg:flex">
      <aside className="border-b border-white/10 bg-slate-950/80 lg:sticky lg:top-0 lg:h-screen lg:w-60 lg:shrink-0 lg:border-b-0 lg:border-r">
        <div className="flex items-center justify-between px-4 py-3 lg:block lg:py-5">
          <Logo />
          <p className="hidden text-xs text-slate-400 lg:mt-3 lg:block" title={email}>
            {t("signedInAs", { email })}
          </p>
        </div>
        <nav aria-label={t("nav.label")} className="flex gap-1 overflow-x-auto px-2 pb-2 lg:flex-col lg:px-3">
          {ADMIN_SECTIONS.map(({ to, key, Icon, end }) => (
            <NavLink key={to} to={to} end={end} prefetch="intent" className={link}>
              <Icon className="h-4 w-4" aria-hidden="true" />
              {t(key)}
            </NavLink>
          ))}
          <Form method="post" action="/logout" className="lg:mt-4">
            <button type="submit" className="flex min-h-11 shrink-0 items-center gap-2 rounded-xl px-3 text-sm font-semibold text-slate-300 hover:bg-white/5 hover:text-white">
              <LogoutIcon className="h-4 w-4" aria-hidden="true" />
              {t("nav.logout")}
            </button>
          </Form>
        </nav>
      </aside>
      <main className="min-w-0 flex-1 px-4 py-6 lg:px-8">
        <Outlet />
      </main>
    </div>
  );
}
