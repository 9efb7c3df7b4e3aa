/**
 * GET /history.csv?<same filters as /history> — the filtered history as a CSV download
 * (PRODUCT.md §2 History 'Exportar CSV'). Format chosen for Excel pt-BR (see `historyCsv`): UTF-8
 * with BOM, `;` delimiter, decimal comma; file historico-trades-YYYY-MM-DD.csv. A bad filter → 400
 * with the filter's message, a licence missing → 403, both in the user's language; logged out → /auth.
 * The file itself (headers, COMPRA/VENDA, dates) stays Portuguese for every language.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { i18nFor, translateMsg } from "~/i18n";
import { csvFileName, historyCsv } from "~/lib/history";
import { loadHistory } from "~/route-support/history.server";
import { requireAppUser } from "~/route-support/pages.server";
import { publicUser } from "~/services/identity/auth.server";

function text(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/** Streams the CSV of the filtered history. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAppUser(request);
  const language = user.preferences?.language;
  const pub = await publicUser(user);
  if (!pub.hasValidLicense) return text(403, i18nFor(language).t("history:csvLicence"));
  const data = await loadHistory(user, new URL(request.url));
  if (data.filterError) return text(400, translateMsg(data.filterError, language));
  return new Response(historyCsv(data.rows, data.timezone), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${csvFileName(Date.now(), data.timezone)}"`,
      "Cache-Control": "no-store",
    },
  });
}
