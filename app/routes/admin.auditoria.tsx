/**
 * /admin/auditoria — the audit log of admin writes (issue 10 "Beyond the seed"): newest first, 50 a
 * page with a 'next' cursor (`?before=<id>`), filters by action (prefix, e.g. `settings` or
 * `user.delete`), target type and admin e-mail (a GET form, works without JavaScript). Each entry:
 * when (America/Sao_Paulo, PRODUCT.md §9), who, what, the target, the IP, and the row before/after
 * as compact JSON (secrets were redacted when it was written: app/services/admin/audit.server.ts).
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Button, Card } from "~/components/ui";
import { formatDateTime } from "~/lib/format";
import { metaTitle, useDisplay } from "~/lib/hooks";
import { requireAdminPage } from "~/services/admin/access.server";
import { listAudit } from "~/services/admin/audit.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "admin-config", "audit.meta");

/** Admin dates are shown in this zone whatever the admin's own preference (PRODUCT.md §9). */
const ADMIN_TZ = "America/Sao_Paulo";
/** Page size (PRODUCT.md §9: admin lists page by 50). */
const PAGE_SIZE = 50;
/** The target types admin writes use (the filter's options). */
const TARGET_TYPES = ["user", "plan", "subscription", "settings"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  const q = new URL(request.url).searchParams;
  const text = (k: string, max = 120) => (q.get(k) ?? "").trim().slice(0, max) || undefined;
  const targetType = text("targetType", 40);
  const page = await listAudit({
    action: text("action"),
    targetType: targetType && (TARGET_TYPES as readonly string[]).includes(targetType) ? targetType : undefined,
    adminEmail: text("adminEmail", 200),
    before: text("before", 20),
    limit: PAGE_SIZE,
  });
  return { ...page, isFirstPage: !q.get("before") };
}

/** Compact one-line JSON of a before/after value ('—' when absent). */
function compact(value: unknown): string {
  if (value === null || value === undefined) return "—";
  return JSON.stringify(value);
}

/** The audit log page. */
export default function AdminAudit() {
  const { data, nextCursor, isFirstPage } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const { t } = useTranslation("admin-config");
  const { locale } = useDisplay();
  const next = new URLSearchParams(params);
  if (nextCursor) next.set("before", nextCursor);
  const first = new URLSearchParams(params);
  first.delete("before");
  const select = "block min-h-11 w-full rounded-xl border border-white/10 bg-slate-950/60 px-3 py-2 text-slate-100 focus:border-emerald-400/60 focus:outline-none focus:ring-2 focus:ring-emerald-400/30";

  return (
    <div className="mx-auto max-w-6xl space-y-5">
      <header>
        <h1 className="text-2xl font-bold text-white">{t("audit.title")}</h1>
        <p className="mt-1 text-sm text-slate-400">{t("audit.subtitle")}</p>
      </header>

      <Card>
        <Form method="get" className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end">
          <div>
            <label htmlFor="audit-action" className="mb-1.5 block text-sm font-medium text-slate-300">
              {t("audit.filters.action")}
            </label>
            <input id="audit-action" name="action" defaultValue={params.get("action") ?? ""} placeholder="user.create, settings…" className={select} />
          </div>
          <div>
            <label htmlFor="audit-target" className="mb-1.5 block text-sm font-medium text-slate-300">
              {t("audit.filters.targetType")}
            </label>
            <select id="audit-target" name="targetType" defaultValue={params.get("targetType") ?? ""} className={select}>
              <option value="">{t("audit.filters.all")}</option>
              {TARGET_TYPES.map((tt) => (
                <option key={tt} value={tt}>
                  {t(`audit.targets.${tt}`)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="audit-admin" className="mb-1.5 block text-sm font-medium text-slate-300">
              {t("audit.filters.adminEmail")}
            </label>
            <input id="audit-admin" name="adminEmail" type="email" defaultValue={params.get("adminEmail") ?? ""} className={select} />
          </div>
          <div className="flex gap-2">
            <Button type="submit" className="flex-1">
              {t("audit.filters.apply")}
            </Button>
            <Link to="/admin/auditoria" className="inline-flex min-h-11 items-center justify-center rounded-xl bg-white/10 px-4 text-sm font-semibold text-slate-100 hover:bg-white/15">
              {t("audit.filters.clear")}
            </Link>
          </div>
        </Form>
      </Card>

      {data.length === 0 ? (
        <Card>
          <p className="py-6 text-center text-slate-400">{t("audit.empty")}</p>
        </Card>
      ) : (
        <ol className="space-y-3" aria-label={t("audit.listLabel")}>
          {data.map((row) => (
            <li key={row.id} className="rounded-2xl border border-white/10 bg-slate-900/70 p-4">
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <p className="font-mono text-sm font-semibold text-emerald-300">{row.action}</p>
                <p className="text-xs text-slate-400">
                  <time dateTime={row.createdAt}>{formatDateTime(row.createdAt, { locale, timeZone: ADMIN_TZ })}</time>
                </p>
              </div>
              <dl className="mt-2 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-3">
                <div className="min-w-0">
                  <dt className="text-xs text-slate-500">{t("audit.columns.admin")}</dt>
                  <dd className="truncate text-slate-200" title={row.adminEmail}>
                    {row.adminEmail}
                  </dd>
                </div>
                <div className="min-w-0">
                  <dt className="text-xs text-slate-500">{t("audit.columns.target")}</dt>
                  <dd className="truncate text-slate-200">
                    {t(`audit.targets.${row.targetType}`, { defaultValue: row.targetType })}
                    {row.targetId ? <span className="ml-1 font-mono text-xs text-slate-400">{row.targetId}</span> : null}
                  </dd>
                </div>
                <div className="min-w-0">
                  <dt className="text-xs text-slate-500">{t("audit.columns.ip")}</dt>
                  <dd className="font-mono text-xs text-slate-300">{row.ip ?? "—"}</dd>
                </div>
              </dl>
              <div className="mt-3 grid gap-2 lg:grid-cols-2">
                <div className="min-w-0">
                  <p className="text-xs text-slate-500">{t("audit.columns.before")}</p>
                  <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded-lg bg-slate-950/70 p-2 font-mono text-xs text-slate-300">{compact(row.before)}</pre>
                </div>
                <div className="min-w-0">
                  <p className="text-xs text-slate-500">{t("audit.columns.after")}</p>
                  <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded-lg bg-slate-950/70 p-2 font-mono text-xs text-slate-300">{compact(row.after)}</pre>
                </div>
              </div>
            </li>
          ))}
        </ol>
      )}

      <nav aria-label={t("audit.pagination")} className="flex flex-wrap justify-between gap-3">
        {!isFirstPage ? (
          <Link to={`/admin/auditoria?${first.toString()}`} className="inline-flex min-h-11 items-center rounded-xl bg-white/10 px-4 text-sm font-semibold text-slate-100 hover:bg-white/15">
            {t("audit.firstPage")}
          </Link>
        ) : (
          <span />
        )}
        {nextCursor && (
          <Link to={`/admin/auditoria?${next.toString()}`} className="inline-flex min-h-11 items-center rounded-xl bg-emerald-500 px-4 text-sm font-semibold text-slate-950 hover:bg-emerald-400">
            {t("audit.next")}
          </Link>
        )}
      </nav>
    </div>
  );
}
