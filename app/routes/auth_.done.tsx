/**
 * /auth/done — 'Cadastro Realizado!' (PRODUCT.md §2 Registration-success screen, §9): the e-mail masked,
 * three steps, a 600 s mm:ss countdown (hidden at zero; reset on a successful resend), 'Abrir Email'
 * (webmail inbox or mailto:), resend with a 60 s cooldown (also enforced by the server), tips, a
 * security note and 'Voltar para Login'. The e-mail comes from the signed registration cookie; the
 * query is a display fallback only (resend answers the same whether or not the e-mail exists).
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatMsg, type Msg } from "../../core/i18n/message";
import { inboxUrl, maskEmail, mmss } from "~/components/auth/email-utils";
import { Logo } from "~/components/layout";
import { Banner, Button } from "~/components/ui";
import { metaTitle } from "~/lib/hooks";
import { DomainError, httpStatusOf } from "~/services/platform/errors.server";
import { pendingRegistration } from "~/services/identity/auth.server";
import { emailField } from "~/lib/validation";
import { clientIp, requestVerificationResend } from "~/services/identity/verification.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "auth", "meta.doneTitle");

/** Link-expiry countdown and resend cooldown (PRODUCT.md §9). */
export const COUNTDOWN_SECONDS = 600;
export const RESEND_COOLDOWN_SECONDS = 60;

/** The registration's e-mail: the signed cookie first, else the (display-only) query. */
async function emailOf(request: Request): Promise<string | null> {
  const reg = await pendingRegistration(request);
  if (reg) return reg.email;
  const q = emailField.safeParse(new URL(request.url).searchParams.get("email") ?? "");
  return q.success ? q.data : null;
}

/** The shared e-mail rule's own message (one source with the API's validation). */
function invalidEmailMessage(): Msg | string {
  const r = emailField.safeParse("");
  return r.success ? "" : r.error.issues[0]!.message;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const email = await emailOf(request);
  return { masked: email ? maskEmail(email) : null, inbox: email ? inboxUrl(email) : null };
}

export async function action({ request }: ActionFunctionArgs) {
  const email = await emailOf(request);
  const at = Date.now();
  // Errors travel as messages (ADR 0007) and are rendered in the page's language.
  if (!email) return data({ ok: false as const, error: invalidEmailMessage(), at }, { status: 400 });
  try {
    await requestVerificationResend(email, clientIp(request));
    return { ok: true as const, at };
  } catch (err) {
    if (err instanceof DomainError) return data({ ok: false as const, error: err.msg, at }, { status: httpStatusOf(err) });
    throw err;
  }
}

/** The registration-success screen. */
export default function DonePage() {
  const { t } = useTranslation("auth");
  const { masked, inbox } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [deadline, setDeadline] = useState<number | null>(null);
  const [cooldownUntil, setCooldownUntil] = useState(0);
  const [now, setNow] = useState<number | null>(null);

  useEffect(() => {
    const start = Date.now();
    setNow(start);
    setDeadline(start + COUNTDOWN_SECONDS * 1000);
    const id = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(id);
  }, []);
  // A successful resend restarts the countdown and starts the cooldown.
  useEffect(() => {
    if (!result) return;
    const t0 = Date.now();
    setCooldownUntil(t0 + RESEND_COOLDOWN_SECONDS * 1000);
    if (result.ok) setDeadline(t0 + COUNTDOWN_SECONDS * 1000);
    setNow(t0);
  }, [result]);

  const left = deadline !== null && now !== null ? Math.max(0, Math.ceil((deadline - now) / 1000)) : COUNTDOWN_SECONDS;
  const cooldown = now !== null ? Math.max(0, Math.ceil((cooldownUntil - now) / 1000)) : 0;
  const steps = [t("done.step1"), t("done.step2"), t("done.step3")];

  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-lg flex-col justify-center gap-5 px-4 py-8">
      <div className="flex justify-center">
        <Logo className="text-xl" />
      </div>
      <div className="space-y-5 rounded-3xl border border-white/10 bg-slate-900/80 p-5 text-center shadow-2xl shadow-black/40 sm:p-7">
        <h1 className="text-2xl font-bold text-white">{t("done.title")}</h1>
        {masked && (
          <p className="text-slate-300">
            {t("done.subtitle")} <strong data-testid="masked-email" className="text-emerald-300">{masked}</strong>
          </p>
        )}
        <ol className="space-y-2 text-left text-sm text-slate-200" aria-label={t("done.stepsTitle")}>
          {steps.map((s, i) => (
            <li key={s} className="flex items-center gap-3 rounded-xl bg-white/5 px-3 py-2">
              <span className="grid h-7 w-7 shrink-0 place-items-center rounded-full bg-emerald-500/15 font-semibold text-emerald-300">{i + 1}</span>
              {s}
            </li>
          ))}
        </ol>
        {left > 0 && (
          <p data-testid="countdown" className="text-sm text-slate-300">
            {t("done.countdown", { time: mmss(left) })}
          </p>
        )}
        {result && (
          <Banner tone={result.ok ? "success" : "error"}>{result.ok ? t("done.resent") : formatMsg((key, options) => t(key, options), result.error)}</Banner>
        )}
        {inbox && (
          <a
            href={inbox}
            target={inbox.startsWith("mailto:") ? undefined : "_blank"}
            rel="noopener noreferrer"
            className="inline-flex min-h-11 w-full items-center justify-center rounded-xl bg-emerald-500 px-4 py-2.5 text-sm font-semibold text-slate-950 hover:bg-emerald-400"
          >
            {t("done.openEmail")}
          </a>
        )}
        <Form method="post">
          <Button type="submit" variant="secondary" className="w-full" disabled={cooldown > 0 || !masked} loading={navigation.state !== "idle"}>
            {cooldown > 0 ? t("done.resendIn", { seconds: cooldown }) : t("done.resend")}
          </Button>
        </Form>
        <div className="rounded-xl bg-white/5 p-4 text-left text-sm text-slate-300">
          <p className="mb-1 font-semibold text-slate-100">{t("done.tipsTitle")}</p>
          <ul className="list-disc space-y-1 pl-5">
            <li>{t("done.tipSpam")}</li>
            <li>{t("done.tipDelay")}</li>
          </ul>
        </div>
        <p className="text-xs text-slate-400">{t("done.security")}</p>
        <Link
          to="/auth"
          className="inline-flex min-h-11 w-full items-center justify-center rounded-xl bg-white/10 px-4 py-2.5 text-sm font-semibold text-slate-100 hover:bg-white/15"
        >
          {t("done.back")}
        </Link>
      </div>
    </main>
  );
}
