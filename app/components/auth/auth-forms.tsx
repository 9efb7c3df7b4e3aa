/**
 * The three forms of /auth (PRODUCT.md §2 Authentication page, §4 Auth tabs, §5): 'Entrar', 'Criar Conta'
 * and 'Recuperar'. Each is a plain POST `<Form>` with an `intent` (it works without JavaScript: the
 * action answers and redirects itself); once hydrated each carries `js=1` and is validated live by
 * conform (`useForm`) with the same schema the action parses (app/lib/validation.ts), the message
 * under its field (on blur, again on input). A field error the action sent back (no-JS post) is shown
 * until the browser has one of its own for that field.
 */
import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { translateIssue } from "../../../core/i18n/zod-message";
import { emailRequestSchema, loginSchema, PASSWORD_RULES, registerSchema } from "~/lib/validation";
import { CheckIcon } from "../icons";
import { Button, Field } from "../ui";
import { PasswordInput } from "./password-input";

/**
 * conform's live validation of one /auth form: the form's metadata and `error(name)`, the field's message
 * in the page's language — the browser's own (from `schema`), else the action's (`serverErrors`), else null.
 */
function useAuthForm(id: string, schema: z.ZodType, serverErrors?: Record<string, string>) {
  const { t } = useTranslation("auth");
  const [form, fields] = useForm({
    id,
    // Without JavaScript the browser's own constraints (required, type=email) still check the form.
    defaultNoValidate: false,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema, disableAutoCoercion: true }),
  });
  const error = (name: string): string | null => {
    const text = fields[name]?.errors?.[0] || serverErrors?.[name];
    return text ? translateIssue(t, text) : null;
  };
  return { form, error };
}

/** The hidden `js` field: present once hydrated, so the action answers with data instead of redirecting. */
function JsFlag({ hydrated }: { hydrated: boolean }) {
  return hydrated ? <input type="hidden" name="js" value="1" /> : null;
}

/** The 'Entrar' form: e-mail, password (show/hide), 'Lembrar de mim' (checked by default), forgot link. */
export function LoginForm({ busy, done, hydrated, onForgot }: { busy: boolean; done: boolean; hydrated: boolean; onForgot: () => void }) {
  const { t } = useTranslation("auth");
  const [password, setPassword] = useState("");
  const { form, error } = useAuthForm("panel-login", loginSchema);
  return (
    <Form method="post" {...getFormProps(form)} role="tabpanel" aria-labelledby="tab-login" className="space-y-4">
      <input type="hidden" name="intent" value="login" />
      <JsFlag hydrated={hydrated} />
      <Field
        id="login-email"
        name="email"
        type="email"
        label={t("fields.email")}
        autoComplete="email"
        inputMode="email"
        placeholder={t("fields.emailPlaceholder")}
        required
        error={error("email")}
      />
      <PasswordInput id="login-password" value={password} onChange={setPassword} autoComplete="current-password" placeholder={t("fields.passwordPlaceholder")} error={error("password")} />
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

/**
 * The 'Criar Conta' form, validated live with the action's `registerSchema`; the submit button waits
 * (once hydrated) for the names, the e-mail and a password meeting the §5 rules.
 */
export function RegisterForm({ busy, done, hydrated, serverErrors }: { busy: boolean; done: boolean; hydrated: boolean; serverErrors?: Record<string, string> }) {
  const { t } = useTranslation("auth");
  const [values, setValues] = useState({ firstName: "", lastName: "", email: "", password: "" });
  const set = (k: keyof typeof values) => (v: string) => setValues((s) => ({ ...s, [k]: v }));
  const { form, error } = useAuthForm("panel-register", registerSchema, serverErrors);
  const rulesOk = PASSWORD_RULES.every((r) => r.test(values.password));
  const filled = values.firstName.trim() && values.lastName.trim() && values.email.trim();
  return (
    <Form method="post" {...getFormProps(form)} role="tabpanel" aria-labelledby="tab-register" className="space-y-4">
      <input type="hidden" name="intent" value="register" />
      <JsFlag hydrated={hydrated} />
      <div className="grid grid-cols-2 gap-3">
        <Field
          id="reg-first"
          name="firstName"
          label={t("fields.firstName")}
          autoComplete="given-name"
          value={values.firstName}
          onChange={(e) => set("firstName")(e.target.value)}
          required
          error={error("firstName")}
        />
        <Field
          id="reg-last"
          name="lastName"
          label={t("fields.lastName")}
          autoComplete="family-name"
          value={values.lastName}
          onChange={(e) => set("lastName")(e.target.value)}
          required
          error={error("lastName")}
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
        error={error("email")}
      />
      <PasswordInput id="reg-password" value={values.password} onChange={set("password")} rules autoComplete="new-password" placeholder={t("fields.passwordMin")} error={error("password")} />
      <Button type="submit" className="w-full" loading={busy} disabled={hydrated && (!rulesOk || !filled || done)}>
        {t("register.submit")}
      </Button>
      <p className="text-center text-xs text-slate-500">{t("register.trial")}</p>
    </Form>
  );
}

/** The 'Recuperar' tab: step 1 asks for the e-mail, step 2 (`sent`) confirms and offers 'Voltar para Login'. */
export function ForgotForm({ busy, sent, hydrated, error: serverError, onBack }: { busy: boolean; sent: string | null; hydrated: boolean; error?: string; onBack: () => void }) {
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
  return <ForgotEmailForm busy={busy} hydrated={hydrated} serverError={serverError} />;
}

/** Step 1 of 'Recuperar': the e-mail, validated live with the action's `emailRequestSchema`. */
function ForgotEmailForm({ busy, hydrated, serverError }: { busy: boolean; hydrated: boolean; serverError?: string }) {
  const { t } = useTranslation("auth");
  const { form, error } = useAuthForm("panel-forgot", emailRequestSchema, serverError ? { email: serverError } : undefined);
  return (
    <Form method="post" {...getFormProps(form)} role="tabpanel" aria-labelledby="tab-forgot" className="space-y-4">
      <input type="hidden" name="intent" value="forgot" />
      <JsFlag hydrated={hydrated} />
      <p className="text-sm text-slate-400">{t("forgot.intro")}</p>
      <Field id="forgot-email" name="email" type="email" label={t("fields.email")} autoComplete="email" placeholder={t("fields.emailPlaceholder")} required error={error("email")} />
      <Button type="submit" className="w-full" loading={busy}>
        {t("forgot.submit")}
      </Button>
    </Form>
  );
}
