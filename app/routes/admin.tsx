/** /admin — placeholder for the admin area (admins only; others go to /). */
import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Outlet, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Logo } from "~/components/layout";
import { metaTitle } from "~/lib/hooks";
import { requireUser } from "~/services/auth.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "common", "admin.meta");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (user.role !== "admin") throw redirect("/");
  return { email: user.email };
}

/** Admin area placeholder with a logout button. */
export default function AdminPage() {
  const { pathname } = useLocation();
  const { t } = useTranslation("common");
  return (
    <main className="mx-auto max-w-4xl px-4 py-8">
      <div className="flex items-center justify-between">
        <Logo />
        <Form method="post" action="/logout">
          <button type="submit" className="rounded-xl bg-white/10 px-4 py-2 text-sm font-semibold hover:bg-white/15">
            {t("admin.logout")}
          </button>
        </Form>
      </div>
      <h1 className="mt-8 text-2xl font-bold text-white">{t("admin.title")}</h1>
      <div className="mt-6 rounded-2xl border border-white/10 bg-slate-900/70 p-6">
        <p className="text-slate-200">{t("admin.soon")}</p>
        {pathname !== "/admin" && <Outlet />}
      </div>
    </main>
  );
}
