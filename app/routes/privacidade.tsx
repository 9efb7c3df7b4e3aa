/**
 * /privacidade — Privacy Policy, public (PRODUCT.md §2: linked from the subscription modal): what
 * data the product handles, why and on which LGPD basis, with whom it is shared, cookies, retention,
 * security, the holder's rights and the DPO. The controller's and DPO's details are the configured
 * operator's (app/services/platform/operator.server.ts; marked placeholders outside production when unset).
 * pt/en/es through the catalogs.
 */
import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LegalPage, LegalSections, useLegalEntity, type LegalSection } from "~/components/legal/legal-page";
import { metaTitle } from "~/lib/hooks";
import { operatorIdentity } from "~/services/platform/operator.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "legal", "privacy.metaTitle");

/** The operator's identity for the page. */
export const loader = async () => ({ operator: await operatorIdentity() });

/** The privacy page. */
export default function PrivacyPage() {
  const { t } = useTranslation("legal");
  const { operator } = useLoaderData<typeof loader>();
  const entity = useLegalEntity(operator);
  const sections = t("privacy.sections", { returnObjects: true, ...entity }) as LegalSection[];
  return (
    <LegalPage title={t("privacy.title")} current="privacy" operator={operator}>
      <p className="mb-2 text-sm text-slate-400">{t("privacy.updated")}</p>
      <p className="mb-6">{t("privacy.intro")}</p>
      <LegalSections sections={sections} testId="privacy-sections" />
    </LegalPage>
  );
}
