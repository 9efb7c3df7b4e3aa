/**
 * GET /api/trades/ai/preflight → the pre-flight check before ATIVAR IA (issue 12, core/risk/preflight.ts)
 * for the caller's saved settings and connected account: worst-case loss per trade and per day and
 * the margin needed (account currency, decimal strings), per instrument and overall, with warnings
 * (`message` in the user's language, `messageMsg` the translatable message: ADR 0007) and
 * `needsConfirmation`. 400 in Portuguese without a broker connection; 401 without a session.
 */
import type { LoaderFunctionArgs } from "@remix-run/node";
import { needsConfirmation } from "../../core/risk/preflight";
import { translateMsg } from "~/i18n";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { userPreflight } from "~/services/trading/preflight.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiRoute(request, "GET", async () => {
    const user = await requireApiUser(request);
    const result = await userPreflight(user.id);
    const language = user.preferences?.language;
    return {
      success: true,
      ...result,
      needsConfirmation: needsConfirmation(result),
      warnings: result.warnings.map((w) => ({ code: w.code, ...(w.instrument ? { instrument: w.instrument } : {}), message: translateMsg(w.message, language), messageMsg: w.message })),
    };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const action = loader;
