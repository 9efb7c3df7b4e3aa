/** GET /api/trades/account/history?days=30 → {trades} closed in the window, newest first (PRODUCT.md §7, §9); 402 without a valid licence (§6). */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { msg } from "../../core/i18n/message";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { requireValidLicence } from "~/services/identity/licence.server";
import { tradeHistory } from "~/services/trading/trades.server";
import { ValidationError } from "~/services/platform/errors.server";
import { historyDaysSchema as days } from "~/route-support/openapi/request-schemas";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const user = await requireApiUser(request);
    await requireValidLicence(user, msg("guard:licence.history"));
    const parsed = days.safeParse(new URL(request.url).searchParams.get("days") ?? undefined);
    if (!parsed.success) throw new ValidationError(msg("validation:days", { min: 1, max: 3650 }));
    return { success: true, days: parsed.data, trades: await tradeHistory(user.id, parsed.data) };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;
