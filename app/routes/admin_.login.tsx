/**
 * /admin/login — the login form in admin mode (PRODUCT.md §2 "/admin/login", §6; issue 10). Outside
 * the admin layout (`admin_.` prefix). The same checks as /auth's 'Entrar' (remix-auth FormStrategy:
 * per-account backoff of login-throttle.server.ts, verified e-mail, active account; the per-IP limit
 * of server/rate-limits.ts covers this path too) and the same messages for wrong credentials; then
 * only an admin gets a session and lands on /admin. A regular user is refused ('Acesso restrito a
 * administradores.') and no session is created. Works without JavaScript (a plain POST form).
 * Already logged in: an admin goes to /admin, anyone else to / (§2 "/admin/*: others redirected to /").
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { msg } from "../../core/i18n/message";
import { PasswordInput } from "~/components/auth/password-input";
import { ShieldIcon } from "~/components/icons";
import { Logo } from "~/components/layout";
import { Banner, Button, Field } from "~/components/ui";
import { i18nFor, translateMsg } from "~/i18n";
import { readForm } from "~/route-support/form.server";
import { createSession, getUser } from "~/services/identity/auth.server";
import { authenticator } from "~/services/identity/authenticator.server";
import { DomainError, httpStatusOf } from "~/services/platform/errors.server";

export const meta: MetaFunction = () => [{ title: i18nFor("pt").t("admin-config:login.meta") }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  if (user) throw redirect(user.role === "admin" ? "/admin" : "/");
  return {};
}

/** The action's answer: only failures come back (success redirects to /admin). */
interface LoginFailure {
  ok: false;
  message: string;
  email: string;
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request.clone(), "pt");
  const email = String(form.get("email") ?? "").slice(0, 200);
  const fail = (status: number, message: string, headers?: HeadersInit) => data<LoginFailure>({ ok: false, message, email }, { status, headers });
  try {
    const { user, remember } = await authenticator.authenticate("form", request);
    // Credentials are right, but the admin area is for admins only: no session at all.
    if (user.role !== "admin") return fail(403, translateMsg(msg("admin:errors.adminOnly"), "pt"));
    const { setCookie } = await createSession(user.id, request, remember);
    return redirect("/admin", { headers: { "Set-Cookie": setCookie } });
  } catch (err) {
    if (err instanceof DomainError) {
      const retryAfter = err.extra.retryAfter;
      return fail(httpStatusOf(err), err.message, typeof retryAfter === "number" ? { "Retry-After": String(Math.max(1, Math.ceil(retryAfter))) } : undefined);
    }
    console.error("[admin/login] login falhou:", err);
    return fail(500, translateMsg(msg("auth:login.formError"), "pt"));
  }
}

/** The admin login card: e-mail, password (show/hide), 'Lembrar de mim', submit; the refusal or error above. */
export default function AdminLogin() {
  const { t } = useTranslation("admin-config");
  const { t: ta } = useTranslation("auth");
  const result = useActionData<typeof action>() as LoginFailure | undefined;
  const navigation = useNavigation();
  const [password, setPassword] = useState("");
  const [dismissed, setDismissed] = useState<LoginFailure | null>(null);
  const busy = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center px-4 py-8">
      <div className="mb-6 flex justify-center">
        <Logo className="text-xl" />
      </div>
      <div className="rounded-3xl border border-white/10 bg-slate-900/80 p-5 shadow-2xl shadow-black/40 backdrop-blur sm:p-7">
        <div className="mb-5 flex items-center gap-3">
          <span className="grid h-10 w-10 place-items-center rounded-full bg-emerald-500/15 text-emerald-300">
            <ShieldIcon className="h-5 w-5" aria-hidden="true" />
          </span>
          <div>
            <h1 className="text-xl font-bold text-white">{t("login.title")}</h1>
            <p className="text-sm text-slate-400">{t("login.subtitle")}</p>
          </div>
        </div>
        {result && result !== dismissed && (
          <Banner tone="error" onClose={() => setDismissed(result)} className="mb-4">
            {result.message}
          </Banner>
        )}
        <Form method="post" className="space-y-4">
          <Field
            id="admin-login-email"
            name="email"
            type="email"
            label={ta("fields.email")}
            autoComplete="username"
            inputMode="email"
            placeholder={ta("fields.emailPlaceholder")}
            defaultValue={result?.email}
            required
          />
          <PasswordInput id="admin-login-password" value={password} onChange={setPassword} autoComplete="current-password" placeholder={ta("fields.passwordPlaceholder")} />
          <label className="flex items-center gap-2 text-sm text-slate-300">
            <input type="checkbox" name="remember" defaultChecked className="h-4 w-4 rounded border-white/20 bg-slate-950 accent-emerald-500" />
            {ta("login.remember")}
          </label>
          <Button type="submit" className="w-full" loading={busy}>
            {t("login.submit")}
          </Button>
        </Form>
        <p className="mt-5 text-center text-sm text-slate-400">
          {t("login.notAdmin")}{" "}
          <Link to="/auth" className="font-medium text-emerald-300 hover:underline">
            {t("login.toUserLogin")}
          </Link>
        </p>
      </div>
    </main>
  );
}
