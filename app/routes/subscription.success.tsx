/**
 * /subscription/success?session_id=… — where Stripe Checkout returns after paying (PRODUCT.md §2,
 * §4 "Subscription success page", §5, §8; issue 9). Requires login. The loader validates the session
 * on the server (`validateCheckoutSession`: it must be the user's; the licence is synced from
 * Stripe) and sends a valid one straight to /dashboard, so it works without JavaScript. Otherwise:
 * 'Falha ao validar' / 'Não foi possível validar sua assinatura.' (or 'Sessão inválida.' without a
 * session id) with Voltar (to /) and a retry, which shows 'Validando…' while it runs.
 */
import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useLocation, useNavigation, useRevalidator } from "@remix-run/react";
import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { checkoutSessionId } from "~/components/billing/billing-view";
import { RESULT_PRIMARY, RESULT_SECONDARY, ResultPage } from "~/components/billing/result-page";
import { AlertIcon } from "~/components/icons";
import { Spinner } from "~/components/ui";
import { metaTitle } from "~/lib/hooks";
import { requireAppUser } from "~/route-support/pages.server";
import { validateCheckoutSession } from "~/services/billing/billing.server";
import { DomainError } from "~/services/platform/errors.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "billing", "success.meta");

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAppUser(request);
  const sessionId = checkoutSessionId(new URL(request.url).searchParams.get("session_id"));
  if (!sessionId) return { state: "invalid" as const, detail: null };
  let detail: string | null = null;
  try {
    const { valid } = await validateCheckoutSession(user, sessionId);
    if (valid) return redirect("/dashboard");
  } catch (err) {
    if (err instanceof DomainError) detail = err.messageIn(user.preferences?.language);
    else console.error("[subscription] falha ao validar o checkout:", err);
  }
  return { state: "failed" as const, detail };
}

/** The validation result (a valid session never renders: it redirects). */
export default function SubscriptionSuccessPage() {
  const { state, detail } = useLoaderData<typeof loader>();
  const { t } = useTranslation("billing");
  const { revalidate, state: revalidation } = useRevalidator();
  const navigation = useNavigation();
  const { pathname, search } = useLocation();
  const validating = revalidation === "loading" || (navigation.state === "loading" && navigation.location.pathname === pathname);

  function retry(e: MouseEvent) {
    e.preventDefault();
    revalidate();
  }

  if (validating)
    return (
      <ResultPage icon={<Spinner className="h-7 w-7" />} tone="green" title={t("success.validating")} testId="subscription-validating">
        <p role="status" className="text-slate-300">
          {t("success.validatingText")}
        </p>
      </ResultPage>
    );

  return (
    <ResultPage
      icon={<AlertIcon size={28} />}
      tone="red"
      title={t("success.failedTitle")}
      testId="subscription-failed"
      actions={
        <>
          <Link to="/" className={RESULT_PRIMARY} data-testid="subscription-back">
            {t("success.back")}
          </Link>
          {state === "failed" && (
            <a href={`${pathname}${search}`} onClick={retry} className={RESULT_SECONDARY}>
              {t("success.retry")}
            </a>
          )}
        </>
      }
    >
      <p role="alert" className="text-slate-300" data-testid="subscription-failed-message">
        {state === "invalid" ? t("success.invalidSession") : t("success.failedText")}
      </p>
      {detail && <p className="text-sm text-slate-400">{detail}</p>}
    </ResultPage>
  );
}
