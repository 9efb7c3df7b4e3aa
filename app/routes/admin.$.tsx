/** /admin/* paths that are not a section: back to the admin dashboard (the layout has checked the role). */
import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireAdminPage } from "~/services/admin/access.server";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdminPage(request);
  throw redirect("/admin");
}

export const action = loader;
