/** /admin — the admin dashboard (PRODUCT.md §2 Admin panel "Dashboard"; issue 10). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import { requireAdminPage } from "~/services/admin/access.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  return {};
}

/** The dashboard's figures arrive with their helper; until then the section title. */
export default function AdminDashboard() {
  const { t } = useTranslation("admin");
  return <h1 className="text-2xl font-bold text-white">{t("nav.dashboard")}</h1>;
}
