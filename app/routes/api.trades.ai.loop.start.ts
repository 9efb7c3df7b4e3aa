/**
 * POST /api/trades/ai/loop/start {intervalSec (default 60), rearm?} → {success, message, isActive}; messages
 * and errors in the user's language (ADR 0007). While a max-drawdown stop waits for the re-arm (issue 21,
 * `rearmRequired` in the status) a plain start answers 409; `{"rearm": true}` confirms the re-arm: the
 * high-water mark is reset to the current NAV and the AI starts.
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { msg } from "../../core/i18n/message";
import { apiRoute, readBody } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { startBot } from "~/services/trading/bot-control.server";
import { ValidationError } from "~/services/platform/errors.server";
// Errors are `bot` message keys, turned into messages below.
import { loopStartSchema as body } from "~/route-support/openapi/request-schemas";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    const parsed = body.safeParse(await readBody(request, z.unknown()));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const text = issue?.message ?? "Dados inválidos.";
      throw new ValidationError(text.startsWith("bot:") ? msg(text) : text, { field: issue?.path.join(".") });
    }
    return startBot(user.id, parsed.data.intervalSec, user.preferences?.language, { rearm: parsed.data.rearm === true });
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
