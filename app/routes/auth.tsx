/**
 * /auth (the other /auth/* pages are `auth_.*.tsx` files so they do not nest under this route): login ('Entrar'), register ('Criar Conta') and forgot password ('Recuperar') as Remix forms
 * with an `intent` field (PRODUCT.md §2 Authentication page, §4 Auth tabs, §5, §8).
 * Login goes through remix-auth's FormStrategy and refuses unverified e-mails; success opens a session
 * and proceeds after 0.8 s. Register creates the (unverified) account, sets the signed registration
 * cookie and goes to the terms step (/auth/contract) after 1 s. Without JavaScript (no `js` field) the
 * action redirects at once. Logged-in users are sent away (admins to /admin, others to /).
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLocation, useNavigate, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import clsx from "clsx";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { BrokerCta } from "~/components/auth/broker-cta";
import { PasswordInput } from "~/components/auth/password-input";
import { useHydrated } from "~/components/auth/use-hydrated";
import { CheckIcon } from "~/components/icons";
import { Logo } from "~/components/layout";
import { Banner, Button, Field } from "~/components/ui";
import { i18nFor } from "~/i18n";
import { DomainError, httpStatusOf } from "~/services/platform/errors.server";
import { createSession, createUser, getUser, registrationCookieHeader } from "~/services/identity/auth.server";
import { authenticator } from "~/services/identity/authenticator.server";
import { emailVerificationRequired } from "~/services/identity/registration.server";
import { emailField, PASSWORD_RULES, registerSchema } from "~/lib/validation";
import { clientIp, requestPasswordReset, requestVerificationResend } from "~/services/identity/verification.server";
import { readForm } from "~/route-support/form.server";

export const meta: MetaFunction = () => [{ title: i18nFor("pt").t("auth:meta.title") }];

type Tab = "login" | "register" | "forgot";
type Intent = Tab | "resend";

/** A message either as an i18n key of the `auth` namespace or as a server text (already Portuguese). */
type Msg = { key: string } | { text: string };

/** What the action answers: success with where to go next, or an error (and field errors). */
type ActionResult =
  | { ok: true; intent: Intent; msg: Msg; redirectTo?: string; at: number }
  | { ok: false; intent: Intent; msg: Msg; fieldErrors?: Record<string, string>; needsVerification?: boolean; email?: string; at: number };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  if (user) throw redirect(user.role === "admin" ? "/admin" : "/");
  return {};
}

