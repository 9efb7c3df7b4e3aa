/**
 * The one-tap actions of a push (issue 11, ADR 0016; issue 22 kill switch): POST /api/push/action with
 * a signed single-use token, no session. Lives in trading (it runs the kill switch); notify only signs
 * the tokens (notify/push/push.server.ts `pushActionKey`).
 */
import { z } from "zod";
import { msg } from "../../../core/i18n/message";
import { zMsg } from "../../../core/i18n/zod-message";
import { consumeActionToken, purgeExpiredActionTokens } from "../../../db/queries/push-action-tokens-used";
import { liveUserPreferences } from "../../../db/queries/users";
import { PUSH_ACTIONS } from "~/lib/push";
import { db } from "../platform/db.server";
import { ConflictError, ForbiddenError, UnauthorizedError, ValidationError } from "../platform/errors.server";
import { logger } from "../platform/logger.server";
import { verifyActionToken } from "../notify/push/action-token";
import { pushActionKey } from "../notify/push/push.server";
import { runKillSwitch } from "./kill-switch.server";

/** Body of POST /api/push/action. */
export const pushActionSchema = z.object({
  token: z.string({ error: zMsg("push:token.invalid") }).min(1, zMsg("push:token.invalid")).max(1000, zMsg("push:token.invalid")),
  action: z.enum(PUSH_ACTIONS, { error: zMsg("push:token.wrongAction") }),
});

/**
 * Runs a one-tap action from a push, with no session: the token must be genuine, unexpired, for this
 * very action, of a user who still exists, and unused (consumed atomically before acting). Then the
 * kill switch's level of the same name runs (issue 22, kill-switch.server.ts): "stop_entries" keeps
 * the AI on managing only, "pause" stops the loop (reason manual), "close_all" stops the loop FIRST
 * and then closes the user's open trades; its audit notification (source push) is the confirmation
 * (and so a push follows).
 * @throws UnauthorizedError forged/malformed or expired token; ForbiddenError wrong action;
 *   ConflictError already used; the action's own errors (broker not connected, broker failure)
 */
export async function runPushAction(input: unknown, language: unknown): Promise<{ success: true; message: string }> {
  const parsed = pushActionSchema.safeParse(input);
  if (!parsed.success) throw new ValidationError(msg(parsed.error.issues[0]?.path[0] === "action" ? "push:token.wrongAction" : "push:token.invalid"));
  const { token, action } = parsed.data;
  const verdict = verifyActionToken(pushActionKey(), token, action, Date.now());
  if (!verdict.ok) {
    if (verdict.reason === "expired") throw new UnauthorizedError(msg("push:token.expired"));
    if (verdict.reason === "wrongAction") throw new ForbiddenError(msg("push:token.wrongAction"));
    throw new UnauthorizedError(msg("push:token.invalid"));
  }
  const { sub: userId, jti, exp } = verdict.claims;
  const sql = db();
  const user = await liveUserPreferences(sql, userId);
  if (!user) throw new UnauthorizedError(msg("push:token.invalid"));
  const lang = user.preferences?.language ?? language;
  if (!(await consumeActionToken(sql, jti, userId, action, exp))) throw new ConflictError(msg("push:token.used"));
  await purgeExpiredActionTokens(sql);
  const result = await runKillSwitch(userId, action, "push", lang);
  logger().info({ userId, action }, "ação de push executada");
  return { success: true, message: result.message };
}
