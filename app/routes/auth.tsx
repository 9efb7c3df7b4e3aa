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
import type { z } from "zod";
import { msg } from "../../core/i18n/message";
import { issueMsg } from "../../core/i18n/zod-message";
import { ForgotForm, LoginForm, RegisterForm } from "~/components/auth/auth-forms";
import { BrokerCta } from "~/components/auth/broker-cta";
import { useHydrated } from "~/components/auth/use-hydrated";
import { CheckIcon } from "~/components/icons";
import { Logo } from "~/components/layout";
import { Banner } from "~/components/ui";
import { i18nFor } from "~/i18n";
import { emailRequestSchema, registerSchema } from "~/lib/validation";
import { pageAction, type PageActionContext } from "~/route-support/page-action.server";
import { createSession, createUser, getUser, registrationCookieHeader } from "~/services/identity/auth.server";
import { authenticator } from "~/services/identity/authenticator.server";
import { emailVerificationRequired } from "~/services/identity/registration.server";
import { clientIp, requestPasswordReset, requestVerificationResend } from "~/services/identity/verification.server";
import { httpStatusOf, ValidationError } from "~/services/platform/errors.server";

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

/**
 * Validates a form with its schema, keeping every field's first message (the no-JavaScript form shows
 * them all, as the browser's live validation does).
 * @throws ValidationError with the first issue's message, `extra.field` (its field) and `extra.fields` (field → first message).
 */
function parseFields<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) fields[String(issue.path[0] ?? "form")] ??= issue.message;
  const first = parsed.error.issues[0];
  throw new ValidationError(issueMsg(first, msg("api:invalidData")), { field: String(first?.path[0] ?? "form"), fields });
}

/** The message of an unexpected failure, by intent (i18n keys of `auth`). */
const FAILURE: Record<Intent, string> = { login: "login.formError", register: "register.error", forgot: "forgot.sendError", resend: "login.formError" };

/**
 * The three forms and the resend link, through `pageAction` (Origin check, form body, intent dispatch;
 * a missing or unknown intent is a login). Login goes through remix-auth's FormStrategy (`loginSchema`);
 * register and forgot/resend parse `registerSchema` / `emailRequestSchema`, the schemas the browser
 * validates with. Without JavaScript (no `js=1`) a success redirects at once with its cookie; with it the
 * page shows the message first. A domain error is the page's error message (Portuguese: the page is
 * anonymous), a refused field its message under the field; anything else is logged and answered 500.
 */
export async function action({ request }: ActionFunctionArgs) {
  const at = Date.now();
  type Ctx = PageActionContext<undefined>;
  const intentOf = (ctx: Ctx) => ctx.intent as Intent;
  const fail = (ctx: Ctx, status: number, message: Msg, extra: Partial<Extract<ActionResult, { ok: false }>> = {}) =>
    data<ActionResult>({ ok: false, intent: intentOf(ctx), msg: message, at, ...extra }, { status });
  /** A success: with JavaScript the message (and where to go after it), without it the redirect itself. */
  const done = (ctx: Ctx, message: Msg, to?: string, setCookie?: string) => {
    const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
    if (to && ctx.field("js") !== "1") return redirect(to, { headers });
    return data<ActionResult>({ ok: true, intent: intentOf(ctx), msg: message, ...(to ? { redirectTo: to } : {}), at }, { headers });
  };
  /** Forgot / resend: the same answer whether or not the e-mail exists; 429 inside the cooldown. */
  const emailRequest = (send: typeof requestPasswordReset, sent: string) => async (ctx: Ctx) => {
    const { email } = ctx.parse(emailRequestSchema, { email: ctx.form.get("email") ?? "" });
    await send(email, clientIp(request));
    return done(ctx, { key: sent });
  };
  return pageAction(request, {
    page: "/auth",
    // The page is anonymous: its server texts are Portuguese.
    language: () => "pt",
    // remix-auth's FormStrategy reads the body itself.
    keepBody: true,
    intents: {
      login: async (ctx) => {
        const { user, remember } = await authenticator.authenticate("form", request);
        const { setCookie } = await createSession(user.id, request, remember);
        return done(ctx, { key: "login.success" }, user.role === "admin" ? "/admin" : "/", setCookie);
      },
      register: async (ctx) => {
        const input = parseFields(registerSchema, Object.fromEntries(ctx.form));
        const user = await createUser({ ...input, verified: !emailVerificationRequired() });
        const setCookie = await registrationCookieHeader({ userId: user.id, email: user.email });
        return done(ctx, { key: "register.success" }, `/auth/contract?email=${encodeURIComponent(user.email)}`, setCookie);
      },
      forgot: emailRequest(requestPasswordReset, "forgot.sent"),
      resend: emailRequest(requestVerificationResend, "login.resendSent"),
    },
    fallback: "login",
    domainError: (err, ctx) => {
      const text = { text: err.messageIn(ctx.language) };
      if (err.extra.needsVerification) return fail(ctx, 400, text, { needsVerification: true, email: String(err.extra.email ?? "") });
      const field = typeof err.extra.field === "string" ? err.extra.field : null;
      const fieldErrors = field ? ((err.extra.fields as Record<string, string> | undefined) ?? { [field]: text.text }) : undefined;
      return fail(ctx, httpStatusOf(err), text, fieldErrors ? { fieldErrors } : {});
    },
    internal: (_err, ctx) => fail(ctx, 500, { key: FAILURE[intentOf(ctx)] }),
  });
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
