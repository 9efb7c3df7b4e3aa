/**
 * POST /api/trades/ai/loop/run-once: runs one tick now (even with the loop off) on the broker's current
 * state (it reads the transactions first, never deferring the sync: ADR 0027) and returns its
 * decisions; messages and reasons in the user's language (ADR 0007), their messages alongside.
 * At most USER_ACTION_RATE_LIMIT a minute per user (429 past it, every process counting together).
 */
import type { ActionFunctionArgs } from "@remix-run/node";
import { isMsg, msg } from "../../core/i18n/message";
import { translateMsg } from "~/i18n";
import { forgetAccountState } from "~/services/broker/account-cache.server";
import { apiRoute } from "~/route-support/api.server";
import { requireApiUser } from "~/services/identity/auth.server";
import { localizeOutcome } from "~/services/trading/tick-outcome";
import { runTick } from "~/services/trading/tick-runner.server";
import { consumeUserAction } from "~/services/platform/user-rate-limit.server";
import { DomainError, UpstreamError } from "~/services/platform/errors.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiRoute(request, "POST", async () => {
    const user = await requireApiUser(request);
    await consumeUserAction(user.id, "bot.run-once");
    const language = user.preferences?.language;
    const outcome = await runTick(user.id, { force: true }).catch((err: unknown) => {
      if (err instanceof DomainError) throw err; // ours, e.g. the database busy (503)
      // A broker failure the tick let through (retryable): its own message, else a generic one.
      const m = err instanceof Error ? (err as { messageMsg?: unknown }).messageMsg : undefined;
      if (isMsg(m)) throw new UpstreamError(m);
      throw new UpstreamError(err instanceof Error && "messagePt" in err ? String((err as { messagePt: string }).messagePt) : msg("bot:errors.runFailed"));
    });
    forgetAccountState(user.id); // a tick may have opened or closed trades: the screens read fresh
    const localized = localizeOutcome(outcome, language);
    if (localized.status === "skipped") return { success: false, message: localized.reason };
    return { success: true, message: translateMsg(msg("bot:ranOnce"), language), ...localized };
  });

/** Every other method reaches the same handler, which answers 405 with `Allow` (never Remix's 500). */
export const loader = action;
