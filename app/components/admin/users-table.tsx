/**
 * The Usuários list (PRODUCT.md §2 Admin panel "Users", §4 admin badges, §6 crown, §9 dates; issue 10):
 * on desktop the §2 table (user, account, Stripe, licence, broker, sign-up, actions), on mobile and
 * tablet one card per user with the same fields. Per user: Ver, Editar, and for non-admins 'Estender
 * 30 dias' (a POST form) and Excluir (the no-JavaScript confirm step, or the page's `onDelete`).
 */
import { Form, Link } from "@remix-run/react";
import type { MouseEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { AccountBadge, AdminBadge, BrokerBadge, displayName, LicenceBadge, StripeBadge, useAdminDates, type AdminUserLike } from "~/components/admin-users";
import { Button, DataTable, type Column } from "~/components/ui";

/** The admin pages' link styled as a button (add with a colour). */
export const LINK_BTN = "inline-flex min-h-11 items-center justify-center rounded-xl px-3 text-sm font-semibold";

/** The list's URL with `set` applied (null removes a parameter), the form/confirm/notice parameters dropped. */
export type ListLink = (set?: Record<string, string | null>) => string;

/** What the list needs beyond the users. */
export interface UsersListProps {
  users: readonly AdminUserLike[];
  link: ListLink;
  /** The intent and user id of the POST in flight (null when idle). */
  busy: { intent: string | null; id: string | null };
  /** Excluir pressed: with JavaScript the page confirms and posts (preventing the link); without, the link opens the confirm step. */
  onDelete: (e: MouseEvent, id: string) => void;
}

/** The list: the desktop table and the mobile cards. */
export function UsersList(props: UsersListProps) {
  return (
    <>
      <UsersTable {...props} />
      <UsersCards {...props} />
    </>
  );
}

/** Desktop: the §2 table. */
function UsersTable({ users, ...actions }: UsersListProps) {
  const { t } = useTranslation("admin-accounts");
  const columns: Column<AdminUserLike>[] = [
    { id: "user", header: t("columns.user"), cell: (u) => <UserCell user={u} />, className: "px-4 py-3", cellClassName: "max-w-64" },
    { id: "account", header: t("columns.account"), cell: (u) => <AccountBadge user={u} /> },
    { id: "stripe", header: t("columns.stripe"), cell: (u) => <StripeBadge user={u} /> },
    { id: "licence", header: t("columns.licence"), cell: (u) => <LicenceBadge user={u} /> },
    { id: "broker", header: t("columns.broker"), cell: (u) => <BrokerBadge user={u} /> },
    { id: "signup", header: t("columns.signup"), cell: (u) => <SignupCell user={u} /> },
    { id: "actions", header: t("columns.actions"), cell: (u) => <UserActions user={u} {...actions} />, className: "px-4 py-3" },
  ];
  return (
    <DataTable
      columns={columns}
      rows={users}
      rowKey={(u) => u.id}
      rowProps={(u) => ({ "data-testid": "user-row", "data-email": u.email })}
      className="hidden lg:block"
      data-testid="users-table"
    />
  );
}

/** Mobile and tablet: one card per user. */
function UsersCards({ users, ...actions }: UsersListProps) {
  const { t } = useTranslation("admin-accounts");
  const field = (label: string, value: ReactNode, wide = false) => (
    <div className={wide ? "col-span-2" : undefined}>
      <dt className="text-xs text-slate-400">{label}</dt>
      <dd className="mt-1">{value}</dd>
    </div>
  );
  return (
    <ul className="space-y-3 lg:hidden" data-testid="users-cards">
      {users.map((u) => (
        <li key={u.id} className="rounded-2xl border border-white/10 bg-slate-900/70 p-4">
          <UserCell user={u} />
          <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
            {field(t("columns.account"), <AccountBadge user={u} />)}
            {field(t("columns.stripe"), <StripeBadge user={u} />)}
            {field(t("columns.licence"), <LicenceBadge user={u} />)}
            {field(t("columns.broker"), <BrokerBadge user={u} />)}
            {field(t("columns.signup"), <SignupCell user={u} />, true)}
          </dl>
          <div className="mt-3">
            <UserActions user={u} {...actions} />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** Name (a link to the user's page) with the crown for admins, e-mail, and 'E-mail não verificado'. */
function UserCell({ user: u }: { user: AdminUserLike }) {
  const { t } = useTranslation("admin-accounts");
  return (
    <div className="min-w-0">
      <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-100">
        <Link to={`/admin/usuarios/${u.id}`} className="hover:underline">
          {displayName(u)}
        </Link>
        {u.role === "admin" && <AdminBadge />}
      </p>
      <p className="truncate text-sm text-slate-400" title={u.email}>
        {u.email}
      </p>
      {!u.emailVerifiedAt && <p className="text-xs text-amber-300">{t("account.unverified")}</p>}
    </div>
  );
}

/** Sign-up date and last login (or 'Nunca'), America/Sao_Paulo. */
function SignupCell({ user: u }: { user: AdminUserLike }) {
  const { t } = useTranslation("admin-accounts");
  const { dateTime } = useAdminDates();
  return (
    <div className="text-sm">
      <p className="text-slate-200">{dateTime(u.createdAt)}</p>
      <p className="text-xs text-slate-400">{u.lastLogin ? t("lastLogin", { date: dateTime(u.lastLogin) }) : t("never")}</p>
    </div>
  );
}

/** Ver, Editar, and for non-admins 'Estender 30 dias' and Excluir. */
function UserActions({ user: u, link, busy, onDelete }: { user: AdminUserLike } & Omit<UsersListProps, "users">) {
  const { t } = useTranslation("admin-accounts");
  return (
    <div className="flex flex-wrap gap-1.5" role="group" aria-label={t("actions.label", { name: displayName(u) })}>
      <Link to={`/admin/usuarios/${u.id}`} className={`${LINK_BTN} bg-white/5 text-slate-200 hover:bg-white/10`}>
        {t("actions.view")}
      </Link>
      <Link to={link({ editar: u.id })} preventScrollReset className={`${LINK_BTN} bg-white/10 text-slate-100 hover:bg-white/15`}>
        {t("actions.edit")}
      </Link>
      {u.role !== "admin" && (
        <>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="extend" />
            <input type="hidden" name="id" value={u.id} />
            <Button type="submit" variant="secondary" className="min-h-11 px-3" loading={busy.intent === "extend" && busy.id === u.id}>
              {t("actions.extend")}
            </Button>
          </Form>
          <Link to={link({ excluir: u.id })} preventScrollReset onClick={(e) => onDelete(e, u.id)} className={`${LINK_BTN} bg-rose-500/15 text-rose-300 hover:bg-rose-500/25`}>
            {t("actions.delete")}
          </Link>
        </>
      )}
    </div>
  );
}
