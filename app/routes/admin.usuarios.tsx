/**
 * /admin/usuarios — Usuários (PRODUCT.md §2 Admin panel "Users", §5 admin user form, §6 roles, §9
 * page size 50 and America/Sao_Paulo dates; issue 10): search over e-mail / first / last name and the
 * status filter in the URL (a GET form), the §2 table (cards on mobile), paging, 'Adicionar Usuário'
 * (?novo=1), edit (?editar=<id>), extend licence 30 days and delete for non-admins, crown +
 * 'Administrador' for admins, 'Nenhum usuário encontrado.' when empty.
 *
 * Everything works without JavaScript: forms are plain POSTs with an `intent` (create, update,
 * extend, delete) answered with a 303 back to the list (?ok=… notice) or the form again with the
 * error; delete goes through a confirm section (?excluir=<id>). With JavaScript the delete link asks
 * the browser's confirm('Tem certeza que deseja excluir este usuário?') and posts directly.
 */
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { msg } from "../../core/i18n/message";
import { AccountBadge, AdminBadge, BrokerBadge, ConfirmDelete, displayName, LicenceBadge, StripeBadge, UserForm, useAdminDates, type UserFormValues } from "~/components/admin-users";
import { Banner, Button, Card } from "~/components/ui";
import { translateMsg } from "~/i18n";
import { adminUserCreateSchema, adminUserUpdateSchema, EXTEND_DAYS_DEFAULT, parseUserListQuery, USER_STATUS_FILTERS, userFormToInput } from "~/lib/admin-users";
import { pageAction, type PageActionContext } from "~/route-support/page-action.server";
import { metaTitle } from "~/lib/hooks";
import { requireAdminPage } from "~/services/admin/access.server";
import { extendUserLicence } from "~/services/admin/licence-extension.server";
import { deleteAdminUser } from "~/services/admin/user-deletion.server";
import { createAdminUser, updateAdminUser } from "~/services/admin/user-form.server";
import { adminUserById, listAdminUsers } from "~/services/admin/users.server";
import { httpStatusOf } from "~/services/platform/errors.server";
import { logger } from "~/services/platform/logger.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "admin-accounts", "meta");

const NOTICES = ["created", "updated", "deleted", "extended"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireAdminPage(request);
  const url = new URL(request.url);
  const query = parseUserListQuery(url.searchParams);
  const language = user.preferences?.language;
  let list: Awaited<ReturnType<typeof listAdminUsers>> | null = null;
  let loadError: string | null = null;
  try {
    list = await listAdminUsers(query);
  } catch (err) {
    logger().error({ err: err instanceof Error ? err.stack : String(err) }, "falha ao listar usuários no admin");
    loadError = translateMsg(msg("admin-accounts:errors.load"), language);
  }
  const find = async (id: string | null) => (id ? adminUserById(id).catch(() => null) : null);
  const [editing, deleting] = await Promise.all([find(url.searchParams.get("editar")), find(url.searchParams.get("excluir"))]);
  const ok = url.searchParams.get("ok");
  return {
    users: list?.users ?? [],
    total: list?.total ?? 0,
    page: list?.page ?? query.page,
    pageSize: list?.pageSize ?? 50,
    loadError,
    query,
    creating: url.searchParams.get("novo") === "1",
    editing,
    deleting: deleting && deleting.role !== "admin" ? deleting : null,
    notice: (NOTICES as readonly string[]).includes(ok ?? "") ? (ok as (typeof NOTICES)[number]) : null,
  };
}

/** The list's URL with `set` applied (null removes), the form/confirm/notice parameters dropped unless set. */
function listUrl(from: URL | string, set: Record<string, string | null> = {}): string {
  const url = typeof from === "string" ? new URL(from, "http://x") : new URL(from.href);
  for (const k of ["novo", "editar", "excluir", "ok", "index"]) url.searchParams.delete(k);
  for (const [k, v] of Object.entries(set)) {
    if (v === null || v === "") url.searchParams.delete(k);
    else url.searchParams.set(k, v);
  }
  if (url.searchParams.get("page") === "1") url.searchParams.delete("page");
  if (url.searchParams.get("status") === "all") url.searchParams.delete("status");
  const s = url.searchParams.toString();
  return `/admin/usuarios${s ? `?${s}` : ""}`;
}

