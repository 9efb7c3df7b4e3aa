/** /admin — placeholder for the admin area (admins only; others go to /). */
import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Outlet, useLocation } from "@remix-run/react";
import { Logo } from "~/components/layout";
import { requireUser } from "~/services/auth.server";

export const meta: MetaFunction = () => [{ title: "Administração — Forex IA" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (user.role !== "admin") throw redirect("/");
  return { email: user.email };
}

/** Admin area placeholder with a logout button. */
export default function AdminPage() {
  const { pathname } = useLocation();
  return (
    <main className="mx-auto max-w-4xl px-4 py-8">
      <div className="flex items-center justify-between">
        <Logo />
        <Form method="post" action="/logout">
          <button type="submit" className="rounded-xl bg-white/10 px-4 py-2 text-sm font-semibold hover:bg-white/15">
            Sair
          </button>
        </Form>
      </div>
      <h1 className="mt-8 text-2xl font-bold text-white">Painel Administrativo</h1>
      <div className="mt-6 rounded-2xl border border-white/10 bg-slate-900/70 p-6">
        <p className="text-slate-200">O painel administrativo chega em breve.</p>
        {pathname !== "/admin" && <Outlet />}
      </div>
    </main>
  );
}
