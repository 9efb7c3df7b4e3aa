/** /billing — placeholder until its issue (requires login). The hero's ASSINAR button leads here for now. */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { ComingSoon } from "~/components/coming-soon";
import { metaTitle } from "~/lib/hooks";
import { requireAppUser } from "~/lib/pages.server";

export const meta: MetaFunction = ({ matches }) => metaTitle(matches, "common", "billing.meta");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAppUser(request);
  return {};
}

/** Placeholder page: the screen arrives in a later issue. */
export default function Page() {
  const { t } = useTranslation("common");
  return <ComingSoon title={t("billing.title")} subtitle={t("billing.subtitle")} />;
}
