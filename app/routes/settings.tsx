/** /settings — placeholder until its issue (requires login). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ComingSoon } from "~/components/coming-soon";
import { requireAppUser } from "~/lib/pages.server";

export const meta: MetaFunction = () => [{ title: "Configurações Avançadas — Forex IA" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAppUser(request);
  return {};
}

/** Placeholder page: the screen arrives in a later issue. */
export default function Page() {
  return <ComingSoon title="Configurações Avançadas" subtitle="Gestão de risco, parâmetros de trading e IA." />;
}
