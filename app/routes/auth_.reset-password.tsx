/**
 * /auth/reset-password?token=… — the link of the password-reset e-mail (single use, 1 h). The form asks
 * for the new password twice with the same rules as registration (live checklist, shared zod schema);
 * success revokes every session of the user and goes to /auth?reset=success (banner). An invalid,
 * used or expired link shows an error with a way to request a new one.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { PasswordInput } from "~/components/auth/password-input";
import { Logo } from "~/components/layout";
import { Banner, Button } from "~/components/ui";
import { i18nFor } from "~/i18n";
import { DomainError, httpStatusOf } from "~/services/platform/errors.server";
import { PASSWORD_RULES, resetPasswordSchema } from "~/lib/validation";
import { peekEmailToken, resetPassword } from "~/services/identity/verification.server";
import { readForm } from "~/route-support/form.server";

export const meta: MetaFunction = () => [{ title: i18nFor("pt").t("auth:meta.resetTitle") }, { name: "referrer", content: "no-referrer" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token")?.trim() ?? "";
  const valid = token ? (await peekEmailToken(token, "reset")) !== null : false;
  return { token: valid ? token : null };
}

export async function action({ request }: ActionFunctionArgs) {
  const parsed = resetPasswordSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) fieldErrors[String(issue.path[0] ?? "form")] ??= issue.message;
    return data({ error: parsed.error.issues[0]?.message ?? "Dados inválidos.", fieldErrors }, { status: 400 });
  }
  try {
    await resetPassword(parsed.data.token, parsed.data.password);
  } catch (err) {
    if (err instanceof DomainError) return data({ error: err.message, fieldErrors: {} as Record<string, string> }, { status: httpStatusOf(err) });
    throw err;
  }
  return redirect("/auth?reset=success");
}

/** The reset form (or the invalid-link notice). */
export default function ResetPasswordPage() {
  const { t } = useTranslation("auth");
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const rulesOk = PASSWORD_RULES.every((r) => r.test(password));
  const mismatch = confirm.length > 0 && confirm !== password;
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center gap-5 px-4 py-8">
      <div className="flex justify-center">
        <Logo className="text-xl" />
      </div>
      <div className="space-y-5 rounded-3xl border border-white/10 bg-slate-900/80 p-5 shadow-2xl shadow-black/40 sm:p-7">
        <h1 className="text-2xl font-bold text-white">{t("reset.title")}</h1>
        {!token ? (
          <>
            <Banner tone="error">{t("reset.invalid")}</Banner>
            <Link
              to="/auth?tab=forgot"
              className="inline-flex min-h-11 w-full items-center justify-center rounded-xl bg-emerald-500 px-4 py-2.5 text-sm font-semibold text-slate-950"
            >
              {t("reset.requestNew")}
            </Link>
          </>
        ) : (
          <Form method="post" className="space-y-4">
            <p className="text-sm text-slate-400">{t("reset.intro")}</p>
            {result?.error && <Banner tone="error">{result.error}</Banner>}
            <input type="hidden" name="token" value={token} />
            <PasswordInput id="reset-password" label={t("fields.newPassword")} value={password} onChange={setPassword} rules autoComplete="new-password" placeholder={t("fields.passwordMin")} error={result?.fieldErrors?.password} />
            <PasswordInput
              id="reset-confirm"
              name="confirm"
              label={t("fields.confirmPassword")}
              value={confirm}
              onChange={setConfirm}
              autoComplete="new-password"
              error={mismatch ? t("reset.mismatch") : result?.fieldErrors?.confirm}
            />
            <Button type="submit" className="w-full" loading={navigation.state !== "idle"} disabled={!rulesOk || confirm !== password}>
              {t("reset.submit")}
            </Button>
          </Form>
        )}
        <Link to="/auth" className="block text-center text-sm text-slate-400 hover:text-slate-100 hover:underline">
          {t("reset.back")}
        </Link>
      </div>
    </main>
  );
}
