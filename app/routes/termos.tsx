/**
 * /termos — Terms of Use, public (PRODUCT.md §2: linked from the subscription modal). The key points
 * first (risk of loss, no guarantee from past results, the user keeps control of the broker account,
 * not a broker or adviser, LGPD), then the full text: the `terms` catalog, the very document accepted
 * at registration (/auth/contract), with its version. pt/en/es through the catalogs.
 */
import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LegalPage, LegalSections, type LegalSection } from "~/components/legal/legal-page";
import { metaTitle } from "~/lib/hooks";
import { operatorIdentity } from "~/services/platform/operator.server";
import { TERMS_VERSION } from "~/lib/validation";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "legal", "terms.metaTitle");

/** The operator's identity for the page footer. */
export const loader = async () => ({ operator: await operatorIdentity() });

/** The terms page. */
export default function TermsPage() {
  const { operator } = useLoaderData<typeof loader>();
  const { t } = useTranslation("legal");
  const { t: tt } = useTranslation("terms");
  const keyPoints = t("terms.keyPoints", { returnObjects: true }) as string[];
  const sections = tt("sections", { returnObjects: true }) as LegalSection[];
  return (
    <LegalPage title={t("terms.title")} current="terms" operator={operator}>
      <p className="mb-5">{t("terms.intro")}</p>
      <section aria-labelledby="termos-essencial" className="mb-8 rounded-xl border border-amber-400/30 bg-amber-400/5 p-4 sm:p-5" data-testid="terms-key-points">
        <h2 id="termos-essencial" className="mb-3 text-lg font-semibold text-amber-200">
          {t("terms.keyPointsTitle")}
        </h2>
        <ul className="list-disc space-y-2 pl-5">
          {keyPoints.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      </section>
      <h2 className="text-lg font-semibold text-white">{t("terms.fullTitle")}</h2>
      <p className="mb-5 text-sm text-slate-400">
        {tt("updated")} · {t("terms.version", { version: TERMS_VERSION })}
      </p>
      <LegalSections sections={sections} testId="terms-sections" />
    </LegalPage>
  );
}
