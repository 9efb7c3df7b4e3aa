/**
 * Starting the AI loop and its re-arm after a max-drawdown stop (PRODUCT.md §7 AI, issue 21). The
 * stop is bot-stop.server.ts, the status bot-status.server.ts, the ticks tick-runner.server.ts.
 */
import { msg } from "../../../core/i18n/message";
import { startRequest } from "../../../core/risk/drawdown";
import { translateMsg } from "~/i18n";
import { getConnection } from "../broker/broker.server";
import { db } from "../platform/db.server";
import { ConflictError, PaymentRequiredError, ValidationError } from "../platform/errors.server";
import { logger } from "../platform/logger.server";
import { makeTickDue } from "./tick-due.server";
import { DEFAULT_INTERVAL_SEC } from "./bot-status.server";
import { drawdownState, rearmRequired as rearmRequiredRow, startBotRow } from "../../../db/queries/bots";
import { tickContext } from "./tick-context.server";

/** Whether the user's licence is valid now (the tick context's rule). */
async function licenceValid(userId: string): Promise<boolean> {
  return (await tickContext(userId)).valid;
}

/**
 * Activates the loop; the answer's message is in `language`. @throws PaymentRequiredError (402, not 403: §8 logs
 * the user out on 403) without a licence ('Licença necessária para ativar a IA.'), 400 without a
 * broker connection ('Nenhuma conta Oanda conectada.'), ConflictError (409) while a max-drawdown stop
 * waits for the re-arm and `opts.rearm` is not set (issue 21, core/risk/drawdown.ts). With
 * `opts.rearm` the re-arm resets the high-water mark (the next tick sets it to the NAV it reads) and
 * clears the drawdown stop, in the statement that starts the loop.
 */
export async function startBot(userId: string, intervalSec = DEFAULT_INTERVAL_SEC, language: unknown = "pt", opts: { rearm?: boolean } = {}) {
  if (!Number.isInteger(intervalSec) || intervalSec < 5 || intervalSec > 3600) throw new ValidationError(msg("bot:errors.interval"));
  if (!(await licenceValid(userId))) throw new PaymentRequiredError(msg("bot:errors.licenceRequired"));
  if (!(await getConnection(userId))) throw new ValidationError(msg("bot:errors.noBroker"));
  const state = await drawdownState(db(), userId);
  const refusal = () => new ConflictError(msg("bot:errors.drawdownRearm", { drawdown: state?.drawdown_stop?.drawdownPct ?? "0" }));
  const request = startRequest(state?.drawdown_stop != null, opts.rearm === true);
  if (request === "refuse") throw refusal();
  const rearm = request === "rearm";
  // A stop the tick records between the read above and this statement is not overridden by a plain start.
  const started = await startBotRow(db(), userId, intervalSec, rearm);
  if (!started) throw refusal();
  if (rearm) logger().info({ userId, highWaterMark: state?.peak_balance ?? null }, "IA reativada após drawdown máximo: máxima zerada");
  await makeTickDue(userId);
  return { success: true, message: translateMsg(msg("bot:started"), language), isActive: true };
}

/** True while a max-drawdown stop waits for the user's re-arm (issue 21): a plain start is refused. */
export async function rearmRequired(userId: string): Promise<boolean> {
  return rearmRequiredRow(db(), userId);
}