/** Field errors of a failed zod parse (first message per field). */
function fieldErrorsOf(issues: { path: PropertyKey[]; message: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) out[String(issue.path[0] ?? "form")] ??= issue.message;
  return out;
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request.clone());
  const raw = String(form.get("intent") ?? "login");
  const intent: Intent = raw === "register" || raw === "forgot" || raw === "resend" ? raw : "login";
  const withJs = form.get("js") === "1"; // set only once hydrated: without JS the action redirects itself
  const at = Date.now();
  const fail = (status: number, msg: Msg, extra: Partial<Extract<ActionResult, { ok: false }>> = {}) =>
    data<ActionResult>({ ok: false, intent, msg, at, ...extra }, { status });

  if (intent === "login") {
    try {
      const { user, remember } = await authenticator.authenticate("form", request);
      const { setCookie } = await createSession(user.id, request, remember);
      const to = user.role === "admin" ? "/admin" : "/";
      if (!withJs) return redirect(to, { headers: { "Set-Cookie": setCookie } });
      return data<ActionResult>({ ok: true, intent, msg: { key: "login.success" }, redirectTo: to, at }, { headers: { "Set-Cookie": setCookie } });
    } catch (err) {
      if (err instanceof DomainError) {
        if (err.extra.needsVerification) return fail(400, { text: err.message }, { needsVerification: true, email: String(err.extra.email ?? "") });
        return fail(httpStatusOf(err), { text: err.message });
      }
      console.error("[auth] login falhou:", err);
      return fail(500, { key: "login.formError" });
    }
  }
  if (intent === "register") {
    const parsed = registerSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) {
      const fieldErrors = fieldErrorsOf(parsed.error.issues);
      return fail(400, parsed.error.issues[0] ? { text: parsed.error.issues[0].message } : { key: "register.error" }, { fieldErrors });
    }
    try {
      const user = await createUser({ ...parsed.data, verified: !emailVerificationRequired() });
      const setCookie = await registrationCookieHeader({ userId: user.id, email: user.email });
      const to = `/auth/contract?email=${encodeURIComponent(user.email)}`;
      if (!withJs) return redirect(to, { headers: { "Set-Cookie": setCookie } });
      return data<ActionResult>({ ok: true, intent, msg: { key: "register.success" }, redirectTo: to, at }, { headers: { "Set-Cookie": setCookie } });
    } catch (err) {
      if (err instanceof DomainError) return fail(httpStatusOf(err), { text: err.message });
      console.error("[auth] cadastro falhou:", err);
      return fail(500, { key: "register.error" });
    }
  }
  // forgot / resend: the same answer whether or not the e-mail exists; 429 inside the cooldown.
  const email = emailField.safeParse(form.get("email") ?? "");
  if (!email.success) return fail(400, { text: email.error.issues[0]?.message ?? "E-mail inválido." }, { fieldErrors: { email: email.error.issues[0]?.message ?? "" } });
  try {
    if (intent === "forgot") await requestPasswordReset(email.data, clientIp(request));
    else await requestVerificationResend(email.data, clientIp(request));
  } catch (err) {
    if (err instanceof DomainError) return fail(httpStatusOf(err), { text: err.message });
    console.error(`[auth] ${intent} falhou:`, err);
    return fail(500, { key: intent === "forgot" ? "forgot.sendError" : "login.formError" });
  }
  return data<ActionResult>({ ok: true, intent, msg: { key: intent === "forgot" ? "forgot.sent" : "login.resendSent" }, at });
}

/** After a successful login/register the page stays to show the message; the client navigates after the delay. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as ActionResult | undefined)?.ok ? false : defaultShouldRevalidate;

/** Delays before proceeding (PRODUCT.md §9). */
const DELAY_MS: Record<Intent, number> = { login: 800, register: 1000, forgot: 0, resend: 0 };

/** Banner from the query: ?verified=true, ?error=<code>, ?reset=success (PRODUCT.md §2). */
function queryBanner(search: string): { tone: "success" | "error"; key: string } | null {
  const params = new URLSearchParams(search);
  if (params.get("verified") === "true") return { tone: "success", key: "banner.verified" };
  if (params.get("reset") === "success") return { tone: "success", key: "banner.reset" };
  const e = params.get("error");
  if (e) return { tone: "error", key: ["token_missing", "token_invalid", "verification_failed"].includes(e) ? `banner.${e}` : "banner.other" };
  return null;
}

/** The tab an action result belongs to. */
const tabOf = (intent: Intent): Tab => (intent === "resend" ? "login" : intent);