const FAILURE: Record<string, string> = { create: "admin-accounts:errors.save", update: "admin-accounts:errors.save", extend: "admin-accounts:errors.extend", delete: "admin-accounts:errors.delete" };

/** What the action answers when it does not redirect: the failed intent, its row, the message and field, what was typed. */
interface ActionFailure {
  ok: false;
  intent: string;
  id: string;
  message: string;
  field: string | null;
  values: UserFormValues;
}

/** The typed values of the user form (shown again after a refusal). */
function formValues(form: FormData): UserFormValues {
  const value = (k: string, dflt = "") => String(form.get(k) ?? dflt);
  return { email: value("email"), firstName: value("firstName"), lastName: value("lastName"), isActive: value("isActive", "true"), language: value("language"), currency: value("currency"), timezone: value("timezone") };
}

export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const fail = (status: number, { intent, form, field: value }: PageActionContext<unknown>, message: string, field: string | null = null) =>
    data<ActionFailure>({ ok: false, intent, id: value("id"), message, field, values: formValues(form) }, status);
  return pageAction(request, {
    page: "/admin/usuarios",
    user: () => requireAdminPage(request),
    language: (actor) => actor.user.preferences?.language,
    intents: {
      create: async ({ user: actor, form, parse }) => {
        await createAdminUser(actor, parse(adminUserCreateSchema, userFormToInput(form)));
        return redirect(listUrl(url, { ok: "created" }), 303);
      },
      update: async ({ user: actor, form, field, parse }) => {
        await updateAdminUser(actor, field("id"), parse(adminUserUpdateSchema, userFormToInput(form)));
        return redirect(listUrl(url, { ok: "updated" }), 303);
      },
      extend: async ({ user: actor, field }) => {
        await extendUserLicence(actor, field("id"), EXTEND_DAYS_DEFAULT);
        return redirect(listUrl(url, { ok: "extended" }), 303);
      },
      delete: async ({ user: actor, field }) => {
        await deleteAdminUser(actor, field("id"));
        return redirect(listUrl(url, { ok: "deleted" }), 303);
      },
    },
    fallback: (ctx) => fail(400, ctx, translateMsg(msg("admin-accounts:errors.invalidIntent"), ctx.language)),
    domainError: (err, ctx) => fail(httpStatusOf(err), ctx, err.messageIn(ctx.language), typeof err.extra.field === "string" ? err.extra.field : null),
    internal: (_err, ctx) => fail(500, ctx, translateMsg(msg(FAILURE[ctx.intent] ?? "admin-accounts:errors.save"), ctx.language)),
  });
}

/** True once React has hydrated (JavaScript running). */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

const LINK_BTN = "inline-flex min-h-11 items-center justify-center rounded-xl px-3 text-sm font-semibold";

