/** /history — placeholder until its issue (requires login). */
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { ComingSoon } from "~/components/coming-soon";
import { requireAppUser } from "~/lib/pages.server";

export const meta: MetaFunction = () => [{ title: "Histórico de Trades — Forex IA" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAppUser(request);
  return {};
}

/** Placeholder page: the screen arrives in a later issue. */
export default function Page() {
  return <ComingSoon title="Histórico de Trades" subtitle="Todas as operações fechadas pela IA na sua conta." />;
}
