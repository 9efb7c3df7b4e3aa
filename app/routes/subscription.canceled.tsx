/**
 * /subscription/canceled — where Stripe Checkout returns when the user gives up (PRODUCT.md §2;
 * issue 9): 'Pagamento cancelado', nothing was charged, Voltar (to /) and a way back to the plans.
 * Requires login.
 */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { MODAL_PARAM } from "~/components/billing/billing-view";
import { RESULT_PRIMARY, RESULT_SECONDARY, ResultPage } from "~/components/billing/result-page";
import { XIcon } from "~/components/icons";
import { metaTitle } from "~/lib/hooks";
import { requireAppUser } from "~/route-support/pages.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "billing", "canceled.meta");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAppUser(request);
  return null;
}

/** The cancelled-payment page. */
export default function SubscriptionCanceledPage() {
  const { t } = useTranslation("billing");
  return (
    <ResultPage
      icon={<XIcon size={28} />}
      tone="amber"
      title={t("canceled.title")}
      testId="subscription-canceled"
      actions={
        <>
          <Link to="/" className={RESULT_PRIMARY} data-testid="subscription-back">
            {t("canceled.back")}
          </Link>
          <Link to={`/billing?${MODAL_PARAM}=1`} className={RESULT_SECONDARY}>
            {t("canceled.plans")}
          </Link>
        </>
      }
    >
      <p className="text-slate-300">{t("canceled.text")}</p>
    </ResultPage>
  );
}