/** The auth page: tabs, forms, banners and the broker call to action. */
export default function AuthPage() {
  const { t } = useTranslation("auth");
  const actionData = useActionData<typeof action>() as ActionResult | undefined;
  const navigation = useNavigation();
  const navigate = useNavigate();
  const location = useLocation();
  const hydrated = useHydrated();
  const [tab, setTab] = useState<Tab>(() => {
    if (actionData) return tabOf(actionData.intent);
    const q = new URLSearchParams(location.search).get("tab");
    return q === "register" || q === "forgot" ? q : "login";
  });
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [banner, setBanner] = useState(() => queryBanner(location.search));

  // Clear the query once the banner is shown (PRODUCT.md §2), without a new history entry.
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (params.has("verified") || params.has("error") || params.has("reset")) navigate("/auth", { replace: true, preventScrollReset: true });
  }, [location.search, navigate]);

  // A new action result selects its tab.
  useEffect(() => {
    if (actionData) setTab(tabOf(actionData.intent));
  }, [actionData]);

  // Proceed after a success message (0.8 s login, 1 s register).
  useEffect(() => {
    if (!actionData?.ok || !actionData.redirectTo) return;
    const to = actionData.redirectTo;
    const id = window.setTimeout(() => navigate(to, { replace: true }), DELAY_MS[actionData.intent]);
    return () => window.clearTimeout(id);
  }, [actionData, navigate]);

  const switchTab = (next: Tab) => {
    setTab(next);
    setDismissedAt(actionData?.at ?? null); // changing tab clears messages
    setBanner(null);
  };

  const result = actionData && actionData.at !== dismissedAt && tabOf(actionData.intent) === tab ? actionData : undefined;
  const text = (m: Msg) => ("key" in m ? t(m.key) : m.text);
  const submittingIntent = navigation.state !== "idle" ? String(navigation.formData?.get("intent") ?? "") : "";
  const forgotSent = result?.ok && result.intent === "forgot" ? text(result.msg) : null;
  const tabs: [Tab, string][] = [
    ["login", t("tabs.login")],
    ["register", t("tabs.register")],
    ["forgot", t("tabs.forgot")],
  ];

  return (
    <main className="mx-auto grid min-h-dvh w-full max-w-6xl items-center gap-10 px-4 py-8 min-[968px]:grid-cols-2 min-[968px]:px-8">
      <section className="hidden min-[968px]:block">
        <Logo className="text-xl" />
        <h1 className="mt-8 text-4xl font-bold leading-tight text-white">
          {t("hero.title")} <span className="text-emerald-400">{t("hero.titleAccent")}</span>
        </h1>
        <p className="mt-4 max-w-md text-lg text-slate-300">{t("hero.subtitle")}</p>
        <ul className="mt-8 space-y-3 text-slate-300">
          {[t("hero.point1"), t("hero.point2"), t("hero.point3")].map((p) => (
            <li key={p} className="flex items-center gap-3">
              <span className="grid h-6 w-6 place-items-center rounded-full bg-emerald-500/15 text-emerald-300">
                <CheckIcon size={14} />
              </span>
              {p}
            </li>
          ))}
        </ul>
        <div className="mt-8 flex flex-wrap gap-2 text-xs">
          <span className="rounded-full bg-white/5 px-3 py-1 text-slate-300 ring-1 ring-white/10">{t("hero.desktop")}</span>
          <span className="rounded-full bg-white/5 px-3 py-1 text-slate-300 ring-1 ring-white/10">{t("hero.web")}</span>
          <span className="rounded-full bg-white/5 px-3 py-1 text-slate-400 ring-1 ring-white/10">{t("hero.mobileSoon")}</span>
        </div>
      </section>

      <section className="mx-auto w-full max-w-md">
        <div className="mb-6 flex items-center justify-center min-[968px]:hidden">
          <Logo className="text-xl" />
        </div>
        <div className="rounded-3xl border border-white/10 bg-slate-900/80 p-5 shadow-2xl shadow-black/40 backdrop-blur sm:p-7">
          <div role="tablist" aria-label={t("tabs.label")} className="mb-6 grid grid-cols-3 gap-1 rounded-2xl bg-slate-950/70 p-1">
            {tabs.map(([id, label]) => (
              // Links so the tabs also work without JavaScript (?tab=…); with JS they switch in place.
              <a
                key={id}
                href={`/auth?tab=${id}`}
                role="tab"
                id={`tab-${id}`}
                aria-selected={tab === id}
                aria-controls={`panel-${id}`}
                onClick={(e) => {
                  e.preventDefault();
                  switchTab(id);
                }}
                className={clsx(
                  "grid min-h-10 place-items-center rounded-xl px-2 text-center text-sm font-semibold transition",
                  tab === id ? "bg-emerald-500 text-slate-950 shadow" : "text-slate-400 hover:text-slate-100",
                )}
              >
                {label}
              </a>
            ))}
          </div>

          {banner && (
            <Banner tone={banner.tone} onClose={() => setBanner(null)} className="mb-4">
              {t(banner.key)}
            </Banner>
          )}
          {result && !forgotSent && (
            <Banner tone={result.ok ? "success" : "error"} onClose={() => setDismissedAt(result.at)} className="mb-4">
              {text(result.msg)}
              {!result.ok && result.needsVerification && result.email && (
                <Form method="post" className="mt-2">
                  <input type="hidden" name="intent" value="resend" />
                  <input type="hidden" name="email" value={result.email} />
                  {hydrated && <input type="hidden" name="js" value="1" />}
                  <button type="submit" className="font-semibold underline" disabled={submittingIntent === "resend"}>
                    {t("login.resend")}
                  </button>
                </Form>
              )}
            </Banner>
          )}

          {tab === "login" && (
            <LoginForm busy={submittingIntent === "login"} done={!!result?.ok && result.intent === "login"} hydrated={hydrated} onForgot={() => switchTab("forgot")} />
          )}
          {tab === "register" && (
            <RegisterForm
              busy={submittingIntent === "register"}
              done={!!result?.ok}
              hydrated={hydrated}
              serverErrors={result && !result.ok ? result.fieldErrors : undefined}
            />
          )}
          {tab === "forgot" && (
            <ForgotForm
              busy={submittingIntent === "forgot"}
              sent={forgotSent}
              hydrated={hydrated}
              error={result && !result.ok ? result.fieldErrors?.email : undefined}
              onBack={() => switchTab("login")}
            />
          )}
        </div>
        <div className="mt-4">
          <BrokerCta onHaveAccount={() => switchTab("login")} />
        </div>
      </section>
    </main>
  );
}

