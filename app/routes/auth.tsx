/**
 * /auth: login ('Entrar'), register ('Criar Conta') and forgot password ('Recuperar') as Remix forms
 * with an `intent` field (PRODUCT.md §2 Authentication page, §4 Auth tabs, §5, §8).
 * Login goes through remix-auth's FormStrategy; success opens a session (Set-Cookie) and proceeds after
 * 0.8 s (register: 1 s). Logged-in users are sent away (admins to /admin, others to /).
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useNavigate, useNavigation, useSearchParams, type ShouldRevalidateFunction } from "@remix-run/react";
import clsx from "clsx";
import { useEffect, useState } from "react";
import { BrokerCta } from "~/components/auth/broker-cta";
import { PasswordInput } from "~/components/auth/password-input";
import { CheckIcon } from "~/components/icons";
import { Logo } from "~/components/layout";
import { Banner, Button, Field } from "~/components/ui";
import { ApiError } from "~/services/api.server";
import { createSession, createUser, getUser } from "~/services/auth.server";
import { authenticator } from "~/services/authenticator.server";
import { emailField, PASSWORD_RULES, registerSchema } from "~/services/validation";

export const meta: MetaFunction = () => [{ title: "Entrar — Forex IA" }];

type Tab = "login" | "register" | "forgot";

/** What the action answers: success with where to go next, or an error message (and field errors). */
type ActionResult =
  | { ok: true; intent: Tab; message: string; redirectTo?: string; at: number }
  | { ok: false; intent: Tab; error: string; fieldErrors?: Record<string, string>; at: number };

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getUser(request);
  if (user) throw redirect(user.role === "admin" ? "/admin" : "/");
  return {};
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await request.clone().formData();
  const intent = String(form.get("intent") ?? "login") as Tab;
  const at = Date.now();
  if (intent === "login") {
    try {
      const { user, remember } = await authenticator.authenticate("form", request);
      const { setCookie } = await createSession(user.id, request, remember);
      return data<ActionResult>(
        { ok: true, intent, message: "Login realizado com sucesso! Redirecionando...", redirectTo: user.role === "admin" ? "/admin" : "/", at },
        { headers: { "Set-Cookie": setCookie } },
      );
    } catch (err) {
      if (err instanceof ApiError) return data<ActionResult>({ ok: false, intent, error: err.message, at }, { status: err.status });
      console.error("[auth] login falhou:", err);
      return data<ActionResult>({ ok: false, intent, error: "Erro ao autenticar. Tente novamente.", at }, { status: 500 });
    }
  }
  if (intent === "register") {
    const parsed = registerSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? "form")] ??= issue.message;
      return data<ActionResult>({ ok: false, intent, error: parsed.error.issues[0]?.message ?? "Erro ao registrar", fieldErrors, at }, { status: 400 });
    }
    try {
      const user = await createUser(parsed.data);
      const { setCookie } = await createSession(user.id, request, true);
      // The terms step (/auth/contract) arrives in the next issue: for now the user goes straight to /.
      return data<ActionResult>(
        { ok: true, intent, message: "Cadastro iniciado! Redirecionando para aceitar os termos...", redirectTo: "/", at },
        { headers: { "Set-Cookie": setCookie } },
      );
    } catch (err) {
      if (err instanceof ApiError) return data<ActionResult>({ ok: false, intent, error: err.message, at }, { status: err.status });
      console.error("[auth] cadastro falhou:", err);
      return data<ActionResult>({ ok: false, intent, error: "Erro ao registrar", at }, { status: 500 });
    }
  }
  if (intent === "forgot") {
    const email = emailField.safeParse(form.get("email") ?? "");
    if (!email.success) return data<ActionResult>({ ok: false, intent, error: email.error.issues[0]?.message ?? "E-mail inválido.", at }, { status: 400 });
    return data<ActionResult>({ ok: true, intent, message: "Se o e-mail estiver cadastrado, você receberá o link de recuperação.", at });
  }
  return data<ActionResult>({ ok: false, intent: "login", error: "Ação inválida.", at }, { status: 400 });
}

/** After a successful login/register the page stays to show the message; the client navigates after the delay. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) =>
  (actionResult as ActionResult | undefined)?.ok ? false : defaultShouldRevalidate;

const VERIFY_MESSAGES: Record<string, string> = {
  token_missing: "Link de verificação inválido.",
  token_invalid: "Link de verificação expirado ou inválido.",
  verification_failed: "Erro na verificação do email. Tente novamente.",
};

/** Delays before proceeding (PRODUCT.md §9). */
const DELAY_MS: Record<Tab, number> = { login: 800, register: 1000, forgot: 0 };

