/** The Usuários paging (PRODUCT.md §9 page size 50): Anterior / 'Página n de m' / Próxima, as links. */
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LINK_BTN, type ListLink } from "./users-table";

/** The pager of page `page` of `pages` (nothing with one page); `link` makes a page's URL. */
export function UsersPager({ page, pages, link }: { page: number; pages: number; link: ListLink }) {
  const { t } = useTranslation("admin-accounts");
  if (pages <= 1) return null;
  const to = (n: number, label: string) => (
    <Link to={link({ page: String(n) })} className={`${LINK_BTN} bg-white/10 px-4 text-slate-100 hover:bg-white/15`}>
      {label}
    </Link>
  );
  return (
    <nav aria-label={t("paging.label")} className="flex items-center justify-between gap-3">
      {page > 1 ? to(page - 1, t("paging.previous")) : <span />}
      <span className="text-sm text-slate-400">{t("paging.page", { page, pages })}</span>
      {page < pages ? to(page + 1, t("paging.next")) : <span />}
    </nav>
  );
}
