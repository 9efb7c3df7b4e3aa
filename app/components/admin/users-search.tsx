/**
 * The Usuários search card (PRODUCT.md §2 Admin panel "Users"; issue 10): a GET form (works without
 * JavaScript, the filters live in the URL) over e-mail / first / last name and the status filter, with
 * 'Limpar' while a filter is set.
 */
import { Form, Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Button, Card } from "~/components/ui";
import { USER_STATUS_FILTERS } from "~/lib/admin-users";
import { LINK_BTN } from "./users-table";

/** The search card for the current `query` (its search text and status filter). */
export function UsersSearch({ query }: { query: { search: string; status: string } }) {
  const { t } = useTranslation("admin-accounts");
  return (
    <Card>
      <Form method="get" role="search" className="grid gap-3 md:grid-cols-[1fr_auto_auto] md:items-end" preventScrollReset>
        <div>
          <label htmlFor="user-search" className="mb-1.5 block text-sm font-medium text-slate-300">
            {t("search.label")}
          </label>
          <input
            id="user-search"
            name="search"
            type="search"
            defaultValue={query.search}
            placeholder={t("search.placeholder")}
            className="block min-h-11 w-full rounded-xl border border-white/10 bg-slate-950/60 px-3.5 py-2.5 text-slate-100 placeholder:text-slate-500 focus:border-emerald-400/60 focus:outline-none focus:ring-2 focus:ring-emerald-400/30"
          />
        </div>
        <div>
          <label htmlFor="user-status-filter" className="mb-1.5 block text-sm font-medium text-slate-300">
            {t("status.label")}
          </label>
          <select
            id="user-status-filter"
            name="status"
            defaultValue={query.status}
            className="block min-h-11 w-full rounded-xl border border-white/10 bg-slate-950/60 px-3 py-2.5 text-slate-100 focus:border-emerald-400/60 focus:outline-none focus:ring-2 focus:ring-emerald-400/30"
          >
            {USER_STATUS_FILTERS.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="flex gap-2">
          <Button type="submit" className="flex-1">
            {t("search.submit")}
          </Button>
          {(query.search || query.status !== "all") && (
            <Link to="/admin/usuarios" className={`${LINK_BTN} bg-white/10 px-4 text-slate-100 hover:bg-white/15`}>
              {t("search.clear")}
            </Link>
          )}
        </div>
      </Form>
    </Card>
  );
}