/** The 'Entrar' form: e-mail, password (show/hide), 'Lembrar de mim' (checked by default), forgot link. */
function LoginForm({ busy, done, hydrated, onForgot }: { busy: boolean; done: boolean; hydrated: boolean; onForgot: () => void }) {
  const { t } = useTranslation("auth");
  const [password, setPassword] = useState("");
  return (
    <Form method="post" id="panel-login" role="tabpanel" aria-labelledby="tab-login" className="space-y-4">
      <input type="hidden" name="intent" value="login" />
      {hydrated && <input type="hidden" name="js" value="1" />}
      <Field id="login-email" name="email" type="email" label={t("fields.email")} autoComplete="email" inputMode="email" placeholder={t("fields.emailPlaceholder")} required />
      <PasswordInput id="login-password" value={password} onChange={setPassword} autoComplete="current-password" placeholder={t("fields.passwordPlaceholder")} />
      <div className="flex items-center justify-between gap-3 text-sm">
        <label className="flex items-center gap-2 text-slate-300">
          <input type="checkbox" name="remember" defaultChecked className="h-4 w-4 rounded border-white/20 bg-slate-950 accent-emerald-500" />
          {t("login.remember")}
        </label>
        <a
          href="/auth?tab=forgot"
          onClick={(e) => {
            e.preventDefault();
            onForgot();
          }}
          className="font-medium text-emerald-300 hover:underline"
        >
          {t("login.forgotLink")}
        </a>
      </div>
      <Button type="submit" className="w-full" loading={busy} disabled={done}>
        {t("login.submit")}
      </Button>
    </Form>
  );
}

