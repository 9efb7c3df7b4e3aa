/** /notifications — placeholder until its issue (requires login). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ComingSoon } from "~/components/coming-soon";
import { requireAppUser } from "~/lib/pages.server";

export const meta: MetaFunction = () => [{ title: "Central de Notificações — Forex IA" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAppUser(request);
  return {};
}

/** Placeholder page: the screen arrives in a later issue. */
export default function Page() {
  return <ComingSoon title="Central de Notificações" subtitle="Alertas de trades, decisões da IA e do sistema." />;
}
