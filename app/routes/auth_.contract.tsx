/**
 * /auth/contract?email=… — the terms step of registration (PRODUCT.md §2 Terms screen, §4, §5).
 * Which registration it completes comes from the signed, httpOnly, 60-minute `__registration` cookie
 * set by the register action — never from the bare `email` query, which is only displayed (and must
 * match the cookie, else the page redirects to the cookie's own URL). Accepting records
 * terms_accepted_at and terms_version (TERMS_VERSION) and queues the verification e-mail, then goes
 * to /auth/done. The scroll gate (within 50 px of the bottom) runs in the browser; without JavaScript
 * it cannot run, so the checkbox starts enabled and the server still requires `accept=on`.
 * The document (ten sections) is the `terms` catalog, in the page's language like every other string.
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useHydrated } from "~/components/auth/use-hydrated";
import { Logo } from "~/components/layout";
import { Banner, Button } from "~/components/ui";
import { metaTitle } from "~/lib/hooks";
import { acceptTerms, pendingRegistration, userById } from "~/services/identity/auth.server";
import { TERMS_VERSION, termsSchema } from "~/lib/validation";
import { sendVerificationEmail } from "~/services/identity/verification.server";
import { readForm } from "~/route-support/form.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "auth", "meta.contractTitle");

/** Scroll tolerance (PRODUCT.md §9). */
export const SCROLL_TOLERANCE_PX = 50;

export async function loader({ request }: LoaderFunctionArgs) {
  const reg = await pendingRegistration(request);
  if (!reg) throw redirect("/auth?tab=register");
  const user = await userById(reg.userId);
  if (!user) throw redirect("/auth?tab=register");
  if (user.terms_accepted_at) throw redirect(`/auth/done?email=${encodeURIComponent(user.email)}`);
  const q = new URL(request.url).searchParams.get("email");
  if (q !== user.email) throw redirect(`/auth/contract?email=${encodeURIComponent(user.email)}`);
  return { email: user.email, version: TERMS_VERSION };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request);
  const reg = await pendingRegistration(request);
  const user = reg ? await userById(reg.userId) : null;
  if (!user) return data({ error: "contract.expired" }, { status: 400 });
  const parsed = termsSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) return data({ error: "contract.mustAccept" }, { status: 400 });
  if (!user.terms_accepted_at) {
    await acceptTerms(user.id, TERMS_VERSION);
    if (!user.email_verified_at) await sendVerificationEmail(user); // EMAIL_VERIFICATION=off: created verified
  }
  return redirect(`/auth/done?email=${encodeURIComponent(user.email)}`);
}

/** The terms document, the scroll gate, the acceptance checkbox and 'Completar Cadastro'. */
export default function ContractPage() {
  const { t } = useTranslation("auth");
  const { email, version } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const docRef = useRef<HTMLDivElement>(null);
  const [scrolled, setScrolled] = useState(false);
  const [accepted, setAccepted] = useState(false);
  const { t: tt } = useTranslation("terms");
  const sections = tt("sections", { returnObjects: true }) as { title: string; body: string[] }[];

  const check = useCallback(() => {
    const el = docRef.current;
    if (el && el.scrollHeight - el.scrollTop - el.clientHeight <= SCROLL_TOLERANCE_PX) setScrolled(true); // one-way
  }, []);
  useEffect(() => {
    if (hydrated) check();
  }, [hydrated, check]);

  // Without JavaScript the gate cannot run: everything stays enabled and the server checks `accept`.
  const gate = hydrated && !scrolled;
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-3xl flex-col gap-5 px-4 py-8">
      <div className="flex justify-center">
        <Logo className="text-xl" />
      </div>
      <header className="text-center">
        <h1 className="text-2xl font-bold text-white sm:text-3xl">{t("contract.title")}</h1>
        <p className="mt-2 text-slate-300">{t("contract.subtitle")}</p>
        <p className="mt-1 text-sm text-slate-400">
          {t("contract.for", { email })} · {t("contract.version", { version })}
        </p>
      </header>
      {actionData?.error && <Banner tone="error">{t(actionData.error)}</Banner>}
      <div
        ref={docRef}
        onScroll={check}
        tabIndex={0}
        role="region"
        aria-label={t("contract.documentLabel")}
        data-testid="terms-document"
        className="max-h-[55dvh] overflow-y-auto rounded-2xl border border-white/10 bg-slate-900/80 p-5 text-sm leading-relaxed text-slate-300 sm:p-7"
      >
        <h2 className="text-lg font-semibold text-white">{tt("heading")}</h2>
        <p className="mb-4 text-xs text-slate-500">{tt("updated")}</p>
        <ol className="space-y-5">
          {sections.map((s) => (
            <li key={s.title}>
              <h3 className="mb-2 font-semibold text-emerald-300">{s.title}</h3>
              {s.body.map((p) => (
                <p key={p} className="mb-2">
                  {p}
                </p>
              ))}
            </li>
          ))}
        </ol>
      </div>
      {gate && (
        <p role="status" className="text-center text-sm text-amber-300">
          {t("contract.scrollNotice")}
        </p>
      )}
      <Form method="post" className="space-y-4">
        <label className="flex items-start gap-3 text-sm text-slate-200">
          <input
            type="checkbox"
            name="accept"
            checked={accepted}
            onChange={(e) => setAccepted(e.target.checked)}
            disabled={gate}
            required
            className="mt-0.5 h-5 w-5 shrink-0 rounded border-white/20 bg-slate-950 accent-emerald-500"
          />
          <span>{t("contract.accept")}</span>
        </label>
        <Button type="submit" className="w-full" disabled={hydrated && (!scrolled || !accepted)} loading={navigation.state !== "idle"}>
          {t("contract.submit")}
        </Button>
        <p className="text-center text-sm">
          <Link to="/auth" className="text-slate-400 hover:text-slate-100 hover:underline">
            {t("contract.back")}
          </Link>
        </p>
      </Form>
    </main>
  );
}