/** The auth page: tabs, forms, banners and the broker call to action. */
export default function AuthPage() {
  const actionData = useActionData<typeof action>() as ActionResult | undefined;
  const navigation = useNavigation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [tab, setTab] = useState<Tab>(() => (params.get("tab") === "register" ? "register" : "login"));
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const [banner, setBanner] = useState<{ tone: "success" | "error"; text: string } | null>(() => {
    if (params.get("verified") === "true") return { tone: "success", text: "Email verificado com sucesso! Faça login para continuar." };
    const e = params.get("error");
    if (e) return { tone: "error", text: VERIFY_MESSAGES[e] ?? "Erro durante a verificação." };
    return null;
  });

  // Clear the verification query once shown (PRODUCT.md §2).
  useEffect(() => {
    if (params.has("verified") || params.has("error")) window.history.replaceState(null, "", "/auth");
  }, [params]);

  // Proceed after a success message (0.8 s login, 1 s register).
  useEffect(() => {
    if (!actionData?.ok || !actionData.redirectTo) return;
    const to = actionData.redirectTo;
    const id = window.setTimeout(() => navigate(to, { replace: true }), DELAY_MS[actionData.intent]);
    return () => window.clearTimeout(id);
  }, [actionData, navigate]);

  const switchTab = (t: Tab) => {
    setTab(t);
    setDismissedAt(actionData?.at ?? null); // changing tab clears messages
    setBanner(null);
  };

  const result = actionData && actionData.at !== dismissedAt && actionData.intent === tab ? actionData : undefined;
  const submittingIntent = navigation.state !== "idle" ? String(navigation.formData?.get("intent") ?? "") : "";

  return (
    <main className="mx-auto grid min-h-dvh w-full max-w-6xl items-center gap-10 px-4 py-8 min-[968px]:grid-cols-2 min-[968px]:px-8">
      <section className="hidden min-[968px]:block">
        <Logo className="text-xl" />
        <h1 className="mt-8 text-4xl font-bold leading-tight text-white">
          Trading automático de forex com <span className="text-emerald-400">inteligência artificial</span>
        </h1>
        <p className="mt-4 max-w-md text-lg text-slate-300">
          A IA observa o mercado 24/7, escolhe o timeframe (M5, M15, M30 ou H1) e opera na sua conta Oanda com gestão de risco.
        </p>
        <ul className="mt-8 space-y-3 text-slate-300">
          {["Execução automática na sua conta", "Stop loss e take profit em cada operação", "Você no controle: ligue e desligue quando quiser"].map((t) => (
            <li key={t} className="flex items-center gap-3">
              <span className="grid h-6 w-6 place-items-center rounded-full bg-emerald-500/15 text-emerald-300">
                <CheckIcon size={14} />
              </span>
              {t}
            </li>
          ))}
        </ul>
        <div className="mt-8 flex flex-wrap gap-2 text-xs">
          <span className="rounded-full bg-white/5 px-3 py-1 text-slate-300 ring-1 ring-white/10">Desktop</span>
          <span className="rounded-full bg-white/5 px-3 py-1 text-slate-300 ring-1 ring-white/10">Web</span>
          <span className="rounded-full bg-white/5 px-3 py-1 text-slate-400 ring-1 ring-white/10">iOS/Android · Em breve</span>
        </div>
      </section>

      <section className="mx-auto w-full max-w-md">
        <div className="mb-6 flex items-center justify-center min-[968px]:hidden">
          <Logo className="text-xl" />
        </div>
        <div className="rounded-3xl border border-white/10 bg-slate-900/80 p-5 shadow-2xl shadow-black/40 backdrop-blur sm:p-7">
          <div role="tablist" aria-label="Acesso" className="mb-6 grid grid-cols-3 gap-1 rounded-2xl bg-slate-950/70 p-1">
            {(
              [
                ["login", "Entrar"],
                ["register", "Criar Conta"],
                ["forgot", "Recuperar"],
              ] as const
            ).map(([t, label]) => (
              <button
                key={t}
                type="button"
                role="tab"
                id={`tab-${t}`}
                aria-selected={tab === t}
                aria-controls={`panel-${t}`}
                onClick={() => switchTab(t)}
                className={clsx(
                  "min-h-10 rounded-xl px-2 text-sm font-semibold transition",
                  tab === t ? "bg-emerald-500 text-slate-950 shadow" : "text-slate-400 hover:text-slate-100",
                )}
              >
                {label}
              </button>
            ))}
          </div>

          {banner && (
            <Banner tone={banner.tone} onClose={() => setBanner(null)} className="mb-4">
              {banner.text}
            </Banner>
          )}
          {result && !(result.ok && result.intent === "forgot") && (
            <Banner tone={result.ok ? "success" : "error"} onClose={() => setDismissedAt(result.at)} className="mb-4">
              {result.ok ? result.message : result.error}
            </Banner>
          )}

          {tab === "login" && <LoginForm busy={submittingIntent === "login"} done={!!result?.ok} onForgot={() => switchTab("forgot")} />}
          {tab === "register" && (
            <RegisterForm busy={submittingIntent === "register"} done={!!result?.ok} serverErrors={result && !result.ok ? result.fieldErrors : undefined} />
          )}
          {tab === "forgot" && (
            <ForgotForm busy={submittingIntent === "forgot"} sent={result?.ok ? result.message : null} onBack={() => switchTab("login")} />
          )}
        </div>
        <div className="mt-4">
          <BrokerCta onHaveAccount={() => switchTab("login")} />
        </div>
      </section>
    </main>
  );
}

