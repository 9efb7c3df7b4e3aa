/**
 * Per-user rate limits on costly on-demand actions (issue 8 item 10): a test notification (a row and
 * a push per call), a forced bot tick (several broker calls and an AI decision per call) and a broker
 * token test (issue 24: one or more OANDA calls per call; a flood of them slowed another user's broker
 * call 21×, since the process's OANDA rate limiter is shared). Counted
 * in PostgreSQL (`user_rate_limits`) so every process shares one count: a fixed window of
 * `USER_ACTION_WINDOW_SECONDS`, at most `config().USER_ACTION_RATE_LIMIT` calls in it (default 10 a
 * minute), counted and checked in one atomic upsert before the action runs.
 */
import { msg } from "../../../core/i18n/message";
import { countUserAction } from "../../../db/queries/user-rate-limits";
import { config } from "./config.server";
import { db } from "./db.server";
import { RateLimitedError } from "./errors.server";

/** Length of a window, seconds. */
export const USER_ACTION_WINDOW_SECONDS = 60;

/** The limited actions (the `action` column). */
export type LimitedUserAction = "notifications.test" | "bot.run-once" | "oanda.test-token";

/**
 * Counts one call of `action` by `userId` and refuses it past the limit.
 * @param limit calls per window (default: config USER_ACTION_RATE_LIMIT)
 * @throws RateLimitedError (429, `extra.retryAfter` = seconds until the window ends) with 'Muitas requisições…'.
 */
export async function consumeUserAction(userId: string, action: LimitedUserAction, limit: number = config().USER_ACTION_RATE_LIMIT): Promise<void> {
  const row = await countUserAction(db(), userId, action, USER_ACTION_WINDOW_SECONDS);
  if (row && row.hits > limit) {
    const seconds = Math.max(1, Math.ceil(row.left));
    throw new RateLimitedError(msg("guard:tooManyRequests", { seconds }), { retryAfter: seconds });
  }
}