/** The 'Criar Conta' form, validated live with the server's `registerSchema`. */
function RegisterForm({ busy, done, hydrated, serverErrors }: { busy: boolean; done: boolean; hydrated: boolean; serverErrors?: Record<string, string> }) {
  const { t } = useTranslation("auth");
  const [values, setValues] = useState({ firstName: "", lastName: "", email: "", password: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (k: keyof typeof values) => (v: string) => {
    setValues((s) => ({ ...s, [k]: v }));
    setErrors((e) => ({ ...e, [k]: "" }));
  };
  const rulesOk = PASSWORD_RULES.every((r) => r.test(values.password));
  const filled = values.firstName.trim() && values.lastName.trim() && values.email.trim();
  const shown = { ...serverErrors, ...Object.fromEntries(Object.entries(errors).filter(([, v]) => v)) };
  return (
    <Form
      method="post"
      id="panel-register"
      role="tabpanel"
      aria-labelledby="tab-register"
      className="space-y-4"
      onSubmit={(e) => {
        const parsed = registerSchema.safeParse(values);
        if (!parsed.success) {
          e.preventDefault();
          setErrors(fieldErrorsOf(parsed.error.issues));
        }
      }}
    >
      <input type="hidden" name="intent" value="register" />
      {hydrated && <input type="hidden" name="js" value="1" />}
      <div className="grid grid-cols-2 gap-3">
        <Field
          id="reg-first"
          name="firstName"
          label={t("fields.firstName")}
          autoComplete="given-name"
          value={values.firstName}
          onChange={(e) => set("firstName")(e.target.value)}
          required
          error={shown.firstName}
        />
        <Field
          id="reg-last"
          name="lastName"
          label={t("fields.lastName")}
          autoComplete="family-name"
          value={values.lastName}
          onChange={(e) => set("lastName")(e.target.value)}
          required
          error={shown.lastName}
        />
      </div>
      <Field
        id="reg-email"
        name="email"
        type="email"
        label={t("fields.email")}
        autoComplete="email"
        inputMode="email"
        placeholder={t("fields.emailPlaceholder")}
        value={values.email}
        onChange={(e) => set("email")(e.target.value)}
        required
        error={shown.email}
      />
      <PasswordInput id="reg-password" value={values.password} onChange={set("password")} rules autoComplete="new-password" placeholder={t("fields.passwordMin")} error={shown.password} />
      <Button type="submit" className="w-full" loading={busy} disabled={hydrated && (!rulesOk || !filled || done)}>
        {t("register.submit")}
      </Button>
      <p className="text-center text-xs text-slate-500">{t("register.trial")}</p>
    </Form>
  );
}

/** The 'Recuperar' tab: step 1 asks for the e-mail, step 2 confirms and offers 'Voltar para Login'. */
function ForgotForm({ busy, sent, hydrated, error, onBack }: { busy: boolean; sent: string | null; hydrated: boolean; error?: string; onBack: () => void }) {
  const { t } = useTranslation("auth");
  if (sent)
    return (
      <div id="panel-forgot" role="tabpanel" aria-labelledby="tab-forgot" className="space-y-4 text-center">
        <div className="mx-auto grid h-12 w-12 place-items-center rounded-full bg-emerald-500/15 text-emerald-300">
          <CheckIcon />
        </div>
        <p role="status" className="text-slate-200">
          {sent}
        </p>
        <p className="text-sm text-slate-400">{t("forgot.sentHint")}</p>
        {hydrated ? (
          <Button type="button" variant="secondary" className="w-full" onClick={onBack}>
            {t("forgot.back")}
          </Button>
        ) : (
          <a href="/auth" className="inline-flex min-h-11 w-full items-center justify-center rounded-xl bg-white/10 px-4 py-2.5 text-sm font-semibold text-slate-100">
            {t("forgot.back")}
          </a>
        )}
      </div>
    );
  return (
    <Form method="post" id="panel-forgot" role="tabpanel" aria-labelledby="tab-forgot" className="space-y-4">
      <input type="hidden" name="intent" value="forgot" />
      {hydrated && <input type="hidden" name="js" value="1" />}
      <p className="text-sm text-slate-400">{t("forgot.intro")}</p>
      <Field id="forgot-email" name="email" type="email" label={t("fields.email")} autoComplete="email" placeholder={t("fields.emailPlaceholder")} required error={error} />
      <Button type="submit" className="w-full" loading={busy}>
        {t("forgot.submit")}
      </Button>
    </Form>
  );
}