/** The Usuários page. */
export default function AdminUsersPage() {
  const { users, total, page, pageSize, loadError, query, creating, editing, deleting, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("admin-accounts");
  const { dateTime } = useAdminDates();
  const location = useLocation();
  const navigation = useNavigation();
  const submit = useSubmit();
  const js = useHydrated();
  const here = `${location.pathname}${location.search}`;
  const base = listUrl(here);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const busyIntent = navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : null;
  const busyId = navigation.state === "submitting" ? String(navigation.formData?.get("id") ?? "") : null;

  // The form to show: the one in the URL, or the one whose POST failed (with what was typed).
  const failed = actionData && !actionData.ok ? actionData : null;
  const formMode: "create" | "update" | null =
    failed?.intent === "create" ? "create" : failed?.intent === "update" ? "update" : creating ? "create" : editing ? "update" : null;
  const formUserId = failed?.intent === "update" ? failed.id : editing?.id;
  const formValues: UserFormValues = failed && (failed.intent === "create" || failed.intent === "update")
    ? failed.values
    : editing
      ? { email: editing.email, firstName: editing.firstName, lastName: editing.lastName, isActive: editing.isActive, ...editing.preferences }
      : {};
  const rowError = failed && (failed.intent === "extend" || failed.intent === "delete" || !["create", "update"].includes(failed.intent)) ? failed.message : null;

  const onDelete = (e: React.MouseEvent, id: string) => {
    if (!js) return;
    e.preventDefault();
    if (window.confirm(t("confirmDelete"))) submit({ intent: "delete", id }, { method: "post", action: here, preventScrollReset: true });
  };

  const actions = (u: (typeof users)[number]) => (
    <div className="flex flex-wrap gap-1.5" role="group" aria-label={t("actions.label", { name: displayName(u) })}>
      <Link to={`/admin/usuarios/${u.id}`} className={`${LINK_BTN} bg-white/5 text-slate-200 hover:bg-white/10`}>
        {t("actions.view")}
      </Link>
      <Link to={listUrl(here, { editar: u.id })} preventScrollReset className={`${LINK_BTN} bg-white/10 text-slate-100 hover:bg-white/15`}>
        {t("actions.edit")}
      </Link>
      {u.role !== "admin" && (
        <>
          <Form method="post" preventScrollReset>
            <input type="hidden" name="intent" value="extend" />
            <input type="hidden" name="id" value={u.id} />
            <Button type="submit" variant="secondary" className="min-h-11 px-3" loading={busyIntent === "extend" && busyId === u.id}>
              {t("actions.extend")}
            </Button>
          </Form>
          <Link to={listUrl(here, { excluir: u.id })} preventScrollReset onClick={(e) => onDelete(e, u.id)} className={`${LINK_BTN} bg-rose-500/15 text-rose-300 hover:bg-rose-500/25`}>
            {t("actions.delete")}
          </Link>
        </>
      )}
    </div>
  );

  const userCell = (u: (typeof users)[number]) => (
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

  const signup = (u: (typeof users)[number]) => (
    <div className="text-sm">
      <p className="text-slate-200">{dateTime(u.createdAt)}</p>
      <p className="text-xs text-slate-400">{u.lastLogin ? t("lastLogin", { date: dateTime(u.lastLogin) }) : t("never")}</p>
    </div>
  );

  return (
    <div className="mx-auto max-w-7xl space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-white">{t("title")}</h1>
          <p className="text-sm text-slate-400">{t("subtitle")}</p>
        </div>
        <Link to={listUrl(here, { novo: "1" })} preventScrollReset className={`${LINK_BTN} bg-emerald-500 px-4 text-slate-950 hover:bg-emerald-400`} data-testid="add-user">
          {t("add")}
        </Link>
      </div>

      {notice && <Banner tone="success">{t(notice === "extended" ? "done.extendedShort" : `done.${notice}`, { days: EXTEND_DAYS_DEFAULT })}</Banner>}
      {loadError && <Banner tone="error">{loadError}</Banner>}
      {rowError && <Banner tone="error">{rowError}</Banner>}

      {formMode && (
        <UserForm
          key={`${formMode}-${formUserId ?? "new"}`}
          mode={formMode}
          userId={formUserId}
          values={formValues}
          error={failed && (failed.intent === "create" || failed.intent === "update") ? failed.message : null}
          field={failed?.field ?? null}
          cancelTo={base}
          busy={busyIntent === formMode}
        />
      )}

      {deleting && <ConfirmDelete user={deleting} cancelTo={base} busy={busyIntent === "delete"} />}

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

      <p className="text-sm text-slate-400" aria-live="polite">
        {t("count", { count: total })}
      </p>

      {users.length === 0 ? (
        <Card>
          <p className="py-6 text-center text-slate-300" data-testid="users-empty">
            {t("empty")}
          </p>
        </Card>
      ) : (
        <>
          {/* Desktop: the §2 table. */}
          <div className="hidden overflow-x-auto rounded-2xl border border-white/10 bg-slate-900/70 lg:block">
            <table className="w-full text-left text-sm" data-testid="users-table">
              <thead className="border-b border-white/10 text-xs uppercase tracking-wide text-slate-400">
                <tr>
                  <th scope="col" className="px-4 py-3">
                    {t("columns.user")}
                  </th>
                  <th scope="col" className="px-3 py-3">
                    {t("columns.account")}
                  </th>
                  <th scope="col" className="px-3 py-3">
                    {t("columns.stripe")}
                  </th>
                  <th scope="col" className="px-3 py-3">
                    {t("columns.licence")}
                  </th>
                  <th scope="col" className="px-3 py-3">
                    {t("columns.broker")}
                  </th>
                  <th scope="col" className="px-3 py-3">
                    {t("columns.signup")}
                  </th>
                  <th scope="col" className="px-4 py-3">
                    {t("columns.actions")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-white/5">
                {users.map((u) => (
                  <tr key={u.id} data-testid="user-row" data-email={u.email} className="align-top">
                    <td className="max-w-64 px-4 py-3">{userCell(u)}</td>
                    <td className="px-3 py-3">
                      <AccountBadge user={u} />
                    </td>
                    <td className="px-3 py-3">
                      <StripeBadge user={u} />
                    </td>
                    <td className="px-3 py-3">
                      <LicenceBadge user={u} />
                    </td>
                    <td className="px-3 py-3">
                      <BrokerBadge user={u} />
                    </td>
                    <td className="px-3 py-3">{signup(u)}</td>
                    <td className="px-4 py-3">{actions(u)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {/* Mobile and tablet: one card per user. */}
          <ul className="space-y-3 lg:hidden" data-testid="users-cards">
            {users.map((u) => (
              <li key={u.id} className="rounded-2xl border border-white/10 bg-slate-900/70 p-4">
                {userCell(u)}
                <dl className="mt-3 grid grid-cols-2 gap-3 text-sm">
                  <div>
                    <dt className="text-xs text-slate-400">{t("columns.account")}</dt>
                    <dd className="mt-1">
                      <AccountBadge user={u} />
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-400">{t("columns.stripe")}</dt>
                    <dd className="mt-1">
                      <StripeBadge user={u} />
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-400">{t("columns.licence")}</dt>
                    <dd className="mt-1">
                      <LicenceBadge user={u} />
                    </dd>
                  </div>
                  <div>
                    <dt className="text-xs text-slate-400">{t("columns.broker")}</dt>
                    <dd className="mt-1">
                      <BrokerBadge user={u} />
                    </dd>
                  </div>
                  <div className="col-span-2">
                    <dt className="text-xs text-slate-400">{t("columns.signup")}</dt>
                    <dd className="mt-1">{signup(u)}</dd>
                  </div>
                </dl>
                <div className="mt-3">{actions(u)}</div>
              </li>
            ))}
          </ul>
        </>
      )}

      {pages > 1 && (
        <nav aria-label={t("paging.label")} className="flex items-center justify-between gap-3">
          {page > 1 ? (
            <Link to={listUrl(here, { page: String(page - 1) })} className={`${LINK_BTN} bg-white/10 px-4 text-slate-100 hover:bg-white/15`}>
              {t("paging.previous")}
            </Link>
          ) : (
            <span />
          )}
          <span className="text-sm text-slate-400">{t("paging.page", { page, pages })}</span>
          {page < pages ? (
            <Link to={listUrl(here, { page: String(page + 1) })} className={`${LINK_BTN} bg-white/10 px-4 text-slate-100 hover:bg-white/15`}>
              {t("paging.next")}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </div>
  );
}
