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
import { Link, useActionData, useLoaderData, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { msg } from "../../core/i18n/message";
import { ConfirmDelete, UserForm, type UserFormValues } from "~/components/admin-users";
import { UsersPager } from "~/components/admin/users-pager";
import { UsersSearch } from "~/components/admin/users-search";
import { LINK_BTN, UsersList } from "~/components/admin/users-table";
import { useHydrated } from "~/components/auth/use-hydrated";
import { Banner, Card } from "~/components/ui";
import { translateMsg } from "~/i18n";
import { adminUserCreateSchema, adminUserUpdateSchema, EXTEND_DAYS_DEFAULT, parseUserListQuery, userFormToInput } from "~/lib/admin-users";
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
    // Another admin's password and e-mail are theirs to change (issue 24): the form offers neither.
    credentialsLocked: editing !== null && editing.role === "admin" && editing.id !== user.id,
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

/** The Usuários page: title and 'Adicionar Usuário', notices, the user form or delete confirmation, search, the list and paging. */
export default function AdminUsersPage() {
  const { users, total, page, pageSize, loadError, query, creating, editing, deleting, notice, credentialsLocked } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("admin-accounts");
  const location = useLocation();
  const navigation = useNavigation();
  const submit = useSubmit();
  const js = useHydrated();
  const here = `${location.pathname}${location.search}`;
  const link = (set?: Record<string, string | null>) => listUrl(here, set);
  const base = link();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const submitting = navigation.state === "submitting";
  const busy = {
    intent: submitting ? String(navigation.formData?.get("intent") ?? "") : null,
    id: submitting ? String(navigation.formData?.get("id") ?? "") : null,
  };

  // The form to show: the one in the URL, or the one whose POST failed (with what was typed).
  const failed = actionData && !actionData.ok ? actionData : null;
  const formFailed = failed && (failed.intent === "create" || failed.intent === "update") ? failed : null;
  const formMode: "create" | "update" | null = formFailed ? (formFailed.intent as "create" | "update") : creating ? "create" : editing ? "update" : null;
  const formUserId = formFailed?.intent === "update" ? formFailed.id : editing?.id;
  const formValues: UserFormValues = formFailed
    ? formFailed.values
    : editing
      ? { email: editing.email, firstName: editing.firstName, lastName: editing.lastName, isActive: editing.isActive, ...editing.preferences }
      : {};
  // Extend, delete or an unknown intent: the message above the list.
  const rowError = failed && !formFailed ? failed.message : null;

  const onDelete = (e: MouseEvent, id: string) => {
    if (!js) return;
    e.preventDefault();
    if (window.confirm(t("confirmDelete"))) submit({ intent: "delete", id }, { method: "post", action: here, preventScrollReset: true });
  };

  return (
    <div className="mx-auto max-w-7xl space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold text-white">{t("title")}</h1>
          <p className="text-sm text-slate-400">{t("subtitle")}</p>
        </div>
        <Link to={link({ novo: "1" })} preventScrollReset className={`${LINK_BTN} bg-emerald-500 px-4 text-slate-950 hover:bg-emerald-400`} data-testid="add-user">
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
          error={formFailed?.message ?? null}
          field={failed?.field ?? null}
          cancelTo={base}
          busy={busy.intent === formMode}
          credentialsLocked={formMode === "update" && credentialsLocked && formUserId === editing?.id}
        />
      )}

      {deleting && <ConfirmDelete user={deleting} cancelTo={base} busy={busy.intent === "delete"} />}

      <UsersSearch query={query} />

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
        <UsersList users={users} link={link} busy={busy} onDelete={onDelete} />
      )}

      <UsersPager page={page} pages={pages} link={link} />
    </div>
  );
}