function LoginForm({ busy, done, onForgot }: { busy: boolean; done: boolean; onForgot: () => void }) {
  const [password, setPassword] = useState("");
  return (
    <Form method="post" id="panel-login" role="tabpanel" aria-labelledby="tab-login" className="space-y-4">
      <input type="hidden" name="intent" value="login" />
      <Field id="login-email" name="email" type="email" label="E-mail" autoComplete="email" inputMode="email" placeholder="voce@exemplo.com" required />
      <PasswordInput id="login-password" value={password} onChange={setPassword} autoComplete="current-password" placeholder="Sua senha" />
      <div className="flex items-center justify-between gap-3 text-sm">
        <label className="flex items-center gap-2 text-slate-300">
          <input type="checkbox" name="remember" defaultChecked className="h-4 w-4 rounded border-white/20 bg-slate-950 accent-emerald-500" />
          Lembrar de mim
        </label>
        <button type="button" onClick={onForgot} className="font-medium text-emerald-300 hover:underline">
          Esqueceu a senha?
        </button>
      </div>
      <Button type="submit" className="w-full" loading={busy} disabled={done}>
        Entrar
      </Button>
    </Form>
  );
}

function RegisterForm({ busy, done, serverErrors }: { busy: boolean; done: boolean; serverErrors?: Record<string, string> }) {
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
          const next: Record<string, string> = {};
          for (const issue of parsed.error.issues) next[String(issue.path[0] ?? "form")] ??= issue.message;
          setErrors(next);
        }
      }}
    >
      <input type="hidden" name="intent" value="register" />
      <div className="grid grid-cols-2 gap-3">
        <Field id="reg-first" name="firstName" label="Nome" autoComplete="given-name" value={values.firstName} onChange={(e) => set("firstName")(e.target.value)} required error={shown.firstName} />
        <Field id="reg-last" name="lastName" label="Sobrenome" autoComplete="family-name" value={values.lastName} onChange={(e) => set("lastName")(e.target.value)} required error={shown.lastName} />
      </div>
      <Field
        id="reg-email"
        name="email"
        type="email"
        label="E-mail"
        autoComplete="email"
        inputMode="email"
        placeholder="voce@exemplo.com"
        value={values.email}
        onChange={(e) => set("email")(e.target.value)}
        required
        error={shown.email}
      />
      <PasswordInput id="reg-password" value={values.password} onChange={set("password")} rules autoComplete="new-password" placeholder="Mínimo 8 caracteres" error={shown.password} />
      <Button type="submit" className="w-full" loading={busy} disabled={!rulesOk || !filled || done}>
        Criar Conta
      </Button>
      <p className="text-center text-xs text-slate-500">Novos usuários ganham 7 dias de teste grátis.</p>
    </Form>
  );
}

function ForgotForm({ busy, sent, onBack }: { busy: boolean; sent: string | null; onBack: () => void }) {
  if (sent)
    return (
      <div id="panel-forgot" role="tabpanel" aria-labelledby="tab-forgot" className="space-y-4 text-center">
        <div className="mx-auto grid h-12 w-12 place-items-center rounded-full bg-emerald-500/15 text-emerald-300">
          <CheckIcon />
        </div>
        <p className="text-slate-200">{sent}</p>
        <p className="text-sm text-slate-400">O envio do link de recuperação por e-mail chega em breve. Enquanto isso, fale com o suporte se não conseguir entrar.</p>
        <Button type="button" variant="secondary" className="w-full" onClick={onBack}>
          Voltar para Login
        </Button>
      </div>
    );
  return (
    <Form method="post" id="panel-forgot" role="tabpanel" aria-labelledby="tab-forgot" className="space-y-4">
      <input type="hidden" name="intent" value="forgot" />
      <p className="text-sm text-slate-400">Informe seu e-mail e enviaremos um link para redefinir a senha. (A recuperação por e-mail chega em breve.)</p>
      <Field id="forgot-email" name="email" type="email" label="E-mail" autoComplete="email" placeholder="voce@exemplo.com" required />
      <Button type="submit" className="w-full" loading={busy}>
        Enviar link
      </Button>
    </Form>
  );
}
